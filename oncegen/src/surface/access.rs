//! How the SDK reaches and authenticates to the API: the document's security schemes (the
//! crate's `security_schemes` statics) and servers (its `servers` constants and functions), as
//! a Rust caller and the wire see them. The emitter writes the constants' values and the
//! functions' names from [`default_url`] and [`server_function`].

use crate::ir::{ParamLocation, SchemeKind, SecuritySchemeDef, ServerDef, ServerVariable};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A security scheme, keyed in `api.json` by its `static` (`security_schemes::BEARER_AUTH`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchemeSurface {
    /// Its key under `components.securitySchemes`: what the runtime files credentials under.
    pub name: String,
    /// How its credential travels.
    pub kind: CredentialKind,
    /// For [`CredentialKind::ApiKey`]: header, query or cookie.
    #[serde(rename = "in", default, skip_serializing_if = "Option::is_none")]
    pub location: Option<ParamLocation>,
    /// For `api_key`: the header, query parameter or cookie name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub param: Option<String>,
    /// The client's signed mode sends it (`x-signing`), from the key and secret it is given.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub signed: bool,
    /// Its description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
}

impl SchemeSurface {
    /// How the credential travels, in words (`an API key in header `x-api-key``).
    pub fn wire_text(&self) -> String {
        match (self.kind, self.location, &self.param) {
            (CredentialKind::ApiKey, Some(location), Some(param)) => {
                let place = match location {
                    ParamLocation::Query => "query parameter",
                    ParamLocation::Header => "header",
                    ParamLocation::Cookie => "cookie",
                    ParamLocation::Path => "path",
                };
                format!("an API key in {place} `{param}`")
            }
            (CredentialKind::ApiKey, _, _) => "an API key".to_owned(),
            (CredentialKind::Basic, _, _) => {
                "a user name and password (`Authorization: Basic`)".to_owned()
            }
            (CredentialKind::Bearer, _, _) => "a bearer token (`Authorization: Bearer`)".to_owned(),
        }
    }

    /// What the server reads: the kind, where and under which name (header names compared
    /// without case, as HTTP does).
    pub fn wire_identity(&self) -> (CredentialKind, Option<ParamLocation>, Option<String>) {
        let param = match self.location {
            Some(ParamLocation::Header) => self.param.as_deref().map(str::to_ascii_lowercase),
            _ => self.param.clone(),
        };
        (self.kind, self.location, param)
    }
}

/// How a scheme's credential travels (`oauth2` and `openIdConnect` are a bearer token the
/// caller obtained).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CredentialKind {
    /// An API key in a header, query parameter or cookie.
    ApiKey,
    /// A user name and password (`Authorization: Basic`).
    Basic,
    /// A bearer token (`Authorization: Bearer`).
    Bearer,
}

impl CredentialKind {
    /// The name of the runtime's `SchemeCredential` constructor for it (`api_key`).
    pub fn as_str(self) -> &'static str {
        match self {
            CredentialKind::ApiKey => "api_key",
            CredentialKind::Basic => "basic",
            CredentialKind::Bearer => "bearer",
        }
    }
}

/// A server, keyed in `api.json` by its constant (`servers::PRODUCTION`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerSurface {
    /// The URL template as written (`https://{region}.example.com`).
    pub url: String,
    /// Its description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its variables in the order of the server function's arguments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<VariableSurface>,
}

impl ServerSurface {
    /// The constant's value: the template with every variable at its default.
    pub fn value(&self) -> String {
        fill(
            &self.url,
            self.variables
                .iter()
                .map(|v| (v.name.as_str(), v.default.as_str())),
        )
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
pub struct VariableSurface {
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
pub fn schemes(defs: &[SecuritySchemeDef]) -> BTreeMap<String, SchemeSurface> {
    defs.iter()
        .map(|s| {
            let (kind, location, param) = match &s.kind {
                SchemeKind::ApiKey { location, param } => {
                    (CredentialKind::ApiKey, Some(*location), Some(param.clone()))
                }
                SchemeKind::Basic => (CredentialKind::Basic, None, None),
                SchemeKind::Bearer => (CredentialKind::Bearer, None, None),
            };
            let description = SchemeSurface {
                name: s.name.clone(),
                kind,
                location,
                param,
                signed: s.signed,
                doc: s.doc.clone(),
            };
            (s.rust_name.clone(), description)
        })
        .collect()
}

/// The servers by constant name.
pub fn servers(defs: &[ServerDef]) -> BTreeMap<String, ServerSurface> {
    defs.iter()
        .map(|s| {
            let description = ServerSurface {
                url: s.url.clone(),
                description: s.description.clone(),
                variables: s.variables.iter().map(variable).collect(),
            };
            (s.rust_name.clone(), description)
        })
        .collect()
}

/// The value of a server's constant: its URL template with each variable at its default.
pub fn default_url(server: &ServerDef) -> String {
    fill(
        &server.url,
        server
            .variables
            .iter()
            .map(|v| (v.name.as_str(), v.default.as_str())),
    )
}

/// The name of the function of a server with variables: its constant's name in lower case.
pub fn server_function(constant: &str) -> String {
    constant.to_ascii_lowercase()
}

/// `template` with each `{name}` replaced by its value.
fn fill<'a>(template: &str, values: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    let mut out = template.to_owned();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

fn variable(v: &ServerVariable) -> VariableSurface {
    let mut values = v.values.clone();
    values.sort();
    values.dedup();
    VariableSurface {
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
fn matches_template(template: &str, variables: &[VariableSurface], url: &str) -> bool {
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

    fn var(name: &str, default: &str, values: &[&str]) -> VariableSurface {
        VariableSurface {
            name: name.to_owned(),
            rust_name: name.to_owned(),
            default: default.to_owned(),
            values: values.iter().map(|v| (*v).to_owned()).collect(),
            doc: None,
        }
    }

    #[test]
    fn a_server_lists_its_template_filled_with_allowed_values() {
        let server = ServerSurface {
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
        let plain = ServerSurface {
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
        let server = ServerSurface {
            url,
            description: None,
            variables: names.iter().map(|n| var(n, "x", &[])).collect(),
        };
        let long = "a".repeat(200);
        assert!(!server.lists(&format!("{long}/nope")));
        assert!(server.lists(&format!("{long}/end")));
    }
}
