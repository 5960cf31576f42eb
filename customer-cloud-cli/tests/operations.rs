//! Every operation of `spec/openapi.yaml` through the `cloud` binary against the sandbox: the
//! test fails when an operationId had no 2xx round trip through the CLI. Then the exit codes
//! of the failure classes, body errors that name the field, and a re-run under the same
//! `--idempotency-key` that writes nothing twice.
//!
//! The sandbox runs in this process; each command is a child process of the real binary with
//! the sandbox's signed credential in its environment and a journal in a fresh directory.

mod common;

use cloud_sandbox::Sandbox;
use common::Cli;
use rust_decimal::Decimal;
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// Every `operationId` of the contract, read from the file.
fn spec_operation_ids() -> BTreeSet<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/openapi.yaml");
    let text = std::fs::read_to_string(path).expect("spec/openapi.yaml");
    let doc: Value = yaml_serde::from_str(&text).expect("spec parses");
    let methods = [
        "get", "put", "post", "delete", "options", "head", "patch", "trace",
    ];
    let mut ids = BTreeSet::new();
    for item in doc["paths"].as_object().expect("paths").values() {
        for m in methods {
            if let Some(id) = item[m]["operationId"].as_str() {
                ids.insert(id.to_owned());
            }
        }
    }
    ids
}

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The `id` and `hostname` of the first listed service of type `kind`.
fn first_of(listed: &Value, kind: &str) -> (String, String) {
    let item = listed["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|i| i["type"] == kind)
        .unwrap_or_else(|| panic!("no {kind} service listed"));
    (text(&item["id"]), text(&item["hostname"]))
}

/// The services of each kind a coverage run acts on, as listed by `get-services`.
struct Services {
    vps: String,
    dedicated: String,
    domain: String,
    proxy: String,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_operation_has_a_round_trip_through_the_cli() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "coverage");
    integrations(&sb, &cli);
    let (plan, images) = catalog(&cli);
    deployments_and_operations(&cli, &plan);
    let services = billing_and_services(&sb, &cli, &plan);
    vps_and_firewall(&cli, &services.vps);
    dedicated(&cli, &images, &services.dedicated);
    dns_and_website_protection(&cli, &services.vps);
    domains(&cli, &services.domain);
    tcp_proxy_ssh_and_storage(&sb, &cli, &services);
    assert_every_operation_had_a_round_trip(&sb, &cli);
}

/// Version, capabilities, API credentials and webhooks.
fn integrations(sb: &Sandbox, cli: &Cli) {
    cli.ok(&["integrations", "get-version"]);
    cli.ok(&["integrations", "get-capabilities"]);
    let created = cli.ok(&[
        "integrations",
        "api-credential-create",
        "--yes",
        "--json",
        r#"{"name": "cli coverage", "scopes": ["billing.services.read"], "mode": "bearer"}"#,
    ]);
    let credential = text(&created["item"]["id"]);
    let listed = cli.ok(&["integrations", "api-credentials", "--limit", "100"]);
    assert!(
        listed["items"]
            .as_array()
            .expect("items")
            .iter()
            .any(|i| text(&i["id"]) == credential)
    );
    cli.ok(&["integrations", "api-credential", &credential]);
    let webhook = sb.resources(|r| text(&r.webhooks[0]["id"]));
    cli.ok(&[
        "integrations",
        "update-webhook",
        &webhook,
        "--json",
        r#"{"enabled": false}"#,
    ]);
    cli.ok(&["integrations", "webhook-delete", &webhook, "--yes"]);
}

/// Regions, products and images: the first VPS plan listed and the page of dedicated images.
fn catalog(cli: &Cli) -> (Value, Value) {
    cli.ok(&["catalog", "get-regions"]);
    let products = cli.ok(&[
        "catalog",
        "get-products",
        "--product-code",
        "vps",
        "--limit",
        "5",
    ]);
    let plan = products["items"][0].clone();
    let region = text(&plan["region"]);
    cli.ok(&["catalog", "get-products-by-region", &region, "--limit", "3"]);
    let images = cli.ok(&["catalog", "get-dedicated-images", "--limit", "5"]);
    (plan, images)
}

/// A deploy of `plan` under a known key, then its operation found by that key and read.
fn deployments_and_operations(cli: &Cli, plan: &Value) {
    let key = format!("cli-coverage-deploy-{}", std::process::id());
    let region = text(&plan["region"]);
    let variant = text(&plan["variant_code"]);
    let deploy = json!({"hostname": "cli.example.net"}).to_string();
    cli.ok(&[
        "--idempotency-key",
        &key,
        "--yes",
        "deployments",
        "product-variant-deploy",
        &region,
        "vps",
        &variant,
        "--max-total",
        "100000",
        "--json",
        &deploy,
    ]);
    let path = format!("/v1/deploy/{region}/vps/{variant}");
    let found = cli.ok(&[
        "integrations",
        "get-operations",
        "--query-idempotency-key",
        &key,
        "--method",
        "POST",
        "--path",
        &path,
    ]);
    cli.ok(&[
        "integrations",
        "get-operation",
        &text(&found["operation"]["id"]),
    ]);
}

/// An order draft, an invoice paid, the billing lists, the services and their checkouts.
fn billing_and_services(sb: &Sandbox, cli: &Cli, plan: &Value) -> Services {
    let draft = json!({"currency": "EUR", "items": [{"product_id": plan["product_id"], "variant_id": plan["variant_id"], "qty": 1}]});
    cli.ok(&["billing", "order-draft", "--json", &draft.to_string()]);
    let invoice = sb.add_unpaid_invoice(Decimal::new(1234, 2)).to_string();
    cli.ok(&[
        "billing",
        "pay-invoice",
        &invoice,
        "--yes",
        "--accept-any-amount",
    ]);
    cli.ok(&["billing", "services", "--limit", "10"]);
    cli.ok(&["billing", "transactions", "--limit", "10"]);
    let listed = cli.ok(&["services", "get-services", "--limit", "100"]);
    cli.ok(&["services", "get-services-grouped", "--status", "active"]);
    let services = Services {
        vps: first_of(&listed, "vps").0,
        dedicated: first_of(&listed, "dedicated").0,
        domain: first_of(&listed, "domain").1,
        proxy: first_of(&listed, "tcp-proxy").0,
    };
    for checkout in [
        "service-billing-change-checkout",
        "service-renewal-checkout",
    ] {
        cli.ok(&[
            "services",
            checkout,
            &services.vps,
            "--yes",
            "--accept-any-amount",
            "--json",
            r#"{"count": 3, "unit": "MONTH"}"#,
        ]);
    }
    services
}

/// The VPS actions and a firewall policy applied to it.
fn vps_and_firewall(cli: &Cli, vps: &str) {
    cli.ok(&["vps", "reboot", vps]);
    cli.ok(&[
        "vps",
        "backup-restore",
        "--yes",
        vps,
        "--json",
        r#"{"auto_start": true}"#,
    ]);
    cli.ok(&["vps", "backup-run", vps]);
    cli.ok(&["vps", "snapshot-rollback", vps, "nightly", "--yes"]);
    let policy = r#"{"name": "web", "rules": [{"action": "ACCEPT", "proto": "tcp", "dport": 22}]}"#;
    cli.ok(&["firewall", "policy-create", "--json", policy]);
    cli.ok(&["vps", "firewall-policy-apply", vps]);
}

/// A dedicated deploy from the first image, then the actions and reads of a dedicated server.
fn dedicated(cli: &Cli, images: &Value, server: &str) {
    let image = &images["items"][0];
    let dedi = json!({
        "configuration_code": image["configuration_code"],
        "hostname": "dedi-cli.example.net",
        "os_profile_id": image["id"],
        "region_code": image["region"],
    });
    cli.ok(&[
        "dedicated-servers",
        "dedicated-deploy",
        "--json",
        &dedi.to_string(),
    ]);
    cli.ok(&[
        "dedicated-servers",
        "dedicated-password-reset",
        server,
        "--yes",
    ]);
    let tasks = cli.ok(&["dedicated-servers", "dedicated-tasks", server]);
    cli.ok(&[
        "dedicated-servers",
        "dedicated-task",
        server,
        &text(&tasks["tasks"][0]["id"]),
    ]);
    cli.ok(&["dedicated-servers", "rescue-options", server]);
    cli.ok(&["dedicated-servers", "traffic", server]);
}

/// DNS templates and zones, then a loader page and a certificate for the VPS's proxy.
fn dns_and_website_protection(cli: &Cli, vps: &str) {
    let template = json!({"name": "cli-template", "zone_file": "@ 3600 IN A 192.0.2.1\n"});
    cli.ok(&["dns", "template-create", "--json", &template.to_string()]);
    cli.ok(&["dns", "get-dns-templates"]);
    cli.ok(&["dns", "get-dns-template", "cli-template"]);
    cli.ok(&[
        "dns",
        "create-dns-zone",
        "--json",
        r#"{"name": "cli.example"}"#,
    ]);
    cli.ok(&["dns", "list-dns-zones"]);
    cli.ok(&["dns", "get-dns-zone", "cli.example"]);
    let loader = r#"{"domain": "cli.example", "html": "<html>loading</html>", "name": "www"}"#;
    cli.ok(&[
        "service-dns-waf",
        "proxy-config-upload-loader",
        vps,
        "--json",
        loader,
    ]);
    let ssl = json!({
        "cert": "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
        "domain": "cli.example",
        "mode": "c",
        "name": "www",
        "pkey": "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n",
    });
    cli.ok(&[
        "service-dns-waf",
        "proxy-config-upload-ssl",
        vps,
        "--json",
        &ssl.to_string(),
    ]);
}

/// A contact created and assigned to the domain, then its DNSSEC set and read.
fn domains(cli: &Cli, domain: &str) {
    let contact = json!({
        "address": {"city": "London", "country": "GB", "number": "10", "street": "Downing Street", "zipcode": "SW1A 2AA"},
        "email": "ada@example.com",
        "first_name": "Ada",
        "last_name": "Lovelace",
        "phone": "+44.2071234567",
    });
    let contact = cli.ok(&[
        "domains",
        "domain-contact-create",
        "--json",
        &contact.to_string(),
    ]);
    let assign = json!({"contact_ids": {"registrant": contact["contact"]["id"]}});
    cli.ok(&[
        "domains",
        "domain-assign-contacts",
        domain,
        "--json",
        &assign.to_string(),
    ]);
    cli.ok(&[
        "domains",
        "post-dnssec",
        domain,
        "--json",
        r#"{"acknowledge": true}"#,
    ]);
    cli.ok(&["domains", "get-dnssec", domain]);
}

/// The TCP proxy read and updated, SSH keys imported and generated, a volume attached and
/// detached.
fn tcp_proxy_ssh_and_storage(sb: &Sandbox, cli: &Cli, services: &Services) {
    cli.ok(&["tcp-proxy", "get-tcp-proxy", &services.proxy]);
    cli.ok(&[
        "tcp-proxy",
        "update",
        &services.proxy,
        "--json",
        r#"{"blocked_source_cidrs": ["203.0.113.0/24"]}"#,
    ]);
    let public_key =
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e cli";
    cli.ok(&[
        "ssh",
        "key-import",
        "--json",
        &json!({"name": "laptop", "public_key": public_key}).to_string(),
    ]);
    cli.ok(&[
        "ssh",
        "key-generate",
        "--json",
        r#"{"name": "generated", "passphrase": "correct horse battery staple"}"#,
    ]);
    let volume = sb.add_service("storage", "volume-1", "active").to_string();
    cli.ok(&[
        "storage",
        "volume-attach",
        &volume,
        "--json",
        &json!({"target_service_id": services.vps}).to_string(),
    ]);
    cli.ok(&["storage", "volume-detach", &volume]);
}

/// The check: every operation of the contract had a 2xx round trip, and the writes were
/// journaled.
fn assert_every_operation_had_a_round_trip(sb: &Sandbox, cli: &Cli) {
    let spec = spec_operation_ids();
    let covered: BTreeSet<String> = sb.covered_operations().into_iter().collect();
    let missing: Vec<&String> = spec.difference(&covered).collect();
    assert!(
        missing.is_empty(),
        "operations without a round trip through the CLI: {missing:?}"
    );
    let journal = cli.state.join("customer-cloud").join("journal");
    assert!(
        journal.is_file(),
        "writes were journaled in the state directory ({})",
        journal.display()
    );
    println!(
        "cli coverage: {} of {} operations",
        covered.len(),
        spec.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failures_exit_with_their_class_and_name_the_field() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "failures");
    let (code, stderr) = cli.fails(&["dns", "get-dns-zone", "missing.example"]);
    assert_eq!(code, 5, "not found: {stderr}");
    assert!(stderr.contains("404"), "{stderr}");
    assert!(stderr.contains("request id"), "{stderr}");

    let (code, stderr) = cli.fails(&[
        "ssh",
        "key-import",
        "--json",
        r#"{"name": 7, "public_key": "k"}"#,
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("at `name`"), "the field is named: {stderr}");

    let (code, stderr) = cli.fails(&["catalog", "get-products", "--limit", "many"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("`limit`"), "{stderr}");

    let (code, _) = cli.fails(&["catalog", "get-products", "--product-code", "boat"]);
    assert_eq!(code, 2, "an enum flag takes only its values");

    // Destructive operations and purchases: never without --yes when there is no terminal,
    // and a purchase never without its ceiling.
    let (code, stderr) = cli.fails(&["integrations", "webhook-delete", "w-1"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("pass --yes"), "{stderr}");
    let deploy = [
        "deployments",
        "product-variant-deploy",
        "DE",
        "vps",
        "vps-xs",
    ];
    let body = r#"{"hostname": "h.example.net", "max_total": "30"}"#;
    let (code, stderr) = cli.fails(&[&deploy[..], &["--yes", "--json", body]].concat());
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--max-total"), "{stderr}");
    let ceiling = ["--yes", "--max-total", "25", "--json", body];
    let (code, stderr) = cli.fails(&[&deploy[..], &ceiling].concat());
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("differs from --max-total"), "{stderr}");
    let without_yes = ["--max-total", "30", "--json", body];
    let (code, stderr) = cli.fails(&[&deploy[..], &without_yes].concat());
    assert!(
        code == 2 && stderr.contains("charges the account"),
        "{stderr}"
    );
    assert!(sb.services().iter().all(|s| s.hostname != "h.example.net"));

    let (code, stderr) = cli.fails(&["--base-url", "not a url", "integrations", "get-version"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(!stderr.contains(&cli.secret), "the secret is never printed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rerun_under_the_same_key_writes_once() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "rerun");
    let args = [
        "--idempotency-key",
        "cli-rerun-1",
        "--output",
        "ndjson",
        "dns",
        "template-create",
        "--json",
        r#"{"name": "rerun", "zone_file": "@ 3600 IN A 192.0.2.1\n"}"#,
    ];
    let first = cli.ok(&args);
    let second = cli.ok(&args);
    assert_eq!(first, second, "the second run gets the first run's answer");
    let listed = cli.ok(&["dns", "get-dns-templates"]);
    let named = listed["templates"]
        .as_array()
        .expect("templates")
        .iter()
        .filter(|t| t["name"] == "rerun")
        .count();
    assert_eq!(named, 1, "one template, not two");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dry_run_prints_the_request_and_sends_nothing() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "dry-run");
    let out = cli.output(&[
        "--dry-run",
        "dns",
        "create-dns-zone",
        "--json",
        r#"{"name": "dry.example"}"#,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains(&cli.secret), "no credential is printed");
    let request: Value = serde_json::from_str(&stdout).expect("the request as JSON");
    assert_eq!(request["method"], "POST");
    assert_eq!(request["url"], format!("{}/v1/dns/zones", cli.base_url));
    assert_eq!(request["body"], json!({"name": "dry.example"}));
    assert_eq!(request["headers"]["x-api-key"], "<redacted>");
    assert_eq!(request["headers"]["x-signature"], "<redacted>");
    assert!(
        request["headers"]["idempotency-key"].is_string(),
        "{request}"
    );
    let (code, _) = cli.fails(&["dns", "get-dns-zone", "dry.example"]);
    assert_eq!(code, 5, "the zone was not created");
    assert!(
        !cli.state.join("customer-cloud").join("journal").exists(),
        "a dry run journals nothing"
    );
}

/// The standard output of a command that must succeed.
fn stdout_of(cli: &Cli, args: &[&str]) -> String {
    let out = cli.output(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn output_formats_and_jq_filters() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "formats");
    let page = cli.ok(&["catalog", "get-regions"]);
    let regions = page["items"].as_array().expect("a page of regions");
    assert!(regions.len() > 1, "{page}");
    assert_each_format_shows_the_page(&cli, &page);

    let codes = stdout_of(&cli, &["--jq", ".items[].id", "catalog", "get-regions"]);
    let expected: Vec<String> = regions.iter().map(|r| text(&r["id"])).collect();
    assert_eq!(codes.lines().collect::<Vec<_>>(), expected);

    assert_all_lists_every_page_in_order(&cli);

    let (code, stderr) = cli.fails(&["--jq", ".items[", "catalog", "get-regions"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--jq"), "{stderr}");
    assert!(
        !stderr.contains('\x1b'),
        "no colour when stderr is not a terminal"
    );
}

/// The regions as a table (a header and a row each, no colour in a pipe), as NDJSON (a line
/// each) and as YAML (the JSON `page` itself).
fn assert_each_format_shows_the_page(cli: &Cli, page: &Value) {
    let regions = page["items"].as_array().expect("a page of regions").len();
    let table = stdout_of(cli, &["--output", "table", "catalog", "get-regions"]);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(
        lines.len(),
        regions + 1,
        "a header and a row per region:\n{table}"
    );
    assert!(lines[0].starts_with("ID"), "{table}");
    assert!(!table.contains('\x1b'), "no colour in a pipe");

    let ndjson = stdout_of(cli, &["--output", "ndjson", "catalog", "get-regions"]);
    assert_eq!(ndjson.lines().count(), regions, "{ndjson}");

    let yaml = stdout_of(cli, &["--output", "yaml", "catalog", "get-regions"]);
    let yaml: Value = yaml_serde::from_str(&yaml).expect("YAML");
    assert_eq!(&yaml, page);
}

/// `--all`: every page, one item a line: the same items whatever the page size, in order; as a
/// table, a header and a row per item.
fn assert_all_lists_every_page_in_order(cli: &Cli) {
    let ids = |args: &[&str]| -> Vec<String> {
        stdout_of(cli, args)
            .lines()
            .map(|l| {
                let item: Value = serde_json::from_str(l).expect("one JSON item a line");
                text(&item["id"])
            })
            .collect()
    };
    let by_3 = ids(&["catalog", "get-products", "--limit", "3", "--all"]);
    let by_50 = ids(&["catalog", "get-products", "--limit", "50", "--all"]);
    assert!(by_3.len() > 6, "several pages of 3: {}", by_3.len());
    assert_eq!(by_3, by_50, "every item of every page, in order");
    let rows = stdout_of(
        cli,
        &[
            "--output",
            "table",
            "catalog",
            "get-products",
            "--limit",
            "3",
            "--all",
        ],
    );
    assert_eq!(
        rows.lines().count(),
        by_3.len() + 1,
        "a header and a row per item"
    );
}

/// Runs the binary with `args` and `stdin`, its credential only from the profiles under
/// `config_home` (none from the environment).
fn run_with_profiles(
    cli: &Cli,
    config_home: &std::path::Path,
    args: &[&str],
    stdin: &str,
) -> std::process::Output {
    let mut command = cli.command(args);
    command
        .env_remove("CUSTOMER_CLOUD_API_BASE_URL")
        .env_remove("CUSTOMER_CLOUD_API_KEY")
        .env_remove("CUSTOMER_CLOUD_API_SECRET")
        .env("XDG_CONFIG_HOME", config_home)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = command.spawn().expect("the binary runs");
    let mut input = child.stdin.take().expect("stdin");
    std::io::Write::write_all(&mut input, stdin.as_bytes()).expect("stdin written");
    drop(input);
    child.wait_with_output().expect("the binary ends")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn configure_writes_an_owner_only_profile_that_commands_and_doctor_use() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "configure");
    let bearer = sb.credentials().bearer.bearer_token();
    let config_home = cli.state.join("config");
    let run = |args: &[&str], stdin: &str| run_with_profiles(&cli, &config_home, args, stdin);
    let configure = [
        "--profile",
        "sandbox",
        "--base-url",
        &cli.base_url,
        "configure",
        "--credential",
        "bearer",
    ];
    let out = run(&configure, &format!("{bearer}\n"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !stdout.contains(&bearer),
        "the credential is never printed: {stdout}"
    );
    assert!(stdout.contains("bearer"), "{stdout}");
    assert_owner_only(&config_home.join("customer-cloud").join("config.toml"));

    let out = run(&["--profile", "sandbox", "integrations", "get-version"], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&["--profile", "sandbox", "--output", "json", "doctor"], "");
    assert_doctor_reports_the_profile(&out, &bearer);

    let out = run(
        &["--profile", "elsewhere", "integrations", "get-version"],
        "",
    );
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unknown profile is a usage error"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("`elsewhere`"));
}

/// The file exists and only its owner may read or write it.
fn assert_owner_only(file: &std::path::Path) {
    let metadata = std::fs::metadata(file).expect("written");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(metadata.permissions().mode() & 0o777, 0o600, "owner-only");
    }
    #[cfg(not(unix))]
    let _ = metadata;
}

/// `doctor`'s JSON report names the profile's credential kind, a usable journal and matching
/// contract versions, and never the credential itself.
fn assert_doctor_reports_the_profile(out: &std::process::Output, bearer: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let report: Value = serde_json::from_slice(&out.stdout).expect("the report as JSON");
    assert_eq!(report["credential"], "bearer", "{report}");
    assert_eq!(report["journal"]["ok"], true, "{report}");
    assert_eq!(
        report["contract"]["tool"], report["contract"]["server"],
        "{report}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains(bearer));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wait_follows_a_deploy_to_its_end_and_timeout_stops_waiting() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    sb.set_balance(Decimal::new(100_000_000, 2));
    let cli = Cli::new(&sb, "wait");
    let deploy = |hostname: &str| {
        vec![
            "--yes".to_owned(),
            "deployments".to_owned(),
            "product-variant-deploy".to_owned(),
            "DE".to_owned(),
            "vps".to_owned(),
            "vps-xs".to_owned(),
            "--max-total".to_owned(),
            "1000".to_owned(),
            "--json".to_owned(),
            json!({ "hostname": hostname }).to_string(),
            "--wait".to_owned(),
        ]
    };
    let args = deploy("wait.example.net");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let done = cli.ok(&args);
    assert_eq!(done["done"], true, "the final state: {done}");
    assert_eq!(done["status"], "succeeded", "{done}");
    assert_eq!(
        cli.ok(&["writes", "list"]),
        json!([]),
        "the write's entry is closed"
    );

    // Operations that never advance: --timeout ends the wait, the write itself is settled.
    sb.set_progression(cloud_sandbox::Progression::Manual);
    let mut args = deploy("stuck.example.net");
    args.extend(["--timeout".to_owned(), "1".to_owned()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, stderr) = cli.fails(&args);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("the write was accepted") && stderr.contains("--timeout"),
        "{stderr}"
    );
    assert_eq!(cli.ok(&["writes", "list"]), json!([]));
    assert_eq!(
        sb.services()
            .iter()
            .filter(|s| s.hostname == "stuck.example.net")
            .count(),
        1
    );

    let (code, stderr) = cli.fails(&["catalog", "get-regions", "--timeout", "5"]);
    assert_eq!(code, 2, "--timeout only where --wait is: {stderr}");
}
