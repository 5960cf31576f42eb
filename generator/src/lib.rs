//! Reads OpenAPI documents and emits typed Rust SDK crates.
