//! Hooks: a small interface the client calls around every HTTP attempt (before it is sent,
//! after its response or failure), for the user's metrics and logging.
//!
//! Hooks see no header and no body, so no credential can reach them. They run inline on the
//! request path: keep them cheap and non-blocking.
//!
//! ```
//! use std::sync::atomic::{AtomicU64, Ordering};
//! use oncegen_runtime::hooks::{AttemptInfo, AttemptOutcome, Hook};
//!
//! #[derive(Debug, Default)]
//! struct Count5xx(AtomicU64);
//!
//! impl Hook for Count5xx {
//!     fn after_response(&self, _attempt: &AttemptInfo<'_>, outcome: &AttemptOutcome<'_>) {
//!         if outcome.status().is_some_and(|s| s >= 500) {
//!             self.0.fetch_add(1, Ordering::Relaxed);
//!         }
//!     }
//! }
//! let config = oncegen_runtime::Config::new("https://api.example.com")
//!     .hook(std::sync::Arc::new(Count5xx::default()));
//! # let _ = config;
//! ```

use std::fmt;
use std::time::Duration;

use crate::spec::Method;
use crate::transport::TransportError;

/// Called around every HTTP attempt of every call (retries, resends and reconciliation
/// lookups included), and before the call waits to send again. Each method does nothing by
/// default.
pub trait Hook: Send + Sync + fmt::Debug {
    /// Before an attempt is handed to the transport.
    fn before_send(&self, attempt: &AttemptInfo<'_>) {
        let _ = attempt;
    }

    /// After the attempt ended: a response arrived (any status) or the transport failed.
    fn after_response(&self, attempt: &AttemptInfo<'_>, outcome: &AttemptOutcome<'_>) {
        let _ = (attempt, outcome);
    }

    /// After `attempt` ended, before the call waits `wait.duration` to send again (a retry's
    /// backoff, a 429's `Retry-After`): for a program to say why it is quiet.
    fn before_wait(&self, attempt: &AttemptInfo<'_>, wait: &Wait) {
        let _ = (attempt, wait);
    }
}

/// A wait before the call sends again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Wait {
    /// How long.
    pub duration: Duration,
    /// The status of the answer that caused it (429 when rate limited); `None` after a
    /// transport failure.
    pub status: Option<u16>,
    /// The most attempts the retry policy allows (a 429 does not use one up).
    pub max_attempts: u32,
}

/// Which attempt of which call.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct AttemptInfo<'a> {
    /// Operation id of the call.
    pub operation_id: &'a str,
    /// HTTP method.
    pub method: Method,
    /// Path template of the operation (`/zones/{name}`): low cardinality, for metric labels.
    pub url_template: &'a str,
    /// Path as sent, without the query.
    pub path: &'a str,
    /// 1 for the first attempt of the call, then 2, 3…
    pub attempt: u32,
    /// The call's `Idempotency-Key`, for writes.
    pub idempotency_key: Option<&'a str>,
}

/// How an attempt ended.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum AttemptOutcome<'a> {
    /// A response arrived (any status).
    Response {
        /// HTTP status.
        status: u16,
        /// The server's `x-request-id`, if any.
        request_id: Option<&'a str>,
        /// Time from handing the attempt to the transport to the end of the body.
        elapsed: Duration,
    },
    /// No complete response: connect failure, timeout, reset, truncated or oversized body.
    Failed {
        /// The transport failure.
        error: &'a TransportError,
        /// Time from handing the attempt to the transport to the failure.
        elapsed: Duration,
    },
}

impl AttemptOutcome<'_> {
    /// The HTTP status, when a response arrived.
    pub fn status(&self) -> Option<u16> {
        match self {
            AttemptOutcome::Response { status, .. } => Some(*status),
            AttemptOutcome::Failed { .. } => None,
        }
    }

    /// How long the attempt took.
    pub fn elapsed(&self) -> Duration {
        match self {
            AttemptOutcome::Response { elapsed, .. } | AttemptOutcome::Failed { elapsed, .. } => {
                *elapsed
            }
        }
    }
}
