//! The durable journal of writes, below the engine (it names nothing above the spec): with the
//! `journal` feature, the journal's trait and entry types (`journal`), its stores
//! (`sqlite_journal`, embedded; `postgres_journal` with the `postgres` feature; `stored`, how
//! both encode an outcome) and what counts as the same write (`same_write`); the kill points of
//! its protocol (`crash_point`, `kill_point!`). One concern: a write is never duplicated and
//! never silently lost. The engine records and settles each call's entry (`engine::entry`),
//! and `recovery`, above the engine, settles what a journal holds at start-up.

#[cfg(feature = "crash-points")]
pub mod crash_point;
#[cfg(feature = "journal")]
pub mod journal;
#[cfg(feature = "journal")]
pub(crate) mod journal_metrics;
#[cfg(feature = "postgres")]
pub mod postgres_journal;
#[cfg(feature = "journal")]
pub mod same_write;
#[cfg(feature = "journal")]
pub mod sqlite_journal;
#[cfg(feature = "journal")]
pub(crate) mod stored;

/// Marks a named step of the journal protocol: a kill point for crash tests with the
/// `crash-points` feature, nothing without it.
macro_rules! kill_point {
    ($step:literal) => {
        #[cfg(feature = "crash-points")]
        $crate::write::crash_point::reached($step);
    };
}
pub(crate) use kill_point;
