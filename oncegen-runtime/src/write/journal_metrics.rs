//! The figures both journals report through the [`metrics`] facade (the application installs
//! an exporter; without one recording costs nothing), with the same names, units and labels;
//! what happens is also said through `tracing`. The table is in `docs/journal.md`.
//!
//! Every figure has the label `journal` ([`SQLITE`] or [`POSTGRES`]); the wait histogram also
//! has `step`.

use std::io;
use std::time::{Duration, Instant};

use metrics::{Unit, counter, describe_counter, describe_gauge, describe_histogram, gauge};

/// Gauge, entries: open (not acknowledged) entries in the journal, every owner's (PostgreSQL:
/// of the journal's namespace).
pub(crate) const OPEN_ENTRIES: &str = "oncegen_journal_open_entries";
/// Gauge, seconds: how long ago the oldest open entry was recorded (0 with none open).
pub(crate) const OLDEST_OPEN_AGE: &str = "oncegen_journal_oldest_open_entry_age_seconds";
/// Counter, entries: open entries of another owner (gone, or its lease expired) this journal
/// took over to settle.
pub(crate) const TAKEOVERS: &str = "oncegen_journal_takeovers_total";
/// Counter, renewals: lease renewals that succeeded (PostgreSQL only).
pub(crate) const LEASE_RENEWALS: &str = "oncegen_journal_lease_renewals_total";
/// Counter, entries: entries this journal settled after another owner had taken them over
/// (PostgreSQL only: its lease ran out, or the database restarted, while it held them).
pub(crate) const LEASE_LOSSES: &str = "oncegen_journal_lease_losses_total";
/// Counter, errors: journal operations that failed (database unreachable, refusing,
/// timed out, busy past its limit).
pub(crate) const DATABASE_ERRORS: &str = "oncegen_journal_database_errors_total";
/// Counter, entries: acknowledged entries deleted once older than the journal's
/// `keep_acknowledged`.
pub(crate) const PRUNED: &str = "oncegen_journal_pruned_entries_total";
/// Histogram, seconds: how long a call waited on one journal step (label `step`).
pub(crate) const WAIT_SECONDS: &str = "oncegen_journal_wait_seconds";

/// Value of `journal` for the SQLite journal.
pub(crate) const SQLITE: &str = "sqlite";
/// Value of `journal` for the PostgreSQL journal.
#[cfg(feature = "postgres")]
pub(crate) const POSTGRES: &str = "postgres";

/// A journal step waited on (the `step` label of [`WAIT_SECONDS`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Step {
    Record,
    Settle,
    Acknowledge,
    /// Recovery's claim of open entries (`pending`, `resume`).
    Claim,
    /// What the journal knows of a key or an intent (`key_state`, `delivered`).
    Read,
}

impl Step {
    fn label(self) -> &'static str {
        match self {
            Step::Record => "record",
            Step::Settle => "settle",
            Step::Acknowledge => "acknowledge",
            Step::Claim => "claim",
            Step::Read => "read",
        }
    }
}

/// The figures of one journal (its `journal` label).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Figures {
    journal: &'static str,
}

impl Figures {
    /// The figures of the journal labelled `journal`, described to the installed recorder.
    pub(crate) fn new(journal: &'static str) -> Self {
        describe_gauge!(OPEN_ENTRIES, Unit::Count, "open write-journal entries");
        describe_gauge!(
            OLDEST_OPEN_AGE,
            Unit::Seconds,
            "age of the oldest open write-journal entry"
        );
        describe_counter!(
            TAKEOVERS,
            Unit::Count,
            "entries taken over from another owner"
        );
        describe_counter!(LEASE_RENEWALS, Unit::Count, "lease renewals");
        describe_counter!(LEASE_LOSSES, Unit::Count, "entries lost to another owner");
        describe_counter!(DATABASE_ERRORS, Unit::Count, "failed journal operations");
        describe_counter!(PRUNED, Unit::Count, "acknowledged entries deleted by age");
        describe_histogram!(WAIT_SECONDS, Unit::Seconds, "time waited on the journal");
        Self { journal }
    }

    /// The open entries: how many, and when the oldest was recorded.
    pub(crate) fn open(&self, count: u64, oldest: Option<Duration>) {
        gauge!(OPEN_ENTRIES, "journal" => self.journal).set(count as f64);
        let age = oldest.unwrap_or_default().as_secs_f64();
        gauge!(OLDEST_OPEN_AGE, "journal" => self.journal).set(age);
    }

    /// `count` entries of `from` (a previous owner) taken over by `owner`.
    pub(crate) fn took_over(&self, count: u64, owner: &str, from: &str) {
        if count == 0 {
            return;
        }
        counter!(TAKEOVERS, "journal" => self.journal).increment(count);
        tracing::info!(
            journal = self.journal,
            count,
            owner,
            previous_owner = from,
            "the write journal took over open entries of an owner that is gone"
        );
    }

    /// `count` acknowledged entries deleted by age.
    pub(crate) fn pruned(&self, count: u64) {
        if count == 0 {
            return;
        }
        counter!(PRUNED, "journal" => self.journal).increment(count);
        tracing::debug!(
            journal = self.journal,
            count,
            "the write journal pruned old entries"
        );
    }

    /// A lease renewal that succeeded (PostgreSQL: SQLite owners hold a lock file, not a lease).
    #[cfg(feature = "postgres")]
    pub(crate) fn renewed(&self) {
        counter!(LEASE_RENEWALS, "journal" => self.journal).increment(1);
        tracing::debug!(
            journal = self.journal,
            "the write journal renewed its leases"
        );
    }

    /// Entry `key` was settled after `holder` had taken it over from this journal.
    #[cfg(feature = "postgres")]
    pub(crate) fn lost(&self, key: &str, holder: &str) {
        counter!(LEASE_LOSSES, "journal" => self.journal).increment(1);
        tracing::warn!(
            journal = self.journal,
            key,
            holder,
            "the write journal settled an entry another owner had taken over (its lease \
             ran out or the database restarted): both may settle it, under the same key"
        );
    }

    /// An operation that failed with `e`.
    pub(crate) fn failed(&self, e: &io::Error) {
        counter!(DATABASE_ERRORS, "journal" => self.journal).increment(1);
        tracing::debug!(journal = self.journal, error = %e, "a write journal operation failed");
    }

    /// `operation`, its duration recorded as a wait on `step` and its failure counted (a
    /// write refused for its intent is no failure of the journal).
    pub(crate) async fn timed<T>(
        &self,
        step: Step,
        operation: impl Future<Output = io::Result<T>>,
    ) -> io::Result<T> {
        let started = Instant::now();
        let outcome = operation.await;
        let waited = started.elapsed().as_secs_f64();
        metrics::histogram!(WAIT_SECONDS, "journal" => self.journal, "step" => step.label())
            .record(waited);
        if let Err(e) = &outcome
            && e.kind() != io::ErrorKind::AlreadyExists
        {
            self.failed(e);
        }
        outcome
    }
}
