//! A tool's JSON Schema as a Rust constant a reviewer reads: indented JSON in a raw string, an
//! object or array kept on one line where that fits [`WIDTH`] columns. The server parses the
//! text before it answers (`oncegen_mcp::Listing::describe`), so what it sends does not depend
//! on this layout. Written here because no well-kept crate lays JSON out by width (serde_json's
//! pretty printer puts every member on a line of its own, tripling the lines).

use crate::{Error, Result};
use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;
use serde_json::Value;

/// The column an object or array that stays on one line may reach.
const WIDTH: usize = 100;

/// `const NAME: &str = r#"…"#;` holding `schema`, documented with `doc`.
pub(super) fn constant(name: &Ident, doc: &str, schema: &Value) -> Result<TokenStream> {
    let prefix = format!("const {name}: &str = r#\"");
    let mut text = String::new();
    write(schema, 0, prefix.len(), "\"#;".len(), &mut text);
    let hashes = "#".repeat(hashes(&text));
    let literal: Literal = format!("r{hashes}\"{text}\"{hashes}")
        .parse()
        .map_err(|e| Error::at("#", format!("internal error: a schema literal: {e}")))?;
    let doc = format!(" {doc}");
    Ok(quote! {
        #[doc = #doc]
        const #name: &str = #literal;
    })
}

/// How many `#` a raw string holding `text` needs: one more than any `"#…` inside it.
fn hashes(text: &str) -> usize {
    (1..)
        .find(|n| !text.contains(&format!("\"{}", "#".repeat(*n))))
        .unwrap_or(1)
}

/// Appends `value`, starting at `column` of a line indented `indent`, with `tail` more
/// characters after it on its last line: on one line when it fits, else a member a line.
fn write(value: &Value, indent: usize, column: usize, tail: usize, out: &mut String) {
    let flat = one_line(value);
    let members: Vec<(Option<&String>, &Value)> = match value {
        Value::Object(map) => map.iter().map(|(k, v)| (Some(k), v)).collect(),
        Value::Array(items) => items.iter().map(|v| (None, v)).collect(),
        _ => Vec::new(),
    };
    if members.is_empty() || column + flat.len() + tail <= WIDTH {
        out.push_str(&flat);
        return;
    }
    let (open, close) = if value.is_object() {
        ('{', '}')
    } else {
        ('[', ']')
    };
    let inner = indent + 2;
    out.push(open);
    for (i, (key, member)) in members.iter().enumerate() {
        out.push('\n');
        out.push_str(&" ".repeat(inner));
        let mut column = inner;
        if let Some(key) = key {
            let key = format!("{}: ", Value::from(key.as_str()));
            column += key.len();
            out.push_str(&key);
        }
        let last = i + 1 == members.len();
        write(member, inner, column, usize::from(!last), out);
        if !last {
            out.push(',');
        }
    }
    out.push('\n');
    out.push_str(&" ".repeat(indent));
    out.push(close);
}

/// `value` on one line, a space after each `:` and `,` between members.
fn one_line(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let members: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", Value::from(k.as_str()), one_line(v)))
                .collect();
            format!("{{{}}}", members.join(", "))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(one_line).collect();
            format!("[{}]", items.join(", "))
        }
        scalar => scalar.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::{hashes, write};
    use serde_json::{Value, json};

    fn laid_out(value: &Value, column: usize) -> String {
        let mut out = String::new();
        write(value, 0, column, 0, &mut out);
        out
    }

    #[test]
    fn what_fits_stays_on_a_line_and_the_rest_is_a_member_a_line() {
        let small = json!({"type": "string", "enum": ["a", "b"]});
        assert_eq!(
            laid_out(&small, 0),
            r#"{"type": "string", "enum": ["a", "b"]}"#
        );
        let long = "x".repeat(60);
        let big = json!({"type": "object", "properties": {"name": {"description": long}}});
        let text = laid_out(&big, 0);
        assert_eq!(
            text,
            format!(
                "{{\n  \"type\": \"object\",\n  \"properties\": {{\n    \"name\": \
                 {{\"description\": \"{long}\"}}\n  }}\n}}"
            )
        );
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), big);
    }

    #[test]
    fn a_raw_string_has_more_hashes_than_its_text() {
        assert_eq!(hashes(r#"{"a": "b"}"#), 1);
        assert_eq!(hashes(r##"{"a": "say "#1""}"##), 2);
    }
}
