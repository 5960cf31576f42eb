//! Typed SDK for the Customer Cloud Services API.
//!
//! [`Client`] has one method per operation; each returns a request builder (optional parameters
//! as setters, per-call control through [`CallBuilder`]) that you `send`. One module (and cargo
//! feature) per API area holds its types, and [`types`] the shared ones. Everything an
//! application needs is re-exported here, so `cloud-sdk` is its one dependency.
//!
//! ```no_run
//! use cloud_sdk::prelude::*;
//!
//! # async fn run() -> Result<(), cloud_sdk::Error> {
//! let client = Client::new(Config::from_env()?)?;
//! let zones = client.list_dns_zones().send().await?.into_body();
//! println!("{} zones", zones.zones.len());
//! # Ok(())
//! # }
//! ```
//!
//! Everything below `cloud-sdk/` is written by `cargo xtask gen` from `spec/openapi.yaml`; this
//! file is the only hand-written part of the crate.

#![cfg_attr(docsrs, feature(doc_cfg))]

// prettyplease formats the generated files; rustfmt leaves them as generated.
#[rustfmt::skip]
mod generated;

pub use generated::*;
