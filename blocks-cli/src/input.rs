//! What a `LEVEL` argument names: a level itself (a built-in name, the text form, a JSON object), a file
//! of level lines or one JSON level, or `-` for stdin. A bad level is the user's: exit code 2.

use anyhow::Context;
use blocks::Level;
use cli_common::usage;
use std::io::Read;

/// Levels are read whole: a cap keeps an endless input (`- < /dev/zero`) from taking all memory.
const MAX_INPUT: u64 = 16 << 20;

/// Each level `input` names with its line number (from 1), or what is wrong with that line.
pub fn levels(input: &str) -> anyhow::Result<Vec<(u64, Result<Level, String>)>> {
    let text = if input == "-" {
        Some(read_capped(&mut std::io::stdin().lock(), "stdin")?)
    } else if std::path::Path::new(input).is_file() {
        let mut file = std::fs::File::open(input).with_context(|| format!("reading {input}")).map_err(usage)?;
        Some(read_capped(&mut file, input)?)
    } else {
        None
    };
    let Some(text) = text else {
        let level = blocks::parse_input(input).map_err(|e| e.to_string());
        return Ok(vec![(1, level)]);
    };
    if text.trim_start().starts_with('{') {
        return Ok(vec![(1, blocks::parse_json(&text, "").map_err(|e| e.to_string()))]);
    }
    Ok(text
        .lines()
        .enumerate()
        .filter_map(|(n, line)| {
            let (_, level) = adapters::blocks::parse_line(line)?;
            Some((n as u64 + 1, level.map_err(|e| format!("line {}: {e}", n + 1))))
        })
        .collect())
}

/// The one level `input` names; a file of several is refused.
pub fn one_level(input: &str) -> anyhow::Result<Level> {
    let mut all = levels(input)?;
    if all.len() != 1 {
        return Err(usage(anyhow::anyhow!("{input}: {} levels, where one is wanted", all.len())));
    }
    all.pop().unwrap().1.map_err(|e| usage(anyhow::anyhow!(e)))
}

fn read_capped(from: &mut dyn Read, what: &str) -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    from.take(MAX_INPUT + 1).read_to_end(&mut bytes).with_context(|| format!("reading {what}")).map_err(usage)?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(usage(anyhow::anyhow!("{what} is over 16 MiB: no level input is that long")));
    }
    String::from_utf8(bytes).map_err(|_| usage(anyhow::anyhow!("{what} is not UTF-8 text")))
}
