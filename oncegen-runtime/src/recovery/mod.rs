//! Start-up recovery: reports every write a [journal](crate::write::journal) holds that the
//! application has not acknowledged, settling the open ones first.

use futures::StreamExt;
use serde_json::Value;

use crate::engine::call::Start;
use crate::engine::call::Undecoded;
use crate::engine::client::Client;
use crate::engine::decision::decide::Failure;
use crate::engine::telemetry;
use crate::error::Error;
use crate::response::Response;
use crate::transport::{TransportError, TransportErrorKind};
use crate::write::journal::{DamagedRecord, JournaledWrite, PendingWrite, Settlement};

mod resume;

/// Open entries settled at the same time by [`Client::recover_writes`].
pub const RECOVERY_CONCURRENCY: usize = 16;

/// What [`Client::recover_writes`] found: every entry not acknowledged, each with its outcome.
#[derive(Debug)]
pub struct Recovery {
    /// Every write not acknowledged, oldest first, with its outcome.
    pub writes: Vec<RecoveredWrite>,
    /// Records the journal could not read back: nothing was resent for them.
    pub damaged: Vec<DamagedRecord>,
}

/// One journaled write and its outcome.
#[derive(Debug)]
pub struct RecoveredWrite {
    /// The write as journaled (its key, and the application's [`intent`](Self::intent)).
    pub write: JournaledWrite,
    /// The server's answer (the stored response when the write had been applied), or why the
    /// write was not applied (e.g. [`Error::Api`]), or why its outcome is still not known
    /// ([`Error::WriteOutcomeUnknown`]: its entry stays open, recover again later; never send
    /// it under a new key). [`Error::WriteApplied`] is known: applied, its answer not fetched.
    pub outcome: Result<Response<Value>, Error>,
    /// Whether the outcome was read from the journal (settled before the crash) rather than
    /// settled by this recovery.
    pub from_journal: bool,
}

impl RecoveredWrite {
    /// The write's `Idempotency-Key`.
    pub fn key(&self) -> &str {
        &self.write.key
    }

    /// The application's identifier of the write, if it set one.
    pub fn intent(&self) -> Option<&str> {
        self.write.intent.as_deref()
    }

    /// Whether the write's outcome is definite: applied (answered 2xx, or
    /// [`Error::WriteApplied`]) or certainly not applied.
    pub fn is_settled(&self) -> bool {
        !matches!(
            self.outcome,
            Err(Error::WriteOutcomeUnknown(_)
                | Error::Validation { .. }
                | Error::Journal { .. }
                | Error::Config { .. })
        )
    }

    /// Whether the server applied the write.
    pub fn is_applied(&self) -> bool {
        match &self.outcome {
            Ok(_) => true,
            Err(Error::WriteApplied { .. }) => true,
            Err(Error::ResponseTooLarge { status, .. }) => (200..300).contains(status),
            Err(_) => false,
        }
    }
}

impl Recovery {
    /// Whether every write's outcome is definite and no record was damaged.
    pub fn is_clean(&self) -> bool {
        self.damaged.is_empty() && self.writes.iter().all(RecoveredWrite::is_settled)
    }
}

impl Client {
    /// Reports every write the configured journal holds that the application has not
    /// acknowledged, with its outcome: call it at start-up, before new writes are sent.
    ///
    /// A write settled before the crash is reported with the outcome the journal kept (no
    /// request is sent). An open one is looked up by its key through the API's
    /// [`OperationLookup`](crate::OperationLookup) (a read, retried like any read) and, when
    /// the decision table of [`Client::execute`] allows (recorded, or not found), resent with
    /// the same key, method, path, query and body: the server answers with the stored response
    /// of a write it applied, or applies it once. Its outcome is then recorded in the journal.
    /// A write the lookup cannot settle (ambiguous, expired, failing) stays open and is
    /// reported as [`Error::WriteOutcomeUnknown`].
    ///
    /// Entries are settled independently, [`RECOVERY_CONCURRENCY`] at a time: one entry's
    /// failure is its own outcome and never stops another's. Nothing is acknowledged here:
    /// once the application has recorded an outcome, it calls
    /// [`Client::acknowledge_write`]; until then every start reports it again. The error is
    /// only for a journal that cannot be read (or none configured).
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
        let writes = futures::stream::iter(pending.writes)
            .map(|entry| self.recover_one(entry))
            .buffered(RECOVERY_CONCURRENCY)
            .collect()
            .await;
        Ok(Recovery {
            writes,
            damaged: pending.damaged,
        })
    }

    /// Closes the journal entry of the write sent with `key`: call it once the application has
    /// recorded that write's outcome (from a call or from [`Client::recover_writes`]). Until
    /// then the outcome is kept and reported again by recovery. Acknowledging a key the journal
    /// does not hold (already acknowledged, or never journaled) does nothing.
    pub async fn acknowledge_write(&self, key: &str) -> Result<(), Error> {
        let Some(journal) = self.inner.config.journal.as_deref() else {
            return Err(Error::config("no write journal is configured"));
        };
        journal.acknowledge(key).await.map_err(|e| Error::Journal {
            message: e.to_string(),
        })
    }

    /// Settles one entry the journal gave this client ([`WriteJournal::resume`](crate::journal::WriteJournal::resume),
    /// [`WriteJournal::pending`](crate::journal::WriteJournal::pending)) as
    /// [`Client::recover_writes`] settles each of its entries: the journal's outcome, else a
    /// lookup and a same-key resend. An entry made with another base URL or credential is not
    /// settled here: its outcome is [`Error::Config`] saying so, and nothing is sent.
    pub async fn settle_write(&self, entry: PendingWrite) -> RecoveredWrite {
        self.recover_one(entry).await
    }

    async fn recover_one(&self, entry: PendingWrite) -> RecoveredWrite {
        let PendingWrite {
            write, settlement, ..
        } = entry;
        let from_journal = settlement.is_some();
        let outcome = match self
            .made_here(&write)
            .and_then(|()| resume::prepared(&write, self.defaults()))
        {
            Err(e) => Err(e),
            Ok(p) => match settlement {
                Some(settlement) => self.journaled_outcome(p, settlement),
                None => match self.traced(Box::new(p), Start::Reconcile).await {
                    Ok(undecoded) => undecoded.decode(),
                    Err(e) => Err(e),
                },
            },
        };
        if let Err(e) = &outcome {
            tracing::info!(key = %write.key, error = %e, "journaled write recovered without a response");
        }
        RecoveredWrite {
            write,
            outcome,
            from_journal,
        }
    }

    /// `Ok` when `write` was made with this client's base URL and credential (or its journal
    /// did not record them).
    fn made_here(&self, write: &JournaledWrite) -> Result<(), Error> {
        let config = &self.inner.config;
        if let Some(base_url) = write.base_url.as_deref()
            && base_url != config.get_base_url()
        {
            return Err(Error::config(format!(
                "the write {} was made for {base_url}, not {}: settle it with a client of that \
                 server (nothing was sent)",
                write.key,
                config.get_base_url()
            )));
        }
        if write.base_url.is_some() && write.credential != self.inner.credential_id {
            return Err(Error::config(format!(
                "the write {} was made with another credential: settle it with that credential \
                 (nothing was sent)",
                write.key
            )));
        }
        Ok(())
    }

    /// The outcome the journal kept, as the call returned it.
    fn journaled_outcome(
        &self,
        p: crate::engine::prepare::Prepared,
        settlement: Settlement,
    ) -> Result<Response<Value>, Error> {
        let context = Box::new(p.context(0));
        match settlement {
            Settlement::Answered(stored) => {
                let response = resume::response(&stored);
                match response.status {
                    200..=299 => Undecoded {
                        response,
                        attempts: 0,
                        span: telemetry::call_span(&p, &self.inner.endpoint),
                        prepared: Box::new(p),
                    }
                    .decode(),
                    300..=399 => Err(self.failure(Failure::Redirected, &p, Ok(response), 0)),
                    _ => Err(self.failure(Failure::Api, &p, Ok(response), 0)),
                }
            }
            Settlement::AppliedUnread { status } => Err(Error::ResponseTooLarge {
                status,
                limit: self.inner.config.max_response_bytes,
                context,
            }),
            Settlement::NotApplied { reason } => Err(Error::Transport {
                source: TransportError::new(TransportErrorKind::Connect, reason),
                context,
            }),
        }
    }
}
