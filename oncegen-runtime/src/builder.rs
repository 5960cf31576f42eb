//! [`Call`], what every generated request builder holds besides its parameters, and
//! [`CallBuilder`], the per-call setters they all share.

use std::fmt::Display;
use std::future::Future;
use std::time::Duration;

use bytes::Bytes;

use serde::de::DeserializeOwned;

use crate::encoding::body::Format;
use crate::engine::client::Client;
use crate::engine::download::Download;
use crate::error::Error;
use crate::request::{CallOptions, Request};
use crate::response::ResponseFuture;
use crate::retry::RetryPolicy;

/// A call being built: the client it goes through and its per-call options. Every generated
/// request builder holds one (`call`), which sends the request it assembles.
#[derive(Clone, Debug)]
pub struct Call<'c> {
    client: &'c Client,
    options: CallOptions,
}

impl<'c> Call<'c> {
    /// A call through `client` with the default options.
    pub fn new(client: &'c Client) -> Self {
        Call {
            client,
            options: CallOptions::default(),
        }
    }

    /// The client the call goes through.
    pub fn client(&self) -> &'c Client {
        self.client
    }

    /// The call's options (what [`CallBuilder`]'s setters change).
    pub fn options_mut(&mut self) -> &mut CallOptions {
        &mut self.options
    }

    /// Sends `request` with the call's options: [`Client::execute`].
    pub fn execute<T: DeserializeOwned>(self, request: Request) -> ResponseFuture<'c, T> {
        self.client.execute(request, self.options)
    }

    /// Sends `request` with the call's options, its body read in the format `F`:
    /// [`Client::execute_as`].
    pub fn execute_as<F: Format>(self, request: Request) -> ResponseFuture<'c, F::Output, F> {
        self.client.execute_as::<F>(request, self.options)
    }

    /// Sends `request` with the call's options and streams the body: [`Client::download`].
    pub fn download(self, request: Request) -> impl Future<Output = Result<Download, Error>> + 'c {
        self.client.download(request, self.options)
    }
}

/// Implements [`CallBuilder`] for a generated request builder whose [`Call`] is its `call`
/// field: `oncegen_runtime::call_builder!(CreateZone);`.
#[macro_export]
macro_rules! call_builder {
    ($builder:ident) => {
        impl $crate::CallBuilder for $builder<'_> {
            fn call_options(&mut self) -> &mut $crate::CallOptions {
                self.call.options_mut()
            }
        }
    };
}

/// Per-call control for a generated request builder: correlation id, timeouts, retry policy,
/// extra headers, and the escape hatches for a document that is wrong (extra query parameters,
/// extra or overriding body fields, a raw JSON body). Every builder implements it; bring it into
/// scope with `use customer_cloud_sdk::CallBuilder` (or the SDK's prelude). Each setting is
/// validated before any I/O, and applies to this call only.
///
/// The escape hatches change the request before its bytes are fixed: idempotency keys,
/// signing, retries and the write journal treat the request as sent exactly as they treat any
/// other. The raw response (status, headers, body bytes) is beside the typed one on every
/// [`Response`](crate::Response) (`status`, `meta().headers`, `raw_body`), and in
/// [`Error::Decode`] when the body did not decode.
pub trait CallBuilder: Sized {
    /// The builder's call options (what the setters below change).
    fn call_options(&mut self) -> &mut CallOptions;

    /// Sets the `x-client-request-id` correlation label (1 to 120 characters).
    fn client_request_id(mut self, id: impl Into<String>) -> Self {
        self.call_options().set_client_request_id(id);
        self
    }

    /// Ties the call to the application's own identifier of what it does: never sent, kept
    /// in the write journal and handed back by recovery (see `CallOptions::set_intent`).
    fn intent(mut self, intent: impl Into<String>) -> Self {
        self.call_options().set_intent(intent);
        self
    }

    /// Limits the whole call, retries and waits included (must be greater than zero).
    fn timeout(mut self, whole_call: Duration) -> Self {
        self.call_options().set_timeout(whole_call);
        self
    }

    /// Limits each HTTP attempt of the call (must be greater than zero).
    fn attempt_timeout(mut self, per_attempt: Duration) -> Self {
        self.call_options().set_attempt_timeout(per_attempt);
        self
    }

    /// Uses this retry policy for this call instead of the client's.
    fn retry_policy(mut self, policy: RetryPolicy) -> Self {
        self.call_options().set_retry_policy(policy);
        self
    }

    /// Adds a header to this call. A header the SDK sets itself (auth, signing, idempotency,
    /// framing) is refused with a validation error.
    fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.call_options().add_header(name, value);
        self
    }

    /// Sends the query parameter `name=value` (the value percent-encoded), replacing any the
    /// builder sets under that name: for a parameter the document does not list or types
    /// wrongly.
    fn extra_query(mut self, name: impl Into<String>, value: impl Display) -> Self {
        self.call_options()
            .overrides_mut()
            .set_query(name, value.to_string());
        self
    }

    /// Sets the field `name` of the JSON body to `value` (any `Serialize`, e.g. a
    /// `serde_json::Value`), replacing the typed body's field of that name or adding it; a call
    /// without a body sends an object of these fields. For a field the document lacks or types
    /// wrongly. The body must be a JSON object (else the call fails before any I/O).
    fn extra_body_field(mut self, name: impl Into<String>, value: impl serde::Serialize) -> Self {
        self.call_options()
            .overrides_mut()
            .set_body_field(name, value);
        self
    }

    /// Sends `json` (JSON text, checked before any I/O) as the body instead of the typed one,
    /// with `Content-Type: application/json`: for an operation documented without the body it
    /// needs. [`extra_body_field`](Self::extra_body_field)s are set in it.
    fn raw_json_body(mut self, json: impl Into<Bytes>) -> Self {
        self.call_options().overrides_mut().set_raw_json_body(json);
        self
    }
}
