//! The `Client`: built once from a `Config`, cheap to clone. A call runs as the steps of the
//! `call` module; the pieces here are shared by calls, downloads and recovery: the 429 gate,
//! the wire an attempt is built with, and the error that ends a call.

use std::sync::Arc;
use std::time::Duration;

use http::{HeaderMap, HeaderValue};

use crate::auth::Auth;
use crate::auth::endpoint::Endpoint;
use crate::binary::Binary;
use crate::config::Config;
use crate::engine::attempt::Wire;
use crate::engine::budget::Budget;
use crate::engine::decision::decide::Failure;
use crate::engine::prepare::{Defaults, Prepared};
use crate::error::{ApiError, Error, ErrorContext};
use crate::rate_limit::{ProbePermit, RateLimitGate, RateLimitInfo};
use crate::request::{CallOptions, Request};
use crate::transport::{HttpResponse, Transport, TransportError, TransportErrorKind};

/// The API client: cheap to clone (an `Arc` inside), one 429 gate shared by all clones.
#[derive(Clone, Debug)]
pub struct Client {
    pub(crate) inner: Arc<Inner>,
}

#[derive(Debug)]
pub(crate) struct Inner {
    pub config: Config,
    pub endpoint: Endpoint,
    pub transport: Arc<dyn Transport>,
    pub gate: RateLimitGate,
    pub user_agent: HeaderValue,
    pub auth: Auth,
    /// [`Config::credential_id`], computed once: what the journal records of each write.
    #[cfg(feature = "journal")]
    pub credential_id: Option<String>,
}

impl Client {
    /// Builds a client: validates the base URL (credentials over cleartext `http://` only to
    /// loopback hosts, unless [`Config::allow_insecure_http`]), the servers it routes to
    /// ([`Config::route_server`]) likewise, and the credentials, and builds the default
    /// transport when none is set: [`HyperTransport`](crate::HyperTransport), or, with the
    /// `reqwest` feature, `ReqwestTransport` when the environment names a proxy (`HTTPS_PROXY`,
    /// `HTTP_PROXY`, `ALL_PROXY`, in either case), which reqwest honours. Without that feature
    /// a proxy variable is not honoured, and a warning says so.
    pub fn new(config: Config) -> Result<Self, Error> {
        let endpoint = Endpoint::new(&config)?;
        for (_, to) in &config.server_routes {
            Endpoint::for_server(to, &config)?;
        }
        let transport: Arc<dyn Transport> = match &config.transport {
            Some(t) => t.clone(),
            None => crate::transport::default::default_transport(config.timeouts.connect, |name| {
                std::env::var(name).ok()
            })
            .map_err(|e| Error::config(e.to_string()))?,
        };
        let user_agent = HeaderValue::from_str(&config.effective_user_agent())
            .map_err(|_| Error::config("the user agent is not a valid header value"))?;
        let auth = Auth::new(&config)?;
        Ok(Self {
            inner: Arc::new(Inner {
                #[cfg(feature = "journal")]
                credential_id: config.credential_id(),
                config,
                endpoint,
                transport,
                gate: RateLimitGate::new(),
                user_agent,
                auth,
            }),
        })
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// The per-client 429 gate.
    pub fn rate_limit_gate(&self) -> &RateLimitGate {
        &self.inner.gate
    }

    /// Validates and assembles a request with this client's defaults.
    pub(crate) fn prepare(
        &self,
        request: &Request,
        options: &CallOptions,
    ) -> Result<Prepared, Error> {
        Prepared::new(request, options, self.defaults())
    }

    pub(crate) fn defaults(&self) -> Defaults<'_> {
        Defaults {
            config: &self.inner.config,
            endpoint: &self.inner.endpoint,
        }
    }

    pub(crate) fn wire(&self) -> Wire<'_> {
        Wire {
            auth: &self.inner.auth,
            user_agent: &self.inner.user_agent,
            hooks: &self.inner.config.hooks,
            max_response_bytes: self.inner.config.max_response_bytes,
        }
    }

    /// Waits (bounded by the deadline) until the closed 429 gate lets this attempt go; `Err`
    /// when the deadline passes first.
    pub(crate) async fn pass_gate(&self, budget: &Budget) -> Result<Option<ProbePermit<'_>>, ()> {
        match budget.deadline() {
            Some(d) => tokio::time::timeout_at(d, self.inner.gate.acquire())
                .await
                .map_err(drop),
            None => Ok(self.inner.gate.acquire().await),
        }
    }

    /// Closes the gate after a 429 (for the advertised wait, else a backoff), opens it after
    /// any other answer to the probe. The wait the gate closed for, if it did.
    pub(crate) fn update_gate(
        &self,
        result: &Result<HttpResponse, TransportError>,
        permit: Option<ProbePermit<'_>>,
        p: &Prepared,
        budget: &Budget,
    ) -> Option<Duration> {
        let closed = match result {
            Ok(r) if r.status == 429 => {
                let wait = RateLimitInfo::from_headers(&r.headers)
                    .suggested_wait()
                    .unwrap_or_else(|| {
                        p.policy
                            .backoff(budget.sent() - 1)
                            .max(Duration::from_millis(1))
                    });
                let wait = wait.min(p.policy.max_retry_after);
                self.inner.gate.close_for(wait);
                Some(wait)
            }
            Ok(_) if permit.is_some() => {
                self.inner.gate.open();
                None
            }
            _ => None,
        };
        drop(permit);
        closed
    }

    /// An error response, with whether the contract says its code may be resent.
    pub(crate) fn api_error(&self, response: &HttpResponse, context: ErrorContext) -> ApiError {
        let profile = self.inner.config.profile;
        let mut api = ApiError::from_response(response, context, &profile.error_body);
        api.retryable_code = profile.is_retry_code(&api.code);
        api
    }

    /// The error that ends a call with `failure` (any but an unknown outcome).
    pub(crate) fn failure(
        &self,
        failure: Failure,
        p: &Prepared,
        result: Result<HttpResponse, TransportError>,
        attempts: u32,
    ) -> Error {
        let mut context = p.context(attempts);
        let response = match result {
            Err(source) if failure == Failure::TooLarge => {
                return Error::ResponseTooLarge {
                    status: source.status.unwrap_or_default(),
                    limit: self.inner.config.max_response_bytes,
                    context: Box::new(context),
                };
            }
            Err(source) if source.kind == TransportErrorKind::Timeout => {
                return Error::Timeout {
                    context: Box::new(context),
                };
            }
            Err(source) => {
                return Error::Transport {
                    source,
                    context: Box::new(context),
                };
            }
            Ok(response) => response,
        };
        let (rate_limit, request_id) = RateLimitInfo::with_request_id(&response.headers);
        context.request_id = request_id.map(str::to_owned);
        context.rate_limit = rate_limit;
        let status = response.status;
        match failure {
            Failure::Redirected => Error::Redirected {
                status,
                location: header(&response.headers, http::header::LOCATION.as_str())
                    .map(strip_query),
                context: Box::new(context),
            },
            Failure::Decode => Error::Decode {
                status,
                message: format!(
                    "expected a JSON body, got content type `{}`",
                    header(&response.headers, http::header::CONTENT_TYPE.as_str()).unwrap_or("-")
                ),
                body: Binary::from_response(&response.headers, response.body),
                context: Box::new(context),
            },
            _ => Error::Api(Box::new(self.api_error(&response, context))),
        }
    }
}

fn header<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// A `Location` without its query and fragment (they may carry tokens).
fn strip_query(location: &str) -> String {
    location
        .split(['?', '#'])
        .next()
        .unwrap_or_default()
        .to_owned()
}
