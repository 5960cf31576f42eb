//! A durable journal of writes (cargo feature `journal`), so that an outcome is never lost to a
//! crash: neither the write nor what became of it.
//!
//! # The protocol
//!
//! With a journal set ([`Config::journal`](crate::Config::journal)), every write that carries an
//! `Idempotency-Key` goes through these steps (a kill may land between any two):
//!
//! 1. **append** the write (key, operation, method, path and query, content type, body bytes,
//!    client request id, other headers, and the application's [intent](crate::CallOptions::set_intent))
//!    and **fsync** it, *before the first attempt*: a write the server may have seen is always
//!    in the journal. Concurrent writes share one fsync (group commit).
//! 2. **send**, **receive**: the call runs as usual (retries with the same key and body,
//!    reconciliation of an unknown outcome).
//! 3. **settle**: once the outcome is definite (the server's answer, or certainly not applied),
//!    the journal records it *with the entry still open*. An unknown outcome records nothing.
//! 4. the call returns the outcome; the application records it in its own state, then
//! 5. **acknowledges** it ([`Client::acknowledge_write`](crate::Client::acknowledge_write)):
//!    only then is the entry **closed**.
//!
//! On start-up, *before new writes are sent*,
//! [`Client::recover_writes`](crate::Client::recover_writes) reports every entry not
//! acknowledged: a settled one with the outcome the journal kept (no request is sent), an open
//! one after settling it through the API's lookup and a same-key resend (which the server only
//! replays if it applied the write). Recovery acknowledges nothing: a recovery killed part-way
//! reports the same outcomes again on the next start. So every outcome reaches the application
//! at least once, and the application makes it exactly once by keeping its own record per
//! intent (acknowledging an outcome it already has is harmless).
//!
//! Exactly-once across crashes then needs from the application: an intent id of its own on
//! every write (or a key derived from one), recovery before new writes, and a new key only for
//! an intent that recovery did not report and the journal never held — never for one whose
//! outcome is unknown.
//!
//! Recovery settles an entry only with a client of the base URL and credential it was sent
//! with ([`JournaledWrite::base_url`], [`JournaledWrite::credential`]); another client reports
//! it unsettled and sends nothing.
//!
//! [`WriteJournal`] is the store, so any durable store can be plugged in;
//! [`SqliteJournal`](crate::SqliteJournal) is the embedded default, one file that many
//! processes of one machine share; with the `postgres` feature, `PostgresJournal` is one
//! journal shared by many machines. Writes without a key are never journaled: they cannot be
//! settled without one. When the same call may come twice (a tool's retry), [`crate::same_write`]
//! decides whether it is the same write.
//!
//! The journal holds request bodies and answers until an entry is acknowledged: keep it where
//! only the application can read it (the SQLite journal creates its files with mode 0600 on
//! Unix). An acknowledged entry keeps neither (an answer may carry a secret the API minted).
//! Credentials are never recorded.

use std::fmt;
use std::io;
use std::time::SystemTime;

use bytes::Bytes;
use futures::future::BoxFuture;

use crate::spec::Method;

/// A store of writes and their outcomes (see the [protocol](self#the-protocol)).
///
/// `record` must be durable when its future completes (the write is sent right after).
/// `settle` and `acknowledge` need not force the disk: a settlement lost by a power cut only
/// means recovery settles that write again with the same key (the server replays its answer),
/// and a lost acknowledgement only means the outcome is reported again. Both must survive the
/// process being killed once their future completes.
pub trait WriteJournal: Send + Sync + fmt::Debug {
    /// Records a write before its first attempt, durably.
    fn record<'a>(&'a self, write: &'a JournaledWrite) -> BoxFuture<'a, io::Result<()>>;

    /// Records the definite outcome of the write sent with `key`; the entry stays until it is
    /// acknowledged.
    fn settle<'a>(
        &'a self,
        key: &'a str,
        settlement: &'a Settlement,
    ) -> BoxFuture<'a, io::Result<()>>;

    /// Closes the entry of the write sent with `key`: the application has its outcome. A key
    /// the journal does not hold is not an error.
    fn acknowledge<'a>(&'a self, key: &'a str) -> BoxFuture<'a, io::Result<()>>;

    /// The entries not acknowledged, oldest first (with their outcome when settled), and the
    /// records that could not be read back. Call it (through recovery) at start-up, before new
    /// writes are in flight.
    fn pending(&self) -> BoxFuture<'_, io::Result<Pending>>;

    /// Takes the oldest entry not acknowledged whose intent starts with `prefix`, when no
    /// other live process holds it (what [`same_write`](crate::same_write) resumes). The
    /// default reads [`pending`](Self::pending).
    fn resume<'a>(&'a self, prefix: &'a str) -> BoxFuture<'a, io::Result<Resume>> {
        Box::pin(async move {
            let pending = self.pending().await?;
            Ok(pending
                .writes
                .into_iter()
                .find(|w| {
                    w.write
                        .intent
                        .as_deref()
                        .is_some_and(|i| i.starts_with(prefix))
                })
                .map_or(Resume::None, |w| Resume::Taken(Box::new(w))))
        })
    }

    /// The write of an intent starting with `prefix` that was applied and acknowledged last,
    /// at or after `since`; the default knows none.
    fn delivered<'a>(
        &'a self,
        prefix: &'a str,
        since: SystemTime,
    ) -> BoxFuture<'a, io::Result<Option<Delivered>>> {
        let _ = (prefix, since);
        Box::pin(async { Ok(None) })
    }

    /// Every entry not acknowledged, whoever owns it, oldest first, claiming none (what an
    /// operator lists); `None` when the journal does not keep who owns an entry (the default).
    fn open_entries(&self) -> BoxFuture<'_, io::Result<Option<Vec<OpenEntry>>>> {
        Box::pin(async { Ok(None) })
    }

    /// What the journal knows of `key`, acknowledged or not; `None` when it holds no entry
    /// of it. The default reads [`pending`](Self::pending), so it knows only open entries.
    fn key_state<'a>(&'a self, key: &'a str) -> BoxFuture<'a, io::Result<Option<KeyState>>> {
        Box::pin(async move {
            let pending = self.pending().await?;
            Ok(pending
                .writes
                .iter()
                .find(|w| w.write.key == key)
                .map(KeyState::of_pending))
        })
    }
}

/// An entry not acknowledged and who holds it ([`WriteJournal::open_entries`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenEntry {
    /// Its key.
    pub key: String,
    /// The application's intent.
    pub intent: Option<String>,
    /// Operation id.
    pub operation_id: String,
    /// HTTP method, as recorded.
    pub method: String,
    /// Path and query as sent.
    pub target: String,
    /// The base URL it was sent to.
    pub base_url: Option<String>,
    /// Whether the server applied it, once settled; `None` while its outcome is unknown.
    pub applied: Option<bool>,
    /// When it was recorded (by the database's clock).
    pub recorded_at: SystemTime,
    /// Who holds it.
    pub owner: EntryOwner,
}

/// The owner of an open entry, as the journal recorded it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryOwner {
    /// The owner's id.
    pub id: String,
    /// The host it ran on, when recorded.
    pub host: Option<String>,
    /// Its process id, when recorded.
    pub pid: Option<u32>,
    /// Whether it is alive: its lease holds and (where the journal can see sessions) it still
    /// has one. A live owner settles its entries itself; recovery takes over only the others.
    pub alive: bool,
    /// Until when its lease holds, where the journal has leases.
    pub lease_until: Option<SystemTime>,
}

/// What [`WriteJournal::resume`] found.
#[derive(Debug)]
pub enum Resume {
    /// No entry of that intent is open.
    None,
    /// The entry, now this journal's to settle.
    Taken(Box<PendingWrite>),
    /// Another live process holds the entry of this key (it is sending or settling it).
    Busy {
        /// The entry's key.
        key: String,
    },
}

/// A write applied and acknowledged ([`WriteJournal::delivered`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivered {
    /// Its key.
    pub key: String,
    /// When it was settled.
    pub settled_at: Option<SystemTime>,
}

/// What a journal knows of one key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyState {
    /// The intent it was recorded with.
    pub intent: Option<String>,
    /// Whether the server applied it: `None` while its outcome is not known.
    pub applied: Option<bool>,
    /// Whether its outcome was handed to the application (the entry is closed).
    pub acknowledged: bool,
    /// When its outcome became known.
    pub settled_at: Option<SystemTime>,
}

impl KeyState {
    /// The state of an entry not acknowledged.
    pub fn of_pending(entry: &PendingWrite) -> Self {
        KeyState {
            intent: entry.write.intent.clone(),
            applied: entry.settlement.as_ref().map(Settlement::is_applied),
            acknowledged: false,
            settled_at: entry.settled_at,
        }
    }
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
    /// The operation's own server (`servers` on the operation or its path), if it has one:
    /// the target is sent there again, not to the base URL.
    pub server: Option<String>,
    /// `Content-Type` of the body, if any.
    pub content_type: Option<String>,
    /// Exact body bytes.
    pub body: Bytes,
    /// The `x-client-request-id` sent, if any.
    pub client_request_id: Option<String>,
    /// The application's own identifier of what this write does
    /// ([`CallOptions::set_intent`](crate::CallOptions::set_intent)); never sent.
    pub intent: Option<String>,
    /// The call's other headers (per-call extras, the response-format opt-in), credentials and
    /// the headers the runtime derives (user agent, accept, content type, key, client request
    /// id) excepted.
    pub headers: Vec<(String, String)>,
    /// The client's base URL when it was sent: recovery settles it there and nowhere else
    /// (`None` in entries of journals from before it was kept).
    pub base_url: Option<String>,
    /// Which credential sent it ([`Config::credential_id`](crate::Config::credential_id), a
    /// digest, never the secret): recovery settles it only with the same credential.
    pub credential: Option<String>,
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
            .field("server", &self.server)
            .field("content_type", &self.content_type)
            .field("body_len", &self.body.len())
            .field("client_request_id", &self.client_request_id)
            .field("intent", &self.intent)
            .field("headers", &self.headers)
            .field("base_url", &self.base_url)
            .field("credential", &self.credential)
            .finish()
    }
}

/// The definite outcome of a journaled write, as the journal keeps it.
#[derive(Clone, PartialEq, Eq)]
pub enum Settlement {
    /// The server's final answer: a 2xx (applied), or a rejection or redirect (not applied).
    Answered(StoredResponse),
    /// The server applied the write (a 2xx) but its answer was not kept (it exceeded
    /// [`Config::max_response_bytes`](crate::Config::max_response_bytes)).
    AppliedUnread {
        /// The status of the answer.
        status: u16,
    },
    /// The write was certainly not applied and no answer came (never delivered).
    NotApplied {
        /// Why.
        reason: String,
    },
}

impl Settlement {
    /// Whether the server applied the write.
    pub fn is_applied(&self) -> bool {
        match self {
            Settlement::Answered(r) => (200..300).contains(&r.status),
            Settlement::AppliedUnread { .. } => true,
            Settlement::NotApplied { .. } => false,
        }
    }
}

impl fmt::Debug for Settlement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Settlement::Answered(r) => f
                .debug_struct("Answered")
                .field("status", &r.status)
                .field("body_len", &r.body.len())
                .finish_non_exhaustive(),
            Settlement::AppliedUnread { status } => f
                .debug_struct("AppliedUnread")
                .field("status", status)
                .finish(),
            Settlement::NotApplied { reason } => f
                .debug_struct("NotApplied")
                .field("reason", reason)
                .finish(),
        }
    }
}

/// A response as the journal keeps it.
#[derive(Clone, PartialEq, Eq)]
pub struct StoredResponse {
    /// HTTP status.
    pub status: u16,
    /// Response headers (values that are not text are left out).
    pub headers: Vec<(String, String)>,
    /// Body bytes.
    pub body: Bytes,
}

/// One entry of the journal that the application has not acknowledged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingWrite {
    /// The write.
    pub write: JournaledWrite,
    /// Its definite outcome, once settled; `None` while it is open.
    pub settlement: Option<Settlement>,
    /// When it was settled, if the journal keeps it.
    pub settled_at: Option<SystemTime>,
}

/// What a journal holds.
#[derive(Clone, Debug, Default)]
pub struct Pending {
    /// Entries not acknowledged, oldest first.
    pub writes: Vec<PendingWrite>,
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
