//! The layout every tool's `--help` keeps, so that it reads right in an 80-column terminal.
//!
//! clap wraps option descriptions itself, with a hanging indent, but the text after the options (examples,
//! notes, the exit codes) only line by line, each continuation starting at column 0: an example's comment
//! wrapped that way reads as a command of its own, and a paragraph breaks raggedly. So that text is written
//! already wrapped at [`WIDTH`], and examples follow one convention: a comment on its own line, starting
//! with `#`, above the command it explains; a command too long for a line is continued after a `\`.

/// The terminal width the help text is laid out for.
pub const WIDTH: usize = 80;

/// Programs an example may start with besides the tool itself: `curl` for the web app's API.
const OTHER_PROGRAMS: [&str; 1] = ["curl"];

/// What breaks the layout in the help of `cmd` and of each of its subcommands, one line a fault naming the
/// command (none: the help keeps the layout). Checked by each tool's tests.
pub fn faults(cmd: &clap::Command) -> Vec<String> {
    let mut cmd = cmd.clone().term_width(WIDTH);
    cmd.build();
    let root = cmd.get_name().to_string();
    let mut found = Vec::new();
    walk(&mut cmd, &root, &root, &mut found);
    found
}

fn walk(cmd: &mut clap::Command, path: &str, root: &str, found: &mut Vec<String>) {
    let texts = [cmd.get_before_help(), cmd.get_before_long_help(), cmd.get_after_help(), cmd.get_after_long_help()];
    for text in texts.into_iter().flatten() {
        found.extend(text_faults(&text.to_string(), root).into_iter().map(|f| format!("{path}: {f}")));
    }
    for line in cmd.render_long_help().to_string().lines() {
        if line.chars().count() > WIDTH {
            found.push(format!("{path}: --help renders a line over {WIDTH} columns: {line}"));
        }
    }
    for sub in cmd.get_subcommands_mut().filter(|s| s.get_name() != "help") {
        let path = format!("{path} {}", sub.get_name());
        walk(sub, &path, root, found);
    }
}

/// The faults of one text written after (or before) a command's options: lines over [`WIDTH`], and lines
/// of an `Examples:` block (up to the first blank line) that are neither a `#` comment above a command nor
/// a command of `root` (or of `OTHER_PROGRAMS`, or a pipe into `root`) nor the continuation of one.
pub fn text_faults(text: &str, root: &str) -> Vec<String> {
    let mut found: Vec<String> = text
        .lines()
        .filter(|l| l.chars().count() > WIDTH)
        .map(|l| format!("a line over {WIDTH} columns, which clap breaks without an indent: {l}"))
        .collect();
    let mut in_examples = false;
    let mut continued = false;
    let mut comment_pending = false;
    for line in text.lines() {
        if line == "Examples:" {
            in_examples = true;
            continue;
        }
        if !in_examples {
            continue;
        }
        if line.trim().is_empty() {
            in_examples = false;
            continue;
        }
        let Some(body) = line.strip_prefix("  ").filter(|b| !b.starts_with(' ') || continued) else {
            found.push(format!("an example not indented by two spaces: {line}"));
            continue;
        };
        let body = body.trim_start();
        if continued {
            continued = body.ends_with('\\');
            continue;
        }
        if body.starts_with('#') {
            comment_pending = true;
            continue;
        }
        let first = body.split_whitespace().next().unwrap_or_default();
        if first != root && !OTHER_PROGRAMS.contains(&first) && !body.contains(&format!("| {root} ")) {
            found.push(format!("an example line neither a command nor a # comment: {line}"));
        }
        comment_pending = false;
        continued = body.ends_with('\\');
    }
    if comment_pending {
        found.push("an example comment with no command after it".to_string());
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_are_commands_and_comments_above_them() {
        let good = "Examples:\n  # one level\n  ws solve 'a: ab ba - -'\n  echo x | ws solve -\n  ws batch x \\\n      -o y\n\n\
                    Notes: not an example.";
        assert_eq!(text_faults(good, "ws"), Vec::<String>::new());
        // A comment that clap wrapped onto a line of its own reads as a command.
        let wrapped = "Examples:\n  ws solve x          # some solution fast, not\n  necessarily the fewest pours";
        let faults = text_faults(wrapped, "ws");
        assert_eq!(faults.len(), 1, "{faults:?}");
        assert!(faults[0].contains("neither a command nor a # comment"), "{faults:?}");
        let indented_note = "Examples:\n  ws verify\n      every table in pdbs/";
        assert_eq!(text_faults(indented_note, "ws").len(), 1);
        assert_eq!(text_faults("Examples:\n  # a comment and nothing after it", "ws").len(), 1);
    }

    #[test]
    fn lines_over_the_width_are_faults_wherever_they_are() {
        let long = format!("Notes:\n{}", "word ".repeat(20));
        assert_eq!(text_faults(&long, "ws").len(), 1);
        assert_eq!(text_faults(&"x".repeat(WIDTH), "ws"), Vec::<String>::new());
    }

    #[test]
    fn the_exit_status_list_keeps_the_layout() {
        assert_eq!(text_faults(crate::EXIT_STATUS_HELP, "ws"), Vec::<String>::new());
        assert_eq!(text_faults(crate::NODES_HELP, "ws"), Vec::<String>::new());
    }
}
