//! Lowering the API's cross-cutting conventions: waiting (`x-poll`), settling unknown writes
//! (`x-operation-lookup`), contract discovery (`x-contract-version`, `x-capabilities`), and the
//! error-code catalog (`x-error-codes`, `x-retry-codes`). These are the facts the runtime's
//! generic mechanisms consume, so the runtime itself names no operation, path or code.

use super::Lowerer;
use crate::error::{Error, Result};
use crate::ir::{
    Capabilities, Conventions, ErrorCode, ErrorEnvelope, ErrorSource, Operation, OperationLookup,
    ParamLocation, Poll, RetryCode, Success, TypeKind, TypeRef,
};
use crate::naming::{self, Namespace};
use crate::read::Node;
use std::collections::BTreeMap;

impl Lowerer<'_> {
    /// Reads an operation's `x-poll`; the subject's type is found by walking its pointer
    /// through the success type's fields (`Json` where the walk leaves named structs).
    pub(super) fn poll(&self, op: &Node<'_>, success: &Success) -> Result<Option<Poll>> {
        let Some(node) = op.get("x-poll") else {
            return Ok(None);
        };
        let subject = node.str("subject").unwrap_or("").to_owned();
        let Some(status) = node.str("status") else {
            return Err(node.error("`x-poll` needs `status`, the member holding the status"));
        };
        let start = match success {
            Success::Json(ty) => ty.clone(),
            Success::Untyped => TypeRef::Json,
            Success::Text | Success::Binary | Success::Empty => {
                return Err(node.error("`x-poll` needs a JSON success response"));
            }
        };
        let subject_ty = self.walk_pointer(start, &subject);
        let poll = Poll {
            subject,
            subject_ty,
            status: status.to_owned(),
            done: node.str("done").map(str::to_owned),
            pending: node.strings("pending"),
            succeeded: node.strings("succeeded"),
            failed: node.strings("failed"),
            unknown: node.strings("unknown"),
            receipt_id: node.strings("receipt-id"),
        };
        if poll.done.is_none() && poll.pending.is_empty() {
            return Err(node
                .error("`x-poll` needs `done` or `pending`: nothing says when polling may stop"));
        }
        if let Some(bad) = poll.receipt_id.iter().find(|p| !p.starts_with('/')) {
            return Err(node.error(format!(
                "`x-poll`: receipt-id `{bad}` is not a JSON pointer"
            )));
        }
        Ok(Some(poll))
    }

    /// The type at `pointer` inside a value of type `ty`, through named structs and aliases.
    fn walk_pointer(&self, ty: TypeRef, pointer: &str) -> TypeRef {
        let mut current = ty;
        for segment in pointer.split('/').skip(1) {
            let segment = openapi_conventions::pointer::unescape(segment);
            current = match self.resolve_alias(&current) {
                TypeRef::Named(name) => match self.kind_of(&name) {
                    Some(TypeKind::Struct { fields, .. }) => {
                        match fields.iter().find(|f| f.name == segment) {
                            Some(f) => f.ty.clone(),
                            None => return TypeRef::Json,
                        }
                    }
                    _ => return TypeRef::Json,
                },
                _ => return TypeRef::Json,
            };
        }
        current
    }

    fn resolve_alias(&self, ty: &TypeRef) -> TypeRef {
        let mut current = ty.clone();
        for _ in 0..16 {
            match &current {
                TypeRef::Named(name) => match self.kind_of(name) {
                    Some(TypeKind::Alias { target }) => current = target.clone(),
                    _ => break,
                },
                _ => break,
            }
        }
        current
    }

    fn kind_of(&self, name: &str) -> Option<&TypeKind> {
        self.defs.iter().find(|d| d.name == name).map(|d| &d.kind)
    }
}

/// Reads the operation-level convention extensions of every lowered operation.
pub(super) fn conventions(root: &Node<'_>, operations: &[Operation]) -> Result<Conventions> {
    let mut out = Conventions::default();
    for (op, node) in operation_nodes(root, operations) {
        if let Some(lookup) = node.get("x-operation-lookup") {
            if out.lookup.is_some() {
                return Err(lookup.error("a second `x-operation-lookup`: only one is allowed"));
            }
            out.lookup = Some(operation_lookup(&lookup, op)?);
        }
        if node.flag("x-contract-version") {
            called_without_arguments(&node, "x-contract-version", op)?;
            out.contract_version = Some(op.operation_id.clone());
        }
        if node.get("x-capabilities").is_some() {
            called_without_arguments(&node, "x-capabilities", op)?;
            out.capabilities = Some(Capabilities {
                operation_id: op.operation_id.clone(),
                names: node.strings("x-capabilities"),
            });
        }
    }
    out.error_envelope = error_envelope(root)?;
    let receipt_polls = operations
        .iter()
        .filter(|o| o.poll.as_ref().is_some_and(|p| !p.receipt_id.is_empty()))
        .count();
    if receipt_polls > 1 {
        return Err(Error::at(
            "#/paths",
            "several operations have an `x-poll` with `receipt-id`: receipts need exactly one",
        ));
    }
    Ok(out)
}

/// Pairs each lowered operation with its node in the document.
/// `check_contract` calls the operation `key` marks with no argument: a located error when it
/// needs one (a path or required parameter, a required body).
fn called_without_arguments(node: &Node<'_>, key: &str, op: &Operation) -> Result<()> {
    let mut needs: Vec<String> = op
        .params
        .iter()
        .filter(|p| p.required || p.location == ParamLocation::Path)
        .map(|p| format!("{} parameter `{}`", p.location.as_str(), p.name))
        .collect();
    if op.body.as_ref().is_some_and(|b| b.required) {
        needs.push("a request body".to_owned());
    }
    if needs.is_empty() {
        return Ok(());
    }
    let at = node.get(key).unwrap_or_else(|| node.clone());
    Err(at.error(format!(
        "`{key}`: `check_contract` calls `{}` without arguments, but it requires {}",
        op.operation_id,
        needs.join(", ")
    )))
}

fn operation_nodes<'a, 'o>(
    root: &Node<'a>,
    operations: &'o [Operation],
) -> Vec<(&'o Operation, Node<'a>)> {
    let Some(paths) = root.get("paths") else {
        return Vec::new();
    };
    operations
        .iter()
        .filter_map(|op| {
            let node = paths.get(&op.path)?.get(op.method.key())?;
            Some((op, node))
        })
        .collect()
}

/// The one `x-error-envelope` among the component schemas, if any.
fn error_envelope(root: &Node<'_>) -> Result<Option<ErrorEnvelope>> {
    let Some(schemas) = root.get("components").and_then(|c| c.get("schemas")) else {
        return Ok(None);
    };
    let mut found = None;
    for (_, schema) in schemas.entries() {
        let Some(node) = schema.get("x-error-envelope") else {
            continue;
        };
        if found.is_some() {
            return Err(node.error("a second `x-error-envelope`: only one is allowed"));
        }
        let pointers = |key: &str| -> Result<Vec<String>> {
            let list = node.strings(key);
            match list.iter().find(|p| !p.starts_with('/')) {
                Some(bad) => Err(node.error(format!(
                    "`x-error-envelope`: `{bad}` under `{key}` is not a JSON pointer"
                ))),
                None => Ok(list),
            }
        };
        found = Some(ErrorEnvelope {
            code: pointers("code")?,
            message: pointers("message")?,
            request_id: pointers("request-id")?,
            field_errors: pointers("field-errors")?,
            details: pointers("details")?,
        });
    }
    Ok(found)
}

fn operation_lookup(node: &Node<'_>, op: &Operation) -> Result<OperationLookup> {
    let text = |key: &str| {
        node.str(key)
            .map(str::to_owned)
            .ok_or_else(|| node.error(format!("`x-operation-lookup` needs `{key}`")))
    };
    let query_param = |key: &str| {
        let name = text(key)?;
        if op
            .params
            .iter()
            .any(|p| p.location == ParamLocation::Query && p.name == name)
        {
            Ok(name)
        } else {
            Err(node.error(format!(
                "`x-operation-lookup`: `{key}` names `{name}`, which is not a query parameter of `{}`",
                op.operation_id
            )))
        }
    };
    let code = |key: &str| {
        let code = text(key)?;
        if op.responses.iter().any(|r| r.error_codes.contains(&code)) {
            Ok(code)
        } else {
            Err(node.error(format!(
                "`x-operation-lookup`: `{key}` names code `{code}`, which no response of `{}` lists in `x-error-codes`",
                op.operation_id
            )))
        }
    };
    Ok(OperationLookup {
        operation_id: op.operation_id.clone(),
        idempotency_key: query_param("idempotency-key")?,
        method: query_param("method")?,
        path: query_param("path")?,
        found_id: text("found-id")?,
        not_found: code("not-found")?,
        ambiguous: code("ambiguous")?,
        expired: code("expired")?,
    })
}

/// The error-code catalog: every `x-error-codes` entry of every operation, with the root
/// `x-retry-codes` (each of which must be a listed code).
pub(super) fn error_codes(root: &Node<'_>, operations: &[Operation]) -> Result<Vec<ErrorCode>> {
    let mut sources: BTreeMap<String, Vec<ErrorSource>> = BTreeMap::new();
    for op in operations {
        for response in &op.responses {
            for code in &response.error_codes {
                sources.entry(code.clone()).or_default().push(ErrorSource {
                    operation_id: op.operation_id.clone(),
                    status: response.status.clone(),
                });
            }
        }
    }
    let mut retry = BTreeMap::new();
    if let Some(node) = root.get("x-retry-codes") {
        for (code, value) in node.entries() {
            let kind = match value.value.as_str() {
                Some("automatic") => RetryCode::Automatic,
                Some("caller") => RetryCode::Caller,
                _ => {
                    return Err(value.error(format!(
                        "`x-retry-codes`: `{code}` must be `automatic` or `caller`"
                    )));
                }
            };
            if !sources.contains_key(code) {
                return Err(value.error(format!(
                    "`x-retry-codes`: `{code}` is not listed in any response's `x-error-codes`"
                )));
            }
            retry.insert(code.to_owned(), kind);
        }
    }
    let mut names = Namespace::with_reserved(&["Unknown"]);
    Ok(sources
        .into_iter()
        .map(|(code, mut returned_by)| {
            returned_by.sort();
            returned_by.dedup();
            ErrorCode {
                variant: names.claim(naming::variant(&code)),
                retry: retry.get(&code).copied(),
                code,
                returned_by,
            }
        })
        .collect())
}
