//! How an answer is printed on stdout: a table on a terminal and JSON when piped by default;
//! `--output json|yaml|table|ndjson` chooses; `--jq FILTER` (jq syntax, run by jaq, the
//! maintained Rust implementation) picks from the answer first. A reader that went away
//! (`| head -1`) ends the program quietly (`reader_gone`).

use serde_json::Value;
use std::io::{self, IsTerminal, Write};
use std::rc::Rc;

/// An output format (`--output`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One JSON document: pretty on a terminal, compact otherwise.
    Json,
    /// One compact JSON value per line; an array's elements (or a page's items) each on their
    /// line.
    Ndjson,
    /// YAML.
    Yaml,
    /// A table of a list's items (or of an object's members).
    Table,
}

impl Format {
    /// The names `--output` accepts.
    pub const NAMES: [&'static str; 4] = ["json", "ndjson", "yaml", "table"];

    /// The format named `name` (one of [`Format::NAMES`]), or the default for where stdout
    /// goes (a table on a terminal, JSON otherwise) when `None`.
    pub fn named(name: Option<&str>) -> Option<Format> {
        match name {
            None if io::stdout().is_terminal() => Some(Format::Table),
            None | Some("json") => Some(Format::Json),
            Some("ndjson") => Some(Format::Ndjson),
            Some("yaml") => Some(Format::Yaml),
            Some("table") => Some(Format::Table),
            Some(_) => None,
        }
    }
}

/// Ends the process with status 0 and no message when `result` says stdout's reader has gone
/// (a closed pipe), as ripgrep does: whoever closed it has what they wanted, and nothing more
/// can be shown. `--all` stops fetching pages; an unacknowledged write's journal entry stays,
/// as for any outcome not handed over, and the next run reports it.
fn reader_gone(result: io::Result<()>) -> io::Result<()> {
    if let Err(e) = &result
        && e.kind() == io::ErrorKind::BrokenPipe
    {
        std::process::exit(i32::from(crate::exit::OK));
    }
    result
}

/// Writes `bytes` to stdout as they are.
pub fn write_bytes(bytes: &[u8]) -> io::Result<()> {
    let mut out = io::stdout().lock();
    reader_gone(out.write_all(bytes).and_then(|()| out.flush()))
}

/// Writes `value` to stdout in `format`, or what `jq` selects from it (a string raw, one
/// line; another value in `format`).
pub fn print(value: &Value, format: Format, jq: Option<&Jq>) -> io::Result<()> {
    reader_gone(print_to_stdout(value, format, jq))
}

fn print_to_stdout(value: &Value, format: Format, jq: Option<&Jq>) -> io::Result<()> {
    let stdout = io::stdout();
    let pretty = stdout.is_terminal();
    let mut out = stdout.lock();
    match jq {
        None => write(&mut out, value, format, pretty)?,
        Some(jq) => {
            let selected = jq
                .run(value)
                .map_err(|e| io::Error::other(format!("--jq: {e}")))?;
            for value in selected {
                match value {
                    Value::String(s) => writeln!(out, "{s}")?,
                    other => write(&mut out, &other, format, pretty)?,
                }
            }
        }
    }
    out.flush()
}

/// `error` as stderr shows it: red on a terminal (unless `NO_COLOR` is set), plain otherwise.
pub fn error_label() -> &'static str {
    let colour =
        io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    if colour {
        "\x1b[31merror\x1b[0m"
    } else {
        "error"
    }
}

/// Writes `value` in `format` to `out`, pretty-printed JSON when `pretty`.
pub fn write(out: &mut impl Write, value: &Value, format: Format, pretty: bool) -> io::Result<()> {
    match format {
        Format::Json if pretty => serde_json::to_writer_pretty(&mut *out, value)?,
        Format::Json => serde_json::to_writer(&mut *out, value)?,
        Format::Ndjson => {
            for item in listed(value).unwrap_or(std::slice::from_ref(value)) {
                serde_json::to_writer(&mut *out, item)?;
                out.write_all(b"\n")?;
            }
            return Ok(());
        }
        Format::Yaml => {
            let text = yaml_serde::to_string(value).map_err(io::Error::other)?;
            return out.write_all(text.as_bytes());
        }
        Format::Table => return out.write_all(table(value).as_bytes()),
    }
    out.write_all(b"\n")
}

/// The list a value is: itself when it is an array, else the one array member of an object
/// (a page's `items`, `templates`, …).
pub fn listed(value: &Value) -> Option<&[Value]> {
    match value {
        Value::Array(items) => Some(items),
        Value::Object(map) => {
            let mut arrays = map.values().filter_map(Value::as_array);
            let only = arrays.next()?;
            arrays.next().is_none().then_some(only.as_slice())
        }
        _ => None,
    }
}

/// A cell's text: a string as it is, another scalar as JSON, a nested value as compact JSON
/// cut to a readable width.
fn cell(value: &Value) -> String {
    const WIDTH: usize = 48;
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    };
    if text.chars().count() > WIDTH {
        let cut: String = text.chars().take(WIDTH - 1).collect();
        format!("{cut}…")
    } else {
        text
    }
}

/// The columns of `rows`: every key, in order of first appearance.
pub fn columns(rows: &[Value]) -> Vec<String> {
    let mut columns: Vec<String> = Vec::new();
    for row in rows {
        if let Value::Object(map) = row {
            for key in map.keys() {
                if !columns.contains(key) {
                    columns.push(key.clone());
                }
            }
        }
    }
    columns
}

/// One row of a table with `columns`.
pub fn row(value: &Value, columns: &[String]) -> Vec<String> {
    match value {
        Value::Object(map) if !columns.is_empty() => columns
            .iter()
            .map(|c| map.get(c).map(cell).unwrap_or_default())
            .collect(),
        other => vec![cell(other)],
    }
}

/// `value` as a table: a list's items one a row, else an object's members one a row.
fn table(value: &Value) -> String {
    let rows: Vec<Vec<String>> = if let Some(items) = listed(value) {
        let columns = columns(items);
        let header = columns.iter().map(|c| c.to_uppercase());
        let header = (!columns.is_empty()).then(|| header.collect());
        header
            .into_iter()
            .chain(items.iter().map(|item| row(item, &columns)))
            .collect()
    } else if let Value::Object(map) = value {
        map.iter().map(|(k, v)| vec![k.clone(), cell(v)]).collect()
    } else {
        vec![vec![cell(value)]]
    };
    aligned(&rows)
}

/// `rows` as lines of columns padded to their widest cell, two spaces apart (the plain layout
/// of `kubectl get` and `doctl`; hand-written: a table crate's value is styling and wrapping,
/// which a pipe-friendly listing does without).
fn aligned(rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = Vec::new();
    for row in rows {
        for (i, text) in row.iter().enumerate() {
            let width = text.chars().count();
            match widths.get_mut(i) {
                Some(w) => *w = (*w).max(width),
                None => widths.push(width),
            }
        }
    }
    rows.iter().map(|row| padded(row, &widths)).collect()
}

/// Prints a list item by item as it arrives (`--all`), in bounded memory: NDJSON for JSON,
/// one YAML document per item, or table rows whose columns and widths the first item sets.
pub struct Rows {
    format: Format,
    jq: Option<Rc<Jq>>,
    /// The table's columns and their widths, once the first item is printed.
    columns: Option<(Vec<String>, Vec<usize>)>,
}

impl Rows {
    /// Rows in `format` (JSON is printed as NDJSON), each item through `jq` first.
    pub fn new(format: Format, jq: Option<Rc<Jq>>) -> Rows {
        Rows {
            format,
            jq,
            columns: None,
        }
    }

    /// Prints one item.
    pub fn print(&mut self, item: &Value) -> io::Result<()> {
        reader_gone(self.print_to_stdout(item))
    }

    fn print_to_stdout(&mut self, item: &Value) -> io::Result<()> {
        let selected = match &self.jq {
            Some(jq) => jq
                .run(item)
                .map_err(|e| io::Error::other(format!("--jq: {e}")))?,
            None => vec![item.clone()],
        };
        let stdout = io::stdout();
        let mut out = stdout.lock();
        for item in &selected {
            self.write(&mut out, item)?;
        }
        out.flush()
    }

    fn write(&mut self, out: &mut impl Write, item: &Value) -> io::Result<()> {
        match (self.format, item) {
            (_, Value::String(s)) if self.jq.is_some() => writeln!(out, "{s}"),
            (Format::Json | Format::Ndjson, _) => {
                serde_json::to_writer(&mut *out, item)?;
                out.write_all(b"\n")
            }
            (Format::Yaml, _) => {
                let text = yaml_serde::to_string(item).map_err(io::Error::other)?;
                write!(out, "---\n{text}")
            }
            (Format::Table, _) => {
                if self.columns.is_none() {
                    let columns = columns(std::slice::from_ref(item));
                    let header: Vec<String> = columns.iter().map(|c| c.to_uppercase()).collect();
                    let first = row(item, &columns);
                    let widths: Vec<usize> = header
                        .iter()
                        .zip(&first)
                        .map(|(h, c)| h.chars().count().max(c.chars().count()))
                        .collect();
                    if !header.is_empty() {
                        out.write_all(padded(&header, &widths).as_bytes())?;
                    }
                    self.columns = Some((columns, widths));
                }
                let (columns, widths) = self.columns.as_ref().expect("set above");
                out.write_all(padded(&row(item, columns), widths).as_bytes())
            }
        }
    }
}

/// One line of `cells`, each padded to its width (a longer cell pushes the rest right).
fn padded(cells: &[String], widths: &[usize]) -> String {
    let mut line = String::new();
    for (i, text) in cells.iter().enumerate() {
        if i > 0 {
            line.push_str("  ");
        }
        line.push_str(text);
        let width = widths.get(i).copied().unwrap_or(0);
        line.extend(std::iter::repeat_n(
            ' ',
            width.saturating_sub(text.chars().count()),
        ));
    }
    let mut line = line.trim_end().to_owned();
    line.push('\n');
    line
}

/// A compiled `--jq` filter.
pub struct Jq {
    filter: jaq_core::Filter<jaq_core::data::JustLut<jaq_json::Val>>,
}

impl Jq {
    /// Compiles `code`; the error says what is wrong with it.
    pub fn compile(code: &str) -> Result<Jq, String> {
        use jaq_core::load::{Arena, File, Loader};
        let defs = jaq_core::defs()
            .chain(jaq_std::defs())
            .chain(jaq_json::defs());
        let funs = jaq_core::funs()
            .chain(jaq_std::funs())
            .chain(jaq_json::funs());
        let arena = Arena::default();
        let modules = Loader::new(defs)
            .load(&arena, File { code, path: () })
            .map_err(|errors| {
                let what: Vec<String> = errors.iter().map(|(_, e)| format!("{e:?}")).collect();
                format!("the filter does not parse: {}", what.join("; "))
            })?;
        let filter = jaq_core::Compiler::default()
            .with_funs(funs)
            .compile(modules)
            .map_err(|errors| {
                let what: Vec<String> = errors
                    .iter()
                    .flat_map(|(_, e)| e.iter().map(|(name, _)| (*name).to_owned()))
                    .collect();
                format!("unknown in the filter: {}", what.join(", "))
            })?;
        Ok(Jq { filter })
    }

    /// The values the filter gives for `input`.
    pub fn run(&self, input: &Value) -> Result<Vec<Value>, String> {
        use jaq_core::{Ctx, Vars, data, unwrap_valr};
        let text = input.to_string();
        let input = jaq_json::read::parse_single(text.as_bytes()).map_err(|e| e.to_string())?;
        let ctx = Ctx::<data::JustLut<jaq_json::Val>>::new(&self.filter.lut, Vars::new([]));
        self.filter
            .id
            .run((ctx, input))
            .map(unwrap_valr)
            .map(|result| {
                let val = result.map_err(|e| e.to_string())?;
                serde_json::from_str(&val.to_string()).map_err(|e| e.to_string())
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::{Format, Jq, write};
    use serde_json::json;

    fn text(value: serde_json::Value, format: Format, pretty: bool) -> String {
        let mut out = Vec::new();
        write(&mut out, &value, format, pretty).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn json_is_compact_when_piped_and_ndjson_splits_lists() {
        assert_eq!(text(json!({"a": 1}), Format::Json, false), "{\"a\":1}\n");
        assert_eq!(
            text(json!({"a": 1}), Format::Json, true),
            "{\n  \"a\": 1\n}\n"
        );
        assert_eq!(
            text(json!([1, {"b": 2}]), Format::Ndjson, true),
            "1\n{\"b\":2}\n"
        );
        assert_eq!(
            text(json!({"items": [1, 2], "total": 2}), Format::Ndjson, false),
            "1\n2\n"
        );
        assert_eq!(text(json!([]), Format::Ndjson, false), "");
        assert_eq!(text(json!({"a": [1]}), Format::Yaml, false), "a:\n- 1\n");
    }

    #[test]
    fn a_table_has_a_row_per_item_and_a_column_per_key() {
        let page = json!({"items": [{"id": 1, "name": "a"}, {"id": 2, "tags": ["x"]}], "total": 2});
        let table = text(page, Format::Table, true);
        let lines: Vec<&str> = table.lines().map(str::trim_end).collect();
        assert_eq!(lines.len(), 3, "{table}");
        assert!(
            lines[0].starts_with("ID") && lines[0].contains("NAME") && lines[0].contains("TAGS")
        );
        assert!(lines[2].contains("[\"x\"]"), "{table}");
        let object = text(json!({"ok": true, "id": "z"}), Format::Table, true);
        assert!(object.contains("ok") && object.contains("true"), "{object}");
    }

    #[test]
    fn jq_filters_with_the_standard_library_and_names_bad_filters() {
        let jq = Jq::compile(".items | map(.id) | add").unwrap();
        assert_eq!(
            jq.run(&json!({"items": [{"id": 1}, {"id": 2}]})).unwrap(),
            [json!(3)]
        );
        let many = Jq::compile(".[] | select(. > 1)").unwrap();
        assert_eq!(many.run(&json!([1, 2, 3])).unwrap(), [json!(2), json!(3)]);
        assert!(Jq::compile(".items[").is_err());
        let unknown = Jq::compile("nosuchfilter").err().expect("an error");
        assert!(unknown.contains("nosuchfilter"), "{unknown}");
    }
}
