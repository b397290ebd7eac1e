//! Reading a request's fields, from a JSON body or a query string alike, so that every refusal reads the
//! same whichever way a field came and whichever puzzle reads it: `missing field 'tiles'`, `field 'walk':
//! expected a whole number, found "-3"`, `unknown field 'colour' (this request takes: ...)`. Deriving
//! `Deserialize` gave serde's own wording instead (backticks, "invalid type", "expected one of", line and
//! column of a query string that has none), and a query's bad number did not even name its field.

use super::{bad, Refusal};
use serde_json::{Map, Value};

/// The fields of one request, taken one by one by name; what is left at the end was not asked for.
pub struct Fields {
    map: Map<String, Value>,
    /// Query strings carry every value as text: a number there is read from its digits.
    from_query: bool,
    /// The names asked for so far: what this request takes, for the refusal of a field it does not.
    asked: Vec<&'static str>,
}

/// A JSON value as a refusal quotes it: short, whatever its size.
fn shown(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

impl Fields {
    /// The fields of a JSON body, which must be one object.
    pub fn body(bytes: &[u8]) -> Result<Fields, Refusal> {
        let value: Value = serde_json::from_slice(bytes).map_err(|e| {
            let at = format!("line {} column {}", e.line(), e.column());
            bad(if e.is_eof() {
                format!("the body is not complete JSON (it ends at {at})")
            } else {
                format!("the body is not JSON (a mistake at {at})")
            })
        })?;
        match value {
            Value::Object(map) => Ok(Fields { map, from_query: false, asked: Vec::new() }),
            other => Err(bad(format!("the body must be a JSON object of fields, not {}", shown(&other)))),
        }
    }

    /// The fields of a query string, as the server split it into `name=value` pairs (`?board=4x4&walk=40`);
    /// a field given twice is refused.
    pub fn query(pairs: Vec<(String, String)>) -> Result<Fields, Refusal> {
        let mut map = Map::new();
        for (name, value) in pairs {
            if map.insert(name.clone(), Value::String(value)).is_some() {
                return Err(bad(format!("field '{name}' is given twice")));
            }
        }
        Ok(Fields { map, from_query: true, asked: Vec::new() })
    }

    /// Field `name` as it came, if it came.
    pub fn value(&mut self, name: &'static str) -> Option<Value> {
        self.asked.push(name);
        self.map.remove(name).filter(|v| !v.is_null())
    }

    /// A refusal of field `name`'s value, saying what it should be.
    fn wrong(name: &str, expected: &str, found: &Value) -> Refusal {
        bad(format!("field '{name}': expected {expected}, found {}", shown(found)))
    }

    /// A text field.
    pub fn text(&mut self, name: &'static str) -> Result<Option<String>, Refusal> {
        match self.value(name) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(Fields::wrong(name, "text", &other)),
        }
    }

    /// A whole number 0 or more (from a query string, its digits).
    pub fn whole(&mut self, name: &'static str) -> Result<Option<u64>, Refusal> {
        let from_query = self.from_query;
        match self.value(name) {
            None => Ok(None),
            Some(v) => {
                let n = match &v {
                    Value::String(s) if from_query => s.trim().parse().ok(),
                    _ => v.as_u64(),
                };
                n.map(Some).ok_or_else(|| Fields::wrong(name, "a whole number, 0 or more", &v))
            }
        }
    }

    /// A yes or no (`true`/`false`; from a query string, those words).
    pub fn boolean(&mut self, name: &'static str) -> Result<Option<bool>, Refusal> {
        let from_query = self.from_query;
        match self.value(name) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(b)),
            Some(Value::String(s)) if from_query && (s == "true" || s == "false") => Ok(Some(s == "true")),
            Some(other) => Err(Fields::wrong(name, "true or false", &other)),
        }
    }

    /// A whole number that fits a `usize` (counts and sizes).
    pub fn count(&mut self, name: &'static str) -> Result<Option<usize>, Refusal> {
        let n = self.whole(name)?;
        n.map(|n| usize::try_from(n).map_err(|_| bad(format!("field '{name}': {n} is far too large")))).transpose()
    }

    /// An array of whole numbers 0 or more.
    pub fn whole_numbers(&mut self, name: &'static str) -> Result<Option<Vec<u64>>, Refusal> {
        let expected = "an array of whole numbers, 0 or more";
        match self.value(name) {
            None => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| v.as_u64().ok_or_else(|| Fields::wrong(name, expected, v)))
                .collect::<Result<Vec<u64>, Refusal>>()
                .map(Some),
            Some(other) => Err(Fields::wrong(name, expected, &other)),
        }
    }

    /// The refusal of a field the request must have.
    pub fn missing(name: &str) -> Refusal {
        bad(format!("missing field '{name}'"))
    }

    /// Refuses a field no one asked for (a misspelt one would otherwise be ignored without a word).
    pub fn done(self) -> Result<(), Refusal> {
        match self.map.keys().next() {
            None => Ok(()),
            Some(name) => Err(bad(format!("unknown field '{name}' (this request takes: {})", self.asked.join(", ")))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(query: &str) -> Vec<(String, String)> {
        query.split('&').filter_map(|p| p.split_once('=')).map(|(n, v)| (n.to_string(), v.to_string())).collect()
    }

    fn reason(e: Refusal) -> String {
        e.reason
    }

    #[test]
    fn a_bad_field_reads_the_same_from_a_body_and_from_a_query() {
        let mut body = Fields::body(br#"{"walk": "-3"}"#).unwrap();
        let mut query = Fields::query(pairs("walk=-3")).unwrap();
        let (b, q) = (reason(body.whole("walk").unwrap_err()), reason(query.whole("walk").unwrap_err()));
        assert_eq!(b, q);
        assert_eq!(b, r#"field 'walk': expected a whole number, 0 or more, found "-3""#);
        let mut query = Fields::query(pairs("walk=40")).unwrap();
        assert_eq!(query.whole("walk").unwrap(), Some(40));
    }

    #[test]
    fn refusals_use_no_serde_wording() {
        let mut f = Fields::body(br#"{"board": "3x3", "colour": "red"}"#).unwrap();
        f.text("board").unwrap();
        f.value("tiles");
        assert_eq!(reason(f.done().unwrap_err()), "unknown field 'colour' (this request takes: board, tiles)");
        let cut = reason(Fields::body(br#"{"tiles": [1, 2"#).err().unwrap());
        assert!(cut.starts_with("the body is not complete JSON"), "{cut}");
        let mut f = Fields::body(br#"{"tiles": [1, "x"]}"#).unwrap();
        let e = reason(f.whole_numbers("tiles").unwrap_err());
        assert_eq!(e, r#"field 'tiles': expected an array of whole numbers, 0 or more, found "x""#);
        let twice = reason(Fields::query(pairs("walk=1&walk=2")).err().unwrap());
        assert_eq!(twice, "field 'walk' is given twice");
    }
}
