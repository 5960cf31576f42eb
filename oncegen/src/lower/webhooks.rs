//! Lowering webhooks (3.1 `webhooks`) and callbacks (an operation's `callbacks`): the requests
//! the API sends to the user, each with a typed payload.

use super::Lowerer;
use crate::error::Result;
use crate::ir::{TypeRef, Webhook};
use crate::naming::{self, Namespace};
use crate::read::Node;

/// HTTP methods a webhook path item may use.
const METHODS: [&str; 5] = ["post", "put", "patch", "get", "delete"];

impl<'a> Lowerer<'a> {
    /// Every webhook and callback of the document, sorted by name.
    pub(super) fn lower_webhooks(&mut self, root: &Node<'a>) -> Result<Vec<Webhook>> {
        let mut found: Vec<(String, Node<'a>)> = Vec::new();
        if let Some(webhooks) = root.get("webhooks") {
            for (name, item) in webhooks.entries() {
                found.push((name.to_owned(), item));
            }
        }
        if let Some(paths) = root.get("paths") {
            for (_, item) in paths.entries() {
                let item = item.resolve(self.root)?;
                for method in METHODS.iter().chain(["head", "options", "trace"].iter()) {
                    let Some(op) = item.get(method) else { continue };
                    let Some(callbacks) = op.get("callbacks") else {
                        continue;
                    };
                    let owner = op.str("operationId").unwrap_or(method);
                    for (name, callback) in callbacks.entries() {
                        let callback = callback.resolve(self.root)?;
                        for (_, item) in callback.entries() {
                            found.push((format!("{owner}.{name}"), item));
                        }
                    }
                }
            }
        }
        found.sort_by(|a, b| a.0.cmp(&b.0));
        let mut variants = Namespace::with_reserved(&[]);
        let mut out = Vec::new();
        for (name, item) in found {
            let item = item.resolve(self.root)?;
            for method in METHODS {
                let Some(op) = item.get(method) else { continue };
                let hint = format!("{} Webhook", naming::camel(&name));
                let payload = match json_body_schema(&op, self.root)? {
                    Some(schema) => self.lower_schema(&schema, &hint)?.ty,
                    None => TypeRef::Json,
                };
                let doc = op
                    .str("summary")
                    .or_else(|| op.str("description"))
                    .map(|s| s.trim().to_owned())
                    .filter(|s| !s.is_empty());
                out.push(Webhook {
                    variant: variants.claim(naming::camel(&name)),
                    name: name.clone(),
                    payload,
                    doc,
                    pointer: op.pointer.clone(),
                });
                break;
            }
        }
        Ok(out)
    }
}

/// The JSON schema of an operation's request body, if it has one.
fn json_body_schema<'a>(op: &Node<'a>, root: &'a serde_json::Value) -> Result<Option<Node<'a>>> {
    let Some(body) = op.get("requestBody") else {
        return Ok(None);
    };
    let body = body.resolve(root)?;
    let Some(content) = body.get("content") else {
        return Ok(None);
    };
    Ok(content
        .entries()
        .into_iter()
        .find(|(media, _)| {
            let m = media.to_ascii_lowercase();
            m.contains("json")
        })
        .and_then(|(_, m)| m.get("schema")))
}
