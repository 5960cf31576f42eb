//! A call's outcome as a tool result, its answer once: as structured content for a client
//! whose protocol has it (2025-06-18 on) when the answer is an object, else as JSON text; the notes (the write's key, a replay, how a list continues) as text, the key also in
//! `_meta`; a failure as an error result an agent can read.
//!
//! The specification suggests repeating structured content as text for clients that predate
//! it; the protocol version says which clients those are, so no client pays for the answer
//! twice.

use crate::{Failure, Sent, Tool};
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, MetaObject, ProtocolVersion};
use serde_json::json;
use std::time::SystemTime;

/// How a client takes an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    /// As structured content (an object answer; the protocol's structured content is one).
    Structured,
    /// As JSON text only: the client's protocol predates structured content, or the answer
    /// was filtered to another shape.
    Text,
}

impl Form {
    /// The form a client speaking `version` takes.
    pub(crate) fn for_protocol(version: Option<&ProtocolVersion>) -> Form {
        match version {
            Some(v) if *v >= ProtocolVersion::V_2025_06_18 => Form::Structured,
            _ => Form::Text,
        }
    }
}

/// An outcome answered again: an earlier identical call's, or the API's replay of a key.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Replay {
    /// When the write was applied (settled), when known.
    pub(crate) applied_at: Option<SystemTime>,
}

/// The tool result of `outcome` (`replay` when it is an earlier call's), in `form`.
pub(crate) fn result<C>(
    tool: &Tool<C>,
    outcome: Result<Sent, Failure>,
    replay: Option<Replay>,
    form: Form,
) -> CallToolResult {
    let sent = match outcome {
        Ok(sent) => sent,
        Err(failure) => return failed(&failure),
    };
    let mut text = String::new();
    if let Some(key) = &sent.idempotency_key {
        text.push_str(&format!(
            "idempotency_key: {key} (calling this tool again with this key returns this outcome \
             and never writes twice)\n"
        ));
        if let Some(replay) = replay {
            let when = replay
                .applied_at
                .map_or_else(String::new, |t| format!(" (applied {})", rfc3339(t)));
            text.push_str(&format!(
                "replayed: the outcome of an earlier identical call{when}; nothing new was sent \
                 (pass a new idempotency_key for another write)\n"
            ));
        }
    }
    if tool.effects.long_running {
        text.push_str(
            "This write answered an operation receipt: follow it to its end with the \
             operation tool that offers `wait` (pass `wait: true`).\n",
        );
    }
    if let Some(paging) = tool.paging {
        text.push_str(&format!(
            "More results: call again with `{}` set from the answer's `{}` (absent or null \
             when this is the last page).\n",
            paging.argument, paging.next
        ));
    }
    let structured = form == Form::Structured && sent.value.is_object();
    if !structured {
        text.push_str(&serde_json::to_string(&sent.value).unwrap_or_default());
    }
    let mut result = CallToolResult::success(vec![ContentBlock::text(text.trim_end())]);
    if structured {
        result.structured_content = Some(sent.value);
    }
    if let Some(key) = sent.idempotency_key {
        let mut meta = JsonObject::new();
        meta.insert("idempotency_key".into(), json!(key));
        meta.insert("replayed".into(), json!(replay.is_some()));
        if let Some(t) = replay.and_then(|r| r.applied_at) {
            meta.insert("applied_at".into(), json!(rfc3339(t)));
        }
        result.meta = Some(MetaObject(meta));
    }
    result
}

/// The error result of `failure`.
pub(crate) fn failed(failure: &Failure) -> CallToolResult {
    let text = serde_json::to_string_pretty(&failure.to_json()).unwrap_or_default();
    CallToolResult::error(vec![ContentBlock::text(text)])
}

/// `t` as an RFC 3339 UTC time to the second.
fn rfc3339(t: SystemTime) -> String {
    chrono::DateTime::<chrono::Utc>::from(t).to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}
