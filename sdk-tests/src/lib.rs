//! Workspace-level tests live under `sdk-tests/tests/`; this library holds what they share with
//! the benchmarks: a throwaway PostgreSQL cluster ([`postgres`]), the repository's packages and
//! files ([`workspace`]) and where builds go.

use std::path::{Path, PathBuf};

pub mod postgres;
pub mod workspace;

/// The workspace's `target/` (or `CARGO_TARGET_DIR`).
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join("target")
        },
        PathBuf::from,
    )
}

/// The target directory of the crates tests generate and build outside the workspace (the
/// real-server drivers and tools, the revision rehearsal's driver): one directory, so that
/// their dependencies, built with the same features and profile, compile once for all of them
/// (each building its own took about 100 s of CI's two cores).
pub fn generated_crates_target() -> PathBuf {
    target_dir().join("generated-crates")
}
