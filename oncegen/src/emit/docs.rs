//! Documentation text: spec prose made safe for rustdoc, emitted as `#[doc]` attributes.

use crate::surface::ConstraintsSurface;
use proc_macro2::TokenStream;
use quote::quote;

/// What a value's constraints say, in words (`Format: uuid. 1 to 64 characters. Pattern: …`);
/// `None` when there are none.
pub fn constraints_doc(c: &ConstraintsSurface) -> Option<String> {
    let code = |v: &str| format!("`{}`", v.replace('`', "'"));
    let json = |v: &serde_json::Value| code(&v.to_string());
    let range = |min: Option<String>, max: Option<String>, unit: &str| match (min, max) {
        (Some(a), Some(b)) if a == b => Some(format!("Exactly {a} {unit}.")),
        (Some(a), Some(b)) => Some(format!("{a} to {b} {unit}.")),
        (Some(a), None) => Some(format!("At least {a} {unit}.")),
        (None, Some(b)) => Some(format!("At most {b} {unit}.")),
        (None, None) => None,
    };
    let parts: Vec<String> = [
        c.format.as_deref().map(|f| format!("Format: {}.", code(f))),
        range(
            c.min_length.map(|v| v.to_string()),
            c.max_length.map(|v| v.to_string()),
            "characters",
        ),
        range(
            c.min_items.map(|v| v.to_string()),
            c.max_items.map(|v| v.to_string()),
            "items",
        ),
        c.unique_items.then(|| "Items are unique.".to_owned()),
        c.minimum.as_ref().map(|v| format!("Minimum {}.", json(v))),
        c.exclusive_minimum
            .as_ref()
            .map(|v| format!("Greater than {}.", json(v))),
        c.maximum.as_ref().map(|v| format!("Maximum {}.", json(v))),
        c.exclusive_maximum
            .as_ref()
            .map(|v| format!("Less than {}.", json(v))),
        c.multiple_of
            .as_ref()
            .map(|v| format!("A multiple of {}.", json(v))),
        c.pattern
            .as_deref()
            .map(|p| format!("Pattern: {}.", code(p))),
        c.default.as_ref().map(|v| format!("Default: {}.", json(v))),
    ]
    .into_iter()
    .flatten()
    .collect();
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// `#[doc = "..."]` attributes, one per line of `text` (which is sanitized first).
pub fn doc_attrs(text: &str) -> TokenStream {
    lines_attrs(&sanitize(text))
}

/// `#[doc]` attributes for text the generator wrote itself (not sanitized).
pub fn lines_attrs(text: &str) -> TokenStream {
    let lines = text.trim_end().lines().map(|l| {
        let line = if l.is_empty() {
            String::new()
        } else {
            format!(" {l}")
        };
        quote!(#[doc = #line])
    });
    quote!(#(#lines)*)
}

/// `text` ended as a sentence (a `.` added unless it ends in `.`, `!` or `?`), for more to follow
/// in its paragraph.
pub fn as_sentence(text: &str) -> String {
    if text.ends_with(['.', '!', '?']) {
        text.to_owned()
    } else {
        format!("{text}.")
    }
}

/// Makes spec prose safe for rustdoc and clippy: no doctests (code fences become `text`, no
/// indented code blocks), no intra-doc links or HTML tags (`[`, `]`, `<` escaped outside code
/// spans), bare URLs wrapped in `<>`.
pub fn sanitize(text: &str) -> String {
    let mut out = Vec::new();
    let mut in_fence = false;
    for raw in text
        .replace("\r\n", "\n")
        .replace('\r', "\n")
        .replace('\t', "    ")
        .lines()
    {
        let line = raw.trim_start();
        if line.starts_with("```") || line.starts_with("~~~") {
            out.push(if in_fence {
                "```".to_owned()
            } else {
                "```text".to_owned()
            });
            in_fence = !in_fence;
        } else if in_fence {
            out.push(line.to_owned());
        } else {
            out.push(escape_line(line.trim_end()));
        }
    }
    if in_fence {
        out.push("```".to_owned());
    }
    let joined = out.join("\n");
    joined.trim().to_owned()
}

fn escape_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let mut in_code = false;
    let balanced = line.matches('`').count().is_multiple_of(2);
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        if c == '`' && balanced {
            in_code = !in_code;
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        if !in_code && (rest.starts_with("http://") || rest.starts_with("https://")) {
            let end = rest
                .find(|c: char| c.is_whitespace() || "\"'<>`)]".contains(c))
                .unwrap_or(rest.len());
            let url = rest[..end].trim_end_matches(['.', ',', ';', ':']);
            out.push('<');
            out.push_str(url);
            out.push('>');
            rest = &rest[url.len()..];
            continue;
        }
        if !in_code && matches!(c, '[' | ']' | '<' | '>') {
            out.push('\\');
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// `#[deprecated(note = "…")]` for a deprecated item, the note the surface recorded; a bare
/// `#[deprecated]` when it has none; nothing when it is not deprecated.
pub fn deprecated_attr(deprecated: bool, note: Option<&str>) -> Option<TokenStream> {
    deprecated.then(|| match note {
        Some(note) => quote!(#[deprecated(note = #note)]),
        None => quote!(#[deprecated]),
    })
}

#[cfg(test)]
mod tests {
    use super::{deprecated_attr, sanitize};

    #[test]
    fn escapes_links_html_code_and_urls() {
        assert_eq!(sanitize("See [x] <b>"), "See \\[x\\] \\<b\\>");
        assert_eq!(sanitize("go to https://x.io/a."), "go to <https://x.io/a>.");
        assert_eq!(sanitize("```\nlet x\n```"), "```text\nlet x\n```");
        assert_eq!(sanitize("    indented"), "indented");
        assert_eq!(sanitize("`a[0]`"), "`a[0]`");
    }

    #[test]
    fn the_attribute_carries_the_note_when_there_is_one() {
        let attr = |d: bool, note: Option<&str>| deprecated_attr(d, note).map(|t| t.to_string());
        assert_eq!(
            attr(true, Some("Use `name` instead.")).as_deref(),
            Some("# [deprecated (note = \"Use `name` instead.\")]")
        );
        assert_eq!(attr(true, None).as_deref(), Some("# [deprecated]"));
        assert_eq!(attr(false, Some("Use `name` instead.")), None);
    }
}
