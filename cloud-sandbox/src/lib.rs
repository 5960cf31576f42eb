//! `cloud-sandbox`: a local, stateful server of the Customer Cloud Services API, driven by
//! `spec/openapi.yaml`, for end-to-end tests of the generated SDK and for offline use.
//!
//! ```no_run
//! # async fn demo() {
//! let sandbox = cloud_sandbox::Sandbox::start().await.unwrap();
//! let url = sandbox.base_url();
//! let bearer = sandbox.credentials().bearer.bearer_token();
//! # let _ = (url, bearer);
//! # }
//! ```
//!
//! A request goes from the accept loop (`server`) through the named steps of the `pipeline`
//! (faults, routing, authentication, rate limit, validation, idempotency) to the handler that
//! [`handlers::HANDLERS`] lists for its `operationId`. What a sandbox holds is in [`shared`].
#![deny(missing_docs)]

pub mod async_operations;
pub mod auth;
pub mod errors;
pub mod faults;
pub mod handlers;
pub mod idempotency;
pub mod journal;
pub mod pagination;
mod pipeline;
pub mod ratelimit;
pub mod resources;
pub mod revision;
pub mod sandbox;
pub mod seed;
mod server;
pub mod shape;
pub mod shared;
pub mod spec;
pub mod state;
pub mod synth;
pub mod validate;

pub use async_operations::{OpStatus, Progression};
pub use auth::{Credential, Mode};
pub use faults::{Fault, FaultTarget, Matcher, RandomFaults};
pub use journal::RequestRecord;
pub use sandbox::{Sandbox, SandboxConfig};
pub use seed::SeededCredentials;
pub use state::CatalogHealth;
