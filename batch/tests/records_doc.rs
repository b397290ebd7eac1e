//! RECORDS.md documents every column of a record; its table must name the columns the code writes, in the
//! order it writes them (the CSV header and the JSON object's keys), so that the two cannot drift apart.

use batch::record::{Record, RecordFormat};

/// The first column of each row of RECORDS.md's table, without its backquotes.
fn documented() -> Vec<String> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../RECORDS.md")).unwrap();
    let mut rows = text.lines().skip_while(|l| !l.starts_with("| column |")).skip(2);
    let columns: Vec<String> = rows
        .by_ref()
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.split('|').nth(1).unwrap().trim().trim_matches('`').to_string())
        .collect();
    assert!(!columns.is_empty(), "RECORDS.md has no table headed `| column |`");
    columns
}

#[test]
fn records_md_names_every_column_in_order() {
    let csv: Vec<String> = RecordFormat::csv_header().split(',').map(String::from).collect();
    assert_eq!(documented(), csv, "RECORDS.md's table against the CSV header");
    let json = serde_json::to_value(Record::default()).unwrap();
    let keys: Vec<String> = json.as_object().unwrap().keys().cloned().collect();
    let mut sorted = csv.clone();
    sorted.sort();
    let mut keys_sorted = keys;
    keys_sorted.sort();
    assert_eq!(keys_sorted, sorted, "the JSON record's keys against the CSV header");
}
