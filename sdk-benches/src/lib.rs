//! Shared pieces of the benchmarks of issues #6 and #13 (see `BENCHMARKS.md`): a minimal
//! loopback server that runs on the caller's tokio runtime, request and response fixtures shared
//! by the SDK path and the hand-written baseline, a counting global allocator for peak-memory
//! figures, the raw hyper twin of the SDK's call (`raw_hyper`), the side-by-side comparison with progenitor (`compare`), the write journal's
//! throughput and recovery time against the sandbox (`journal`), one shared client under
//! concurrency (`concurrency`, issue #23), the generated command-line tool against curl
//! (`cli`, issue #30) and fixed call counts for instruction profilers
//! (`fixed_calls`).
//!
//! Nothing here asserts on timings; the benches print figures and ratios.

pub mod alloc;
pub mod cli;
pub mod code_size;
pub mod compare;
pub mod concurrency;
pub mod crate_build;
pub mod credentials;
pub mod fixed_calls;
pub mod fixtures;
pub mod generators;
pub mod journal;
pub mod mcp;
pub mod raw_hyper;
pub mod requests;
pub mod server;
pub mod stats;
pub mod synth;
pub mod timed;

use std::path::{Path, PathBuf};

/// The repository root (the parent of this package's directory).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("repository root")
        .to_path_buf()
}
