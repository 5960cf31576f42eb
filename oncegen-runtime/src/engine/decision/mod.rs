//! The decision table of every call (reads, writes and downloads alike): `classify` says what
//! one attempt's result means, as a pure function of the result; `decide` turns that, the
//! call's facts and its budget into what to do next, as a pure function too. The client acts on
//! the decision; nothing here does I/O.

pub(crate) mod classify;
pub(crate) mod decide;
