//! Lays out `json_object!` calls the way a person would write them.
//!
//! prettyplease prints a macro's arguments as a stream of tokens, breaking lines anywhere (even
//! between a field and its wire name) and spacing every `:`. A `json_object!` call is a list of
//! entries (`field`, `field = "wire" optional`, `..rest`), so it is re-printed here with whole
//! entries filled into lines of at most [`WIDTH`] columns.

use proc_macro2::{TokenStream, TokenTree};

/// The line width prettyplease formats to.
const WIDTH: usize = 100;

/// How a call starts in prettyplease's output (top-level items only).
const CALL: &str = "::sdk_runtime::json_object!(";

/// `text` with each top-level `json_object!` call re-printed; a call that does not read as
/// `Name { entries }` is left as printed.
pub(super) fn json_object_calls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if !line.starts_with(CALL) {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        // The call ends on the first line ending in `);`: inside it, `)` only occurs in string
        // literals, and prettyplease never ends a line inside a literal.
        let mut call = vec![line];
        while !call.last().is_some_and(|l| l.ends_with(");")) {
            match lines.next() {
                Some(next) => call.push(next),
                None => break,
            }
        }
        let printed = call.join("\n");
        match relaid(&printed) {
            Some(relaid) => out.push_str(&relaid),
            None => out.push_str(&printed),
        }
        out.push('\n');
    }
    out
}

/// The call re-printed, or `None` if it does not parse as `Name { entries }`.
fn relaid(printed: &str) -> Option<String> {
    let args = printed.strip_prefix(CALL)?.trim_end().strip_suffix(");")?;
    let tokens: TokenStream = args.parse().ok()?;
    let mut tokens = tokens.into_iter();
    let (Some(TokenTree::Ident(name)), Some(TokenTree::Group(body)), None) =
        (tokens.next(), tokens.next(), tokens.next())
    else {
        return None;
    };
    let entries = entries(body.stream());
    let one_line = format!("{CALL}{name} {{ {} }});", entries.join(", "));
    if entries.is_empty() {
        return Some(format!("{CALL}{name} {{}});"));
    }
    if one_line.len() <= WIDTH {
        return Some(one_line);
    }
    let mut out = format!("{CALL}{name} {{\n");
    let mut line = String::from("   ");
    for (i, entry) in entries.iter().enumerate() {
        let last = i + 1 == entries.len();
        let piece = if last {
            entry.clone()
        } else {
            format!("{entry},")
        };
        if line.len() > 3 && line.len() + 1 + piece.len() > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line = String::from("   ");
        }
        line.push(' ');
        line.push_str(&piece);
    }
    out.push_str(&line);
    out.push_str("\n});");
    Some(out)
}

/// The comma-separated entries of a call's body, each printed with single spaces (`..rest`
/// without one).
fn entries(body: TokenStream) -> Vec<String> {
    let mut entries = Vec::new();
    let mut current: Vec<String> = Vec::new();
    for token in body {
        match &token {
            TokenTree::Punct(p) if p.as_char() == ',' => {
                entries.push(std::mem::take(&mut current).join(" "));
            }
            _ => current.push(token.to_string()),
        }
    }
    if !current.is_empty() {
        entries.push(current.join(" "));
    }
    entries
        .into_iter()
        .map(|e| e.replacen(". . ", "..", 1))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::json_object_calls;

    #[test]
    fn short_calls_take_one_line_and_long_ones_fill_whole_entries() {
        let printed = "\
struct A;
::sdk_runtime::json_object!(Short { a, b = \"b\" optional });
::sdk_runtime::json_object!(
    Long { first_field optional, second_field = \"secondField\" optional, third_field
    = \"thirdField\" optional, fourth optional, ..additional_properties }
);
::sdk_runtime::json_object!(Empty {});
";
        assert_eq!(
            json_object_calls(printed),
            "\
struct A;
::sdk_runtime::json_object!(Short { a, b = \"b\" optional });
::sdk_runtime::json_object!(Long {
    first_field optional, second_field = \"secondField\" optional,
    third_field = \"thirdField\" optional, fourth optional, ..additional_properties
});
::sdk_runtime::json_object!(Empty {});
"
        );
    }

    #[test]
    fn a_wire_name_with_punctuation_stays_one_token() {
        let printed = "::sdk_runtime::json_object!(\n    A { x = \"a, b);\" optional, y }\n);\n";
        assert_eq!(
            json_object_calls(printed),
            "::sdk_runtime::json_object!(A { x = \"a, b);\" optional, y });\n"
        );
    }
}
