//! Lays out the runtime's `Name { entries }` macro calls the way a person would write them.
//!
//! prettyplease prints a macro's arguments as a stream of tokens, breaking lines anywhere (even
//! between a field and its wire name). A `json_object!` call is a list of entries (`field`,
//! `field = "wire" optional`, `..rest`), an `untagged_union!` call a list of variants (`Name`,
//! `Name boxed`), so they are re-printed here with whole entries filled into lines of at most
//! [`WIDTH`] columns.

use proc_macro2::{TokenStream, TokenTree};

/// The line width prettyplease formats to.
const WIDTH: usize = 100;

/// How the calls start in prettyplease's output (top-level items only).
const CALLS: [&str; 2] = [
    "::sdk_runtime::json_object!(",
    "::sdk_runtime::untagged_union!(",
];

/// `text` with each top-level call of [`CALLS`] re-printed; a call that does not read as
/// `Name { entries }` is left as printed.
pub(super) fn entry_calls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(call_start) = CALLS.into_iter().find(|c| line.starts_with(c)) else {
            out.push_str(line);
            out.push('\n');
            continue;
        };
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
        match relaid(call_start, &printed) {
            Some(relaid) => out.push_str(&relaid),
            None => out.push_str(&printed),
        }
        out.push('\n');
    }
    out
}

/// The call re-printed, or `None` if it does not parse as `Name { entries }`.
fn relaid(call: &str, printed: &str) -> Option<String> {
    let args = printed.strip_prefix(call)?.trim_end().strip_suffix(");")?;
    let tokens: TokenStream = args.parse().ok()?;
    let mut tokens = tokens.into_iter();
    let (Some(TokenTree::Ident(name)), Some(TokenTree::Group(body)), None) =
        (tokens.next(), tokens.next(), tokens.next())
    else {
        return None;
    };
    let entries = entries(body.stream());
    if entries.is_empty() {
        return Some(format!("{call}{name} {{}});"));
    }
    let one_line = format!("{call}{name} {{ {} }});", entries.join(", "));
    if one_line.len() <= WIDTH {
        return Some(one_line);
    }
    let mut out = format!("{call}{name} {{\n");
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
    use super::entry_calls;

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
::sdk_runtime::untagged_union!(
    OperationOrLegacyWriteResponse { OperationEnvelope, LegacyWriteResponse boxed }
);
";
        assert_eq!(
            entry_calls(printed),
            "\
struct A;
::sdk_runtime::json_object!(Short { a, b = \"b\" optional });
::sdk_runtime::json_object!(Long {
    first_field optional, second_field = \"secondField\" optional,
    third_field = \"thirdField\" optional, fourth optional, ..additional_properties
});
::sdk_runtime::json_object!(Empty {});
::sdk_runtime::untagged_union!(OperationOrLegacyWriteResponse {
    OperationEnvelope, LegacyWriteResponse boxed
});
"
        );
    }

    #[test]
    fn a_wire_name_with_punctuation_stays_one_token() {
        let printed = "::sdk_runtime::json_object!(\n    A { x = \"a, b);\" optional, y }\n);\n";
        assert_eq!(
            entry_calls(printed),
            "::sdk_runtime::json_object!(A { x = \"a, b);\" optional, y });\n"
        );
    }
}
