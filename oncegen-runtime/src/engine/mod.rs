//! The engine: a call from the request generated code assembled to its response or error.
//!
//! [`client`] is the client and what calls share; `call` runs a call as steps (prepare, begin
//! the journal entry, one attempt, decide, settle) and its answer, `Undecoded`, is what the
//! results layer above decodes; `prepare` fixes a call's bytes, `attempt` sends one attempt,
//! `decision` says what an attempt's result means and what to do next (the decision table of
//! every call: reads, writes and downloads), `budget` counts attempts, 429 waits and the
//! deadline; `entry` and `journaling` record and settle a call's journal entry, `reconcile`
//! looks up a write whose outcome is unknown; `download` streams a body, `telemetry` is the
//! call's span. The policies it applies (`retry`, `rate_limit`, `idempotency`, `hooks`) and
//! the journal (`write`) are modules below it, at the crate root; it names nothing above it.

pub(crate) mod attempt;
pub(crate) mod budget;
pub(crate) mod call;
pub mod client;
pub(crate) mod decision;
pub(crate) mod download;
pub(crate) mod entry;
#[cfg(feature = "journal")]
pub(crate) mod journaling;
pub(crate) mod prepare;
pub(crate) mod reconcile;
pub(crate) mod telemetry;
