//! Typed SDK for the Customer Cloud Services API.
//!
//! [`Client`] has one method per operation; each returns a request builder (optional parameters
//! as setters, per-call control through [`CallBuilder`]) that you `send`. One module (and cargo
//! feature) per API area holds its types, and [`types`] the shared ones. Everything an
//! application needs is re-exported here, so `customer-cloud-sdk` is its one dependency.
//!
//! ```no_run
//! use customer_cloud_sdk::prelude::*;
//!
//! # async fn run() -> Result<(), customer_cloud_sdk::Error> {
//! let client = Client::new(Config::from_env()?)?;
//! let zones = client.list_dns_zones().send().await?.into_body();
//! println!("{} zones", zones.zones.len());
//! # Ok(())
//! # }
//! ```
//!
//! [`CallBuilder`] gives every builder per-call control (correlation id, timeouts, retry policy,
//! headers). Builders of writes that take an idempotency key also have `idempotency_key`; one is
//! generated and reused across retries when none is set.
//!
//! ```no_run
//! use customer_cloud_sdk::CallBuilder;
//! use std::time::Duration;
//!
//! fn with_call_options<B: CallBuilder>(request: B) -> B {
//!     request.client_request_id("example-1").timeout(Duration::from_secs(30))
//! }
//! ```
//!
//! Everything below `customer-cloud-sdk/` is written by `cargo xtask gen` from `spec/openapi.yaml`; this
//! file is the only hand-written part of the crate.

#![cfg_attr(docsrs, feature(doc_cfg))]

// prettyplease formats the generated files; rustfmt leaves them as generated.
#[rustfmt::skip]
mod generated;

pub use generated::*;

/// Crash-safe writes (cargo feature `journal`): the write journal and start-up recovery.
///
/// With a [`SqliteJournal`](journal::SqliteJournal) set on the [`Config`], every write with an
/// idempotency key is recorded durably before it is sent, its outcome is recorded once known
/// and kept until the application acknowledges it, and [`Client::recover_writes`] reports on
/// the next start whatever a crash left unacknowledged. The crate README ("Exactly-once writes
/// across crashes") says what the application does on its side; the protocol is described in
/// [`oncegen_runtime::journal`].
#[cfg(feature = "journal")]
pub mod journal {
    pub use ::oncegen_runtime::journal::{
        DamagedRecord, JournaledWrite, Pending, PendingWrite, Settlement, StoredResponse,
        WriteJournal,
    };
    /// The journal in PostgreSQL, shared by many processes (cargo feature `postgres`).
    #[cfg(feature = "postgres")]
    pub use ::oncegen_runtime::{PostgresJournal, PostgresJournalBuilder};
    pub use ::oncegen_runtime::{RECOVERY_CONCURRENCY, RecoveredWrite, Recovery, SqliteJournal};
}

#[cfg(feature = "journal")]
impl Client {
    /// Reports every journaled write the application has not acknowledged, with its outcome,
    /// settling the open ones with the same key (see [`oncegen_runtime::Client::recover_writes`]).
    /// Call it at start-up, before sending new writes.
    pub async fn recover_writes(&self) -> Result<journal::Recovery, Error> {
        self.runtime().recover_writes().await
    }

    /// Closes the journal entry of the write sent with `key`, once the application has
    /// recorded its outcome (see [`oncegen_runtime::Client::acknowledge_write`]).
    pub async fn acknowledge_write(&self, key: &str) -> Result<(), Error> {
        self.runtime().acknowledge_write(key).await
    }
}
