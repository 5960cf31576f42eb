//! Runtime for generated SDKs.
//!
//! Generated code compiles against this crate (see `docs/runtime-surface.md`). It holds
//! mechanisms only and knows no particular operation, path, field or error code: the generated
//! crate hands it those facts as data ([`OperationSpec`] per call, an [`ApiProfile`] per client,
//! a [`poll::PollSpec`] per waiter).
//!
//! * [`config`]: base URL, credentials, timeouts, policies, `Config::from_env`
//!   (`CLOUD_API_BASE_URL`, `CLOUD_API_BEARER`, or `CLOUD_API_KEY` + `CLOUD_API_SECRET`);
//! * [`transport`]: the pluggable HTTP stack (reqwest + rustls by default);
//! * [`signing`]: signed mode behind the [`Signer`] trait (the default canonical string is ours:
//!   the reference does not publish one; a published scheme can be dropped in without
//!   regenerating);
//! * [`idempotency`], [`retry`], [`rate_limit`]: keys fixed per logical call, bounded backoff with
//!   full jitter, one 429 gate per client;
//! * [`request`], [`response`], [`client`], [`error`]: assembling, sending, decoding; unknown
//!   write outcomes are reconciled through the profile's operation lookup before any resend;
//! * [`profile`]: the API's conventions as data;
//! * [`pagination`], [`poll`], [`version`]: lists as streams, waiting on a status, contract
//!   discovery;
//! * [`secret`], [`nullable`]: redacted zeroizing secrets and absent-vs-null fields.
//!
//! ```no_run
//! use sdk_runtime::{CallOptions, Client, Config, Idempotency, Method, OperationSpec, Request, SdkIdentity};
//!
//! static CREATE_WIDGET: OperationSpec = OperationSpec {
//!     operation_id: "createWidget",
//!     method: Method::Post,
//!     path: "/widgets",
//!     idempotency: Idempotency::Required,
//!     operation_envelope: false,
//! };
//!
//! # async fn run() -> Result<(), sdk_runtime::Error> {
//! let client = Client::new(Config::from_env()?.sdk(SdkIdentity::new("example-sdk", "0.1.0", "r1")))?;
//! let mut request = Request::new(&CREATE_WIDGET);
//! request.json_body(&serde_json::json!({ "name": "w1" }))?;
//! let mut options = CallOptions::default();
//! options.set_client_request_id("widget-setup-1");
//! match client.execute::<serde_json::Value>(request, options).await {
//!     Ok(response) => println!("created, key {:?}", response.meta().idempotency_key),
//!     Err(e) if e.is_write_outcome_unknown() => {
//!         // Recover later with the same key; never create a new one.
//!         eprintln!("{e}; key {:?}", e.idempotency_key());
//!     }
//!     Err(e) => return Err(e),
//! }
//! # Ok(())
//! # }
//! ```
#![deny(missing_docs)]

pub mod builder;
pub mod client;
pub mod config;
pub mod error;
pub mod idempotency;
pub mod multipart;
pub mod nullable;
pub mod pagination;
pub mod params;
pub mod poll;
pub mod profile;
pub mod rate_limit;
pub mod request;
pub mod response;
pub mod retry;
pub mod secret;
pub mod signing;
pub mod spec;
mod string_enum;
pub mod transport;
pub mod version;

pub use builder::CallBuilder;
pub use client::Client;
pub use config::{Config, Credentials, SdkIdentity, Timeouts, WaitPolicy};
pub use error::{ApiError, Error, ErrorContext, Reconciliation, UnknownOutcome};
pub use multipart::FilePart;
pub use nullable::Nullable;
pub use params::{ParamIn, ParamStyle};
pub use poll::{PollSpec, PolledOutcome};
pub use profile::{ApiProfile, ErrorBody, OperationLookup};
pub use rate_limit::RateLimitInfo;
pub use request::{CallOptions, Request};
pub use response::{Response, ResponseMeta};
pub use retry::RetryPolicy;
pub use secret::Secret;
pub use signing::{DefaultSigner, Signer, SigningInput};
pub use spec::{Idempotency, Method, OperationSpec};
/// Re-exports for the macros (not a public API).
#[doc(hidden)]
pub mod __private {
    pub use serde;
}

pub use transport::{
    HttpRequest, HttpResponse, ReqwestTransport, Transport, TransportError, TransportErrorKind,
};
