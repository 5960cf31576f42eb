//! Reads OpenAPI documents and emits typed Rust SDK crates, with the change report that versions
//! them.
//!
//! Pipeline: [`read`] (parse, 3.0 → 3.1 upgrade, located errors) → [`lower`] (naming and
//! shaping into the [`ir`] model) → [`surface`] (what a user of the generated code sees,
//! decided once) → [`emit`] (the surface rendered as token streams, with the model's wire
//! detail; formatted with prettyplease) → [`write`](mod@write) (the one writer: skip unchanged
//! files, `--check`, delete stale ones).
//! The [`report`] compares two surfaces; [`cli`] writes a command-line tool from a surface.
//!
//! The public API: [`generate`] and [`generate_str`] (the model and the files), [`regenerate`]
//! (what `cargo xtask gen` runs: generate, report, version, write), [`emit::Options`], the model
//! ([`model`], [`ir`]) and its [`Surface`], the report's entry points and the writer. Each
//! stage module shows only its entry point, so benchmarks can time the stages one by one.

pub mod cli;
#[cfg(any(test, feature = "doc-examples"))]
pub mod doc_examples;
pub mod emit;
mod error;
pub mod ir;
pub mod lower;
pub mod mcp;
mod naming;
mod pipeline;
pub mod read;
pub mod report;
pub mod surface;
pub mod write;

pub use error::{Error, Result};
pub use pipeline::{
    Regeneration, Shape, generate, generate_str, model, model_str, regenerate, regenerate_as,
    runtime,
};
pub use surface::Surface;
