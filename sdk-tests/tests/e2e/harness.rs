//! The shared harness: picks the target (a real deployment from the environment, or the
//! in-process sandbox), builds SDK clients with short timeouts, and reads the spec's operations.

use std::collections::BTreeSet;
use std::time::Duration;

use cloud_sandbox::{Credential, Sandbox, SandboxConfig};
use customer_cloud_sdk::ConfigExt;
use oncegen_runtime::{Config, RetryPolicy, WaitPolicy};

/// Where the tests run.
pub enum Target {
    /// The in-process sandbox (fresh ledger per test).
    Sandbox(Sandbox),
    /// A deployment named by `CUSTOMER_CLOUD_API_BASE_URL` and its credential variables.
    Real(Box<Config>),
}

/// One test's environment.
pub struct Env {
    /// The target.
    pub target: Target,
}

/// True when `CUSTOMER_CLOUD_API_BASE_URL` names a real target.
pub fn real_target_configured() -> bool {
    std::env::var(format!("{}_BASE_URL", customer_cloud_sdk::ENV_PREFIX))
        .is_ok_and(|v| !v.trim().is_empty())
}

/// Short policies so fault paths stay fast: the sandbox answers in milliseconds.
pub fn fast(config: Config) -> Config {
    config
        .attempt_timeout(Duration::from_secs(5))
        .total_timeout(Duration::from_secs(30))
        .retry_policy(RetryPolicy {
            initial_backoff: Duration::from_millis(5),
            max_backoff: Duration::from_millis(50),
            max_retry_after: Duration::from_secs(3),
            ..RetryPolicy::default()
        })
        .wait_policy(WaitPolicy {
            initial_interval: Duration::from_millis(5),
            max_interval: Duration::from_millis(50),
            max_wait: Duration::from_secs(20),
            unknown_patience: Duration::from_secs(2),
        })
}

impl Env {
    /// The real target when `CUSTOMER_CLOUD_API_BASE_URL` is set, else a fresh sandbox.
    pub async fn start() -> Self {
        if real_target_configured() {
            let config = Config::from_env().expect("CUSTOMER_CLOUD_API_* variables");
            eprintln!("e2e: real target {}", config.get_base_url());
            return Self {
                target: Target::Real(Box::new(config)),
            };
        }
        Self::sandbox_with(SandboxConfig::default()).await
    }

    /// A fresh sandbox, or `None` (after printing why) when a real target is configured: for
    /// tests that need the sandbox's seeded data, fault injection or ledger.
    pub async fn sandbox_only(test: &str, why: &str) -> Option<Self> {
        if real_target_configured() {
            eprintln!("e2e: skipping `{test}` against the real target: it needs {why}");
            return None;
        }
        Some(Self::sandbox_with(SandboxConfig::default()).await)
    }

    /// A sandbox with a custom configuration.
    pub async fn sandbox_with(config: SandboxConfig) -> Self {
        let sb = Sandbox::start_with(config).await.expect("sandbox starts");
        Self {
            target: Target::Sandbox(sb),
        }
    }

    /// The sandbox, when the target is one.
    pub fn sandbox(&self) -> Option<&Sandbox> {
        match &self.target {
            Target::Sandbox(sb) => Some(sb),
            Target::Real(_) => None,
        }
    }

    /// The sandbox; panics on a real target (use after `sandbox_only`).
    pub fn sb(&self) -> &Sandbox {
        self.sandbox().expect("a sandbox target")
    }

    /// The default configuration: the environment's for a real target, the seeded all-scopes
    /// bearer credential for the sandbox; short timeouts either way.
    pub fn config(&self) -> Config {
        match &self.target {
            Target::Real(config) => fast(Config::clone(config)),
            Target::Sandbox(sb) => {
                fast(Config::new(sb.base_url()).bearer(sb.credentials().bearer.bearer_token()))
            }
        }
    }

    /// A configuration authenticating as `cred` (signed or bearer, per its mode).
    pub fn config_as(&self, cred: &Credential) -> Config {
        let base = Config::new(self.sb().base_url());
        fast(match cred.mode {
            cloud_sandbox::Mode::Bearer => base.bearer(cred.bearer_token()),
            cloud_sandbox::Mode::Signed => base.signed(cred.prefix.clone(), cred.secret.clone()),
        })
    }

    /// The SDK client of [`Env::config`].
    pub fn client(&self) -> customer_cloud_sdk::Client {
        customer_cloud_sdk::Client::new(self.config()).expect("client")
    }

    /// The SDK client authenticating as `cred`.
    pub fn client_as(&self, cred: &Credential) -> customer_cloud_sdk::Client {
        customer_cloud_sdk::Client::new(self.config_as(cred)).expect("client")
    }
}

impl Drop for Env {
    fn drop(&mut self) {
        if let Some(sb) = self.sandbox()
            && !std::thread::panicking()
        {
            assert_eq!(
                sb.schema_violations(),
                Vec::<(String, String)>::new(),
                "every sandbox answer must match the spec"
            );
        }
    }
}

/// Every `operationId` of `spec/openapi.yaml`, read from the file (not from the sandbox or the
/// generated crate, so the coverage check has an independent source).
pub fn spec_operation_ids() -> BTreeSet<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/openapi.yaml");
    let text = std::fs::read_to_string(path).expect("spec/openapi.yaml");
    let doc: serde_json::Value = yaml_serde::from_str(&text).expect("spec parses");
    let methods = [
        "get", "put", "post", "delete", "options", "head", "patch", "trace",
    ];
    let mut ids = BTreeSet::new();
    for (_, item) in doc["paths"].as_object().expect("paths") {
        for m in methods {
            if let Some(id) = item[m]["operationId"].as_str() {
                assert!(ids.insert(id.to_owned()), "duplicate operationId {id}");
            }
        }
    }
    ids
}

/// A deterministic PRNG (splitmix64) for seeded schedules.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// Seeds the generator.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}
