//! Typed SDK for the Customer Cloud Services API.
//!
//! Everything below `generated/` is written by `cargo xtask gen` from `spec/openapi.yaml`:
//! [`Client`] with one method per operation, one module (and cargo feature) per API area, and
//! the shared [`types`]. This file is the only hand-written part of the crate.
//!
//! ```no_run
//! # async fn run() -> Result<(), sdk_runtime::Error> {
//! let client = cloud_sdk::Client::new(sdk_runtime::Config::from_env()?)?;
//! # let _ = client;
//! # Ok(())
//! # }
//! ```

#![cfg_attr(docsrs, feature(doc_cfg))]

// prettyplease formats the generated files; rustfmt leaves them as generated.
#[rustfmt::skip]
mod generated;

pub use generated::*;
