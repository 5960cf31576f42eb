//! Contract checks for `spec/openapi.yaml` against the API reference
//! (the published API reference, sections 4.1 to 4.11) and `docs/extensions.md`.
//!
//! Run with `cargo test -p sdk-tests --test spec_contract`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use serde_json::Value;

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn load_spec() -> Value {
    let path = repo_root().join("spec/openapi.yaml");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    yaml_serde::from_str(&text).expect("spec/openapi.yaml is valid YAML")
}

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// One row of the reference: method, path, the operationId the reference gives (None = derived), tag.
struct Row {
    method: &'static str,
    path: &'static str,
    op_id: Option<&'static str>,
    tag: &'static str,
}

const fn row(
    method: &'static str,
    path: &'static str,
    op_id: Option<&'static str>,
    tag: &'static str,
) -> Row {
    Row {
        method,
        path,
        op_id,
        tag,
    }
}

/// The 52 method + path rows of reference sections 4.1 to 4.11, transcribed by hand.
const ROWS: &[Row] = &[
    // 4.1 Integrations
    row("get", "/v1/version", None, "Integrations"),
    row("get", "/v1/capabilities", None, "Integrations"),
    row(
        "get",
        "/v1/api-credentials",
        Some("apiCredentials"),
        "Integrations",
    ),
    row(
        "post",
        "/v1/api-credentials",
        Some("apiCredentialCreate"),
        "Integrations",
    ),
    row(
        "get",
        "/v1/api-credentials/{id}",
        Some("apiCredential"),
        "Integrations",
    ),
    row("patch", "/v1/webhooks/{id}", None, "Integrations"),
    row(
        "delete",
        "/v1/webhooks/{id}",
        Some("webhookDelete"),
        "Integrations",
    ),
    row("get", "/v1/operations", None, "Integrations"),
    row("get", "/v1/operations/{operationId}", None, "Integrations"),
    // 4.3 Deployments
    row(
        "post",
        "/v1/deploy/{region}/{productCode}/{variantCode}",
        Some("productVariantDeploy"),
        "Deployments",
    ),
    // 4.4 Catalog (no operationId column)
    row("get", "/v1/regions", None, "Catalog"),
    row("get", "/v1/products", None, "Catalog"),
    row("get", "/v1/products/{region}", None, "Catalog"),
    row("get", "/v1/dedicated/images", None, "Catalog"),
    // 4.5 Billing and services
    row(
        "post",
        "/v1/billing/invoices/{id}/pay",
        Some("payInvoice"),
        "Billing",
    ),
    row(
        "post",
        "/v1/billing/orders/draft",
        Some("billingOrderDraft"),
        "Billing",
    ),
    row(
        "get",
        "/v1/billing/services",
        Some("billingServices"),
        "Billing",
    ),
    row(
        "get",
        "/v1/billing/transactions",
        Some("billingTransactions"),
        "Billing",
    ),
    row("get", "/v1/services", None, "Services"),
    row("get", "/v1/services/grouped", None, "Services"),
    row(
        "post",
        "/v1/services/{serviceId}/billing/change/checkout",
        Some("serviceBillingChangeCheckout"),
        "Services",
    ),
    row(
        "post",
        "/v1/services/{serviceId}/renewal/checkout",
        Some("serviceRenewalCheckout"),
        "Services",
    ),
    // 4.6 VPS
    row(
        "post",
        "/v1/vps/{serviceId}/backup/restore",
        Some("vpsBackupRestore"),
        "VPS",
    ),
    row(
        "post",
        "/v1/vps/{serviceId}/backup/run",
        Some("vpsBackupRun"),
        "VPS",
    ),
    row("post", "/v1/vps/{serviceId}/reboot", None, "VPS"),
    row(
        "post",
        "/v1/vps/{serviceId}/snapshots/{name}/rollback",
        Some("vpsSnapshotRollback"),
        "VPS",
    ),
    row(
        "post",
        "/v1/vps/{serviceId}/firewall/policy/apply",
        Some("vpsFirewallPolicyApply"),
        "VPS",
    ),
    // 4.7 Dedicated servers
    row(
        "post",
        "/v1/dedicated/deployments",
        Some("dedicatedDeploy"),
        "Dedicated Servers",
    ),
    row(
        "post",
        "/v1/dedicated/{serviceId}/password-reset",
        Some("dedicatedPasswordReset"),
        "Dedicated Servers",
    ),
    row(
        "get",
        "/v1/dedicated/{serviceId}/rescue-options",
        None,
        "Dedicated Servers",
    ),
    row(
        "get",
        "/v1/dedicated/{serviceId}/tasks",
        Some("dedicatedTasks"),
        "Dedicated Servers",
    ),
    row(
        "get",
        "/v1/dedicated/{serviceId}/tasks/{taskId}",
        Some("dedicatedTask"),
        "Dedicated Servers",
    ),
    row(
        "get",
        "/v1/dedicated/{serviceId}/traffic",
        Some("getDedicatedByServiceIdTraffic"),
        "Dedicated Servers",
    ),
    // 4.8 DNS and website protection
    row(
        "post",
        "/v1/dns/templates",
        Some("dnsTemplateCreate"),
        "DNS",
    ),
    row("get", "/v1/dns/templates", None, "DNS"),
    row(
        "get",
        "/v1/dns/templates/{id}",
        Some("getDnsTemplate"),
        "DNS",
    ),
    row("post", "/v1/dns/zones", Some("createDnsZone"), "DNS"),
    row("get", "/v1/dns/zones", Some("listDnsZones"), "DNS"),
    row("get", "/v1/dns/zones/{name}", Some("getDnsZone"), "DNS"),
    row(
        "post",
        "/v1/services/{serviceId}/dns/waf/record/proxy-config/upload-loader",
        Some("serviceDnsWafProxyConfigUploadLoader"),
        "Service DNS/WAF",
    ),
    row(
        "post",
        "/v1/services/{serviceId}/dns/waf/record/proxy-config/upload-ssl",
        Some("serviceDnsWafProxyConfigUploadSsl"),
        "Service DNS/WAF",
    ),
    // 4.9 Domains
    row(
        "post",
        "/v1/domains/contacts",
        Some("domainContactCreate"),
        "Domains",
    ),
    row(
        "put",
        "/v1/domains/{serviceId}/contacts",
        Some("domainAssignContacts"),
        "Domains",
    ),
    row("get", "/v1/domains/{serviceId}/dnssec", None, "Domains"),
    row("post", "/v1/domains/{serviceId}/dnssec", None, "Domains"),
    // 4.10 TCP proxy
    row(
        "patch",
        "/v1/tcp-proxy/{serviceId}",
        Some("tcpProxyUpdate"),
        "TCP Proxy",
    ),
    row(
        "get",
        "/v1/tcp-proxy/{serviceId}",
        Some("getTcpProxy"),
        "TCP Proxy",
    ),
    // 4.11 SSH, firewall, storage
    row("post", "/v1/ssh/keys", Some("sshKeyImport"), "SSH"),
    row(
        "post",
        "/v1/ssh/keys/generate",
        Some("sshKeyGenerate"),
        "SSH",
    ),
    row(
        "post",
        "/v1/firewall/policies",
        Some("firewallPolicyCreate"),
        "Firewall",
    ),
    row(
        "post",
        "/v1/storage/volumes/{serviceId}/attach",
        Some("storageVolumeAttach"),
        "Storage",
    ),
    row(
        "post",
        "/v1/storage/volumes/{serviceId}/detach",
        Some("storageVolumeDetach"),
        "Storage",
    ),
];

const TAGS: [&str; 14] = [
    "Integrations",
    "Deployments",
    "Catalog",
    "Billing",
    "Services",
    "VPS",
    "Dedicated Servers",
    "DNS",
    "Service DNS/WAF",
    "Domains",
    "TCP Proxy",
    "SSH",
    "Firewall",
    "Storage",
];

/// Writes whose Idempotency-Key requirement differs from the default `required` (reference 4.0, 4.6).
fn idempotency_exceptions() -> BTreeMap<&'static str, &'static str> {
    BTreeMap::from([
        ("post /v1/vps/{serviceId}/reboot", "optional"),
        ("post /v1/vps/{serviceId}/backup/run", "not-shown"),
        (
            "post /v1/vps/{serviceId}/firewall/policy/apply",
            "not-shown",
        ),
        ("delete /v1/webhooks/{id}", "not-shown"),
    ])
}

/// Writes that accept `x-svc-response-format` per the reference (4.3, 4.6).
const ENVELOPE_OPS: [&str; 6] = [
    "post /v1/deploy/{region}/{productCode}/{variantCode}",
    "post /v1/vps/{serviceId}/backup/restore",
    "post /v1/vps/{serviceId}/backup/run",
    "post /v1/vps/{serviceId}/reboot",
    "post /v1/vps/{serviceId}/snapshots/{name}/rollback",
    "post /v1/vps/{serviceId}/firewall/policy/apply",
];

/// Operations whose scopes the reference leaves unshown (empty Scope cell or "see 4.0").
const SCOPES_NOT_SHOWN: [&str; 8] = [
    "get /v1/version",
    "get /v1/capabilities",
    "get /v1/regions",
    "get /v1/dns/templates",
    "get /v1/services",
    "get /v1/services/grouped",
    "post /v1/services/{serviceId}/billing/change/checkout",
    "post /v1/services/{serviceId}/renewal/checkout",
];

/// Paginated operations: operationId -> model (reference 4.0, 4.1, 4.4, 4.5).
fn expected_pagination() -> BTreeMap<&'static str, &'static str> {
    BTreeMap::from([
        ("apiCredentials", "cursor"),
        ("billingServices", "page"),
        ("billingTransactions", "page"),
        ("getServices", "page"),
        ("getRegions", "offset"),
        ("getProducts", "offset"),
        ("getProductsByRegion", "offset"),
        ("getDedicatedImages", "offset"),
    ])
}

fn key(method: &str, path: &str) -> String {
    format!("{method} {path}")
}

/// The derivation rule documented in spec/COVERAGE.md (one home: `openapi-conventions`).
fn derive_operation_id(method: &str, path: &str) -> String {
    openapi_conventions::operation_id::derive(method, path)
}

fn resolve<'a>(spec: &'a Value, reference: &str) -> Option<&'a Value> {
    let pointer = reference.strip_prefix('#')?;
    spec.pointer(pointer)
}

/// Follow `$ref` chains.
fn deref<'a>(spec: &'a Value, mut v: &'a Value) -> &'a Value {
    for _ in 0..16 {
        match v.get("$ref").and_then(Value::as_str) {
            Some(r) => v = resolve(spec, r).unwrap_or_else(|| panic!("unresolved $ref {r}")),
            None => return v,
        }
    }
    panic!("$ref chain too deep")
}

struct Op<'a> {
    method: String,
    path: String,
    op: &'a Value,
}

fn operations(spec: &Value) -> Vec<Op<'_>> {
    let mut out = Vec::new();
    for (path, item) in spec["paths"].as_object().expect("paths object") {
        for (method, op) in item.as_object().expect("path item object") {
            if METHODS.contains(&method.as_str()) {
                out.push(Op {
                    method: method.clone(),
                    path: path.clone(),
                    op,
                });
            }
        }
    }
    out
}

fn params<'a>(spec: &'a Value, op: &'a Value) -> Vec<&'a Value> {
    op.get("parameters")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(|p| deref(spec, p)).collect())
        .unwrap_or_default()
}

fn find_param<'a>(spec: &'a Value, op: &'a Value, name: &str, location: &str) -> Option<&'a Value> {
    params(spec, op).into_iter().find(|p| {
        p["name"]
            .as_str()
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
            && p["in"] == location
    })
}

fn walk<'a>(v: &'a Value, at: String, f: &mut dyn FnMut(&str, &'a Value)) {
    f(&at, v);
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                walk(c, format!("{at}/{k}"), f);
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                walk(c, format!("{at}/{i}"), f);
            }
        }
        _ => {}
    }
}

/// The contract revision reference part 9 publishes; a revision of the spec may only be newer.
const REFERENCE_REVISION: &str = "2026-10-07.1";

/// `YYYY-MM-DD.N` as a sortable key, `None` when `v` is not of that form.
fn revision_key(v: &str) -> Option<(u32, u32, u32, u32)> {
    let (date, n) = v.split_once('.')?;
    let mut parts = date.split('-').map(|p| p.parse::<u32>().ok());
    let (y, m, d) = (parts.next()??, parts.next()??, parts.next()??);
    (parts.next().is_none() && (1..=12).contains(&m) && (1..=31).contains(&d)).then_some((
        y,
        m,
        d,
        n.parse().ok()?,
    ))
}

#[test]
fn root_metadata() {
    let spec = load_spec();
    assert_eq!(spec["openapi"], "3.1.0");
    let version = spec["info"]["version"].as_str().expect("info.version");
    assert!(
        revision_key(version).is_some(),
        "info.version {version:?} is a contract revision `YYYY-MM-DD.N`"
    );
    assert!(
        revision_key(version) >= revision_key(REFERENCE_REVISION),
        "info.version {version} predates the revision the reference publishes ({REFERENCE_REVISION})"
    );
    assert_eq!(spec["info"]["title"], "Customer Cloud Services API");
    let desc = spec["info"]["description"].as_str().unwrap();
    assert!(
        desc.contains("182") && desc.contains("52"),
        "info.description states 182 and 52"
    );
    let servers = spec["servers"].as_array().unwrap();
    assert_eq!(servers.len(), 1);
    assert_eq!(servers[0]["url"], "{base_url}");
    assert!(servers[0]["variables"]["base_url"]["default"].is_string());
}

/// The operations the reference counts but does not show, and the gaps it leaves, are listed.
#[test]
fn unshown_operations_and_gaps_are_listed() {
    let spec = load_spec();
    let unshown = spec["x-unshown-operations"]
        .as_object()
        .expect("x-unshown-operations");
    let expected = [
        ("Storage", 5),
        ("SSH", 10),
        ("DNS", 21),
        ("Firewall", 7),
        ("Service DNS/WAF", 12),
        ("Catalog", 10),
        ("VPS", 25),
        ("Billing", 11),
        ("Dedicated", 17),
        ("Integrations", 24),
        ("Deployments", 2),
    ];
    assert_eq!(unshown.len(), expected.len());
    for (cat, n) in expected {
        assert_eq!(unshown[cat], n, "x-unshown-operations[{cat}]");
    }
    let root_ns = spec["x-not-shown"].as_array().expect("root x-not-shown");
    let joined = root_ns
        .iter()
        .filter_map(Value::as_str)
        .collect::<Vec<_>>()
        .join("\n");
    for needle in [
        "quote",
        "OS image",
        "144",
        "invoice",
        "audit event",
        "OAuth connection",
    ] {
        assert!(
            joined.contains(needle),
            "root x-not-shown mentions {needle}"
        );
    }
}

#[test]
fn tags_are_the_reference_areas_and_described() {
    let spec = load_spec();
    let tags: Vec<&str> = spec["tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(tags, TAGS.to_vec());
    for t in spec["tags"].as_array().unwrap() {
        assert!(t["description"].as_str().is_some_and(|d| !d.is_empty()));
    }
}

#[test]
fn exactly_the_reference_operations() {
    let spec = load_spec();
    assert_eq!(ROWS.len(), 52, "the reference shows 52 method + path rows");
    let expected: BTreeSet<String> = ROWS.iter().map(|r| key(r.method, r.path)).collect();
    assert_eq!(expected.len(), 52, "no duplicate rows in the transcription");
    let actual: BTreeSet<String> = operations(&spec)
        .iter()
        .map(|o| key(&o.method, &o.path))
        .collect();
    let missing: Vec<_> = expected.difference(&actual).collect();
    let extra: Vec<_> = actual.difference(&expected).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing {missing:?}, invented {extra:?}"
    );
}

#[test]
fn operation_ids_and_tags() {
    let spec = load_spec();
    let mut seen = BTreeSet::new();
    for r in ROWS {
        let op = &spec["paths"][r.path][r.method];
        let id = op["operationId"]
            .as_str()
            .unwrap_or_else(|| panic!("{} {} has an operationId", r.method, r.path));
        assert!(seen.insert(id.to_string()), "operationId {id} is unique");
        let derived = op.get("x-operation-id-derived") == Some(&Value::Bool(true));
        match r.op_id {
            Some(given) => {
                assert_eq!(
                    id, given,
                    "{} {}: operationId from the reference",
                    r.method, r.path
                );
                assert!(
                    !derived,
                    "{id}: given by the reference, must not be marked derived"
                );
            }
            None => {
                assert!(
                    derived,
                    "{id}: derived operationId carries x-operation-id-derived: true"
                );
                assert_eq!(
                    id,
                    derive_operation_id(r.method, r.path),
                    "{} {}: derivation rule",
                    r.method,
                    r.path
                );
            }
        }
        let tags = op["tags"].as_array().expect("tags");
        assert_eq!(tags.len(), 1, "{id}: exactly one tag");
        assert_eq!(tags[0], r.tag, "{id}: tag");
        assert!(
            op["summary"].as_str().is_some_and(|s| !s.is_empty()),
            "{id}: summary"
        );
        assert!(
            op["description"].as_str().is_some_and(|s| !s.is_empty()),
            "{id}: description"
        );
    }
}

#[test]
fn headers_security_and_errors_on_every_operation() {
    let spec = load_spec();
    let exceptions = idempotency_exceptions();
    for o in operations(&spec) {
        let k = key(&o.method, &o.path);
        client_request_id(&spec, &o, &k);
        both_schemes(&o, &k);
        error_responses(&spec, &o, &k);
        idempotency_key(&spec, &o, &k, &exceptions);
        envelope(&spec, &o, &k);
        receipt(&spec, &o, &k);
        path_parameters(&spec, &o, &k);
    }
}

/// `x-client-request-id`: an optional header on every operation.
fn client_request_id(spec: &Value, o: &Op<'_>, k: &str) {
    let op = o.op;
    let crid = find_param(spec, op, "x-client-request-id", "header")
        .unwrap_or_else(|| panic!("{k}: x-client-request-id"));
    assert_eq!(
        crid["required"], false,
        "{k}: x-client-request-id is optional"
    );
    assert_eq!(crid["schema"]["maxLength"], 120);
}

/// Both security schemes, one per requirement, with the same scopes: empty (and said in
/// `x-not-shown`) where the reference shows none.
fn both_schemes(o: &Op<'_>, k: &str) {
    let op = o.op;
    let sec = op["security"]
        .as_array()
        .unwrap_or_else(|| panic!("{k}: security"));
    let schemes: BTreeSet<&str> = sec
        .iter()
        .flat_map(|r| r.as_object().unwrap().keys().map(String::as_str))
        .collect();
    assert_eq!(
        schemes,
        BTreeSet::from(["SignedAuth", "BearerAuth"]),
        "{k}: both security schemes"
    );
    for req in sec {
        assert_eq!(
            req.as_object().unwrap().len(),
            1,
            "{k}: one scheme per requirement"
        );
    }
    let signed: Vec<&Value> = sec.iter().filter_map(|r| r.get("SignedAuth")).collect();
    let bearer: Vec<&Value> = sec.iter().filter_map(|r| r.get("BearerAuth")).collect();
    assert_eq!(signed, bearer, "{k}: same scopes for both schemes");
    let empty_scopes = signed.iter().all(|s| s.as_array().unwrap().is_empty());
    let ns = op
        .get("x-not-shown")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let scopes_ns = ns
        .iter()
        .filter_map(Value::as_str)
        .any(|s| s.contains("scopes"));
    if SCOPES_NOT_SHOWN.contains(&k) {
        assert!(
            empty_scopes && scopes_ns,
            "{k}: scopes not shown -> empty lists and x-not-shown"
        );
    } else if o.path.starts_with("/v1/tcp-proxy/") {
        assert!(empty_scopes && scopes_ns, "{k}: TCP proxy scopes not shown");
        assert!(
            op["x-permissions"]
                .as_array()
                .is_some_and(|p| !p.is_empty()),
            "{k}: x-permissions"
        );
    } else {
        assert!(!empty_scopes, "{k}: scopes shown by the reference");
    }
}

/// The error responses, each with the rate-limit headers and the error envelope and codes.
fn error_responses(spec: &Value, o: &Op<'_>, k: &str) {
    let op = o.op;
    let responses = op["responses"].as_object().unwrap();
    for status in ["400", "401", "403", "429", "5XX"] {
        assert!(responses.contains_key(status), "{k}: {status} response");
    }
    assert!(
        responses.keys().any(|s| s.starts_with('2')),
        "{k}: a success response"
    );
    for (status, resp) in responses {
        let resp = deref(spec, resp);
        let h = resp["headers"]
            .as_object()
            .unwrap_or_else(|| panic!("{k} {status}: headers"));
        for name in [
            "x-request-id",
            "RateLimit-Limit",
            "RateLimit-Remaining",
            "RateLimit-Reset",
            "X-RateLimit-Reset",
        ] {
            assert!(h.contains_key(name), "{k} {status}: header {name}");
        }
        if status.starts_with('4') || status.starts_with('5') {
            assert_eq!(
                resp["content"]["application/json"]["schema"]["$ref"],
                "#/components/schemas/ErrorEnvelope",
                "{k} {status}: ErrorEnvelope"
            );
            let codes = resp["x-error-codes"]
                .as_array()
                .unwrap_or_else(|| panic!("{k} {status}: x-error-codes"));
            assert!(!codes.is_empty());
            let codes: Vec<&str> = codes.iter().filter_map(Value::as_str).collect();
            if status == "429" || codes.contains(&"idempotency_in_progress") {
                assert!(h.contains_key("Retry-After"), "{k} {status}: Retry-After");
            }
        }
    }
}

/// Writes take an `Idempotency-Key` (required unless excepted); reads take none.
fn idempotency_key(spec: &Value, o: &Op<'_>, k: &str, exceptions: &BTreeMap<&str, &str>) {
    let op = o.op;
    let write = o.method != "get";
    let idem = find_param(spec, op, "Idempotency-Key", "header");
    if write {
        let idem = idem.unwrap_or_else(|| panic!("{k}: Idempotency-Key parameter"));
        let expected = exceptions.get(k).copied().unwrap_or("required");
        assert_eq!(op["x-idempotency-key"], expected, "{k}: x-idempotency-key");
        assert_eq!(
            idem["required"],
            Value::Bool(expected == "required"),
            "{k}: Idempotency-Key required flag"
        );
        assert_eq!(idem["schema"]["pattern"], "^[A-Za-z0-9._:-]{8,128}$");
    } else {
        assert!(
            idem.is_none() && op.get("x-idempotency-key").is_none(),
            "{k}: no Idempotency-Key on reads"
        );
    }
}

/// The operation envelope: its header parameter and success body exactly where marked.
fn envelope(spec: &Value, o: &Op<'_>, k: &str) {
    let op = o.op;
    let responses = op["responses"].as_object().unwrap();
    let envelope = op.get("x-operation-envelope") == Some(&Value::Bool(true));
    let rf = find_param(spec, op, "x-svc-response-format", "header");
    assert_eq!(
        envelope,
        ENVELOPE_OPS.contains(&k),
        "{k}: x-operation-envelope"
    );
    assert_eq!(
        rf.is_some(),
        envelope,
        "{k}: x-svc-response-format parameter iff envelope"
    );
    if envelope {
        let ok = responses
            .iter()
            .find(|(s, _)| s.starts_with('2'))
            .unwrap()
            .1;
        assert_eq!(
            deref(spec, ok)["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/OperationOrLegacyWriteResponse",
            "{k}: envelope success body"
        );
    }
}

/// The receipt: the success body is the canonical envelope exactly where the extension says so.
fn receipt(spec: &Value, o: &Op<'_>, k: &str) {
    let op = o.op;
    let responses = op["responses"].as_object().unwrap();
    let receipt = op.get("x-operation-receipt") == Some(&Value::Bool(true));
    let ok = responses
        .iter()
        .find(|(s, _)| s.starts_with('2'))
        .map(|(_, r)| deref(spec, r)["content"]["application/json"]["schema"]["$ref"].clone());
    assert_eq!(
        receipt,
        ok == Some(Value::String(
            "#/components/schemas/OperationEnvelope".into()
        )),
        "{k}: x-operation-receipt iff the success body is OperationEnvelope"
    );
}

/// Every path parameter is declared and required.
fn path_parameters(spec: &Value, o: &Op<'_>, k: &str) {
    let op = o.op;
    for seg in o.path.split('/').filter(|s| s.starts_with('{')) {
        let name = &seg[1..seg.len() - 1];
        let p =
            find_param(spec, op, name, "path").unwrap_or_else(|| panic!("{k}: path param {name}"));
        assert_eq!(p["required"], true);
    }
}

#[test]
fn pagination_extensions() {
    let spec = load_spec();
    let expected = expected_pagination();
    for o in operations(&spec) {
        let id = o.op["operationId"].as_str().unwrap();
        let pag = o.op.get("x-pagination");
        match expected.get(id) {
            None => assert!(pag.is_none(), "{id}: not paginated"),
            Some(model) => {
                let pag = pag.unwrap_or_else(|| panic!("{id}: x-pagination"));
                assert_eq!(pag["model"], *model, "{id}: model");
                let ok = o.op["responses"]["200"].clone();
                let body = deref(
                    &spec,
                    &deref(&spec, &ok)["content"]["application/json"]["schema"],
                )
                .clone();
                let props = body["properties"].as_object().unwrap();
                let items = pag["items"].as_str().unwrap();
                assert!(props.contains_key(items), "{id}: response has {items}");
                let limit = pag["limit"].as_str().unwrap();
                assert!(
                    find_param(&spec, o.op, limit, "query").is_some(),
                    "{id}: limit param"
                );
                let (req, resp): (&[&str], &[&str]) = match *model {
                    "page" => (&["page"], &["pages"]),
                    "cursor" => (&["cursor"], &["next_cursor"]),
                    _ => (&["offset"], &["next_offset"]),
                };
                for r in req {
                    let n = pag[*r].as_str().unwrap();
                    assert!(
                        find_param(&spec, o.op, n, "query").is_some(),
                        "{id}: query param {n}"
                    );
                }
                for r in resp {
                    let n = pag[*r].as_str().unwrap();
                    assert!(props.contains_key(n), "{id}: response property {n}");
                }
                if *model == "page" {
                    for f in ["page", "pageSize", "total", "pages", "items"] {
                        assert!(props.contains_key(f), "{id}: page model field {f}");
                    }
                }
            }
        }
        // deprecated size aliases only where documented, and always deprecated
        for alias in ["page_size", "pageSize"] {
            if let Some(p) = find_param(&spec, o.op, alias, "query") {
                assert!(
                    ["billingServices", "billingTransactions"].contains(&id),
                    "{id}: {alias} only where documented"
                );
                assert_eq!(p["deprecated"], true, "{id}: {alias} deprecated");
            }
        }
    }
}

#[test]
fn schema_hygiene() {
    let spec = load_spec();
    let mut problems = Vec::new();
    walk(&spec, String::new(), &mut |at, v| {
        if let Value::Object(m) = v {
            if m.contains_key("nullable") && !at.ends_with("/properties") {
                problems.push(format!("{at}: `nullable` keyword"));
            }
            if let Some(Value::String(r)) = m.get("$ref")
                && resolve(&spec, r).is_none()
            {
                problems.push(format!("{at}: unresolved $ref {r}"));
            }
            if m.get("format") == Some(&Value::String("decimal".into()))
                && m.get("type") != Some(&Value::String("string".into()))
            {
                problems.push(format!("{at}: decimal must be a string"));
            }
            if let Some(Value::String(p)) = m.get("pattern")
                && !(p.starts_with('^') && p.ends_with('$'))
            {
                problems.push(format!("{at}: pattern not anchored: {p}"));
            }
            if let Some(Value::Bool(_)) = m.get("exclusiveMinimum") {
                problems.push(format!("{at}: boolean exclusiveMinimum (3.0 style)"));
            }
        }
    });
    // `nullable` must not appear as a keyword anywhere (it could only legitimately be a property name).
    let text = std::fs::read_to_string(repo_root().join("spec/openapi.yaml")).unwrap();
    assert!(
        !text
            .lines()
            .any(|l| l.trim_start().starts_with("nullable:")),
        "no `nullable:` in the spec"
    );
    assert!(problems.is_empty(), "{problems:#?}");
}

/// The resources the reference's second part shows are schemas.
#[test]
fn the_reference_resources_are_schemas() {
    let spec = load_spec();
    let schemas = spec["components"]["schemas"].as_object().unwrap();
    for name in [
        "ApiCredential",
        "Operation",
        "OperationEnvelope",
        "LegacyWriteResponse",
        "CatalogProduct",
        "BillingCycleOption",
        "Quote",
        "Region",
        "OsImage",
        "DedicatedOsProfile",
        "DedicatedRescueOptions",
        "DedicatedTask",
        "BillingServiceItem",
        "Transaction",
        "InvoicePaymentResult",
        "DedicatedDeploymentResult",
        "SshKey",
        "DnsTemplate",
        "DnsTemplateListItem",
        "DnsZoneSummary",
        "FirewallPolicy",
        "WebhookEndpoint",
        "TcpProxy",
        "DomainContactResult",
        "WebsiteLoaderUploadResult",
        "WebsiteSslUploadResult",
        "BillingCycleChangeResult",
        "ErrorEnvelope",
    ] {
        assert!(schemas.contains_key(name), "components.schemas.{name}");
    }
}

/// The DNS zone's one source, the legacy fields and header deprecated, the two security schemes.
#[test]
fn choices_deprecations_and_security_schemes() {
    let spec = load_spec();
    let schemas = spec["components"]["schemas"].as_object().unwrap();
    let zone = &schemas["CreateDnsZoneRequest"];
    assert_eq!(
        zone["x-at-most-one-of"],
        serde_json::json!([{
            "name": "source",
            "members": ["template_id", "zone_file", "records"]
        }])
    );
    assert!(
        zone["not"]["anyOf"]
            .as_array()
            .is_some_and(|a| a.len() == 3)
    );
    assert_eq!(schemas["LegacyDeployRequest"]["deprecated"], true);
    let env = &schemas["ErrorEnvelope"]["properties"];
    for legacy in [
        "code",
        "message",
        "request_id",
        "field_errors",
        "details",
        "status",
    ] {
        assert_eq!(
            env[legacy]["deprecated"], true,
            "ErrorEnvelope.{legacy} deprecated"
        );
    }
    assert_eq!(
        spec["components"]["headers"]["XRateLimitReset"]["deprecated"],
        true
    );
    let signed = &spec["components"]["securitySchemes"]["SignedAuth"];
    assert_eq!(signed["type"], "apiKey");
    assert_eq!(signed["name"], "x-api-key");
    assert_eq!(signed["x-signing"]["string-to-sign"], "not-shown");
    assert_eq!(signed["x-signing"]["clock-skew"], "not-shown");
    let bearer = &spec["components"]["securitySchemes"]["BearerAuth"];
    assert_eq!(bearer["type"], "http");
    assert_eq!(bearer["scheme"], "bearer");
}

/// Collect object schemas reachable from a request body schema (through $ref, properties,
/// items, oneOf/anyOf) and check `additionalProperties: false` on every one that declares properties.
fn check_closed(
    spec: &Value,
    schema: &Value,
    at: &str,
    seen: &mut BTreeSet<String>,
    problems: &mut Vec<String>,
) {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        if !seen.insert(r.to_string()) {
            return;
        }
        check_closed(
            spec,
            resolve(spec, r).expect("resolvable"),
            r,
            seen,
            problems,
        );
        return;
    }
    if schema.get("properties").is_some()
        && schema.get("additionalProperties") != Some(&Value::Bool(false))
    {
        problems.push(format!(
            "{at}: request object schema without additionalProperties: false"
        ));
    }
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (name, p) in props {
            check_closed(spec, p, &format!("{at}/properties/{name}"), seen, problems);
        }
    }
    if let Some(items) = schema.get("items") {
        check_closed(spec, items, &format!("{at}/items"), seen, problems);
    }
    for comb in ["oneOf", "anyOf", "allOf"] {
        if let Some(list) = schema.get(comb).and_then(Value::as_array) {
            for (i, s) in list.iter().enumerate() {
                check_closed(spec, s, &format!("{at}/{comb}/{i}"), seen, problems);
            }
        }
    }
}

#[test]
fn request_bodies_are_closed() {
    let spec = load_spec();
    let mut problems = Vec::new();
    for o in operations(&spec) {
        let Some(body) = o.op.get("requestBody") else {
            continue;
        };
        let schema = &body["content"]["application/json"]["schema"];
        assert!(
            schema.get("$ref").is_some(),
            "{} {}: request body schema is a named component",
            o.method,
            o.path
        );
        let target = deref(&spec, schema);
        // A body the reference does not show at all is permissive and says so.
        let not_shown_body = target
            .get("x-not-shown")
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|s| s == "request body"));
        if not_shown_body {
            assert_eq!(target["additionalProperties"], true);
            continue;
        }
        let mut seen = BTreeSet::new();
        check_closed(
            &spec,
            schema,
            &format!("{} {}", o.method, o.path),
            &mut seen,
            &mut problems,
        );
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn success_bodies_are_named_components() {
    let spec = load_spec();
    for o in operations(&spec) {
        for (status, resp) in o.op["responses"].as_object().unwrap() {
            if status.starts_with('2') {
                let schema = &deref(&spec, resp)["content"]["application/json"]["schema"];
                assert!(
                    schema.get("$ref").is_some(),
                    "{} {} {status}: success schema is a $ref",
                    o.method,
                    o.path
                );
            }
        }
    }
}

/// Parse the summary table of spec/COVERAGE.md and compare it with the spec.
#[test]
fn coverage_document_matches_spec() {
    let spec = load_spec();
    let text = coverage_document();
    let start = text
        .find("<!-- coverage-summary:start -->")
        .expect("summary start marker");
    let end = text
        .find("<!-- coverage-summary:end -->")
        .expect("summary end marker");
    let (documented, total) = summary_counts(&text[start..end]);

    let mut per_tag: BTreeMap<String, usize> = BTreeMap::new();
    for o in operations(&spec) {
        *per_tag
            .entry(o.op["tags"][0].as_str().unwrap().to_string())
            .or_default() += 1;
    }
    assert_eq!(
        documented, per_tag,
        "COVERAGE.md per-category described counts match the spec"
    );
    let spec_total = operations(&spec).len();
    assert_eq!(
        total,
        Some(spec_total),
        "COVERAGE.md total matches the spec"
    );
    assert_eq!(documented.values().sum::<usize>(), spec_total);
}

/// Every operation is listed in COVERAGE.md with its method, path and operationId.
#[test]
fn coverage_document_lists_every_operation() {
    let spec = load_spec();
    let text = coverage_document();
    for o in operations(&spec) {
        let id = o.op["operationId"].as_str().unwrap();
        let derived = o.op.get("x-operation-id-derived") == Some(&Value::Bool(true));
        let needle = format!(
            "| {} | `{}` | `{}{}` |",
            o.method.to_uppercase(),
            o.path,
            id,
            if derived { "*" } else { "" }
        );
        assert!(text.contains(&needle), "COVERAGE.md lists {needle}");
    }
}

/// The text of spec/COVERAGE.md.
fn coverage_document() -> String {
    std::fs::read_to_string(repo_root().join("spec/COVERAGE.md")).expect("spec/COVERAGE.md")
}

/// The described count of each category of the summary `table`, and its total.
fn summary_counts(table: &str) -> (BTreeMap<String, usize>, Option<usize>) {
    let mut documented: BTreeMap<String, usize> = BTreeMap::new();
    let mut total: Option<usize> = None;
    for line in table.lines().filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        if cells.len() < 3 || cells[0].starts_with("Category") || cells[0].starts_with("---") {
            continue;
        }
        let n: usize = cells[2]
            .parse()
            .unwrap_or_else(|_| panic!("COVERAGE.md: described count in {line:?}"));
        if cells[0] == "Total" {
            total = Some(n);
        } else {
            assert!(
                documented.insert(cells[0].to_string(), n).is_none(),
                "duplicate row {}",
                cells[0]
            );
        }
    }
    (documented, total)
}

/// Every operation the reference shows moving money, with what bounds the amount (`x-charges`):
/// the ceiling members, or `not-shown` where the reference shows neither a ceiling nor a read
/// of the amount before paying. Creating a draft order (reference 1, rule 2) and a dedicated
/// deployment (4.7: an unpaid order and invoice) charge nothing.
fn expected_charges() -> BTreeMap<&'static str, Value> {
    let not_shown = serde_json::json!({"amount": "not-shown"});
    BTreeMap::from([
        // 4.3: "charges the full final amount to account balance"; `max_total` is a ceiling
        // (the deprecated shape's `maxTotal`).
        (
            "productVariantDeploy",
            serde_json::json!({"ceiling": ["max_total", "maxTotal"]}),
        ),
        // 4.5: pays an invoice from balance; the invoice's fields and listing: not shown.
        ("payInvoice", not_shown.clone()),
        // 4.5 and 2.5: the checkout's result carries `payNow`.
        ("serviceBillingChangeCheckout", not_shown.clone()),
        // 2.5: `payNow`; 7: `renewal_price_limit_exceeded` (a renewal amount over a max_total).
        ("serviceRenewalCheckout", not_shown),
    ])
}

/// Every operation the reference shows granting access: a credential issued with its secret
/// (2.1, 4.1), an administrator password replaced (4.7).
const ACCESS_GRANTS: [&str; 2] = ["apiCredentialCreate", "dedicatedPasswordReset"];

#[test]
fn every_charge_and_access_grant_of_the_reference_is_marked() {
    let spec = load_spec();
    let mut charges = BTreeMap::new();
    let mut grants = BTreeSet::new();
    for o in operations(&spec) {
        let id = o.op["operationId"].as_str().expect("an operationId");
        if let Some(value) = o.op.get("x-charges") {
            charges.insert(id, value.clone());
        }
        if o.op
            .get("x-grants-access")
            .and_then(Value::as_str)
            .is_some()
        {
            grants.insert(id);
        }
        // A success body with an amount paid now is a charge, whatever a revision says.
        let success = &o.op["responses"]["200"]["content"]["application/json"]["schema"];
        if !success.is_null() {
            let body = deref(&spec, success);
            let pays = ["payNow", "paidNow"]
                .iter()
                .any(|m| body["properties"].get(*m).is_some());
            assert!(
                !pays || o.op.get("x-charges").is_some(),
                "{id}: its answer says what it paid, so it is marked `x-charges`"
            );
        }
    }
    assert_eq!(charges, expected_charges());
    assert_eq!(grants, ACCESS_GRANTS.into_iter().collect::<BTreeSet<_>>());
}
