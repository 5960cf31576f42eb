//! What the operation promises beyond its request and response: pagination, the
//! Idempotency-Key, the operation envelope, and its effects on the account.

use super::super::{Changes, Class, Wire, ticks};
use super::Pair;
use crate::ir::Idempotency;
use crate::surface::{Effects, PaginationSurface};

/// Pagination added, removed or changed; released SDKs' `into_stream` continues the old way.
pub(super) fn pagination(pair: &Pair<'_>, out: &mut Changes) {
    let (old, new) = (pair.o.pagination.as_ref(), pair.n.pagination.as_ref());
    if let Some((class, text)) = pagination_change(old, new) {
        pair.line(out, class, text);
    }
    if old.is_some() && old != new {
        let text = format!(
            "pagination {} → {}: `into_stream` of released SDKs continues the old way",
            pagination_text(old),
            pagination_text(new)
        );
        pair.wire(out, Wire::Breaking, text);
    }
}

/// The change of the Rust API when pagination changes: `into_stream` added or removed.
fn pagination_change(
    old: Option<&PaginationSurface>,
    new: Option<&PaginationSurface>,
) -> Option<(Class, String)> {
    match (old, new) {
        (None, Some(n)) => Some((
            Class::Additive,
            format!("paginated (`{}`): `into_stream` added", n.model),
        )),
        (Some(o), None) => Some((
            Class::Breaking,
            format!(
                "no longer paginated (was `{}`): `into_stream` removed",
                o.model
            ),
        )),
        (Some(o), Some(n)) if o != n => Some((
            Class::DocsOnly,
            format!(
                "pagination {} → {}",
                pagination_text(Some(o)),
                pagination_text(Some(n))
            ),
        )),
        _ => None,
    }
}

fn pagination_text(p: Option<&PaginationSurface>) -> String {
    match p {
        None => "none".to_owned(),
        Some(p) => format!(
            "`{}` (`{}` → `{}`, items `{}`)",
            p.model, p.next, p.request, p.items
        ),
    }
}

/// The Idempotency-Key: its setter comes and goes with whether a key is sent, and a key newly
/// required is one released SDKs never send.
pub(super) fn idempotency(pair: &Pair<'_>, out: &mut Changes) {
    let (old, new) = (pair.o.idempotency, pair.n.idempotency);
    if old == new {
        return;
    }
    let (class, setter) = match (old.sends_key(), new.sends_key()) {
        (false, _) => (Class::Additive, " (`idempotency_key` setter added)"),
        (_, false) => (Class::Breaking, " (`idempotency_key` setter removed)"),
        _ => (Class::DocsOnly, ""),
    };
    let text = format!(
        "Idempotency-Key `{}` → `{}`{setter}",
        old.as_str(),
        new.as_str()
    );
    pair.line(out, class, text);
    if old == Idempotency::None && new == Idempotency::Required {
        let text = "Idempotency-Key now required: released SDKs send none".to_owned();
        pair.wire(out, Wire::Breaking, text);
    }
}

/// Whether the operation accepts the operation envelope (its `operation_format` setter).
pub(super) fn envelope(pair: &Pair<'_>, out: &mut Changes) {
    let accepts = pair.n.operation_envelope;
    if pair.o.operation_envelope == accepts {
        return;
    }
    let (class, text) = if accepts {
        (
            Class::Additive,
            "accepts the operation envelope (`operation_format` setter added)",
        )
    } else {
        (
            Class::Breaking,
            "no longer accepts the operation envelope (`operation_format` setter removed)",
        )
    };
    pair.line(out, class, text.to_owned());
    if !accepts {
        let text = "no longer answers with the operation envelope: released SDKs that ask for it \
                    get the plain body";
        pair.wire(out, Wire::Degraded, text.to_owned());
    }
}

/// What changed in how tools treat the operation, one line each.
pub(super) fn effects(pair: &Pair<'_>, out: &mut Changes) {
    for text in effects_changes(&pair.o.effects, &pair.n.effects) {
        pair.line(out, Class::DocsOnly, text);
    }
}

/// What changed in how tools treat the operation: the CLI's confirmation and the MCP server's
/// enablements follow `destructive`, `purchase` and `grants_access`.
fn effects_changes(o: &Effects, n: &Effects) -> Vec<String> {
    let mut out = Vec::new();
    if o.destructive != n.destructive {
        out.push(if n.destructive {
            "now destructive: the CLI asks before it, the MCP server offers it only when destructive tools are enabled".to_owned()
        } else {
            "no longer destructive".to_owned()
        });
    }
    match (&o.purchase, &n.purchase) {
        (None, Some(_)) => {
            out.push("now charges the account: tools treat it as a purchase".to_owned())
        }
        (Some(_), None) => out.push("no longer charges the account".to_owned()),
        (Some(old), Some(new)) if old.ceiling != new.ceiling => out.push(format!(
            "spending ceiling members {} → {}",
            members(&old.ceiling),
            members(&new.ceiling)
        )),
        _ => {}
    }
    match (&o.grants_access, &n.grants_access) {
        (None, Some(what)) => out.push(format!(
            "now grants access ({what}): the CLI asks before it, the MCP server offers it only when access grants are enabled"
        )),
        (Some(_), None) => out.push("no longer grants access".to_owned()),
        _ => {}
    }
    out
}

fn members(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_owned()
    } else {
        ticks(names)
    }
}
