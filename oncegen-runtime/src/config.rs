//! Client configuration: base URL, credentials, timeouts, retry and wait policies, SDK identity,
//! transport and signer; `Config::from_env_with_prefix` for deployments (the generated crate
//! passes its API's prefix).

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::error::Error;
use crate::hooks::Hook;
#[cfg(feature = "journal")]
use crate::journal::WriteJournal;
use crate::profile::ApiProfile;
use crate::retry::RetryPolicy;
use crate::security::{SchemeCredential, SecurityScheme};
use crate::signing::{DefaultSigner, Signer};
use crate::transport::Transport;
use oncegen_codec::Secret;

/// Default of [`Config::max_response_bytes`]: 32 MiB.
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 32 * 1024 * 1024;

/// Who is calling: the generated SDK's name and version and the contract revision it was
/// generated from. It appears in the `User-Agent` and in the generated client's contract check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SdkIdentity {
    /// SDK crate name, e.g. `customer-cloud-sdk`.
    pub name: String,
    /// SDK version, e.g. `0.1.0`.
    pub version: String,
    /// Contract revision the SDK was generated from, e.g. `r1`.
    pub contract_revision: String,
}

impl SdkIdentity {
    /// Builds an identity.
    pub fn new(
        name: impl Into<String>,
        version: impl Into<String>,
        contract_revision: impl Into<String>,
    ) -> Self {
        Self {
            name: name.into(),
            version: version.into(),
            contract_revision: contract_revision.into(),
        }
    }
}

impl Default for SdkIdentity {
    fn default() -> Self {
        Self::new("oncegen-runtime", env!("CARGO_PKG_VERSION"), "unknown")
    }
}

/// How requests authenticate (reference part 5).
#[derive(Clone, Debug, Default)]
pub enum Credentials {
    /// No authentication headers (public endpoints, tests).
    #[default]
    None,
    /// `Authorization: Bearer <prefix>.<secret>`.
    Bearer(Secret),
    /// Signed mode: `x-api-key`, `x-ts`, `x-nonce`, `x-content-sha256`, `x-signature`.
    Signed {
        /// The API key (credential prefix), sent in `x-api-key`.
        api_key: String,
        /// The credential secret, the HMAC key.
        secret: Secret,
    },
}

/// Timeouts. `None` means no limit at that level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// TCP/TLS connect timeout (default transport only).
    pub connect: Option<Duration>,
    /// Timeout of one HTTP attempt.
    pub attempt: Option<Duration>,
    /// Timeout of a whole call, retries and waits included (overridable per call).
    pub total: Option<Duration>,
}

impl Default for Timeouts {
    fn default() -> Self {
        Self {
            connect: Some(Duration::from_secs(10)),
            attempt: Some(Duration::from_secs(30)),
            total: Some(Duration::from_secs(120)),
        }
    }
}

/// How [`poll::wait`](crate::poll::wait) and the generated waiters poll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaitPolicy {
    /// First delay between polls.
    pub initial_interval: Duration,
    /// Largest delay between polls (the delay doubles up to it).
    pub max_interval: Duration,
    /// Give up after this long ([`Error::WaitTimeout`]).
    pub max_wait: Duration,
    /// How long an operation may stay `unknown` before
    /// [`Error::OperationOutcomeUnknown`] is returned.
    pub unknown_patience: Duration,
}

impl Default for WaitPolicy {
    fn default() -> Self {
        Self {
            initial_interval: Duration::from_secs(1),
            max_interval: Duration::from_secs(15),
            max_wait: Duration::from_secs(30 * 60),
            unknown_patience: Duration::from_secs(5 * 60),
        }
    }
}

/// Client configuration (a builder: every setter takes and returns `self`).
///
/// ```
/// use std::time::Duration;
/// use oncegen_runtime::{Config, RetryPolicy, SdkIdentity};
/// let config = Config::new("https://api.example.com")
///     .bearer("prefix.secret")
///     .sdk(SdkIdentity::new("example-sdk", "0.1.0", "r1"))
///     .attempt_timeout(Duration::from_secs(20))
///     .retry_policy(RetryPolicy::default());
/// # let _ = config;
/// ```
#[derive(Clone)]
pub struct Config {
    pub(crate) base_url: String,
    pub(crate) credentials: Credentials,
    pub(crate) schemes: Vec<(SecurityScheme, SchemeCredential)>,
    /// The schemes whose credential goes on every operation (see
    /// [`Config::scheme_credential_everywhere`]).
    pub(crate) schemes_everywhere: Vec<&'static str>,
    pub(crate) timeouts: Timeouts,
    pub(crate) retry: RetryPolicy,
    pub(crate) wait: WaitPolicy,
    pub(crate) sdk: SdkIdentity,
    pub(crate) profile: &'static ApiProfile,
    pub(crate) user_agent: Option<String>,
    pub(crate) transport: Option<Arc<dyn Transport>>,
    pub(crate) signer: Arc<dyn Signer>,
    pub(crate) max_response_bytes: usize,
    pub(crate) allow_insecure_http: bool,
    pub(crate) server_routes: Vec<(String, String)>,
    pub(crate) hooks: Vec<Arc<dyn Hook>>,
    #[cfg(feature = "journal")]
    pub(crate) journal: Option<Arc<dyn WriteJournal>>,
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut f = f.debug_struct("Config");
        f.field("base_url", &self.base_url)
            .field("credentials", &self.credentials)
            .field("schemes", &self.schemes)
            .field("schemes_everywhere", &self.schemes_everywhere)
            .field("timeouts", &self.timeouts)
            .field("retry", &self.retry)
            .field("wait", &self.wait)
            .field("sdk", &self.sdk)
            .field("profile", &self.profile)
            .field("user_agent", &self.user_agent)
            .field("transport", &self.transport)
            .field("signer", &self.signer)
            .field("max_response_bytes", &self.max_response_bytes)
            .field("allow_insecure_http", &self.allow_insecure_http)
            .field("server_routes", &self.server_routes)
            .field("hooks", &self.hooks);
        #[cfg(feature = "journal")]
        f.field("journal", &self.journal);
        f.finish()
    }
}

impl Config {
    /// A configuration for `base_url` with no credentials and default policies.
    pub fn new(base_url: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into(),
            credentials: Credentials::None,
            schemes: Vec::new(),
            schemes_everywhere: Vec::new(),
            timeouts: Timeouts::default(),
            retry: RetryPolicy::default(),
            wait: WaitPolicy::default(),
            sdk: SdkIdentity::default(),
            profile: &ApiProfile::NONE,
            user_agent: None,
            transport: None,
            signer: Arc::new(DefaultSigner),
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            allow_insecure_http: false,
            server_routes: Vec::new(),
            hooks: Vec::new(),
            #[cfg(feature = "journal")]
            journal: None,
        }
    }

    /// Reads the configuration from the environment variables named by the API's `prefix`
    /// (the generated crate passes its own, e.g. `CUSTOMER_CLOUD_API`):
    ///
    /// * `<prefix>_BASE_URL` (required): base URL;
    /// * `<prefix>_BEARER`: bearer credential `<key prefix>.<secret>`; otherwise
    /// * `<prefix>_KEY` and `<prefix>_SECRET`: signed-mode key and secret;
    /// * with none of them, requests carry no credentials.
    pub fn from_env_with_prefix(prefix: &str) -> Result<Self, Error> {
        Self::from_lookup_with_prefix(prefix, |name| std::env::var(name).ok())
    }

    /// Like [`Config::from_env_with_prefix`], reading variables through `lookup` (testable).
    pub fn from_lookup_with_prefix(
        prefix: &str,
        lookup: impl Fn(&str) -> Option<String>,
    ) -> Result<Self, Error> {
        let name = |suffix: &str| format!("{prefix}_{suffix}");
        let get = |name: &str| lookup(name).filter(|v| !v.trim().is_empty());
        let (base_url, bearer) = (name("BASE_URL"), name("BEARER"));
        let (key, secret) = (name("KEY"), name("SECRET"));
        let base_url =
            get(&base_url).ok_or_else(|| Error::config(format!("{base_url} is not set")))?;
        let mut config = Config::new(base_url.trim());
        if let Some(token) = get(&bearer) {
            config = config.bearer(token);
        } else {
            match (get(&key), get(&secret)) {
                (Some(key), Some(secret)) => config = config.signed(key, secret),
                (None, None) => {}
                _ => {
                    return Err(Error::config(format!(
                        "signed mode needs both {key} and {secret}"
                    )));
                }
            }
        }
        Ok(config)
    }

    /// Sets the base URL.
    pub fn base_url(mut self, base_url: impl Into<String>) -> Self {
        self.base_url = base_url.into();
        self
    }

    /// Sets the credential of one of the document's security schemes (a generated crate has a
    /// `static` per scheme); an operation then sends the credentials of the first of its
    /// `security` requirements that all have one. Replaces an earlier credential of the scheme.
    pub fn scheme_credential(
        mut self,
        scheme: &SecurityScheme,
        credential: SchemeCredential,
    ) -> Self {
        self.schemes.retain(|(s, _)| s.name != scheme.name);
        self.schemes.push((*scheme, credential));
        self
    }

    /// Sets the credential of one of the document's security schemes, as
    /// [`scheme_credential`](Self::scheme_credential), and sends it on every operation whose
    /// `security` does not say it needs none: for a document whose `security` is incomplete
    /// (the scheme declared on some operations and no top-level `security`), where the others
    /// would go unauthenticated. An operation that sends no credential is logged at debug level.
    pub fn scheme_credential_everywhere(
        mut self,
        scheme: &SecurityScheme,
        credential: SchemeCredential,
    ) -> Self {
        if !self.schemes_everywhere.contains(&scheme.name) {
            self.schemes_everywhere.push(scheme.name);
        }
        self.scheme_credential(scheme, credential)
    }

    /// Uses bearer mode with `token` (a bearer token, sent as `Authorization: Bearer <token>`
    /// on every operation whose `security` does not say it needs none, whatever schemes it
    /// names; this contract's tokens read `<prefix>.<secret>`).
    pub fn bearer(mut self, token: impl Into<Secret>) -> Self {
        self.credentials = Credentials::Bearer(token.into());
        self
    }

    /// Uses signed mode with this API key (prefix) and secret.
    pub fn signed(mut self, api_key: impl Into<String>, secret: impl Into<Secret>) -> Self {
        self.credentials = Credentials::Signed {
            api_key: api_key.into(),
            secret: secret.into(),
        };
        self
    }

    /// Sets the credentials.
    pub fn credentials(mut self, credentials: Credentials) -> Self {
        self.credentials = credentials;
        self
    }

    /// Sets the SDK identity (name, version, contract revision).
    pub fn sdk(mut self, sdk: SdkIdentity) -> Self {
        self.sdk = sdk;
        self
    }

    /// Sets the API's conventions (the generated crate's client does this).
    pub fn profile(mut self, profile: &'static ApiProfile) -> Self {
        self.profile = profile;
        self
    }

    /// The API's conventions.
    pub fn get_profile(&self) -> &'static ApiProfile {
        self.profile
    }

    /// Replaces the `User-Agent` (default: `<sdk name>/<sdk version> (contract <revision>; oncegen-runtime/<version>)`).
    pub fn user_agent(mut self, user_agent: impl Into<String>) -> Self {
        self.user_agent = Some(user_agent.into());
        self
    }

    /// Sets all timeouts.
    pub fn timeouts(mut self, timeouts: Timeouts) -> Self {
        self.timeouts = timeouts;
        self
    }

    /// Sets the connect timeout.
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.timeouts.connect = Some(timeout);
        self
    }

    /// Sets the per-attempt timeout.
    pub fn attempt_timeout(mut self, timeout: Duration) -> Self {
        self.timeouts.attempt = Some(timeout);
        self
    }

    /// Sets the whole-call timeout (retries and waits included).
    pub fn total_timeout(mut self, timeout: Duration) -> Self {
        self.timeouts.total = Some(timeout);
        self
    }

    /// Sets the retry policy ([`RetryPolicy::disabled`] switches retries off).
    pub fn retry_policy(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    /// Sets the polling policy of operation, task and DNSSEC waits.
    pub fn wait_policy(mut self, policy: WaitPolicy) -> Self {
        self.wait = policy;
        self
    }

    /// Plugs another HTTP stack (default: [`HyperTransport`](crate::HyperTransport), see
    /// [`Client::new`](crate::Client::new)).
    pub fn transport(mut self, transport: Arc<dyn Transport>) -> Self {
        self.transport = Some(transport);
        self
    }

    /// Plugs another signed-mode signer (default: [`DefaultSigner`]).
    pub fn signer(mut self, signer: Arc<dyn Signer>) -> Self {
        self.signer = signer;
        self
    }

    /// Caps the size of a response body (default [`DEFAULT_MAX_RESPONSE_BYTES`], 32 MiB). A
    /// larger body ends the call with [`Error::ResponseTooLarge`] instead of filling memory.
    pub fn max_response_bytes(mut self, limit: usize) -> Self {
        self.max_response_bytes = limit;
        self
    }

    /// Allows credentials over cleartext `http://` to a host that is not loopback. Off by
    /// default: [`Client::new`](crate::Client::new) refuses such a configuration, since anyone
    /// on the path could read the bearer token or replay signed requests. Loopback hosts
    /// (`localhost`, `127.0.0.0/8`, `::1`) are always allowed.
    pub fn allow_insecure_http(mut self, allow: bool) -> Self {
        self.allow_insecure_http = allow;
        self
    }

    /// Sends the requests of operations whose own server is `server` (an operation or path
    /// with `servers` in the document, such as an upload host) to `to` instead: a test server,
    /// a proxy, another region. Operations without a server of their own go to the base URL.
    /// [`Client::new`](crate::Client::new) checks `to` as it checks the base URL.
    pub fn route_server(mut self, server: impl Into<String>, to: impl Into<String>) -> Self {
        self.server_routes.push((server.into(), to.into()));
        self
    }

    /// Adds a [`Hook`] called around every HTTP attempt (metrics, logging).
    pub fn hook(mut self, hook: Arc<dyn Hook>) -> Self {
        self.hooks.push(hook);
        self
    }

    /// Records every keyed write in `journal` before its first attempt, and settles it once its
    /// outcome is definite (see [`journal`](crate::journal)).
    #[cfg(feature = "journal")]
    pub fn journal(mut self, journal: Arc<dyn WriteJournal>) -> Self {
        self.journal = Some(journal);
        self
    }

    /// The base URL.
    pub fn get_base_url(&self) -> &str {
        &self.base_url
    }

    /// Which credential this configuration sends, as a digest that names it without revealing
    /// it (16 hex digits of SHA-256 over every credential and scheme credential); `None`
    /// without any. What the write journal records, so that a write is only ever settled with
    /// the credential it was made with.
    pub fn credential_id(&self) -> Option<String> {
        use sha2::{Digest, Sha256};
        let mut hash = Sha256::new();
        let mut part = |bytes: &[u8]| {
            hash.update((bytes.len() as u64).to_be_bytes());
            hash.update(bytes);
        };
        let mut any = false;
        match &self.credentials {
            Credentials::None => {}
            Credentials::Bearer(token) => {
                any = true;
                part(b"bearer");
                part(token.expose_secret().as_bytes());
            }
            Credentials::Signed { api_key, secret } => {
                any = true;
                part(b"signed");
                part(api_key.as_bytes());
                part(secret.expose_secret().as_bytes());
            }
        }
        for (scheme, credential) in &self.schemes {
            any = true;
            part(scheme.name.as_bytes());
            match credential {
                SchemeCredential::ApiKey(key) => part(key.expose_secret().as_bytes()),
                SchemeCredential::Bearer(token) => part(token.expose_secret().as_bytes()),
                SchemeCredential::Basic { username, password } => {
                    part(username.as_bytes());
                    part(password.expose_secret().as_bytes());
                }
            }
        }
        let digest = hash.finalize();
        any.then(|| digest[..8].iter().map(|b| format!("{b:02x}")).collect())
    }

    /// The SDK identity.
    pub fn get_sdk(&self) -> &SdkIdentity {
        &self.sdk
    }

    /// The credentials.
    pub fn get_credentials(&self) -> &Credentials {
        &self.credentials
    }

    /// The timeouts.
    pub fn get_timeouts(&self) -> &Timeouts {
        &self.timeouts
    }

    /// The retry policy.
    pub fn get_retry_policy(&self) -> &RetryPolicy {
        &self.retry
    }

    /// The wait policy.
    pub fn get_wait_policy(&self) -> &WaitPolicy {
        &self.wait
    }

    /// The response body cap, in bytes.
    pub fn get_max_response_bytes(&self) -> usize {
        self.max_response_bytes
    }

    /// The write journal, if one is set.
    #[cfg(feature = "journal")]
    pub fn get_journal(&self) -> Option<&Arc<dyn WriteJournal>> {
        self.journal.as_ref()
    }

    /// The `User-Agent` sent with every request.
    pub fn effective_user_agent(&self) -> String {
        self.user_agent.clone().unwrap_or_else(|| {
            format!(
                "{}/{} (contract {}; oncegen-runtime/{})",
                self.sdk.name,
                self.sdk.version,
                self.sdk.contract_revision,
                env!("CARGO_PKG_VERSION")
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_lookup_modes() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        let read = |pairs| Config::from_lookup_with_prefix("X_API", env(pairs));
        assert!(read(&[]).is_err());
        let c = read(&[("X_API_BASE_URL", "http://x"), ("X_API_BEARER", "p.s")]).unwrap();
        assert!(matches!(c.credentials, Credentials::Bearer(_)));
        let c = read(&[
            ("X_API_BASE_URL", "http://x"),
            ("X_API_KEY", "k"),
            ("X_API_SECRET", "s"),
        ])
        .unwrap();
        assert!(matches!(c.credentials, Credentials::Signed { .. }));
        assert!(!format!("{c:?}").contains("\"s\""));
        assert!(read(&[("X_API_BASE_URL", "http://x"), ("X_API_KEY", "k")]).is_err());
        let c = read(&[("X_API_BASE_URL", "http://x"), ("Y_API_BEARER", "p.s")]).unwrap();
        assert!(
            matches!(c.credentials, Credentials::None),
            "another prefix is not read"
        );
    }

    #[test]
    fn user_agent_names_sdk_and_revision() {
        let c = Config::new("http://x").sdk(SdkIdentity::new("example-sdk", "1.2.3", "r1"));
        let ua = c.effective_user_agent();
        assert!(ua.starts_with("example-sdk/1.2.3"));
        assert!(ua.contains("r1"));
    }
}
