//! Reads OpenAPI documents and emits typed Rust SDK crates.
//!
//! Pipeline: [`read`] (parse, 3.0 → 3.1 upgrade, located errors) → [`lower`] (naming and
//! shaping into the [`ir`] model) → [`emit`] (token streams, formatted with prettyplease) →
//! [`write`](mod@write) (the one writer: skip unchanged files, `--check`, delete stale ones).

pub mod doc_examples;
pub mod emit;
pub mod error;
pub mod ir;
pub mod lower;
pub mod naming;
pub mod read;
pub mod report;
pub mod surface;
pub mod write;

pub use error::{Error, Result};

use std::path::Path;

/// Reads, lowers and emits: the model and the files of the crate for the document at `spec`.
pub fn generate(
    spec: &Path,
    options: &emit::Options,
) -> Result<(ir::Api, Vec<emit::GeneratedFile>)> {
    let doc = read::load(spec)?;
    let api = lower::lower(&doc)?;
    let files = emit::emit(&api, options)?;
    Ok((api, files))
}

/// Like [`generate`], for a document given as text (`source_name` labels errors).
pub fn generate_str(
    text: &str,
    source_name: &str,
    options: &emit::Options,
) -> Result<(ir::Api, Vec<emit::GeneratedFile>)> {
    let doc = read::parse(text, source_name)?;
    let api = lower::lower(&doc)?;
    let files = emit::emit(&api, options)?;
    Ok((api, files))
}
