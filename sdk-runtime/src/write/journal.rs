//! A durable journal of in-flight writes (cargo feature `journal`), so that a process that dies
//! between sending a write and learning its outcome can settle it after a restart.
//!
//! With a journal set ([`Config::journal`](crate::Config::journal)), the client records every
//! write that carries an `Idempotency-Key` **before its first attempt** (key, operation,
//! method, path and query, content type, body bytes, client request id, other headers) and
//! settles the entry
//! once the outcome is definite: a response the decision table accepts, or a final rejection.
//! A write whose outcome stays unknown stays open. On start-up,
//! [`Client::recover_writes`](crate::Client::recover_writes) settles every open entry through
//! the API's lookup and a same-key resend, and reports each outcome.
//!
//! [`WriteJournal`] is the store, so any durable store can be plugged in;
//! [`FileJournal`](crate::FileJournal) is the embedded default. Writes without a key are never
//! journaled: they cannot be settled without one.
//!
//! The journal holds request bodies: keep it where only the application can read it (the file
//! journal creates its files with mode 0600 on Unix). Credentials are never recorded.

use std::fmt;
use std::io;

use bytes::Bytes;
use futures::future::BoxFuture;

use crate::spec::Method;

/// A store of in-flight writes.
///
/// `record` must be durable when its future completes (the write is sent right after);
/// `settle` need not be: an entry whose settlement was lost is settled again by recovery with
/// the same key, which the server deduplicates.
pub trait WriteJournal: Send + Sync + fmt::Debug {
    /// Records a write before its first attempt, durably.
    fn record<'a>(&'a self, write: &'a JournaledWrite) -> BoxFuture<'a, io::Result<()>>;

    /// Closes the entry of the write sent with `key`.
    fn settle<'a>(&'a self, key: &'a str, settlement: Settlement) -> BoxFuture<'a, io::Result<()>>;

    /// The writes recorded and not settled, oldest first, and the records that could not be
    /// read back. Call it (through recovery) at start-up, before new writes are in flight.
    fn pending(&self) -> BoxFuture<'_, io::Result<Pending>>;
}

/// A write as the journal keeps it: enough to resend it byte for byte (credentials aside).
#[derive(Clone, PartialEq, Eq)]
pub struct JournaledWrite {
    /// The `Idempotency-Key`: the entry's identity.
    pub key: String,
    /// Operation id.
    pub operation_id: String,
    /// HTTP method.
    pub method: Method,
    /// Path and query as sent, without the base URL's prefix.
    pub target: String,
    /// `Content-Type` of the body, if any.
    pub content_type: Option<String>,
    /// Exact body bytes.
    pub body: Bytes,
    /// The `x-client-request-id` sent, if any.
    pub client_request_id: Option<String>,
    /// The call's other headers (per-call extras, the response-format opt-in), credentials and
    /// the headers the runtime derives (user agent, accept, content type, key, client request
    /// id) excepted.
    pub headers: Vec<(String, String)>,
}

impl JournaledWrite {
    /// The path, without the query.
    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or_default()
    }
}

impl fmt::Debug for JournaledWrite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The body may hold secrets: only its length is shown.
        f.debug_struct("JournaledWrite")
            .field("key", &self.key)
            .field("operation", &self.operation_id)
            .field("method", &self.method)
            .field("target", &self.target)
            .field("content_type", &self.content_type)
            .field("body_len", &self.body.len())
            .field("client_request_id", &self.client_request_id)
            .field("headers", &self.headers)
            .finish()
    }
}

/// How a journaled write ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settlement {
    /// The server applied it (answered 2xx).
    Applied {
        /// The status of the answer.
        status: u16,
    },
    /// The server certainly did not apply it (rejected, redirected, or never delivered).
    NotApplied,
}

/// What a journal holds open.
#[derive(Clone, Debug, Default)]
pub struct Pending {
    /// Writes recorded and not settled, oldest first.
    pub writes: Vec<JournaledWrite>,
    /// Records that could not be read back (torn by a crash, corrupted): never resent.
    pub damaged: Vec<DamagedRecord>,
}

/// A record the journal could not read back. Recovery reports it and never resends anything
/// for it: without an intact record, the write's key and body cannot be trusted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DamagedRecord {
    /// Byte offset of the record in the store.
    pub offset: u64,
    /// Its length in bytes.
    pub length: usize,
    /// Why it was rejected (torn last record, checksum mismatch, unreadable…).
    pub reason: String,
}
