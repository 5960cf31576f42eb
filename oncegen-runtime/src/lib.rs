//! Runtime for generated SDKs.
//!
//! Generated code compiles against this crate (see `docs/runtime-surface.md`). It holds
//! mechanisms only and knows no particular operation, path, field, error code or environment
//! variable: the generated crate hands it those facts as data ([`OperationSpec`] per call, an
//! [`ApiProfile`] per client, a [`PollSpec`] per waiter, its prefix to
//! [`Config::from_env_with_prefix`]).
//!
//! Every public item has one path. The call API and its types are at the root ([`Client`],
//! [`Config`], [`Request`], [`CallOptions`], [`Call`], [`Error`], [`Response`], ...); the public
//! modules hold what is named through them and is re-exported nowhere else: the results
//! ([`pagination`], [`poll`], [`body`], the formats a success body decodes with), [`hooks`]
//! (around every attempt), [`signing`] (signed mode's [`Signer`](signing::Signer) and its
//! canonical string), [`idempotency`] (keys), [`servers`], [`version`] and [`webhook`], and
//! with the `journal` feature `journal` (the write journal's trait, entries and protocol) and
//! `same_write`.
//!
//! Its modules form layers; each names only modules of the layers below it (no cycle: checked
//! for every crate of the workspace by `sdk-tests/tests/module_graph.rs`):
//!
//! 1. plain types and policies, no I/O of a call: `spec` and `profile` (the API's facts as
//!    data, [`ParamIn`] among them), `poll_spec` ([`PollSpec`]), [`Binary`], `rate_limit`
//!    ([`RateLimitInfo`], one 429 gate per client), `retry` (bounded backoff with full jitter),
//!    [`hooks`], `security` (schemes as data), [`signing`] (signed mode behind the `Signer`
//!    trait; the default canonical string is ours, the reference does not publish one), the
//!    [`Transport`] trait with [`HyperTransport`] (the default: hyper's client, rustls or
//!    native-tls) and, with the `reqwest` feature, `ReqwestTransport` when the environment
//!    names a proxy (no redirects, a capped body read); the durable journal (`write/`: with the
//!    `journal` feature `journal`, its trait and entry types, `SqliteJournal`, `same_write`;
//!    with the `postgres` feature `PostgresJournal`, shared by many processes; the protocol
//!    is in the `journal` module's docs); then `error`, and [`idempotency`] (keys fixed per
//!    logical call), [`servers`];
//! 2. what a call is made of: `config`, encoding (`encoding/`: [`body`], how a success body
//!    decodes; `params`, OpenAPI parameter styles ([`ParamStyle`]); `multipart`
//!    ([`FilePart`])), auth (`auth/`: credentials on the wire, and the rule that keeps them off
//!    cleartext links), `overrides`, `request`;
//! 3. the engine (`engine/`): [`Client`] runs a call as steps (prepare, begin the journal
//!    entry, one attempt, decide, settle the entry, or look an unknown write up) under a budget
//!    of attempts, 429 waits and a deadline; the decision table of every call (what an
//!    attempt's result says, what to do next: pure functions) is `engine::decision`;
//! 4. results: `response` ([`Client::execute`] and the [`ResponseFuture`] that decodes the
//!    engine's answer), then [`pagination`], [`poll`], `builder` ([`Call`] and [`CallBuilder`],
//!    what generated code assembles) and start-up recovery (`Client::recover_writes` reports
//!    every journal entry the application has not acknowledged with
//!    `Client::acknowledge_write`).
//!
//! The encoding of generated types (`json_object!`, `exclusive_group!`, `string_enum!`,
//! `tagged_union!`, `untagged_union!`, `from_variants!`, [`Nullable`], [`Secret`], [`tagged`],
//! [`untagged`]) is the `oncegen-codec` crate's, re-exported here at the paths generated code
//! names, with what the generated tools use to decode input a user wrote
//! ([`refusing_unknown`], [`located`], [`closest`]). [`version`], [`webhook`] and
//! [`WebhookError`] stand apart.
//!
//! # Crate features
//!
//! * `rustls` (default): TLS through rustls;
//! * `reqwest`: `ReqwestTransport`, which carries the calls when a `*_PROXY` variable is set
//!   (without it one HTTP stack is compiled, and proxy variables are not honoured);
//! * `native-tls`: TLS through the platform's library instead (`default-features = false`);
//! * `journal`: the write journal and `Client::recover_writes`;
//! * `postgres`: the write journal in PostgreSQL (`PostgresJournal`);
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
//! use oncegen_runtime::{CallOptions, Client, Config, Idempotency, Method, OperationSpec, Request, SdkIdentity};
//!
//! static CREATE_WIDGET: OperationSpec = OperationSpec {
//!     operation_id: "createWidget",
//!     method: Method::Post,
//!     path: "/widgets",
//!     idempotency: Idempotency::Required,
//!     operation_envelope: false,
//! };
//!
//! # async fn run() -> Result<(), oncegen_runtime::Error> {
//! let config = Config::from_env_with_prefix("EXAMPLE_API")?; // EXAMPLE_API_BASE_URL, …
//! let client = Client::new(config.sdk(SdkIdentity::new("example-sdk", "0.1.0", "r1")))?;
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

// Public modules: their items are reached through them, and none is re-exported below.
pub mod hooks;
pub mod idempotency;
pub mod pagination;
pub mod poll;
pub mod servers;
pub mod signing;
pub mod version;
pub mod webhook;

// Private modules: their public items are re-exported at the root, each at one path.
mod auth;
mod binary;
mod builder;
mod builder_macros;
mod config;
mod encoding;
mod engine;
mod error;
mod header_names;
mod overrides;
mod poll_spec;
mod profile;
mod rate_limit;
#[cfg(feature = "journal")]
mod recovery;
mod request;
mod response;
mod retry;
mod security;
mod spec;
mod transport;
mod webhook_error;
mod write;

pub use encoding::body;

// The encoding of generated types lives in its own crate (no HTTP); generated code names it
// through these re-exports, at the paths it always had.
pub use oncegen_codec::{Nullable, Secret, tagged, untagged};
pub use oncegen_codec::{closest, dropped_members, located, refusing_unknown};
pub use oncegen_codec::{
    exclusive_group, from_variants, json_object, string_enum, tagged_union, untagged_union,
};

#[cfg(feature = "crash-points")]
pub use write::crash_point;
#[cfg(feature = "journal")]
pub use write::{journal, same_write};

pub use binary::Binary;
pub use builder::{Call, CallBuilder};
pub use config::{
    Config, Credentials, DEFAULT_MAX_RESPONSE_BYTES, SdkIdentity, Timeouts, WaitPolicy,
};
pub use encoding::multipart::FilePart;
pub use encoding::params::{ParamStyle, encode_component};
pub use engine::client::Client;
pub use engine::download::Download;
pub use error::{ApiError, Error, ErrorContext, PolledOutcome, Reconciliation, UnknownOutcome};
pub use overrides::Overrides;
pub use poll_spec::{PollSpec, Settled};
pub use profile::{ApiProfile, ErrorBody, OperationLookup};
pub use rate_limit::{ProbePermit, RateLimitGate, RateLimitInfo, parse_retry_after};
#[cfg(feature = "journal")]
pub use recovery::{RECOVERY_CONCURRENCY, RecoveredWrite, Recovery};
pub use request::{CallOptions, Request};
pub use response::{Response, ResponseFuture, ResponseMeta};
pub use retry::RetryPolicy;
pub use security::{Requirement, SchemeCredential, SchemeKind, SecurityScheme, choose};
pub use spec::{Idempotency, Method, OperationSpec, ParamIn};
pub use transport::hyper_transport::HyperTransport;
#[cfg(feature = "reqwest")]
pub use transport::reqwest_transport::ReqwestTransport;
pub use transport::{
    BodyStream, HttpRequest, HttpResponse, StreamingResponse, Transport, TransportError,
    TransportErrorKind,
};
pub use webhook_error::WebhookError;
#[cfg(feature = "postgres")]
pub use write::postgres_journal::{PostgresJournal, PostgresJournalBuilder};
#[cfg(feature = "journal")]
pub use write::sqlite_journal::{KEEP_ACKNOWLEDGED, SqliteJournal, SqliteJournalBuilder};
