//! How an answer is printed: JSON on stdout, pretty on a terminal and compact when piped, or
//! NDJSON (`--output ndjson`: one compact value a line, an array's elements one a line).

use serde_json::Value;
use std::io::{self, IsTerminal, Write};

/// An output format (`--output`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One JSON document: pretty on a terminal, compact otherwise.
    Json,
    /// One compact JSON value per line; an array's elements each on their line.
    Ndjson,
}

impl Format {
    /// The names `--output` accepts.
    pub const NAMES: [&'static str; 2] = ["json", "ndjson"];

    /// The format named `name` (one of [`Format::NAMES`]).
    pub fn named(name: &str) -> Option<Format> {
        match name {
            "json" => Some(Format::Json),
            "ndjson" => Some(Format::Ndjson),
            _ => None,
        }
    }
}

/// Writes `value` to stdout in `format`.
pub fn print(value: &Value, format: Format) -> io::Result<()> {
    let stdout = io::stdout();
    let pretty = stdout.is_terminal();
    let mut out = stdout.lock();
    write(&mut out, value, format, pretty)?;
    out.flush()
}

/// Writes `value` in `format` to `out`, pretty-printed JSON when `pretty`.
pub fn write(out: &mut impl Write, value: &Value, format: Format, pretty: bool) -> io::Result<()> {
    match (format, value) {
        (Format::Json, v) if pretty => serde_json::to_writer_pretty(&mut *out, v)?,
        (Format::Json, v) => serde_json::to_writer(&mut *out, v)?,
        (Format::Ndjson, Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.write_all(b"\n")?;
                }
                serde_json::to_writer(&mut *out, item)?;
            }
            if items.is_empty() {
                return Ok(());
            }
        }
        (Format::Ndjson, v) => serde_json::to_writer(&mut *out, v)?,
    }
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::{Format, write};
    use serde_json::json;

    fn text(value: serde_json::Value, format: Format, pretty: bool) -> String {
        let mut out = Vec::new();
        write(&mut out, &value, format, pretty).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn json_is_compact_when_piped_and_ndjson_splits_arrays() {
        assert_eq!(text(json!({"a": 1}), Format::Json, false), "{\"a\":1}\n");
        assert_eq!(
            text(json!({"a": 1}), Format::Json, true),
            "{\n  \"a\": 1\n}\n"
        );
        assert_eq!(
            text(json!([1, {"b": 2}]), Format::Ndjson, true),
            "1\n{\"b\":2}\n"
        );
        assert_eq!(text(json!([]), Format::Ndjson, false), "");
    }
}
