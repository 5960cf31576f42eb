//! Runtime for generated SDKs.
//!
//! Generated code compiles against this crate (see `docs/runtime-surface.md`). It holds
//! mechanisms only and knows no particular operation, path, field, error code or environment
//! variable: the generated crate hands it those facts as data ([`OperationSpec`] per call, an
//! [`ApiProfile`] per client, a [`poll::PollSpec`] per waiter, its prefix to
//! [`Config::from_env_with_prefix`]).
//!
//! Its modules form layers; each names only modules of the layers below it (no cycle: checked
//! for every crate of the workspace by `sdk-tests/tests/module_graph.rs`):
//!
//! 1. plain types and policies, no I/O of a call: [`spec`] and [`profile`] (the API's facts as
//!    data, [`ParamIn`] among them), [`Binary`], [`rate_limit`] ([`RateLimitInfo`], one 429
//!    gate per client), [`retry`] (bounded backoff with full jitter), [`hooks`] (around every
//!    attempt), [`security`] (schemes as data), [`signing`] (signed mode behind the [`Signer`]
//!    trait; the default canonical string is ours, the reference does not publish one), the
//!    [`Transport`] trait with [`hyper_transport`] (the default: hyper's client, rustls or
//!    native-tls) and, with the `reqwest` feature, `reqwest_transport` when the environment
//!    names a proxy (no redirects, a capped body read); the durable journal (`write/`: with the
//!    `journal` feature `journal`, its trait and entry types, `sqlite_journal`, `same_write`;
//!    with the `postgres` feature `postgres_journal`, shared by many processes; the protocol
//!    is in the `journal` module's docs); then [`error`], and [`idempotency`] (keys fixed per
//!    logical call), [`servers`];
//! 2. what a call is made of: [`config`], encoding (`encoding/`: [`body`], how a success body
//!    decodes; [`params`], OpenAPI parameter styles; [`multipart`]), auth (`auth/`:
//!    credentials on the wire, and the rule that keeps them off cleartext links),
//!    [`overrides`], [`request`](mod@request);
//! 3. the engine (`engine/`): [`client`] runs a call as steps (prepare, begin the journal
//!    entry, one attempt, decide, settle the entry, or look an unknown write up) under a budget
//!    of attempts, 429 waits and a deadline; the decision table of every call (what an
//!    attempt's result says, what to do next: pure functions) is `engine::decision`;
//! 4. results: [`response`] (`Client::execute` and the [`ResponseFuture`] that decodes the
//!    engine's answer), then [`pagination`], [`poll`], [`builder`] (what generated code
//!    assembles) and start-up recovery (`Client::recover_writes` reports every journal entry
//!    the application has not acknowledged with `Client::acknowledge_write`).
//!
//! The encoding of generated types (`json_object!`, `exclusive_group!`, `string_enum!`,
//! `tagged_union!`, `untagged_union!`, `from_variants!`, [`Nullable`], [`Secret`], [`tagged`],
//! [`untagged`]) is the `oncegen-codec` crate's, re-exported here at the paths generated code
//! names, with what the generated tools use to decode input a user wrote
//! ([`refusing_unknown`], [`located`], [`closest`]). [`version`] and [`webhook`] stand apart.
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

mod auth;
mod binary;
pub mod builder;
mod builder_macros;
pub mod config;
mod encoding;
mod engine;
pub mod error;
mod header_names;
pub mod hooks;
pub mod idempotency;
pub mod overrides;
pub mod pagination;
pub mod poll;
pub mod profile;
pub mod rate_limit;
#[cfg(feature = "journal")]
mod recovery;
pub mod request;
pub mod response;
pub mod retry;
pub mod security;
pub mod servers;
pub mod signing;
pub mod spec;
pub mod transport;
pub mod version;
pub mod webhook;
mod write;

// The modules of the folders, at the paths they have always had.
pub use encoding::{body, multipart, params};
pub use engine::client;
pub use transport::hyper_transport;
#[cfg(feature = "reqwest")]
pub use transport::reqwest_transport;

// The encoding of generated types lives in its own crate (no HTTP); generated code names it
// through these re-exports, at the paths it always had.
pub use oncegen_codec::{Nullable, Secret, nullable, secret, tagged, untagged};
pub use oncegen_codec::{closest, dropped_members, located, refusing_unknown};
pub use oncegen_codec::{
    exclusive_group, from_variants, json_object, string_enum, tagged_union, untagged_union,
};

#[cfg(feature = "crash-points")]
pub use write::crash_point;
#[cfg(feature = "postgres")]
pub use write::postgres_journal;
#[cfg(feature = "journal")]
pub use write::{journal, same_write, sqlite_journal};

pub use binary::Binary;
pub use builder::{Call, CallBuilder};
pub use client::Client;
pub use config::{Config, Credentials, SdkIdentity, Timeouts, WaitPolicy};
pub use engine::download::Download;
pub use error::{ApiError, Error, ErrorContext, PolledOutcome, Reconciliation, UnknownOutcome};
pub use hooks::{AttemptInfo, AttemptOutcome, Hook};
pub use hyper_transport::HyperTransport;
pub use multipart::FilePart;
pub use overrides::Overrides;
pub use params::ParamStyle;
pub use poll::PollSpec;
pub use profile::{ApiProfile, ErrorBody, OperationLookup};
pub use rate_limit::RateLimitInfo;
#[cfg(feature = "journal")]
pub use recovery::{RECOVERY_CONCURRENCY, RecoveredWrite, Recovery};
pub use request::{CallOptions, Request};
#[cfg(feature = "reqwest")]
pub use reqwest_transport::ReqwestTransport;
pub use response::{Response, ResponseFuture, ResponseMeta};
pub use retry::RetryPolicy;
pub use security::{Requirement, SchemeCredential, SchemeKind, SecurityScheme};
pub use signing::{DefaultSigner, Signer, SigningInput};
pub use spec::{Idempotency, Method, OperationSpec, ParamIn};
pub use transport::{
    BodyStream, HttpRequest, HttpResponse, StreamingResponse, Transport, TransportError,
    TransportErrorKind,
};
pub use webhook::WebhookError;
#[cfg(feature = "journal")]
pub use write::journal::{
    DamagedRecord, JournaledWrite, Pending, PendingWrite, Settlement, StoredResponse, WriteJournal,
};
#[cfg(feature = "postgres")]
pub use write::postgres_journal::{PostgresJournal, PostgresJournalBuilder};
#[cfg(feature = "journal")]
pub use write::sqlite_journal::SqliteJournal;
