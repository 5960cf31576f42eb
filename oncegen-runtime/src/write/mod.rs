//! Durability of writes: how a write whose outcome is unknown is looked up (`reconcile`), a
//! call's journal entry (`entry`: the journal steps of every call), and, with the `journal`
//! feature, the durable journal of writes (`journal`; `sqlite_journal`, the embedded store;
//! `stored`, how both stores encode an outcome), the client's use of it (`journaling`),
//! start-up recovery (`recovery`) and what counts as the same write (`same_write`). One concern: a write
//! is never duplicated and never silently lost. (What an attempt's result says and what to do
//! next, for every call, is the engine's decision table, `engine::decision`.)

#[cfg(feature = "crash-points")]
pub mod crash_point;
pub(crate) mod entry;
#[cfg(feature = "journal")]
pub mod journal;
#[cfg(feature = "journal")]
pub(crate) mod journal_metrics;
#[cfg(feature = "journal")]
pub(crate) mod journaling;
#[cfg(feature = "postgres")]
pub mod postgres_journal;
pub(crate) mod reconcile;
#[cfg(feature = "journal")]
pub(crate) mod recovery;
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
