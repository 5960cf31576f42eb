//! What a handler sees of its request, what it answers, and the handler type itself.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use crate::auth::Credential;
use crate::errors::ApiError;
use crate::spec::{Operation, Spec};
use crate::state::State;

/// An operation's handler: runs with the account state locked, answers a reply or an error.
pub type Handler = fn(&mut State, &Ctx) -> Result<Reply, ApiError>;

/// What a handler sees of its (authenticated, validated) request.
#[derive(Debug)]
pub struct Ctx {
    /// The contract (for answers synthesized from its schemas).
    pub spec: Arc<Spec>,
    /// The matched operation.
    pub op: Operation,
    /// Path parameters by name.
    pub path: HashMap<String, String>,
    /// Query pairs in order.
    pub query: Vec<(String, String)>,
    /// Parsed, validated JSON body.
    pub body: Option<Value>,
    /// The authenticated credential.
    pub cred: Option<Credential>,
    /// `x-svc-response-format: operation` was sent.
    pub operation_format: bool,
    /// The Idempotency-Key, if any.
    pub idem_key: Option<String>,
}

impl Ctx {
    /// First value of a query parameter.
    pub fn query_param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// A path parameter by its name in the spec (empty when absent).
    pub fn param(&self, name: &str) -> &str {
        self.path.get(name).map_or("", String::as_str)
    }

    /// The value of the path template's parameter at `index` (0: the first), by the name the
    /// matched route declares: handlers name no parameter, so a revision that renames one
    /// (`{id}` → `{templateId}`) is served with no edit (empty when the template has fewer).
    pub fn path_arg(&self, index: usize) -> &str {
        self.op
            .path
            .split('/')
            .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
            .nth(index)
            .map_or("", |name| self.param(name))
    }

    /// A listing answer: one page of `items` in the operation's pagination model (the items
    /// are shaped as records by [`Ctx::success`]).
    pub fn list(&self, items: Vec<Value>) -> Result<Reply, ApiError> {
        let body = crate::pagination::paginate(self.op.pagination.as_ref(), &items, &self.query)?;
        Ok(self.success(body))
    }

    /// The operation's documented success status with `body`, its records shaped to the
    /// spec's schemas ([`crate::shape::records`]).
    pub fn success(&self, body: Value) -> Reply {
        let body = crate::shape::records(&self.spec, self.op.success.1.as_deref(), body);
        Reply {
            status: self.op.success.0,
            body,
        }
    }
}

/// A successful handler answer.
#[derive(Debug)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// JSON body.
    pub body: Value,
}
