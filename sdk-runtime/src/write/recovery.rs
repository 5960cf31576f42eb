//! Start-up recovery: settles every write a [journal](crate::write::journal) holds open.

use serde_json::Value;

use crate::client::{Client, Start};
use crate::error::Error;
use crate::response::Response;
use crate::write::journal::{DamagedRecord, JournaledWrite};
use crate::write::journaling;

/// What [`Client::recover_writes`] did.
#[derive(Debug)]
pub struct Recovery {
    /// Every open write, with its outcome.
    pub writes: Vec<RecoveredWrite>,
    /// Records the journal could not read back: nothing was resent for them.
    pub damaged: Vec<DamagedRecord>,
}

/// One journaled write and how recovery settled it.
#[derive(Debug)]
pub struct RecoveredWrite {
    /// The write as journaled.
    pub write: JournaledWrite,
    /// The server's answer (the stored response when the write had been applied), or why the
    /// write is not settled ([`Error::WriteOutcomeUnknown`]: still open, retry recovery later)
    /// or was not applied (e.g. [`Error::Api`]).
    pub outcome: Result<Response<Value>, Error>,
}

impl RecoveredWrite {
    /// Whether the write's outcome is now definite (its journal entry is closed).
    pub fn is_settled(&self) -> bool {
        !matches!(
            self.outcome,
            Err(Error::WriteOutcomeUnknown(_) | Error::Validation { .. })
        )
    }
}

impl Recovery {
    /// Whether every open write was settled and no record was damaged.
    pub fn is_clean(&self) -> bool {
        self.damaged.is_empty() && self.writes.iter().all(RecoveredWrite::is_settled)
    }
}

impl Client {
    /// Settles every write the configured journal holds open: call it at start-up, before new
    /// writes are in flight.
    ///
    /// Each write is first looked up by its key through the API's
    /// [`OperationLookup`](crate::OperationLookup) (a read, retried like any read), then, when
    /// the decision table of [`Client::execute`] allows (recorded, or not found), resent with the
    /// same key, method, path, query and body: the server answers with the stored response of a
    /// write it applied, or applies it once. A write the lookup cannot settle (ambiguous,
    /// expired, failing) stays open and is reported as [`Error::WriteOutcomeUnknown`].
    ///
    /// Damaged records are reported and never resent. Use a client with the same base URL and
    /// credentials as the process that journaled the writes (the server keys idempotency per
    /// credential).
    pub async fn recover_writes(&self) -> Result<Recovery, Error> {
        let Some(journal) = self.inner.config.journal.as_deref() else {
            return Err(Error::config("no write journal is configured"));
        };
        let pending = journal.pending().await.map_err(|e| Error::Journal {
            message: e.to_string(),
        })?;
        let mut writes = Vec::with_capacity(pending.writes.len());
        for write in pending.writes {
            let outcome = match journaling::prepared(&write, self.defaults()) {
                Ok(p) => self.run_in_span(p, Start::Reconcile).await?.decode(),
                Err(e) => Err(e),
            };
            if let Err(e) = &outcome {
                tracing::warn!(key = %write.key, error = %e, "journaled write not recovered");
            }
            writes.push(RecoveredWrite { write, outcome });
        }
        Ok(Recovery {
            writes,
            damaged: pending.damaged,
        })
    }
}
