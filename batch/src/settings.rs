//! What decides a result besides the instance, stored in every batch record: a file resumed with other
//! settings (another rule, capacity, heuristic, partition or algorithm) would silently hold results of two
//! runs that mean different things, so `--resume` refuses it and names what differs.

use anyhow::anyhow;
use cli_common::usage;

use crate::record::Record;

/// `pairs` as a record stores them: `name=value`, separated by `; `.
pub fn encode(pairs: &[(&str, String)]) -> String {
    pairs.iter().map(|(name, value)| format!("{name}={value}")).collect::<Vec<_>>().join("; ")
}

/// The pairs of a record's `settings`, in order.
fn decode(text: &str) -> Vec<(&str, &str)> {
    text.split("; ").filter(|p| !p.is_empty()).map(|p| p.split_once('=').unwrap_or((p, ""))).collect()
}

/// What differs between a record's settings (`then`) and this run's (`now`), as `name: then, now here`
/// phrases; a setting only one side has counts as differing.
fn differences(then: &str, now: &str) -> Vec<String> {
    let (then, now) = (decode(then), decode(now));
    let value = |pairs: &[(&str, &str)], name: &str| {
        pairs.iter().find(|p| p.0 == name).map_or("(none)".to_string(), |p| format!("'{}'", p.1))
    };
    let mut names: Vec<&str> = now.iter().map(|p| p.0).collect();
    names.extend(then.iter().map(|p| p.0).filter(|n| !now.iter().any(|p| p.0 == *n)));
    names
        .into_iter()
        .filter(|&n| value(&then, n) != value(&now, n))
        .map(|n| format!("{n} {} there, {} now", value(&then, n), value(&now, n)))
        .collect()
}

/// Whether records already in `out_name` may be continued by a run with settings `now`: a usage error naming
/// the first record made otherwise and every setting that differs. Records of versions that stored no
/// settings cannot be checked: `Ok(true)` says so, for the caller to warn.
pub fn check_resume(records: &[Record], now: &str, out_name: &str) -> anyhow::Result<bool> {
    for r in records.iter().filter(|r| !r.settings.is_empty()) {
        let diff = differences(&r.settings, now);
        if !diff.is_empty() {
            return Err(usage(anyhow!(
                "{out_name} was made with other settings (id '{}', line {}: {}); resume it with the settings it \
                 was made with, or give another --output",
                r.id,
                r.line,
                diff.join("; ")
            )));
        }
    }
    Ok(records.iter().any(|r| r.settings.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(settings: &str) -> Record {
        Record { id: "a".into(), line: 3, settings: settings.into(), ..Record::default() }
    }

    #[test]
    fn a_mismatch_names_every_differing_setting() {
        let now = encode(&[("capacity", "4".into()), ("rule", "strict".into()), ("algorithm", "astar".into())]);
        assert_eq!(now, "capacity=4; rule=strict; algorithm=astar");
        assert!(!check_resume(&[rec(&now)], &now, "out").unwrap());
        let then = "capacity=3; rule=loose; algorithm=astar; extra=x y";
        let e = check_resume(&[rec(&now), rec(then)], &now, "out.jsonl").unwrap_err().to_string();
        assert_eq!(
            e,
            "out.jsonl was made with other settings (id 'a', line 3: capacity '3' there, '4' now; rule 'loose' \
             there, 'strict' now; extra 'x y' there, (none) now); resume it with the settings it was made with, \
             or give another --output"
        );
    }

    #[test]
    fn records_without_settings_are_let_through_and_said() {
        assert!(check_resume(&[rec("")], "board=4x4", "out").unwrap());
        assert!(!check_resume(&[], "board=4x4", "out").unwrap());
    }
}
