//! Facts several crates of the SDK toolchain need, each in one home.
//!
//! The generator, the runtime and the sandbox (which otherwise shares no code with the SDK it
//! tests) all use these: [`Method`] and which methods write, [`Idempotency`], JSON-pointer
//! escaping ([`pointer`](mod@pointer)), the operationId derivation rule ([`operation_id`]) and the header
//! names of the transport conventions ([`headers`]).

pub mod headers;
mod method;
pub mod operation_id;
pub mod pointer;

pub use method::{Idempotency, Method};
