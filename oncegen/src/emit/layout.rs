//! Lays out the runtime's `Name { entries }` macro calls the way a person would write them, and
//! puts back on one line what prettyplease broke at its 89 columns but fits [`WIDTH`].
//!
//! prettyplease prints a macro's arguments as a stream of tokens, breaking lines anywhere (even
//! between a field and its wire name). A `json_object!` call is a list of entries (`field`,
//! `field = "wire" optional`, `..rest`), a `tagged_union!` or `untagged_union!` call a list of
//! variants (`Name = "tag"`, `Name boxed`), a `from_variants!` call a list of `Variant(Type)`,
//! so they are re-printed here with whole entries filled into lines of at most [`WIDTH`]
//! columns.

use proc_macro2::{TokenStream, TokenTree};

/// The line width prettyplease formats to.
const WIDTH: usize = 100;

/// How the calls start in prettyplease's output (top-level items only).
const CALLS: [&str; 4] = [
    "::oncegen_runtime::json_object!(",
    "::oncegen_runtime::tagged_union!(",
    "::oncegen_runtime::untagged_union!(",
    FROM_VARIANTS,
];

/// The call whose entries hold types (`Variant(Type)`), printed as Rust spells types.
const FROM_VARIANTS: &str = "::oncegen_runtime::from_variants!(";

/// Whether `line` starts a runtime macro call that implements the type just before it (emitted
/// right after the type, so it follows it without an empty line, as its derives would).
pub(super) fn implements_previous_type(line: &str) -> bool {
    line.starts_with("::oncegen_runtime::string_enum!(")
        || CALLS.iter().any(|c| line.starts_with(c))
}

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

/// `text` with each function signature and `request!` call that prettyplease broke into one
/// argument a line put back on one line where that fits [`WIDTH`] columns (rustfmt's default
/// width, which prettyplease's 89 columns stay below), and `error_body!`'s type path tidied.
pub(super) fn joined_lines(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < lines.len() {
        if let Some((call, used)) = unchained(&lines[i..]) {
            let call: Vec<&str> = call.iter().map(String::as_str).collect();
            match joined(&call) {
                Some((line, _)) => out.push_str(&line),
                None => out.push_str(&call.join("\n")),
            }
            out.push('\n');
            i += used;
            continue;
        }
        match joined(&lines[i..]) {
            Some((line, used)) => {
                out.push_str(&line);
                i += used;
            }
            None if is_error_body_line(lines[i]) => {
                out.push_str(&lines[i].replacen("crate ::", "crate::", 1));
                i += 1;
            }
            None => {
                out.push_str(lines[i]);
                i += 1;
            }
        }
        out.push('\n');
    }
    out
}

/// prettyplease's break of a long `request.method(args);` statement before the method
/// (`request` alone on a line, `.method(` under it, its arguments and `);` indented further),
/// as `request.method(` with its arguments and `);` one level less indented, and how many
/// lines of `lines` it was.
fn unchained(lines: &[&str]) -> Option<(Vec<String>, usize)> {
    let first = *lines.first()?;
    let indent = &first[..first.len() - first.trim_start().len()];
    let method = lines.get(1)?.trim();
    if first.trim() != "request" || !method.starts_with('.') || !method.ends_with('(') {
        return None;
    }
    let inner = format!("{indent}    ");
    let close = lines
        .iter()
        .skip(2)
        .take(12)
        .position(|l| l.starts_with(&inner) && l[inner.len()..].starts_with(");"))?
        + 2;
    let mut call = vec![format!("{indent}request{method}")];
    call.extend(lines[2..=close].iter().map(|l| l.replacen("    ", "", 1)));
    Some((call, close + 1))
}

/// The first lines of `lines` joined into one and how many they were, when the first opens a
/// function signature or a `request!` call that closes within a few lines and the joined line
/// fits.
fn joined(lines: &[&str]) -> Option<(String, usize)> {
    let first = *lines.first()?;
    let opened = first.trim_start();
    let signature = opened.ends_with('(') && is_fn_signature(opened);
    let error_body = opened.ends_with("::oncegen_runtime::error_body!(");
    let request_call = opened.starts_with("request.") && opened.ends_with('(');
    if !signature
        && !error_body
        && !request_call
        && !opened.ends_with("::oncegen_runtime::request!(")
    {
        return None;
    }
    let indent = &first[..first.len() - opened.len()];
    let close = lines
        .iter()
        .take(12)
        .position(|l| l.starts_with(indent) && l[indent.len()..].starts_with(')'))?;
    let inner = &lines[1..close];
    let closing = lines[close].trim_start();
    if inner.is_empty()
        || inner.iter().any(|l| {
            let l = l.trim();
            l.contains("//") || l.starts_with(['#', ')', ']', '}']) || l.ends_with(['(', '[', '{'])
        })
        || (signature && !closing.ends_with('{'))
    {
        return None;
    }
    let args = inner.iter().map(|l| l.trim()).collect::<Vec<_>>().join(" ");
    let args = args.strip_suffix(',').unwrap_or(&args);
    let mut line = format!("{first}{args}{closing}");
    if error_body {
        line = line.replacen("crate ::", "crate::", 1);
    }
    (line.len() <= WIDTH).then_some((line, close + 1))
}

/// Whether `line` holds the type of an `error_body!` call, which prettyplease prints as
/// `crate ::x` (a macro's tokens, spaced as tokens).
fn is_error_body_line(line: &str) -> bool {
    let line = line.trim_start();
    line.starts_with("::oncegen_runtime::error_body!(crate ::") || line.starts_with("crate ::")
}

/// Whether `line` (indentation removed) starts a function signature: `fn name(`, maybe after
/// `pub`, `pub(crate)`, `async`, `const`.
fn is_fn_signature(line: &str) -> bool {
    let mut rest = line;
    for prefix in ["pub(crate) ", "pub(super) ", "pub ", "const ", "async "] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    rest.strip_prefix("fn ").is_some_and(|name| {
        name.strip_suffix('(')
            .is_some_and(|n| n.chars().all(|c| c.is_alphanumeric() || c == '_'))
    })
}

/// The call re-printed, or `None` if it does not parse as `Name { entries }` (or
/// `Name by "tag" { entries }`).
fn relaid(call: &str, printed: &str) -> Option<String> {
    let args = printed.strip_prefix(call)?.trim_end().strip_suffix(");")?;
    let tokens: TokenStream = args.parse().ok()?;
    let mut tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let Some(TokenTree::Group(body)) = tokens.pop() else {
        return None;
    };
    if !matches!(tokens.first(), Some(TokenTree::Ident(_))) {
        return None;
    }
    let name = tokens
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ");
    let mut entries = entries(body.stream());
    if call == FROM_VARIANTS {
        entries = entries.iter().map(|e| type_spacing(e)).collect();
    }
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

/// `entry` without the spaces a token stream puts around `::`, `<`, `>` and before `(`, `)`
/// and `,` (`Variant (Box < crate :: types :: A >)` → `Variant(Box<crate::types::A>)`).
fn type_spacing(entry: &str) -> String {
    let chars: Vec<char> = entry.chars().collect();
    let mut out = String::with_capacity(entry.len());
    for (i, &c) in chars.iter().enumerate() {
        let after_opening = out.ends_with([':', '<', '(']);
        let before_closing = chars
            .get(i + 1)
            .is_some_and(|next| [':', '<', '>', '(', ')', ','].contains(next));
        if c == ' ' && (after_opening || before_closing) {
            continue;
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::entry_calls;

    #[test]
    fn short_calls_take_one_line_and_long_ones_fill_whole_entries() {
        let printed = "\
struct A;
::oncegen_runtime::json_object!(Short { a, b = \"b\" optional });
::oncegen_runtime::json_object!(
    Long { first_field optional, second_field = \"secondField\" optional, third_field
    = \"thirdField\" optional, fourth optional, ..additional_properties }
);
::oncegen_runtime::json_object!(Empty {});
::oncegen_runtime::untagged_union!(
    OperationOrLegacyWriteResponse { OperationEnvelope, LegacyWriteResponse boxed }
);
::oncegen_runtime::tagged_union!(
    Shape by \"kind\" { Circle = \"circle\", Square = \"square\" }
);
::oncegen_runtime::from_variants!(
    Shape { Circle (super :: types :: Circle), Squares (Box < Vec < Square > >), Map
    (BTreeMap < String , i64 >) }
);
";
        assert_eq!(
            entry_calls(printed),
            "\
struct A;
::oncegen_runtime::json_object!(Short { a, b = \"b\" optional });
::oncegen_runtime::json_object!(Long {
    first_field optional, second_field = \"secondField\" optional,
    third_field = \"thirdField\" optional, fourth optional, ..additional_properties
});
::oncegen_runtime::json_object!(Empty {});
::oncegen_runtime::untagged_union!(OperationOrLegacyWriteResponse {
    OperationEnvelope, LegacyWriteResponse boxed
});
::oncegen_runtime::tagged_union!(Shape by \"kind\" { Circle = \"circle\", Square = \"square\" });
::oncegen_runtime::from_variants!(Shape {
    Circle(super::types::Circle), Squares(Box<Vec<Square>>), Map(BTreeMap<String, i64>)
});
"
        );
    }

    #[test]
    fn signatures_and_request_calls_that_fit_take_one_line() {
        let printed = "\
pub fn send(
    self,
) -> ::oncegen_runtime::ResponseFuture<'c, crate::types::Zone> {
    let mut request = ::oncegen_runtime::request!(
        Get \"/v1/zones/{zoneName}\", \"getZone\", None
    );
}
pub fn long(
    first_argument_with_a_long_name: impl Into<String>,
    second_argument_with_a_long_name: impl Into<String>,
) -> Self {
    let x = call(
        a,
    );
    ::oncegen_runtime::error_body!(crate ::types::Problem, \"404\");
    ::oncegen_runtime::error_body!(
        crate ::types::ErrorEnvelopeWithAVeryLongName, \"400\", \"401\", \"403\", \"409\", \"429\", \"5XX\"
    );
    request
        .header_opt(
            \"x-svc-response-format\",
            self.x_svc_response_format.as_ref(),
        );
    request
        .query_opt(
            \"a-query-parameter-with-a-name-long-enough\",
            self.a_query_parameter_with_a_name_long_enough.as_ref(),
        );
}
";
        assert_eq!(
            super::joined_lines(printed),
            "\
pub fn send(self) -> ::oncegen_runtime::ResponseFuture<'c, crate::types::Zone> {
    let mut request = ::oncegen_runtime::request!(Get \"/v1/zones/{zoneName}\", \"getZone\", None);
}
pub fn long(
    first_argument_with_a_long_name: impl Into<String>,
    second_argument_with_a_long_name: impl Into<String>,
) -> Self {
    let x = call(
        a,
    );
    ::oncegen_runtime::error_body!(crate::types::Problem, \"404\");
    ::oncegen_runtime::error_body!(
        crate::types::ErrorEnvelopeWithAVeryLongName, \"400\", \"401\", \"403\", \"409\", \"429\", \"5XX\"
    );
    request.header_opt(\"x-svc-response-format\", self.x_svc_response_format.as_ref());
    request.query_opt(
        \"a-query-parameter-with-a-name-long-enough\",
        self.a_query_parameter_with_a_name_long_enough.as_ref(),
    );
}
"
        );
    }

    #[test]
    fn a_wire_name_with_punctuation_stays_one_token() {
        let printed =
            "::oncegen_runtime::json_object!(\n    A { x = \"a, b);\" optional, y }\n);\n";
        assert_eq!(
            entry_calls(printed),
            "::oncegen_runtime::json_object!(A { x = \"a, b);\" optional, y });\n"
        );
    }
}
