//! Text from a record or an input line made safe to print. An id, a heuristic's name or a line's text can
//! hold any character; printed as is on a terminal, an escape sequence among them could move the cursor,
//! recolour or retitle the terminal, or hide or rewrite what was printed before (every such sequence starts
//! with a control character), and bidirectional overrides could show text in another order than it is.

use std::borrow::Cow;

/// `text` with its control characters and bidirectional overrides written as Rust escapes (`\u{1b}`), the
/// rest as it is. Text without any is returned as it is, without a copy.
pub fn printable(text: &str) -> Cow<'_, str> {
    fn hidden(c: char) -> bool {
        c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    }
    if !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().map(|c| if hidden(c) { c.escape_unicode().to_string() } else { c.to_string() }).collect())
}

/// Text made safe inside HTML elements and attribute values, and printable ([`printable`]): control
/// characters are not allowed in HTML.
pub fn escape_html(text: &str) -> String {
    printable(text)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// Text of several lines (a `<pre>` block) made safe as [`escape_html`] makes one line: its line breaks stay
/// line breaks, every other control character is escaped.
pub fn escape_html_lines(text: &str) -> String {
    text.split('\n').map(escape_html).collect::<Vec<_>>().join("\n")
}

/// `n` and the noun, plural unless `n` is 1 (`1 thread`, `2 threads`, `1 entry`, `3 entries`), so that no
/// message says "1 threads". `noun` is the singular of a noun with a regular plural.
pub fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        return format!("1 {noun}");
    }
    match noun.strip_suffix('y') {
        Some(stem) if !stem.ends_with(['a', 'e', 'o', 'u']) => format!("{n} {stem}ies"),
        _ => format!("{n} {noun}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_plural_unless_one() {
        assert_eq!(count(1, "thread"), "1 thread");
        assert_eq!(count(0, "thread"), "0 threads");
        assert_eq!(count(2, "entry"), "2 entries");
        assert_eq!(count(1, "entry"), "1 entry");
        assert_eq!(count(5, "day"), "5 days");
    }

    #[test]
    fn control_characters_and_overrides_are_escaped_and_the_rest_kept() {
        assert_eq!(printable("a\u{1b}]0;pwned\u{7}b"), r"a\u{1b}]0;pwned\u{7}b");
        assert_eq!(printable("x\ny\r\t\u{9b}2J\u{7f}"), r"x\u{a}y\u{d}\u{9}\u{9b}2J\u{7f}");
        assert_eq!(printable("abc\u{202e}fed"), r"abc\u{202e}fed");
        assert!(matches!(printable("é 12 ✓ \\u{1b}"), Cow::Borrowed("é 12 ✓ \\u{1b}")));
        assert_eq!(escape_html("<a href='x'>&\"\u{1b}"), r"&lt;a href=&#39;x&#39;&gt;&amp;&quot;\u{1b}");
        assert_eq!(escape_html_lines("a<b\n\u{7}c\n"), "a&lt;b\n\\u{7}c\n");
    }
}
