//! The responses besides the success body: the documented error responses and success
//! headers.

use super::super::{Changes, Class, Wire, set_change, ticks, union_keys};
use super::Pair;
use crate::surface::ResponseHeadersSurface;
use std::collections::BTreeMap;

/// The error responses, status by status, in one line.
pub(super) fn errors(pair: &Pair<'_>, out: &mut Changes) {
    if let Some(text) = error_responses(&pair.o.errors, &pair.n.errors) {
        pair.line(out, Class::DocsOnly, text);
    }
}

/// The success headers: for the code, and the ones released SDKs no longer receive.
pub(super) fn headers(pair: &Pair<'_>, out: &mut Changes) {
    let (old, new) = (
        pair.o.response_headers.as_ref(),
        pair.n.response_headers.as_ref(),
    );
    for (class, text) in response_headers(old, new) {
        pair.line(out, class, text);
    }
    for text in headers_gone(old, new) {
        pair.wire(out, Wire::Degraded, text);
    }
}

/// Status-by-status changes of the error responses, in one line.
fn error_responses(
    old: &BTreeMap<String, Vec<String>>,
    new: &BTreeMap<String, Vec<String>>,
) -> Option<String> {
    let mut parts = Vec::new();
    for status in union_keys(old, new) {
        match (old.get(status), new.get(status)) {
            (None, Some(codes)) => parts.push(format!(
                "error response {status} added{}",
                codes_suffix(codes)
            )),
            (Some(_), None) => parts.push(format!("error response {status} removed")),
            (Some(o), Some(n)) => {
                if let Some(text) = set_change("code", o, n) {
                    parts.push(format!("error response {status}: {text}"));
                }
            }
            (None, None) => {}
        }
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

fn codes_suffix(codes: &[String]) -> String {
    if codes.is_empty() {
        String::new()
    } else {
        format!(" ({})", ticks(codes))
    }
}

/// The documented success headers, for the code: a header added is a new field of a
/// `non_exhaustive` view (additive); one removed, retyped, or the view renamed, breaks code
/// that reads it.
fn response_headers(
    o: Option<&ResponseHeadersSurface>,
    n: Option<&ResponseHeadersSurface>,
) -> Vec<(Class, String)> {
    let listed = |h: &ResponseHeadersSurface| {
        let names: Vec<String> = h.headers.keys().map(|k| format!("`{k}`")).collect();
        names.join(", ")
    };
    let (o, n) = match (o, n) {
        (None, None) => return Vec::new(),
        (None, Some(n)) => {
            let text = format!(
                "`response_headers` added (returns `{}`: {})",
                n.ty,
                listed(n)
            );
            return vec![(Class::Additive, text)];
        }
        (Some(o), None) => {
            let text = format!("`response_headers` removed (returned {})", listed(o));
            return vec![(Class::Breaking, text)];
        }
        (Some(o), Some(n)) => (o, n),
    };
    let mut out = Vec::new();
    for (name, ty) in &n.headers {
        match o.headers.get(name) {
            None => out.push((
                Class::Additive,
                format!("response header `{name}` (`{ty}`) added"),
            )),
            Some(was) if was != ty => out.push((
                Class::Breaking,
                format!("response header `{name}`: type `{was}` → `{ty}`"),
            )),
            Some(_) => {}
        }
    }
    for name in o
        .headers
        .keys()
        .filter(|name| !n.headers.contains_key(*name))
    {
        out.push((Class::Breaking, format!("response header `{name}` removed")));
    }
    if o.ty != n.ty {
        out.push((
            Class::Breaking,
            format!("`response_headers` returns `{}` (was `{}`)", n.ty, o.ty),
        ));
    }
    out
}

/// Documented success headers the server no longer sends: released SDKs read `None` there.
fn headers_gone(
    o: Option<&ResponseHeadersSurface>,
    n: Option<&ResponseHeadersSurface>,
) -> Vec<String> {
    let Some(o) = o else { return Vec::new() };
    o.headers
        .keys()
        .filter(|name| n.is_none_or(|n| !n.headers.contains_key(*name)))
        .map(|name| {
            format!("response header `{name}` no longer documented: released SDKs read `None`")
        })
        .collect()
}
