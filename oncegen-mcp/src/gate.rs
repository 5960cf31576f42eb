//! The safety gates: what the operator must enable at start before a tool may change anything.
//! Reads are always allowed; writes need `--allow-writes`; deletions and other destructive
//! operations also need `--allow-destructive`. A refusal says which flag enables the call, so
//! an agent can tell its user instead of retrying.

use crate::{Failure, Tool};

/// What the operator enabled.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Gates {
    /// `--allow-writes`.
    pub writes: bool,
    /// `--allow-destructive`.
    pub destructive: bool,
}

impl Gates {
    /// Why `tool` may not be called, if it may not.
    pub fn refusal<C>(&self, tool: &Tool<C>) -> Option<Failure> {
        let name = tool.name;
        if tool.effects.writes && !self.writes {
            return Some(Failure::refused(format!(
                "`{name}` changes state and this server is read-only: it was started without \
                 --allow-writes. Ask the operator to restart it with --allow-writes if this \
                 change is wanted; do not retry."
            )));
        }
        if tool.effects.destructive && !self.destructive {
            return Some(Failure::refused(format!(
                "`{name}` is destructive ({} {}) and this server was started without \
                 --allow-destructive. Ask the operator to restart it with --allow-destructive \
                 if this is wanted; do not retry.",
                tool.method, tool.path
            )));
        }
        None
    }
}
