//! Runtime for generated SDKs.
//!
//! Generated code compiles against this crate (see `docs/runtime-surface.md`). It holds
//! mechanisms only and knows no particular operation, path, field or error code: the generated
//! crate hands it those facts as data ([`OperationSpec`] per call, an [`ApiProfile`] per client,
//! a [`poll::PollSpec`] per waiter).
//!
//! * [`config`]: base URL, credentials, timeouts, policies, hooks, `Config::from_env`
//!   (`CLOUD_API_BASE_URL`, `CLOUD_API_BEARER`, or `CLOUD_API_KEY` + `CLOUD_API_SECRET`);
//! * [`transport`], [`hyper_transport`], [`reqwest_transport`]: the pluggable HTTP stack
//!   (hyper's client with rustls by default, native-tls by feature; reqwest when the
//!   environment names a proxy; no redirects; a capped body read);
//! * [`signing`]: signed mode behind the [`Signer`] trait (the default canonical string is ours:
//!   the reference does not publish one; a published scheme can be dropped in without
//!   regenerating);
//! * [`request`](mod@request): what generated code assembles, and per-call options;
//! * [`client`]: a call as classify → decide → act: the write path's `write::classify` (what
//!   an attempt's result says, a pure function), `write::decide` (the decision table, pure),
//!   `budget` (attempts, 429 waits, deadline), `write::reconcile` (the lookup of a write whose
//!   outcome is unknown), and the client acting on the decision; `attempt` sends one attempt, `prepare` fixes a call's
//!   bytes, `auth` adds credentials, `endpoint` keeps them off cleartext links;
//! * [`error`], [`response`]: what a call returns;
//! * [`idempotency`], [`retry`], [`rate_limit`]: keys fixed per logical call, bounded backoff with
//!   full jitter, one 429 gate per client;
//! * [`hooks`], telemetry: a hook around every attempt for metrics, and one `tracing` span per
//!   call (`sdk.call`, OpenTelemetry HTTP client field names);
//! * `journal`, `file_journal` (feature `journal`, in the `write` folder): a durable journal of
//!   writes and their outcomes (a trait, and an append-only file as the embedded store); an
//!   entry stays until the application acknowledges its outcome (`Client::acknowledge_write`),
//!   and `Client::recover_writes` reports every entry left at start-up (the protocol is in the
//!   `journal` module's docs); `postgres_journal` (feature `postgres`): the journal in
//!   PostgreSQL, shared by many processes;
//! * [`profile`]: the API's conventions as data;
//! * [`pagination`], [`poll`], [`version`]: lists as streams, waiting on a status, contract
//!   discovery;
//! * [`secret`], [`nullable`]: redacted zeroizing secrets and absent-vs-null fields;
//! * [`untagged`]: an untagged union decodes into the member the value fits;
//! * [`tagged`]: a tagged union decodes into the member its tag names, or keeps the value;
//! * `json_object!`, `string_enum!`, `tagged_union!`, `untagged_union!`: the serde impls of
//!   generated structs, string enums, tagged and untagged unions.
//!
//! Modules import each other without a cycle (checked by `sdk-tests/module_graph.rs`).
//!
//! # Crate features
//!
//! * `rustls` (default): TLS through rustls;
//! * `native-tls`: TLS through the platform's library instead (`default-features = false`);
//! * `journal`: the write journal and `Client::recover_writes`;
//! * `crash-points`: named kill points of the journal protocol, for crash tests only.
//!
//! # Tracing
//!
//! Every call runs in an `INFO` span named `sdk.call` (a reconciliation lookup in its own span
//! inside the write's), attempts are `DEBUG` events in it. Fields follow OpenTelemetry's HTTP
//! client conventions where they apply: `otel.name` (`"POST /zones/{name}"`), `otel.kind`,
//! `http.request.method`, `url.template`, `server.address`, `server.port`,
//! `http.response.status_code`, `http.request.resend_count`, `error.type`
//! ([`Error::kind`]), `http.request.header.idempotency-key`,
//! `http.request.header.x-client-request-id`, `http.response.header.x-request-id`; and
//! `operation.id`, `attempts`, `outcome` (`ok` or `error`). No header value other than those
//! ids, no body and no credential is recorded. For metrics per attempt, see [`hooks`].
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
//! request.json_body(&serde_json::json!({ "name": "w1" }));
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

mod attempt;
mod auth;
pub mod body;
mod budget;
pub mod builder;
mod builder_macros;
pub mod client;
pub mod config;
mod download;
mod endpoint;
pub mod error;
mod error_message;
mod from_variants;
mod header_names;
pub mod hooks;
pub mod hyper_transport;
pub mod idempotency;
mod json_object;
pub mod multipart;
pub mod nullable;
pub mod pagination;
pub mod params;
pub mod poll;
mod prepare;
pub mod profile;
pub mod rate_limit;
pub mod request;
pub mod reqwest_transport;
pub mod response;
pub mod retry;
pub mod secret;
pub mod security;
pub mod servers;
pub mod signing;
pub mod spec;
mod string_enum;
pub mod tagged;
mod telemetry;
pub mod transport;
pub mod untagged;
pub mod version;
pub mod webhook;
mod write;

#[cfg(feature = "crash-points")]
pub use write::crash_point;
#[cfg(feature = "postgres")]
pub use write::postgres_journal;
#[cfg(feature = "journal")]
pub use write::{file_journal, journal};

pub use body::Binary;
pub use builder::{Call, CallBuilder};
pub use client::Client;
pub use config::{Config, Credentials, SdkIdentity, Timeouts, WaitPolicy};
pub use download::Download;
pub use error::{ApiError, Error, ErrorContext, PolledOutcome, Reconciliation, UnknownOutcome};
pub use hooks::{AttemptInfo, AttemptOutcome, Hook};
pub use hyper_transport::HyperTransport;
pub use multipart::FilePart;
pub use nullable::Nullable;
pub use params::{ParamIn, ParamStyle};
pub use poll::PollSpec;
pub use profile::{ApiProfile, ErrorBody, OperationLookup};
pub use rate_limit::RateLimitInfo;
pub use request::{CallOptions, Request};
pub use reqwest_transport::ReqwestTransport;
pub use response::{Response, ResponseFuture, ResponseMeta};
pub use retry::RetryPolicy;
pub use secret::Secret;
pub use security::{Requirement, SchemeCredential, SchemeKind, SecurityScheme};
pub use signing::{DefaultSigner, Signer, SigningInput};
pub use spec::{Idempotency, Method, OperationSpec};
pub use transport::{
    BodyStream, HttpRequest, HttpResponse, StreamingResponse, Transport, TransportError,
    TransportErrorKind,
};
pub use webhook::WebhookError;
#[cfg(feature = "journal")]
pub use write::file_journal::FileJournal;
#[cfg(feature = "journal")]
pub use write::journal::{
    DamagedRecord, JournaledWrite, Pending, PendingWrite, Settlement, StoredResponse, WriteJournal,
};
#[cfg(feature = "postgres")]
pub use write::postgres_journal::{PostgresJournal, PostgresJournalBuilder};
#[cfg(feature = "journal")]
pub use write::recovery::{RECOVERY_CONCURRENCY, RecoveredWrite, Recovery};

/// Re-exports for the macros (not a public API).
#[doc(hidden)]
pub mod __private {
    pub use serde;
    pub use serde_json;

    /// What `json_object!` expands to calls.
    pub mod json_object {
        pub use crate::json_object::{
            Field, Ignored, Key, Object, Optional, Rest, Slot, Tag, Writer, deserialize, read,
        };
    }
}
