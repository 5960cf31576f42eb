//! Shared pieces of the benchmarks of issue #6 (see `BENCHMARKS.md`): a minimal loopback server
//! that runs on the caller's tokio runtime, request and response fixtures shared by the SDK path
//! and the hand-written baseline, and a counting global allocator for peak-memory figures.
//!
//! Nothing here asserts on timings; the benches print figures and ratios.

pub mod alloc;
pub mod fixtures;
pub mod requests;
pub mod server;
pub mod synth;
