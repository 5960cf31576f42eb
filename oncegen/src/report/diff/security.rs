//! Changes of the security schemes (`security_schemes`) and of each operation's security
//! requirements, for the Rust API and for released SDKs calling the new server.

use super::{Changes, Class, Wire, renames, union_keys};
use crate::surface::SchemeSurface;
use crate::surface::{OperationSurface, Surface};
use std::collections::BTreeMap;

/// Area label of changes to the security schemes (the crate's `security_schemes` module).
pub const SECURITY_AREA: &str = "security_schemes";

type Schemes = BTreeMap<String, SchemeSurface>;

/// Removed scheme → added scheme, for pairs the server reads the same way.
fn renamed<'a>(old: &'a Schemes, new: &'a Schemes) -> BTreeMap<&'a str, &'a str> {
    renames::pairs(old, new, |a, b| a.wire_identity() == b.wire_identity())
}

pub(super) fn schemes(old_api: &Surface, new_api: &Surface, out: &mut Changes) {
    let (old, new) = (&old_api.security_schemes, &new_api.security_schemes);
    let renamed = renamed(old, new);
    let rename_targets: Vec<&str> = renamed.values().copied().collect();
    for key in union_keys(old, new) {
        let subject = format!("security scheme `{key}`");
        match (old.get(key), new.get(key)) {
            (Some(o), None) => match renamed.get(key) {
                Some(new_key) => out.push(
                    Class::Breaking,
                    SECURITY_AREA,
                    format!(
                        "{subject} probably renamed to `{new_key}` (key `{}` → `{}`, still {}): \
                         code naming `security_schemes::{key}` stops compiling",
                        o.name,
                        new[*new_key].name,
                        o.wire_text()
                    ),
                ),
                None => out.push(
                    Class::Breaking,
                    SECURITY_AREA,
                    format!(
                        "{subject} removed (was {}): code that sets its credential \
                         (`Config::scheme_credential(&security_schemes::{key}, …)`) stops \
                         compiling",
                        o.wire_text()
                    ),
                ),
            },
            (None, Some(_)) if rename_targets.contains(&key) => {}
            (None, Some(n)) => out.push(
                Class::Additive,
                SECURITY_AREA,
                format!(
                    "{subject} added ({}; key `{}`), set with \
                     `Config::scheme_credential(&security_schemes::{key}, …)`",
                    n.wire_text(),
                    n.name
                ),
            ),
            (Some(o), Some(n)) => scheme(key, o, n, old_api, out),
            (None, None) => {}
        }
    }
}

fn scheme(key: &str, o: &SchemeSurface, n: &SchemeSurface, old_api: &Surface, out: &mut Changes) {
    let subject = format!("security scheme `{key}`");
    let mut parts = Vec::new();
    if o.kind != n.kind {
        parts.push((
            Class::Breaking,
            format!(
                "{} → {}: a credential of the old kind set for it is now a configuration error \
                 (`SchemeCredential::{}` → `SchemeCredential::{}`)",
                o.wire_text(),
                n.wire_text(),
                o.kind.as_str(),
                n.kind.as_str()
            ),
        ));
    } else if (&o.location, &o.param) != (&n.location, &n.param) {
        parts.push((
            Class::DocsOnly,
            format!(
                "sent as {} → {} (the credential set for it goes to the new place; code is \
                 unchanged)",
                o.wire_text(),
                n.wire_text()
            ),
        ));
    }
    if o.name != n.name {
        parts.push((Class::DocsOnly, format!("key `{}` → `{}`", o.name, n.name)));
    }
    if o.doc != n.doc {
        parts.push((Class::DocsOnly, "description changed".to_owned()));
    }
    out.push_parts(SECURITY_AREA, &subject, parts);
    if o.wire_identity() != n.wire_identity() {
        let users = operations_naming(old_api, key);
        out.wire(
            Wire::Breaking,
            SECURITY_AREA,
            &users,
            format!(
                "{subject}: the server now expects {}; released SDKs send {} (calls get 401)",
                n.wire_text(),
                o.wire_text()
            ),
        );
    }
}

/// The client methods of `api` whose requirements name the scheme `key`.
fn operations_naming<'a>(api: &'a Surface, key: &str) -> Vec<&'a str> {
    let mut found: Vec<&str> = api
        .operations
        .values()
        .filter(|op| {
            op.security
                .iter()
                .flatten()
                .any(|r| r.iter().any(|s| s == key))
        })
        .map(|op| op.rust_fn.as_str())
        .collect();
    found.sort();
    found
}

/// The Rust API change of one operation's security requirements, and what it does to released
/// SDKs. An old requirement is still met when a new one needs no scheme it lacks (the
/// credentials a caller set for it still cover one).
pub(super) fn requirements(
    o: &OperationSurface,
    n: &OperationSurface,
    (old_api, new_api): (&Surface, &Surface),
) -> (Option<(Class, String)>, Option<String>) {
    match (&o.security, &n.security) {
        (None, None) => (None, None),
        (None, Some(new)) => {
            let text = format!("security now stated: {}", requirements_text(new));
            (Some((Class::DocsOnly, text)), None)
        }
        (Some(old), None) => {
            let text = format!(
                "security no longer stated (was {}): no scheme credential is sent",
                requirements_text(old)
            );
            (Some((Class::DocsOnly, text)), None)
        }
        (Some(old), Some(new)) => {
            let renamed = renamed(&old_api.security_schemes, &new_api.security_schemes);
            let old = under_new_names(&needs_none_as_empty(old), &renamed);
            stated_in_both(&old, &needs_none_as_empty(new))
        }
    }
}

/// The requirements with each renamed scheme under its new name, sorted within each.
fn under_new_names(old: &[Vec<String>], renamed: &BTreeMap<&str, &str>) -> Vec<Vec<String>> {
    let new_name = |s: &String| {
        renamed
            .get(s.as_str())
            .map_or(s.as_str(), |n| *n)
            .to_owned()
    };
    old.iter()
        .map(|r| {
            let mut mapped: Vec<String> = r.iter().map(new_name).collect();
            mapped.sort();
            mapped
        })
        .collect()
}

/// Requirements both revisions state (`old` under the new scheme names): an old requirement no
/// new one is covered by breaks code and released SDKs; new alternatives only add.
fn stated_in_both(
    old: &[Vec<String>],
    new: &[Vec<String>],
) -> (Option<(Class, String)>, Option<String>) {
    if old == new {
        return (None, None);
    }
    let change = format!(
        "security {} → {}",
        requirements_text(old),
        requirements_text(new)
    );
    let covers = |have: &[String], need: &[String]| need.iter().all(|s| have.contains(s));
    let unmet: Vec<&Vec<String>> = old
        .iter()
        .filter(|have| !new.iter().any(|need| covers(have, need)))
        .collect();
    if !unmet.is_empty() {
        let unmet_text = requirements_text(unmet.iter().copied());
        let rust = format!(
            "{change}: code that set credentials for {unmet_text} only must set those of a new \
             requirement"
        );
        let wire = format!(
            "{change}: released SDKs whose client has credentials for {unmet_text} only send \
             those, which the server no longer accepts (calls get 401)"
        );
        return (Some((Class::Breaking, rust)), Some(wire));
    }
    (Some(alternatives(&change, old, new)), None)
}

/// Every old requirement is still met: the new ones are alternatives, or only reordered.
fn alternatives(change: &str, old: &[Vec<String>], new: &[Vec<String>]) -> (Class, String) {
    let alternatives: Vec<&Vec<String>> = new.iter().filter(|r| !old.contains(r)).collect();
    if alternatives.is_empty() {
        let text = format!("{change} (the credentials each old requirement needs still suffice)");
        (Class::DocsOnly, text)
    } else if alternatives.iter().any(|r| r.is_empty()) {
        let text = format!("{change}: callable without a credential now");
        (Class::Additive, text)
    } else {
        let text = format!(
            "{change}: {} now accepted as well",
            requirements_text(alternatives.iter().copied())
        );
        (Class::Additive, text)
    }
}

/// The requirements, with "none stated" (`security: []`: the operation needs no credential)
/// as the one empty requirement it means.
fn needs_none_as_empty(requirements: &[Vec<String>]) -> Vec<Vec<String>> {
    if requirements.is_empty() {
        vec![Vec::new()]
    } else {
        requirements.to_vec()
    }
}

/// `` `A` or `B` + `C` ``, `no credential` for an empty requirement (or none).
fn requirements_text<'a>(requirements: impl IntoIterator<Item = &'a Vec<String>>) -> String {
    let each: Vec<String> = requirements
        .into_iter()
        .map(|r| {
            if r.is_empty() {
                "no credential".to_owned()
            } else {
                r.iter()
                    .map(|s| format!("`{s}`"))
                    .collect::<Vec<_>>()
                    .join(" + ")
            }
        })
        .collect();
    if each.is_empty() {
        "no credential".to_owned()
    } else {
        each.join(" or ")
    }
}
