//! The in-process handle: start/stop, seeded credentials, seeding, fault injection, operation
//! control and ledger inspection for tests.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use rust_decimal::Decimal;
use tokio::net::TcpListener;
use tokio::sync::Notify;
use uuid::Uuid;

use crate::async_operations::{OpStatus, OperationRecord, Progression};
use crate::auth::Credential;
use crate::faults::{Fault, Matcher, RandomFaults};
use crate::journal::RequestRecord;
use crate::ratelimit::RateLimiter;
use crate::seed::{self, SeededCredentials};
use crate::shared::{Edge, Shared};
use crate::spec::Spec;
use crate::state::{DedicatedTask, Invoice, Order, Service, State, Transaction, Zone};
use crate::validate::Validators;

/// Start-up options.
#[derive(Clone, Debug)]
pub struct SandboxConfig {
    /// Address to bind; `127.0.0.1:0` picks a free port.
    pub addr: SocketAddr,
    /// Seed of credentials, catalog ids and random faults.
    pub seed: u64,
    /// Initial balance (EUR).
    pub balance: Decimal,
    /// Rate limit `(budget, window)` per credential; `None` (default) = off.
    pub rate_limit: Option<(u32, Duration)>,
    /// How operations advance.
    pub progression: Progression,
    /// Spec text to serve instead of the embedded `spec/openapi.yaml`.
    pub spec_yaml: Option<String>,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        Self {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            seed: 42,
            balance: Decimal::new(100_000, 2),
            rate_limit: None,
            progression: Progression::PerPoll,
            spec_yaml: None,
        }
    }
}

/// A running sandbox. Dropping it stops the server.
#[derive(Debug)]
pub struct Sandbox {
    shared: Arc<Shared>,
    addr: SocketAddr,
    shutdown: Arc<Notify>,
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        self.shutdown.notify_waiters();
    }
}

impl Sandbox {
    /// Starts with the default configuration on `127.0.0.1:0`.
    pub async fn start() -> std::io::Result<Self> {
        Self::start_with(SandboxConfig::default()).await
    }

    /// Starts with `config`.
    pub async fn start_with(config: SandboxConfig) -> std::io::Result<Self> {
        let (spec, validators) = contract(config.spec_yaml.as_deref())?;
        let seeded = seed::credentials(config.seed, &spec.declared_scopes());
        let mut state = State::default();
        seed::populate(&mut state, config.seed);
        seed::shape_catalog(&mut state, &spec);
        state.balance = config.balance;
        state.operation_settings.progression = config.progression;
        for c in seeded.all() {
            state.auth.insert(c.clone());
        }
        let edge = Edge {
            rate_limiter: RateLimiter::new(config.rate_limit),
            ..Edge::default()
        };
        let shared = Arc::new(Shared::new(spec, validators, seeded, state, edge));
        let listener = TcpListener::bind(config.addr).await?;
        let addr = listener.local_addr()?;
        let shutdown = Arc::new(Notify::new());
        tokio::spawn(crate::server::serve(
            listener,
            shared.clone(),
            shutdown.clone(),
        ));
        Ok(Self {
            shared,
            addr,
            shutdown,
        })
    }

    /// `http://127.0.0.1:PORT` (no trailing slash).
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The seeded credentials.
    pub fn credentials(&self) -> &SeededCredentials {
        &self.shared.seeded
    }

    /// What the sandbox holds: contract, state, edge, journal (advanced use).
    pub fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    // ---- seeding ----

    /// Sets the account balance.
    pub fn set_balance(&self, amount: Decimal) {
        self.shared.state().balance = amount;
    }

    /// Adds a credential (e.g. with custom scopes or CIDRs).
    pub fn add_credential(&self, c: Credential) {
        self.shared.state().auth.insert(c);
    }

    /// Adds a credential of `mode` that holds only `scopes` (everything else like the seeded
    /// all-scopes credential), for scope tests; returns it.
    pub fn add_credential_with_scopes(&self, mode: crate::Mode, scopes: &[&str]) -> Credential {
        let id = Uuid::new_v4();
        let c = Credential {
            id,
            name: format!("sandbox scoped {}", &id.simple().to_string()[..8]),
            prefix: format!("sbx_{}", &id.simple().to_string()[..12]),
            secret: Uuid::new_v4().simple().to_string(),
            mode,
            scopes: scopes.iter().map(|s| (*s).to_owned()).collect(),
            ..self.shared.seeded.bearer.clone()
        };
        self.add_credential(c.clone());
        c
    }

    /// Every scope the served spec declares (what the seeded full credentials hold).
    pub fn declared_scopes(&self) -> Vec<String> {
        self.shared.spec.declared_scopes()
    }

    /// Creates an unpaid invoice (with an unpaid order) of `total`; returns the invoice id.
    pub fn add_unpaid_invoice(&self, total: Decimal) -> Uuid {
        let mut st = self.shared.state();
        let currency = st.currency.clone();
        let (_, invoice) =
            st.create_unpaid_order("seeded", total, &currency, serde_json::json!([]), None);
        invoice.id
    }

    /// Adds a service; returns its id.
    pub fn add_service(&self, kind: &str, hostname: &str, status: &str) -> Uuid {
        let id = Uuid::new_v4();
        self.shared.state().services.push(Service {
            id,
            status: status.into(),
            display_name: format!("{kind} {hostname}"),
            hostname: hostname.into(),
            kind: kind.into(),
            created_at: Utc::now(),
            billing_unit: "MONTH".into(),
            billing_count: 1,
            sku: format!("{kind}-std"),
            ipv4: "192.0.2.10".into(),
            region: "DE".into(),
        });
        id
    }

    /// The first seeded service of a kind (`vps`, `dedicated`, `domain`, `tcp-proxy`) that is active.
    pub fn service_of_kind(&self, kind: &str) -> Option<Service> {
        self.shared
            .state()
            .services
            .iter()
            .find(|s| s.kind == kind && s.status == "active")
            .cloned()
    }

    // ---- failure modes ----

    /// Moves the sandbox's clock forward (stored idempotent responses expire after 24 hours,
    /// terminal operation receipts after 90 days) without waiting.
    pub fn advance_clock(&self, by: Duration) {
        let by = chrono::Duration::from_std(by).unwrap_or(chrono::Duration::MAX);
        let mut st = self.shared.state();
        st.clock_offset += by;
    }

    /// Disables (or re-enables) API access for the account: every authenticated request
    /// answers 403 `service_disabled`.
    pub fn set_access_disabled(&self, disabled: bool) {
        self.shared.state().access_disabled = disabled;
    }

    /// Sets the catalog backend's health (healthy, degraded for some types, unavailable).
    pub fn set_catalog_health(&self, health: crate::state::CatalogHealth) {
        self.shared.state().catalog = health;
    }

    // ---- faults, rate limits, operations ----

    /// Injects `fault` into the next `times` requests matching `matcher`.
    pub fn inject(&self, fault: Fault, matcher: Matcher, times: u32) {
        self.shared.edge().faults.push(fault, matcher, times);
    }

    /// Installs a seeded random fault schedule (reproducible for a given seed and request order).
    pub fn inject_random(&self, random: RandomFaults) {
        self.shared.edge().faults.set_random(Some(random));
    }

    /// Removes every scheduled fault.
    pub fn clear_faults(&self) {
        self.shared.edge().faults.clear();
    }

    /// Faults injected so far: (method, path, fault).
    pub fn injected_faults(&self) -> Vec<(String, String, Fault)> {
        self.shared.edge().faults.injected.clone()
    }

    /// Sets (or turns off) the rate limit: `budget` requests per `window` per credential.
    pub fn set_rate_limit(&self, limit: Option<(u32, Duration)>) {
        let rate_limiter = &mut self.shared.edge().rate_limiter;
        rate_limiter.config = limit;
        rate_limiter.reset();
    }

    /// Sets how operations and tasks advance.
    pub fn set_progression(&self, p: Progression) {
        self.shared.state().operation_settings.progression = p;
    }

    /// Sets the terminal status new operations reach (`Succeeded` by default; `Failed`,
    /// `Cancelled`, or `Unknown` to leave them needing reconciliation).
    pub fn set_operation_outcome(&self, status: OpStatus) {
        self.shared.state().operation_settings.outcome = status;
    }

    /// Forces an operation's status now; false if unknown or already terminal (immutable).
    pub fn set_operation_status(&self, id: &str, status: OpStatus) -> bool {
        self.shared
            .state()
            .operations
            .iter_mut()
            .find(|o| o.id == id)
            .is_some_and(|o| o.force(status))
    }

    // ---- ledger inspection ----

    /// Current balance.
    pub fn balance(&self) -> Decimal {
        self.shared.state().balance
    }

    /// All orders.
    pub fn orders(&self) -> Vec<Order> {
        self.shared.state().orders.clone()
    }

    /// All invoices.
    pub fn invoices(&self) -> Vec<Invoice> {
        self.shared.state().invoices.clone()
    }

    /// Transactions made by writes through the API (the seeded history excluded).
    pub fn transactions(&self) -> Vec<Transaction> {
        self.shared
            .state()
            .transactions
            .iter()
            .filter(|t| t.idempotency_key.is_some())
            .cloned()
            .collect()
    }

    /// Every transaction, the seeded history included (oldest first).
    pub fn all_transactions(&self) -> Vec<Transaction> {
        self.shared.state().transactions.clone()
    }

    /// Debits (balance movements out) made by writes.
    pub fn debits(&self) -> Vec<Transaction> {
        self.transactions()
            .into_iter()
            .filter(|t| t.amount_out > Decimal::ZERO)
            .collect()
    }

    /// Reads the account's resources (webhooks, VPS data, firewall policies, volume
    /// attachments, DNS templates, contacts, website uploads).
    pub fn resources<R>(&self, read: impl FnOnce(&crate::resources::Resources) -> R) -> R {
        read(&self.shared.state().resources)
    }

    /// Saved SSH keys (imported or generated).
    pub fn ssh_keys(&self) -> Vec<serde_json::Value> {
        self.shared.state().ssh_keys.clone()
    }

    /// All services.
    pub fn services(&self) -> Vec<Service> {
        self.shared.state().services.clone()
    }

    /// DNS zones.
    pub fn zones(&self) -> Vec<Zone> {
        self.shared.state().zones.clone()
    }

    /// Operations.
    pub fn operations(&self) -> Vec<OperationRecord> {
        self.shared.state().operations.clone()
    }

    /// Dedicated tasks.
    pub fn tasks(&self) -> Vec<DedicatedTask> {
        self.shared.state().tasks.clone()
    }

    /// How many times a write under this Idempotency-Key was applied (replays do not count).
    pub fn applied_writes(&self, idempotency_key: &str) -> u32 {
        self.shared
            .state()
            .applied
            .get(idempotency_key)
            .copied()
            .unwrap_or(0)
    }

    /// Successful responses the sandbox sent that do not match their spec schema
    /// (operationId, errors); tests assert this stays empty.
    pub fn schema_violations(&self) -> Vec<(String, String)> {
        self.shared.journal().schema_violations.clone()
    }

    /// Total applied writes.
    pub fn total_writes(&self) -> u64 {
        self.shared.state().writes
    }

    // ---- request log ----

    /// Every request received so far, ordered by arrival (`received_at`). A request whose
    /// handling has not finished yet is not listed.
    pub fn requests(&self) -> Vec<RequestRecord> {
        let mut log = self.shared.journal().requests.clone();
        log.sort_by_key(|r| r.received_at);
        log
    }

    /// Forgets the request log.
    pub fn clear_requests(&self) {
        self.shared.journal().requests.clear();
    }

    /// The `operationId`s that got a 2xx answer at least once (a real round trip), sorted.
    pub fn covered_operations(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .shared
            .journal()
            .requests
            .iter()
            .filter(|r| r.succeeded())
            .filter_map(|r| r.operation_id.clone())
            .collect();
        ids.sort();
        ids.dedup();
        ids
    }

    /// Every `operationId` of the served spec, sorted.
    pub fn spec_operations(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .shared
            .spec
            .operations
            .iter()
            .map(|o| o.operation_id.clone())
            .collect();
        ids.sort();
        ids.dedup();
        ids
    }
}

/// The embedded contract and its validators, or those of `spec_yaml`.
fn contract(spec_yaml: Option<&str>) -> std::io::Result<(Arc<Spec>, Arc<Validators>)> {
    let Some(text) = spec_yaml else {
        return Ok((crate::spec::SPEC.clone(), crate::validate::EMBEDDED.clone()));
    };
    let spec = Arc::new(Spec::parse(text).map_err(std::io::Error::other)?);
    let validators = Validators::new(spec.clone()).map_err(std::io::Error::other)?;
    Ok((spec, Arc::new(validators)))
}
