//! Seeded data: credentials (full, restricted, IP-restricted, disabled), the catalog (regions,
//! products with billing cycles, dedicated images), services and transactions — enough of each
//! to need several pages.

use base64::Engine;
use chrono::{Duration, Utc};
use rust_decimal::Decimal;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::auth::{Credential, Mode};
use crate::shape::conform;
use crate::spec::Spec;
use crate::state::{Service, State, Transaction, money, ts};

/// Regions of the seeded catalog.
pub const REGIONS: &[(&str, &str)] = &[
    ("DE", "Germany"),
    ("NL", "Netherlands"),
    ("US", "United States"),
    ("GB", "United Kingdom"),
    ("FR", "France"),
    ("PL", "Poland"),
    ("FI", "Finland"),
    ("SE", "Sweden"),
    ("ES", "Spain"),
    ("IT", "Italy"),
    ("SG", "Singapore"),
    ("JP", "Japan"),
];

/// Deterministic uuid from the seed and a label.
pub fn seeded_uuid(seed: u64, label: &str) -> Uuid {
    let h = Sha256::digest(format!("{seed}:{label}").as_bytes());
    uuid::Builder::from_random_bytes(h[..16].try_into().expect("16 bytes")).into_uuid()
}

fn secret(seed: u64, label: &str) -> String {
    let h = Sha256::digest(format!("secret:{seed}:{label}").as_bytes());
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&h[..24])
}

/// The seeded credentials, by role.
#[derive(Clone, Debug)]
pub struct SeededCredentials {
    /// Bearer credential with every scope.
    pub bearer: Credential,
    /// Signed credential with every scope.
    pub signed: Credential,
    /// Bearer credential with read scopes only (`*.read`).
    pub read_only: Credential,
    /// Signed credential with read scopes only.
    pub signed_read_only: Credential,
    /// Bearer credential with every scope whose `allowed_cidrs` excludes loopback (→ `ip_blocked`).
    pub ip_blocked: Credential,
    /// Bearer credential with every scope allowed from `127.0.0.0/8` and `::1/128`.
    pub loopback_only: Credential,
    /// Disabled bearer credential (→ `unauthorized`).
    pub disabled: Credential,
    /// Expired bearer credential (→ `unauthorized`).
    pub expired: Credential,
}

impl SeededCredentials {
    /// All of them, in a stable order.
    pub fn all(&self) -> Vec<&Credential> {
        vec![
            &self.bearer,
            &self.signed,
            &self.read_only,
            &self.signed_read_only,
            &self.ip_blocked,
            &self.loopback_only,
            &self.disabled,
            &self.expired,
        ]
    }
}

/// A credential derived from the seed and `label`, holding `scopes`, allowed from `cidrs`.
pub fn cred(seed: u64, label: &str, mode: Mode, scopes: &[String], cidrs: &[&str]) -> Credential {
    let now = Utc::now();
    Credential {
        id: seeded_uuid(seed, &format!("cred:{label}")),
        name: format!("sandbox {label}"),
        prefix: format!("sbx_{}", label.replace('-', "_")),
        secret: secret(seed, label),
        mode,
        scopes: scopes.to_vec(),
        allowed_cidrs: cidrs.iter().map(|s| (*s).to_owned()).collect(),
        enabled: true,
        created_at: now - Duration::days(1),
        expires_at: now + Duration::days(30),
        revoked_at: None,
        last_used_at: None,
        last_used_ip: None,
    }
}

/// Builds the seeded credentials; `all` is every scope the served spec declares
/// ([`Spec::declared_scopes`](crate::spec::Spec::declared_scopes)).
pub fn credentials(seed: u64, all: &[String]) -> SeededCredentials {
    let read: Vec<String> = all
        .iter()
        .filter(|s| s.ends_with(".read"))
        .cloned()
        .collect();
    let mut disabled = cred(seed, "disabled", Mode::Bearer, all, &[]);
    disabled.enabled = false;
    let mut expired = cred(seed, "expired", Mode::Bearer, all, &[]);
    expired.expires_at = Utc::now() - Duration::days(1);
    SeededCredentials {
        bearer: cred(seed, "bearer", Mode::Bearer, all, &[]),
        signed: cred(seed, "signed", Mode::Signed, all, &[]),
        read_only: cred(seed, "read-only", Mode::Bearer, &read, &[]),
        signed_read_only: cred(seed, "signed-read-only", Mode::Signed, &read, &[]),
        ip_blocked: cred(seed, "ip-blocked", Mode::Bearer, all, &["203.0.113.0/24"]),
        loopback_only: cred(
            seed,
            "loopback",
            Mode::Bearer,
            all,
            &["127.0.0.0/8", "::1/128"],
        ),
        disabled,
        expired,
    }
}

fn cycles(monthly: Decimal, setup: Decimal, currency: &str) -> Vec<Value> {
    let c = |name: &str, unit: &str, count: u32, months: u32, factor: Decimal| {
        json!({
            "billing_cycle": name, "unit": unit, "count": count, "period_months": months,
            "price": money(monthly * factor), "setup_fee": money(setup), "currency": currency,
        })
    };
    vec![
        c("monthly", "MONTH", 1, 1, Decimal::ONE),
        c("quarterly", "QUARTAL", 1, 3, Decimal::new(285, 2)),
        c("semi_annually", "SEMIANNUAL", 1, 6, Decimal::new(540, 2)),
        c("annually", "YEAR", 1, 12, Decimal::new(1000, 2)),
    ]
}

/// One catalog product item.
#[allow(clippy::too_many_arguments)]
fn product(
    seed: u64,
    region: &str,
    code: &str,
    kind: &str,
    variant: &str,
    cpu: u32,
    ram: u32,
    disk: u32,
    monthly: Decimal,
    setup: Decimal,
) -> Value {
    let dedicated = code == "dedicated";
    json!({
        "id": format!("{code}-{variant}-{}", region.to_ascii_lowercase()),
        "product_id": seeded_uuid(seed, &format!("product:{code}")),
        "variant_id": seeded_uuid(seed, &format!("variant:{code}:{variant}:{region}")),
        "name": format!("{} {variant} ({region})", code.to_uppercase()),
        "type": kind,
        "product_code": code,
        "variant_code": variant,
        "region": region,
        "regions": [region],
        "cpu": cpu, "cpu_unit": if dedicated { "sockets" } else { "vcpus" },
        "ram": ram, "ram_unit": "MiB",
        "disk": disk, "disk_unit": "GiB",
        "price": money(monthly),
        "billing_cycle": "monthly",
        "billing_cycles": cycles(monthly, setup, "EUR"),
        "currency": "EUR",
        "available": true,
        "capacity_verified": dedicated,
        "configuration_code": if dedicated { Value::from(format!("{variant}-{}", region.to_ascii_lowercase())) } else { Value::Null },
        "available_stock": if dedicated { Value::from(3) } else { Value::Null },
    })
}

/// Fills `state` with the seeded account and catalog.
pub fn populate(state: &mut State, seed: u64) {
    state.currency = "EUR".into();
    state.balance = Decimal::new(100_000, 2);
    state.regions = REGIONS
        .iter()
        .map(|(id, name)| json!({"id": id, "name": name}))
        .collect();
    populate_products(state, seed);
    populate_images(state);
    populate_services(state, seed);
    populate_transactions(state, seed);
    state
        .dnssec
        .insert("example-1.com".into(), ("disabled".into(), 0));
    populate_resources(state, seed);
}

/// Per region: eight VPS plans, two dedicated plans and a TCP proxy.
fn populate_products(state: &mut State, seed: u64) {
    for (region, _) in REGIONS {
        for (i, v) in [
            "vps-xs", "vps-s", "vps-m", "vps-l", "vps-xl", "vps-2xl", "vps-4xl", "vps-8xl",
        ]
        .iter()
        .enumerate()
        {
            let n = i as u32 + 1;
            state.products.push(product(
                seed,
                region,
                "vps",
                "vps",
                v,
                n,
                1024 * n,
                20 * n,
                Decimal::new(499 * i64::from(n), 2),
                Decimal::ZERO,
            ));
        }
        for (i, v) in ["dedi-e3", "dedi-e5"].iter().enumerate() {
            let n = i as u32 + 1;
            state.products.push(product(
                seed,
                region,
                "dedicated",
                "dedicated",
                v,
                n,
                32768 * n,
                1000 * n,
                Decimal::new(6900 * i64::from(n), 2),
                Decimal::new(4900, 2),
            ));
        }
        state.products.push(product(
            seed,
            region,
            "tcp-proxy",
            "other",
            "tcp-proxy-basic",
            0,
            0,
            0,
            Decimal::new(300, 2),
            Decimal::ZERO,
        ));
    }
}

/// Dedicated OS images: five per dedicated configuration of every region.
fn populate_images(state: &mut State) {
    let os = [
        ("Debian", "12"),
        ("Debian", "11"),
        ("Ubuntu", "24.04"),
        ("Ubuntu", "22.04"),
        ("Rocky Linux", "9"),
    ];
    let mut image_id = 100;
    for (region, _) in REGIONS {
        for cfg in ["dedi-e3", "dedi-e5"] {
            for (fam, ver) in os {
                image_id += 1;
                state.images.push(json!({
                    "id": image_id,
                    "name": format!("{fam} {ver}"),
                    "region": region,
                    "configuration_code": format!("{cfg}-{}", region.to_ascii_lowercase()),
                    "ssh_keys_supported": fam != "Rocky Linux",
                }));
            }
        }
    }
}

/// Sixty services: dedicated, domain, TCP proxy and VPS in turn; some suspended or terminated.
fn populate_services(state: &mut State, seed: u64) {
    let now = Utc::now();
    for i in 0..60u32 {
        let (kind, host) = match i % 6 {
            0 => ("dedicated", format!("dedi-{i}.example.net")),
            1 => ("domain", format!("example-{i}.com")),
            2 => ("tcp-proxy", format!("proxy-{i}.example.net")),
            _ => ("vps", format!("vps-{i}.example.net")),
        };
        let status = match i % 10 {
            7 => "suspended",
            9 => "terminated",
            _ => "active",
        };
        state.services.push(Service {
            id: seeded_uuid(seed, &format!("service:{i}")),
            status: status.into(),
            display_name: format!("{kind} #{i}"),
            hostname: host,
            kind: kind.into(),
            created_at: now - Duration::days(i64::from(90 - i)),
            billing_unit: "MONTH".into(),
            billing_count: 1,
            sku: if kind == "vps" {
                "vps-s".into()
            } else {
                format!("{kind}-std")
            },
            ipv4: format!("198.51.100.{}", i + 1),
            region: REGIONS[(i as usize) % REGIONS.len()].0.into(),
        });
    }
}

/// Seventy-five completed transactions, every fifth a credit.
fn populate_transactions(state: &mut State, seed: u64) {
    let now = Utc::now();
    for i in 0..75u32 {
        let credit = i % 5 == 0;
        let amount = Decimal::new(1000 + i64::from(i) * 37, 2);
        state.transactions.push(Transaction {
            id: seeded_uuid(seed, &format!("txn:{i}")),
            created_at: now - Duration::hours(i64::from(200 - i)),
            status: "completed".into(),
            kind: if credit {
                "credit".into()
            } else {
                "invoice_payment".into()
            },
            currency: "EUR".into(),
            amount_in: if credit { amount } else { Decimal::ZERO },
            amount_out: if credit { Decimal::ZERO } else { amount },
            invoice_id: None,
            idempotency_key: None,
        });
    }
}

/// Seeds what the shown operations change but cannot create: three webhook endpoints and the
/// public system DNS template `default`.
fn populate_resources(state: &mut State, seed: u64) {
    let created = ts(Utc::now() - Duration::days(10));
    state.resources.webhooks = (0..3)
        .map(|i| {
            json!({
                "id": seeded_uuid(seed, &format!("webhook:{i}")),
                "url": format!("https://hooks.example.net/{i}"),
                "events": ["invoice.paid"],
                "enabled": true,
                "createdAt": created,
            })
        })
        .collect();
    state.resources.dns_templates.push(json!({
        "id": seeded_uuid(seed, "dns-template:default"),
        "name": "default",
        "zoneFile": "@ 3600 IN A 192.0.2.10\nwww 3600 IN CNAME @\n",
        "createdAt": created,
        "updatedAt": created,
        "system": true,
        "visibility": "public",
    }));
}

/// Shapes the seeded catalog records to the item schemas the spec gives the catalog listings
/// (`getRegions`, `getProducts`, `getDedicatedImages`), so a revision of those schemas changes
/// what the sandbox stores.
pub fn shape_catalog(state: &mut State, spec: &Spec) {
    let shape = |operation_id: &str, records: &mut Vec<Value>| {
        let schema = spec
            .operation(operation_id)
            .and_then(|op| spec.list_item_schema(op));
        if let Some(schema) = schema {
            for r in records.iter_mut() {
                *r = conform(spec, &schema, std::mem::take(r));
            }
        }
    };
    shape("getRegions", &mut state.regions);
    shape("getProducts", &mut state.products);
    shape("getDedicatedImages", &mut state.images);
}
