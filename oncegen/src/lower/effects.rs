//! Lowering the effects a document declares beyond its methods: `x-destructive` (a write
//! that overwrites or removes data though it is not a `DELETE`) and `x-charges` (a call that
//! spends the account's money, and the body members that cap the amount).

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

/// `x-charges` of `op`: absent, or an object whose optional `ceiling` lists the request body's
/// members that cap the amount charged (any one of them, when the body has several shapes).
pub(super) fn charges(op: &Node<'_>) -> Result<Option<Charges>> {
    let Some(node) = op.get("x-charges") else {
        return Ok(None);
    };
    if !node.value.is_object() {
        return Err(node.error("`x-charges` is an object (`{}` or `{ceiling: [member, …]}`)"));
    }
    if let Some(unknown) = node
        .entries()
        .into_iter()
        .find(|(key, _)| *key != "ceiling")
    {
        return Err(unknown
            .1
            .error("`x-charges` knows only `ceiling`, the body members that cap the amount"));
    }
    let ceiling = match node.get("ceiling") {
        None => Vec::new(),
        Some(list) => {
            let items = list.items();
            if !list.value.is_array() || items.is_empty() {
                return Err(list.error("`ceiling` is a non-empty list of request body members"));
            }
            items
                .iter()
                .map(|item| {
                    item.value.as_str().map(str::to_owned).ok_or_else(|| {
                        item.error("a `ceiling` entry is the name of a request body member")
                    })
                })
                .collect::<Result<_>>()?
        }
    };
    if !ceiling.is_empty() && op.get("requestBody").is_none() {
        return Err(
            node.error("`x-charges` names a `ceiling` but the operation has no request body")
        );
    }
    Ok(Some(Charges { ceiling }))
}
