//! Security schemes (`components.securitySchemes`) and each operation's `security`.

use crate::ir::{ParamLocation, SchemeKind, SecuritySchemeDef};
use crate::naming::{self, Namespace};
use crate::read::Node;

/// The schemes the runtime can send, sorted by name: `apiKey` (header, query, cookie), `http`
/// `basic` and `bearer`, and `oauth2`/`openIdConnect` as a bearer token the caller obtained.
/// Others (`http digest`, `mutualTLS`) are left out: a requirement naming one cannot be met.
pub(super) fn schemes(root: &Node<'_>) -> Vec<SecuritySchemeDef> {
    let Some(schemes) = root
        .get("components")
        .and_then(|c| c.get("securitySchemes"))
    else {
        return Vec::new();
    };
    let mut entries = schemes.entries();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    let mut names = Namespace::default();
    let mut out = Vec::new();
    for (name, node) in entries {
        let Ok(node) = node.resolve(root.value) else {
            continue;
        };
        let kind = match node.str("type") {
            Some("apiKey") => {
                let location = match node.str("in") {
                    Some("header") => ParamLocation::Header,
                    Some("query") => ParamLocation::Query,
                    Some("cookie") => ParamLocation::Cookie,
                    _ => continue,
                };
                let Some(param) = node.str("name").filter(|p| valid_param(p)) else {
                    continue;
                };
                SchemeKind::ApiKey {
                    location,
                    param: param.to_owned(),
                }
            }
            Some("http") => match node.str("scheme").map(str::to_ascii_lowercase).as_deref() {
                Some("basic") => SchemeKind::Basic,
                Some("bearer") => SchemeKind::Bearer,
                _ => continue,
            },
            Some("oauth2" | "openIdConnect") => SchemeKind::Bearer,
            _ => continue,
        };
        out.push(SecuritySchemeDef {
            name: name.to_owned(),
            rust_name: names.claim(naming::snake(name).to_ascii_uppercase()),
            kind,
            signed: node.get("x-signing").is_some(),
            doc: node
                .str("description")
                .map(str::trim)
                .filter(|d| !d.is_empty())
                .map(str::to_owned),
        });
    }
    out
}

/// An operation's `security` (else the document's) as requirements of scheme Rust names; a
/// requirement naming a scheme the runtime cannot send is left out. `None` when neither says
/// anything, or when every requirement was left out (the client's own credentials then go as
/// they always do); `Some(vec![])` or an empty requirement: the operation needs none.
pub(super) fn requirements(
    op: &Node<'_>,
    root: &Node<'_>,
    schemes: &[SecuritySchemeDef],
) -> Option<Vec<Vec<String>>> {
    let security = op.get("security").or_else(|| root.get("security"))?;
    let listed = security.items();
    let kept: Vec<Vec<String>> = listed
        .iter()
        .filter_map(|requirement| {
            requirement
                .entries()
                .into_iter()
                .map(|(name, _)| {
                    schemes
                        .iter()
                        .find(|s| s.name == name)
                        .map(|s| s.rust_name.clone())
                })
                .collect::<Option<Vec<String>>>()
        })
        .collect();
    (listed.is_empty() || !kept.is_empty()).then_some(kept)
}

/// Whether `name` can be a header, query or cookie name: visible ASCII without separators.
fn valid_param(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_graphic() && !b"\"(),/:;<=>?@[\\]{}".contains(&b))
}
