//! Workspace-level tests live under `sdk-tests/tests/`; this library holds what they share with
//! the benchmarks: a throwaway PostgreSQL cluster ([`postgres`]).

pub mod postgres;
