//! Lowering the effects a document declares beyond its methods: `x-destructive` (a write
//! that overwrites or removes data though it is not a `DELETE`), `x-charges` (a call that
//! spends the account's money, and what bounds the amount) and `x-grants-access` (a write
//! that grants access: a credential, a password).

use crate::error::Result;
use crate::ir::Charges;
use crate::read::Node;

/// `x-destructive` of `op`: `true`, `false` or absent; anything else is a located error.
pub(super) fn destructive(op: &Node<'_>) -> Result<bool> {
    match op.get("x-destructive") {
        None => Ok(false),
        Some(node) => node
            .value
            .as_bool()
            .ok_or_else(|| node.error("`x-destructive` is `true` or `false`")),
    }
}

/// `x-grants-access` of `op`: absent, or a non-empty phrase naming what the call grants.
pub(super) fn grants_access(op: &Node<'_>) -> Result<Option<String>> {
    let Some(node) = op.get("x-grants-access") else {
        return Ok(None);
    };
    match node.value.as_str().map(str::trim) {
        Some(what) if !what.is_empty() => Ok(Some(what.to_owned())),
        _ => Err(node.error("`x-grants-access` is a phrase naming what the call grants")),
    }
}

/// `x-charges` of `op`: absent, or an object saying what bounds the amount: `ceiling`, the
/// request body's members that cap it (any one of them, when the body has several shapes), or
/// `amount: not-shown`, no ceiling and no read of the amount before paying.
pub(super) fn charges(op: &Node<'_>) -> Result<Option<Charges>> {
    let Some(node) = op.get("x-charges") else {
        return Ok(None);
    };
    let shapes = "`x-charges` is `{ceiling: [member, …]}` or `{amount: not-shown}`";
    if !node.value.is_object() {
        return Err(node.error(shapes));
    }
    if let Some(unknown) = node
        .entries()
        .into_iter()
        .find(|(key, _)| !matches!(*key, "ceiling" | "amount"))
    {
        return Err(unknown.1.error(
            "`x-charges` knows only `ceiling` (the body members that cap the amount) and \
             `amount` (`not-shown`)",
        ));
    }
    match (node.get("ceiling"), node.get("amount")) {
        (Some(list), None) => {
            let ceiling = ceiling(&list)?;
            if op.get("requestBody").is_none() {
                return Err(node
                    .error("`x-charges` names a `ceiling` but the operation has no request body"));
            }
            Ok(Some(Charges { ceiling }))
        }
        (None, Some(amount)) if amount.value.as_str() == Some("not-shown") => {
            Ok(Some(Charges::default()))
        }
        (None, Some(amount)) => Err(amount.error(
            "`amount` is `not-shown`: the reference shows no read of the amount before paying",
        )),
        _ => Err(node.error(shapes)),
    }
}

/// The members a `ceiling` list names.
fn ceiling(list: &Node<'_>) -> Result<Vec<String>> {
    let items = list.items();
    if !list.value.is_array() || items.is_empty() {
        return Err(list.error("`ceiling` is a non-empty list of request body members"));
    }
    items
        .iter()
        .map(|item| {
            item.value
                .as_str()
                .map(str::to_owned)
                .ok_or_else(|| item.error("a `ceiling` entry is the name of a request body member"))
        })
        .collect()
}
