//! The part of `api.json` that says how the SDK reaches and authenticates to the API: the
//! document's security schemes (the crate's `security_schemes` statics) and servers (its
//! `servers` constants and functions), as a Rust caller and the wire see them.

use crate::ir::{SchemeKind, SecuritySchemeDef, ServerDef, ServerVariable};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A security scheme, keyed in `api.json` by its `static` (`security_schemes::BEARER_AUTH`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchemeDescription {
    /// Its key under `components.securitySchemes`: what the runtime files credentials under.
    pub name: String,
    /// How its credential travels: `api_key`, `basic` or `bearer` (`oauth2` and
    /// `openIdConnect` are a bearer token the caller obtained).
    pub kind: String,
    /// For `api_key`: `header`, `query` or `cookie`.
    #[serde(rename = "in", default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// For `api_key`: the header, query parameter or cookie name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub param: Option<String>,
    /// Its description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
}

impl SchemeDescription {
    /// How the credential travels, in words (`an API key in header `x-api-key``).
    pub fn wire_text(&self) -> String {
        match (self.kind.as_str(), &self.location, &self.param) {
            ("api_key", Some(location), Some(param)) => {
                let place = if location == "query" {
                    "query parameter"
                } else {
                    location
                };
                format!("an API key in {place} `{param}`")
            }
            ("basic", _, _) => "a user name and password (`Authorization: Basic`)".to_owned(),
            ("bearer", _, _) => "a bearer token (`Authorization: Bearer`)".to_owned(),
            (kind, _, _) => format!("`{kind}`"),
        }
    }

    /// What the server reads: the kind, where and under which name (header names compared
    /// without case, as HTTP does).
    pub fn wire_identity(&self) -> (String, Option<String>, Option<String>) {
        let param = match self.location.as_deref() {
            Some("header") => self.param.as_deref().map(str::to_ascii_lowercase),
            _ => self.param.clone(),
        };
        (self.kind.clone(), self.location.clone(), param)
    }
}

/// A server, keyed in `api.json` by its constant (`servers::PRODUCTION`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerDescription {
    /// The URL template as written (`https://{region}.example.com`).
    pub url: String,
    /// Its description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its variables in the order of the server function's arguments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<VariableDescription>,
}

impl ServerDescription {
    /// The constant's value: the template with every variable at its default.
    pub fn value(&self) -> String {
        // The emitter fills the template the same way (`emit::security::fill`).
        let mut out = self.url.clone();
        for v in &self.variables {
            out = out.replace(&format!("{{{}}}", v.name), &v.default);
        }
        out
    }

    /// Whether `url` is one of the URLs this server stands for: the template with each
    /// variable set to one of its listed values, or to anything when it lists none.
    pub fn lists(&self, url: &str) -> bool {
        matches_template(&self.url, &self.variables, url)
    }
}

/// A variable of a server URL: an argument of the server's function.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariableDescription {
    /// Its name in the URL template.
    pub name: String,
    /// The function's argument naming it.
    pub rust_name: String,
    /// Its default (what the constant is filled with).
    pub default: String,
    /// The values it may take (`enum`), sorted; empty: any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
    /// Its description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
}

/// The schemes by `static` name.
pub fn schemes(defs: &[SecuritySchemeDef]) -> BTreeMap<String, SchemeDescription> {
    defs.iter()
        .map(|s| {
            let (kind, location, param) = match &s.kind {
                SchemeKind::ApiKey { location, param } => (
                    "api_key",
                    Some(super::describe::serde_name(location)),
                    Some(param.clone()),
                ),
                SchemeKind::Basic => ("basic", None, None),
                SchemeKind::Bearer => ("bearer", None, None),
            };
            let description = SchemeDescription {
                name: s.name.clone(),
                kind: kind.to_owned(),
                location,
                param,
                doc: s.doc.clone(),
            };
            (s.rust_name.clone(), description)
        })
        .collect()
}

/// The servers by constant name.
pub fn servers(defs: &[ServerDef]) -> BTreeMap<String, ServerDescription> {
    defs.iter()
        .map(|s| {
            let description = ServerDescription {
                url: s.url.clone(),
                description: s.description.clone(),
                variables: s.variables.iter().map(variable).collect(),
            };
            (s.rust_name.clone(), description)
        })
        .collect()
}

fn variable(v: &ServerVariable) -> VariableDescription {
    let mut values = v.values.clone();
    values.sort();
    values.dedup();
    VariableDescription {
        name: v.name.clone(),
        rust_name: v.rust_name.clone(),
        default: v.default.clone(),
        values,
        doc: v.doc.clone(),
    }
}

/// One piece of a URL template.
enum Piece<'a> {
    /// Text as written.
    Literal(&'a str),
    /// A variable: one of these values, or any text when empty.
    Variable(&'a [String]),
}

/// Whether `url` is `template` with each `{variable}` replaced by one of its values (any text
/// for a variable without listed values or not described). Positions already ruled out are
/// remembered, so the time stays polynomial in the URL's length whatever the template.
fn matches_template(template: &str, variables: &[VariableDescription], url: &str) -> bool {
    let mut pieces = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|c| open + c) else {
            break;
        };
        pieces.push(Piece::Literal(&rest[..open]));
        let name = &rest[open + 1..close];
        let values = variables
            .iter()
            .find(|v| v.name == name)
            .map(|v| v.values.as_slice())
            .unwrap_or_default();
        pieces.push(Piece::Variable(values));
        rest = &rest[close + 1..];
    }
    pieces.push(Piece::Literal(rest));
    let mut ruled_out = std::collections::HashSet::new();
    matches_from(&pieces, url, 0, 0, &mut ruled_out)
}

/// Whether `pieces[piece..]` match `url[at..]`.
fn matches_from(
    pieces: &[Piece<'_>],
    url: &str,
    piece: usize,
    at: usize,
    ruled_out: &mut std::collections::HashSet<(usize, usize)>,
) -> bool {
    let Some(current) = pieces.get(piece) else {
        return at == url.len();
    };
    if ruled_out.contains(&(piece, at)) {
        return false;
    }
    let tail = &url[at..];
    let found = match current {
        Piece::Literal(text) => {
            tail.starts_with(text)
                && matches_from(pieces, url, piece + 1, at + text.len(), ruled_out)
        }
        Piece::Variable([]) => (at..=url.len())
            .filter(|end| url.is_char_boundary(*end))
            .any(|end| matches_from(pieces, url, piece + 1, end, ruled_out)),
        Piece::Variable(values) => values.iter().any(|value| {
            tail.starts_with(value.as_str())
                && matches_from(pieces, url, piece + 1, at + value.len(), ruled_out)
        }),
    };
    if !found {
        ruled_out.insert((piece, at));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(name: &str, default: &str, values: &[&str]) -> VariableDescription {
        VariableDescription {
            name: name.to_owned(),
            rust_name: name.to_owned(),
            default: default.to_owned(),
            values: values.iter().map(|v| (*v).to_owned()).collect(),
            doc: None,
        }
    }

    #[test]
    fn a_server_lists_its_template_filled_with_allowed_values() {
        let server = ServerDescription {
            url: "https://{region}.example.com/{version}".to_owned(),
            description: None,
            variables: vec![
                var("region", "eu", &["eu", "us"]),
                var("version", "v1", &[]),
            ],
        };
        assert_eq!(server.value(), "https://eu.example.com/v1");
        assert!(server.lists("https://us.example.com/v2"));
        assert!(server.lists("https://eu.example.com/"));
        assert!(!server.lists("https://ap.example.com/v1"));
        assert!(!server.lists("http://eu.example.com/v1"));
        let plain = ServerDescription {
            url: "https://api.example.com".to_owned(),
            description: None,
            variables: Vec::new(),
        };
        assert!(plain.lists("https://api.example.com"));
        assert!(!plain.lists("https://api.example.com/v2"));
    }

    #[test]
    fn many_open_variables_do_not_hang_the_match() {
        let names: Vec<String> = (0..40).map(|i| format!("v{i}")).collect();
        let url: String = names.iter().map(|n| format!("{{{n}}}")).collect::<String>() + "/end";
        let server = ServerDescription {
            url,
            description: None,
            variables: names.iter().map(|n| var(n, "x", &[])).collect(),
        };
        let long = "a".repeat(200);
        assert!(!server.lists(&format!("{long}/nope")));
        assert!(server.lists(&format!("{long}/end")));
    }
}
