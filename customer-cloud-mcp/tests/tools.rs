//! Every operation of `spec/openapi.yaml` as a tool of the `customer-cloud-mcp` binary against
//! the sandbox, through rmcp's client over stdio: the test fails when an operationId had no 2xx
//! round trip through a tool. Then the gates: a server started read-only offers no write tool
//! and refuses one with a readable tool error.
//!
//! The sandbox runs in this process; the server is a child process of the real binary with the
//! sandbox's signed credential in its environment and a journal in a fresh directory.

use cloud_sandbox::Sandbox;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A server child process and the client session with it.
struct Mcp {
    client: RunningService<RoleClient, ()>,
    state: PathBuf,
}

impl Mcp {
    /// A server with the sandbox's signed credential in its environment.
    async fn start(sb: &Sandbox, test: &str, flags: &[&str]) -> Self {
        let cred = &sb.credentials().signed;
        Self::start_with(test, flags, |command| {
            command
                .env("CUSTOMER_CLOUD_API_BASE_URL", sb.base_url())
                .env("CUSTOMER_CLOUD_API_KEY", &cred.prefix)
                .env("CUSTOMER_CLOUD_API_SECRET", &cred.secret);
        })
        .await
    }

    /// A server with no setting of the API in its environment but what `env` adds, a journal
    /// and an (empty) configuration directory in a fresh directory.
    async fn start_with(
        test: &str,
        flags: &[&str],
        env: impl FnOnce(&mut tokio::process::Command),
    ) -> Self {
        let state = state_dir(test);
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_customer-cloud-mcp"));
        command.args(flags);
        isolate(command.as_std_mut(), &state);
        env(&mut command);
        let transport = TokioChildProcess::new(command).expect("the server starts");
        let client = ().serve(transport).await.expect("initialize");
        Mcp { client, state }
    }

    async fn call(&self, tool: &str, arguments: Value) -> CallToolResult {
        let arguments: Map<String, Value> = match arguments {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        self.client
            .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments))
            .await
            .unwrap_or_else(|e| panic!("tools/call {tool}: {e}"))
    }

    /// The JSON answer of a call that must succeed.
    async fn ok(&self, tool: &str, arguments: Value) -> Value {
        let result = self.call(tool, arguments).await;
        let text = text_of(&result);
        assert_ne!(result.is_error, Some(true), "`{tool}` failed: {text}");
        match result.structured_content {
            Some(value) => value,
            // Without an output schema the answer is the text's JSON after the notes.
            None => {
                let start = text.find(['{', '[']).expect("a JSON answer");
                serde_json::from_str(&text[start..]).expect("the answer is JSON")
            }
        }
    }
}

/// A fresh directory for one test's server.
fn state_dir(test: &str) -> PathBuf {
    let state =
        std::env::temp_dir().join(format!("customer-cloud-mcp-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&state);
    state
}

/// No setting of the API from this process's environment, and the journal and the
/// configuration directory (`XDG_CONFIG_HOME`) under `state`: nothing read from outside.
fn isolate(command: &mut std::process::Command, state: &Path) {
    for name in ["BASE_URL", "BEARER", "KEY", "SECRET", "JOURNAL", "PROFILE"] {
        command.env_remove(format!("CUSTOMER_CLOUD_API_{name}"));
    }
    command
        .env("XDG_STATE_HOME", state)
        .env("XDG_CONFIG_HOME", state.join("config"));
}

fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

impl Drop for Mcp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.state);
    }
}

/// Every `operationId` of the contract, read from the file.
fn spec_operation_ids() -> BTreeSet<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/openapi.yaml");
    let text = std::fs::read_to_string(path).expect("spec/openapi.yaml");
    let doc: Value = yaml_serde::from_str(&text).expect("spec parses");
    let mut ids = BTreeSet::new();
    for item in doc["paths"].as_object().expect("paths").values() {
        for m in [
            "get", "put", "post", "delete", "options", "head", "patch", "trace",
        ] {
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

fn first_of(listed: &Value, kind: &str) -> String {
    let item = listed["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|i| i["type"] == kind)
        .unwrap_or_else(|| panic!("no {kind} service listed"));
    text(&item["id"])
}

/// The flags that open every gate: a server started with them offers every operation.
const EVERY_GATE: [&str; 5] = [
    "--allow-writes",
    "--allow-destructive",
    "--allow-purchases",
    "--allow-any-amount",
    "--allow-access-grants",
];

/// The services of each kind a coverage run acts on, as listed by `get_services`.
struct Services {
    vps: String,
    dedicated: String,
    domain: String,
    proxy: String,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_operation_is_callable_as_a_tool() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let mcp = Mcp::start(&sb, "coverage", &EVERY_GATE).await;
    let listed = mcp.client.list_all_tools().await.expect("tools/list");
    assert_eq!(
        listed.len(),
        spec_operation_ids().len(),
        "one tool per operation"
    );
    integrations(&sb, &mcp).await;
    let (plan, images) = catalog(&mcp).await;
    deployments_and_operations(&mcp, &plan).await;
    let services = billing_and_services(&sb, &mcp, &plan).await;
    vps_and_firewall(&mcp, &services.vps).await;
    dedicated(&mcp, &images, &services.dedicated).await;
    dns_and_website_protection(&mcp, &services.vps).await;
    domains(&mcp, &services.domain).await;
    tcp_proxy_ssh_and_storage(&sb, &mcp, &services).await;
    assert_every_operation_had_a_round_trip(&sb, &mcp);
}

/// Version, capabilities, API credentials and webhooks.
async fn integrations(sb: &Sandbox, mcp: &Mcp) {
    mcp.ok("get_version", json!({})).await;
    mcp.ok("get_capabilities", json!({})).await;
    let body =
        json!({"name": "mcp coverage", "scopes": ["billing.services.read"], "mode": "bearer"});
    let created = mcp
        .ok("api_credential_create", json!({ "body": body }))
        .await;
    let credential = text(&created["item"]["id"]);
    mcp.ok("api_credentials", json!({"limit": 100})).await;
    mcp.ok("api_credential", json!({ "id": credential })).await;
    let webhook = sb.resources(|r| text(&r.webhooks[0]["id"]));
    let patch = json!({"id": webhook, "body": {"enabled": false}});
    mcp.ok("patch_webhooks_by_id", patch).await;
    mcp.ok("webhook_delete", json!({ "id": webhook })).await;
}

/// Regions, products and images: the first VPS plan listed and the page of dedicated images.
async fn catalog(mcp: &Mcp) -> (Value, Value) {
    mcp.ok("get_regions", json!({})).await;
    let products = mcp
        .ok("get_products", json!({"product_code": "vps", "limit": 5}))
        .await;
    let plan = products["items"][0].clone();
    let region = text(&plan["region"]);
    mcp.ok(
        "get_products_by_region",
        json!({"region": region, "limit": 3}),
    )
    .await;
    let images = mcp.ok("get_dedicated_images", json!({"limit": 5})).await;
    (plan, images)
}

/// A deploy of `plan` under a known key, then its operation found by that key and followed to
/// the end.
async fn deployments_and_operations(mcp: &Mcp, plan: &Value) {
    let key = format!("mcp-coverage-deploy-{}", std::process::id());
    let region = text(&plan["region"]);
    let variant = text(&plan["variant_code"]);
    let deploy = json!({
        "region": region, "productCode": "vps", "variantCode": variant,
        "body": {"hostname": "mcp.example.net", "max_total": "100000"},
        "idempotency_key": key,
    });
    mcp.ok("product_variant_deploy", deploy).await;
    let path = format!("/v1/deploy/{region}/vps/{variant}");
    let found = mcp
        .ok(
            "get_operations",
            json!({"idempotency_key": key, "method": "POST", "path": path}),
        )
        .await;
    let operation = text(&found["operation"]["id"]);
    let settled = mcp
        .ok(
            "get_operations_by_operation_id",
            json!({"operationId": operation, "wait": true}),
        )
        .await;
    assert_eq!(settled["status"], "succeeded", "{settled}");
}

/// An order draft, an invoice paid, the billing lists, the services and their checkouts.
async fn billing_and_services(sb: &Sandbox, mcp: &Mcp, plan: &Value) -> Services {
    let draft = json!({"currency": "EUR", "items": [{"product_id": plan["product_id"], "variant_id": plan["variant_id"], "qty": 1}]});
    mcp.ok("billing_order_draft", json!({ "body": draft }))
        .await;
    let invoice = sb.add_unpaid_invoice(rust_decimal::Decimal::new(1234, 2));
    mcp.ok("pay_invoice", json!({ "id": invoice.to_string() }))
        .await;
    mcp.ok("billing_services", json!({"limit": 10})).await;
    mcp.ok("billing_transactions", json!({"limit": 10})).await;
    let listed = mcp.ok("get_services", json!({"limit": 100})).await;
    mcp.ok("get_services_grouped", json!({"status": "active"}))
        .await;
    let services = Services {
        vps: first_of(&listed, "vps"),
        dedicated: first_of(&listed, "dedicated"),
        domain: first_of(&listed, "domain"),
        proxy: first_of(&listed, "tcp-proxy"),
    };
    let cycle = json!({"count": 3, "unit": "MONTH"});
    let checkout = json!({"serviceId": services.vps, "body": cycle});
    mcp.ok("service_billing_change_checkout", checkout.clone())
        .await;
    mcp.ok("service_renewal_checkout", checkout).await;
    services
}

/// The VPS actions and a firewall policy applied to it.
async fn vps_and_firewall(mcp: &Mcp, vps: &str) {
    mcp.ok("post_vps_by_service_id_reboot", json!({ "serviceId": vps }))
        .await;
    let restore = json!({"serviceId": vps, "body": {"auto_start": true}});
    mcp.ok("vps_backup_restore", restore).await;
    mcp.ok("vps_backup_run", json!({ "serviceId": vps })).await;
    let rollback = json!({"serviceId": vps, "name": "nightly"});
    mcp.ok("vps_snapshot_rollback", rollback).await;
    let policy =
        json!({"name": "web", "rules": [{"action": "ACCEPT", "proto": "tcp", "dport": 22}]});
    mcp.ok("firewall_policy_create", json!({ "body": policy }))
        .await;
    mcp.ok("vps_firewall_policy_apply", json!({ "serviceId": vps }))
        .await;
}

/// A dedicated deploy from the first image, then the actions and reads of a dedicated server.
async fn dedicated(mcp: &Mcp, images: &Value, server: &str) {
    let image = &images["items"][0];
    let dedi = json!({
        "configuration_code": image["configuration_code"],
        "hostname": "dedi-mcp.example.net",
        "os_profile_id": image["id"],
        "region_code": image["region"],
    });
    mcp.ok("dedicated_deploy", json!({ "body": dedi })).await;
    let on = json!({ "serviceId": server });
    mcp.ok("dedicated_password_reset", on.clone()).await;
    let tasks = mcp.ok("dedicated_tasks", on.clone()).await;
    let task = json!({"serviceId": server, "taskId": text(&tasks["tasks"][0]["id"])});
    mcp.ok("dedicated_task", task).await;
    mcp.ok("get_dedicated_by_service_id_rescue_options", on.clone())
        .await;
    mcp.ok("get_dedicated_by_service_id_traffic", on).await;
}

/// DNS templates and zones, then a loader page and a certificate for the VPS's proxy.
async fn dns_and_website_protection(mcp: &Mcp, vps: &str) {
    let template = json!({"name": "mcp-template", "zone_file": "@ 3600 IN A 192.0.2.1\n"});
    mcp.ok("dns_template_create", json!({ "body": template }))
        .await;
    mcp.ok("get_dns_templates", json!({})).await;
    mcp.ok("get_dns_template", json!({"id": "mcp-template"}))
        .await;
    let zone = json!({"body": {"name": "mcp.example"}});
    mcp.ok("create_dns_zone", zone).await;
    mcp.ok("list_dns_zones", json!({})).await;
    mcp.ok("get_dns_zone", json!({"name": "mcp.example"})).await;
    let loader = json!({"domain": "mcp.example", "html": "<html>loading</html>", "name": "www"});
    let upload = json!({"serviceId": vps, "body": loader});
    mcp.ok("service_dns_waf_proxy_config_upload_loader", upload)
        .await;
    let ssl = json!({
        "cert": "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
        "domain": "mcp.example",
        "mode": "c",
        "name": "www",
        "pkey": "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n",
    });
    let upload = json!({"serviceId": vps, "body": ssl});
    mcp.ok("service_dns_waf_proxy_config_upload_ssl", upload)
        .await;
}

/// A contact created and assigned to the domain, then its DNSSEC set and read.
async fn domains(mcp: &Mcp, domain: &str) {
    let contact = json!({
        "address": {"city": "London", "country": "GB", "number": "10", "street": "Downing Street", "zipcode": "SW1A 2AA"},
        "email": "ada@example.com",
        "first_name": "Ada",
        "last_name": "Lovelace",
        "phone": "+44.2071234567",
    });
    let contact = mcp
        .ok("domain_contact_create", json!({ "body": contact }))
        .await;
    let assign = json!({"serviceId": domain, "body": {"contact_ids": {"registrant": contact["contact"]["id"]}}});
    mcp.ok("domain_assign_contacts", assign).await;
    let dnssec = json!({"serviceId": domain, "body": {"acknowledge": true}});
    mcp.ok("post_domains_by_service_id_dnssec", dnssec).await;
    mcp.ok(
        "get_domains_by_service_id_dnssec",
        json!({ "serviceId": domain }),
    )
    .await;
}

/// The TCP proxy read and updated, SSH keys imported and generated, a volume attached and
/// detached.
async fn tcp_proxy_ssh_and_storage(sb: &Sandbox, mcp: &Mcp, services: &Services) {
    let proxy = &services.proxy;
    mcp.ok("get_tcp_proxy", json!({ "serviceId": proxy })).await;
    let update = json!({"serviceId": proxy, "body": {"blocked_source_cidrs": ["203.0.113.0/24"]}});
    mcp.ok("tcp_proxy_update", update).await;
    let public_key =
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e mcp";
    let import = json!({"body": {"name": "laptop", "public_key": public_key}});
    mcp.ok("ssh_key_import", import).await;
    let generate =
        json!({"body": {"name": "generated", "passphrase": "correct horse battery staple"}});
    mcp.ok("ssh_key_generate", generate).await;
    let volume = sb.add_service("storage", "volume-1", "active").to_string();
    let attach = json!({"serviceId": volume, "body": {"target_service_id": services.vps}});
    mcp.ok("storage_volume_attach", attach).await;
    mcp.ok("storage_volume_detach", json!({ "serviceId": volume }))
        .await;
}

/// The check: every operation of the contract had a 2xx round trip, and the writes were
/// journaled.
fn assert_every_operation_had_a_round_trip(sb: &Sandbox, mcp: &Mcp) {
    let spec = spec_operation_ids();
    let covered: BTreeSet<String> = sb.covered_operations().into_iter().collect();
    let missing: Vec<&String> = spec.difference(&covered).collect();
    assert!(
        missing.is_empty(),
        "operations without a round trip through a tool: {missing:?}"
    );
    let journal = mcp.state.join("customer-cloud-mcp").join("journal");
    assert!(
        journal.is_file(),
        "writes were journaled ({})",
        journal.display()
    );
    println!(
        "mcp coverage: {} of {} operations",
        covered.len(),
        spec.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_only_server_offers_no_write_and_refuses_one_readably() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let mcp = Mcp::start(&sb, "readonly", &[]).await;
    let listed = mcp.client.list_all_tools().await.expect("tools/list");
    assert!(!listed.is_empty());
    for tool in &listed {
        let hints = tool.annotations.as_ref().expect("annotations");
        assert_eq!(hints.read_only_hint, Some(true), "{} is offered", tool.name);
    }
    let refused = mcp
        .call(
            "webhook_delete",
            json!({"id": "00000000-0000-0000-0000-000000000000"}),
        )
        .await;
    assert_eq!(refused.is_error, Some(true));
    assert!(
        text_of(&refused).contains("--allow-writes"),
        "{}",
        text_of(&refused)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_returns_its_key_which_names_it_and_a_repeat_is_a_new_write() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let mcp = Mcp::start(&sb, "retry", &["--allow-writes"]).await;
    let template = json!({"body": {"name": "retried", "zone_file": "@ 3600 IN A 192.0.2.1\n"}});
    let first = mcp.call("dns_template_create", template.clone()).await;
    assert_ne!(first.is_error, Some(true), "{}", text_of(&first));
    let meta = first.meta.as_ref().expect("the result names its key");
    let key = meta.0["idempotency_key"]
        .as_str()
        .expect("a key")
        .to_owned();
    // The same call again after its outcome arrived: a new write, under a new key; then the
    // call with the key the first returned: that write again, nothing sent.
    let again = mcp.call("dns_template_create", template.clone()).await;
    assert_ne!(again.is_error, Some(true), "{}", text_of(&again));
    let again_key = &again.meta.as_ref().expect("a key").0["idempotency_key"];
    assert_ne!(again_key, &json!(key), "a repeat is a new write");
    let mut keyed = template.clone();
    keyed["idempotency_key"] = json!(key);
    let third = mcp.call("dns_template_create", keyed).await;
    assert_eq!(third.structured_content, first.structured_content);
    let listed = mcp.ok("get_dns_templates", json!({})).await;
    let named = listed["templates"]
        .as_array()
        .expect("templates")
        .iter()
        .filter(|t| t["name"] == "retried")
        .count();
    assert_eq!(named, 2, "two templates for three calls");
    // The key names one write: other arguments under it are refused.
    let mut other = json!({"body": {"name": "other", "zone_file": "@ 3600 IN A 192.0.2.2\n"}});
    other["idempotency_key"] = json!(key);
    let refused = mcp.call("dns_template_create", other).await;
    assert_eq!(refused.is_error, Some(true), "{}", text_of(&refused));
}

/// The arguments of a VPS deploy of the sandbox's first plan, without a ceiling.
async fn deploy_arguments(mcp: &Mcp) -> Value {
    let products = mcp
        .ok("get_products", json!({"product_code": "vps", "limit": 1}))
        .await;
    let plan = &products["items"][0];
    json!({
        "region": plan["region"], "productCode": "vps", "variantCode": plan["variant_code"],
        "body": {"hostname": "ceiling.example.net"},
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_purchase_needs_a_ceiling_under_the_servers() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let uncapped = Mcp::start(&sb, "uncapped", &["--allow-writes", "--allow-purchases"]).await;
    let deploy = deploy_arguments(&uncapped).await;
    let refused = uncapped
        .call("product_variant_deploy", deploy.clone())
        .await;
    assert_eq!(refused.is_error, Some(true));
    assert!(
        text_of(&refused).contains("spending ceiling"),
        "{}",
        text_of(&refused)
    );
    let writes_only = Mcp::start(&sb, "no-purchases", &["--allow-writes"]).await;
    let refused = writes_only
        .call("product_variant_deploy", deploy.clone())
        .await;
    assert!(
        text_of(&refused).contains("--allow-purchases"),
        "{}",
        text_of(&refused)
    );

    let flags = ["--allow-writes", "--allow-purchases", "--max-total", "1"];
    let capped = Mcp::start(&sb, "capped", &flags).await;
    let mut above = deploy.clone();
    above["body"]["max_total"] = json!("5");
    let refused = capped.call("product_variant_deploy", above).await;
    assert!(
        text_of(&refused).contains("--max-total"),
        "{}",
        text_of(&refused)
    );
    // Without its own ceiling the call carries the server's, which the API enforces.
    let limited = capped.call("product_variant_deploy", deploy).await;
    assert_eq!(limited.is_error, Some(true));
    assert!(
        text_of(&limited).contains("deployment_price_limit_exceeded"),
        "{}",
        text_of(&limited)
    );
    assert!(sb.debits().is_empty(), "nothing was charged");
}

/// The size of a `tools/list` answer in bytes (its JSON, as sent).
fn size(tools: &[rmcp::model::Tool]) -> usize {
    oncegen_mcp::result_size(tools)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dynamic_mode_offers_three_tools_that_reach_every_operation() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let all = Mcp::start(&sb, "all", &EVERY_GATE).await;
    let per_operation = all.client.list_all_tools().await.expect("tools/list");
    let mcp = Mcp::start(&sb, "dynamic", &["--tools", "dynamic", "--allow-writes"]).await;
    let listed = mcp.client.list_all_tools().await.expect("tools/list");
    let names: Vec<&str> = listed.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "search_operations",
            "describe_operation",
            "call_operation",
            "call_read_operation"
        ]
    );
    assert_the_dynamic_list_is_a_tenth_and_computed_as_served(&listed, &per_operation);
    search_and_describe_find_an_operation(&mcp).await;
    call_operation_writes_once_under_its_key_and_keeps_the_gates(&sb, &mcp).await;
}

/// The dynamic `tools/list` answer is under a tenth of the per-operation one, and both are the
/// sizes `bench-report mcp` computes without a server.
fn assert_the_dynamic_list_is_a_tenth_and_computed_as_served(
    listed: &[rmcp::model::Tool],
    per_operation: &[rmcp::model::Tool],
) {
    let (dynamic, full) = (size(listed), size(per_operation));
    println!(
        "tools/list for this contract: {} tools {full} bytes (~{} tokens); dynamic 3 tools {dynamic} bytes (~{} tokens)",
        per_operation.len(),
        full / 4,
        dynamic / 4
    );
    assert!(
        dynamic * 10 < full,
        "dynamic {dynamic} bytes, per operation {full}"
    );
    // `bench-report mcp` computes these sizes without a server (for the corpus too): from the
    // generator's tools of the surface this crate was generated from, described by the
    // server's own code. That is exactly the answer of the built server.
    let computed = sdk_benches::mcp::contract_tools();
    assert_eq!(
        sdk_benches::mcp::described(&computed),
        per_operation,
        "the generator's tools, described in-process, are the served ones"
    );
    assert_eq!(sdk_benches::mcp::tools_list_size(&computed), full);
    let writes = oncegen_mcp::dynamic::Reach {
        writes: true,
        destructive: false,
    };
    assert_eq!(size(&oncegen_mcp::dynamic::tools(writes)), dynamic);
}

/// `search_operations` finds an operation by words of it; `describe_operation` gives its input
/// schema.
async fn search_and_describe_find_an_operation(mcp: &Mcp) {
    let found = mcp
        .ok("search_operations", json!({"query": "dns zone"}))
        .await;
    let found: Vec<&str> = found["operations"]
        .as_array()
        .expect("operations")
        .iter()
        .filter_map(|o| o["name"].as_str())
        .collect();
    assert!(found.contains(&"get_dns_zone"), "{found:?}");
    let described = mcp
        .ok("describe_operation", json!({"name": "dns_template_create"}))
        .await;
    assert!(
        described["input_schema"]["properties"]["body"].is_object(),
        "{described}"
    );
}

/// `call_operation` retried under its key writes once, and refuses a destructive operation the
/// server was not started to allow.
async fn call_operation_writes_once_under_its_key_and_keeps_the_gates(sb: &Sandbox, mcp: &Mcp) {
    let call = json!({"name": "dns_template_create", "arguments": {"body": {"name": "dynamic", "zone_file": "@ 3600 IN A 192.0.2.1\n"}, "idempotency_key": "dynamic-key-0001"}});
    mcp.ok("call_operation", call.clone()).await;
    mcp.ok("call_operation", call).await;
    assert_eq!(
        sb.resources(|r| r
            .dns_templates
            .iter()
            .filter(|t| t["name"] == "dynamic")
            .count()),
        1,
        "the call retried under its key wrote once"
    );
    // The gates hold in dynamic mode too.
    let destroy = json!({"name": "webhook_delete", "arguments": {"id": "00000000-0000-0000-0000-000000000000"}});
    let refused = mcp.call("call_operation", destroy).await;
    assert!(
        text_of(&refused).contains("--allow-destructive"),
        "{}",
        text_of(&refused)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presets_and_scopes_select_the_tools() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let dns = Mcp::start(
        &sb,
        "preset",
        &["--preset", "dns-readonly", "--allow-writes"],
    )
    .await;
    let listed = dns.client.list_all_tools().await.expect("tools/list");
    let names: BTreeSet<&str> = listed.iter().map(|t| t.name.as_ref()).collect();
    let expected = [
        "get_dns_template",
        "get_dns_templates",
        "get_dns_zone",
        "list_dns_zones",
    ];
    assert_eq!(names, expected.into_iter().collect());
    let scoped = Mcp::start(
        &sb,
        "scopes",
        &[
            "--scopes",
            "dns.read,dns.write",
            "--allow-writes",
            "--area",
            "dns",
        ],
    )
    .await;
    let listed = scoped.client.list_all_tools().await.expect("tools/list");
    assert!(listed.iter().any(|t| t.name == "create_dns_zone"));
    let none = Mcp::start(&sb, "no-scopes", &["--scopes", "vps.read", "--area", "dns"]).await;
    let listed = none.client.list_all_tools().await.expect("tools/list");
    // `getDnsTemplates` names no scope: any credential may call it.
    let names: Vec<&str> = listed.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["get_dns_templates"]);
    let refused = none
        .call("get_dns_zone", json!({"name": "x.example"}))
        .await;
    assert!(
        text_of(&refused).contains("not offered"),
        "{}",
        text_of(&refused)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_whose_answer_is_lost_is_settled_under_its_key_and_applied_once() {
    use cloud_sandbox::{Fault, Matcher};
    let sb = Sandbox::start().await.expect("sandbox starts");
    let mcp = Mcp::start(&sb, "lost", &["--allow-writes"]).await;
    // The first attempt commits, then the connection drops: the client never hears the outcome
    // and settles it under the same key.
    sb.inject(
        Fault::DropAfterCommit,
        Matcher::new("POST", "/v1/dns/templates"),
        1,
    );
    let template = json!({"body": {"name": "lost", "zone_file": "@ 3600 IN A 192.0.2.1\n"}});
    let first = mcp.call("dns_template_create", template.clone()).await;
    assert_ne!(first.is_error, Some(true), "{}", text_of(&first));
    // Retried under the key the first call returned: the same outcome, nothing written.
    let mut keyed = template;
    keyed["idempotency_key"] = first.meta.as_ref().expect("a key").0["idempotency_key"].clone();
    let again = mcp.call("dns_template_create", keyed).await;
    assert_eq!(again.structured_content, first.structured_content);
    assert_eq!(sb.injected_faults().len(), 1, "the fault struck");
    assert_eq!(
        sb.resources(|r| r
            .dns_templates
            .iter()
            .filter(|t| t["name"] == "lost")
            .count()),
        1,
        "applied once"
    );
}

/// Issue 34's journal shared by processes, configured with `--journal postgres://…`: a write
/// through one server process, retried under its key through another, is applied once; with the
/// database gone, a write fails closed (a tool error, nothing sent), which also shows the
/// journal is the database and not a file.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_the_postgres_journal_a_write_retried_through_another_process_is_applied_once() {
    let cluster = match sdk_tests::postgres::Cluster::start("mcp-journal") {
        Ok(c) => c,
        Err(e) if !sdk_tests::postgres::required() => {
            println!("skipped: no PostgreSQL ({e}); `bash .ci/postgres` installs it");
            return;
        }
        Err(e) => panic!("PostgreSQL is required under CI=true: {e}"),
    };
    let url = cluster.url();
    let sb = Sandbox::start().await.expect("sandbox starts");
    let flags = ["--allow-writes", "--journal", url.as_str()];
    let template = json!({"body": {"name": "on-pg", "zone_file": "@ 3600 IN A 192.0.2.1\n"}});
    let first_server = Mcp::start(&sb, "pg-first", &flags).await;
    let first = first_server
        .call("dns_template_create", template.clone())
        .await;
    assert_ne!(first.is_error, Some(true), "{}", text_of(&first));
    let key = first.meta.as_ref().expect("the result names its key").0["idempotency_key"]
        .as_str()
        .expect("a key")
        .to_owned();
    drop(first_server);
    let second_server = Mcp::start(&sb, "pg-second", &flags).await;
    let mut keyed = template.clone();
    keyed["idempotency_key"] = json!(key);
    let again = second_server.call("dns_template_create", keyed).await;
    assert_ne!(again.is_error, Some(true), "{}", text_of(&again));
    let named = |sb: &Sandbox, name: &str| {
        sb.resources(|r| r.dns_templates.iter().filter(|t| t["name"] == name).count())
    };
    assert_eq!(named(&sb, "on-pg"), 1, "one template for two processes");
    cluster.stop().expect("the database stops");
    let closed = json!({"body": {"name": "no-db", "zone_file": "@ 3600 IN A 192.0.2.3\n"}});
    let refused = second_server.call("dns_template_create", closed).await;
    assert_eq!(refused.is_error, Some(true), "{}", text_of(&refused));
    assert_eq!(named(&sb, "no-db"), 0, "nothing sent without its journal");
}

/// Writes, with the CLI's own code, the configuration file under `config_home`: a profile
/// `work` with the sandbox's `bearer` credential and a `default` profile with a wrong one.
fn write_profiles(sb: &Sandbox, config_home: &Path, bearer: &str) {
    use oncegen_cli::profile::{self, File, Profile};
    let home = config_home.display().to_string();
    let path = profile::path("customer-cloud", |name| {
        (name == "XDG_CONFIG_HOME").then(|| home.clone())
    })
    .expect("a configuration path");
    let profile = |bearer: &str| Profile {
        base_url: Some(sb.base_url().to_string()),
        bearer: Some(bearer.to_owned()),
        ..Profile::default()
    };
    let mut file = File::default();
    file.profiles.insert("work".into(), profile(bearer));
    let default = profile("wrong-prefix.wrong-secret");
    file.profiles.insert("default".into(), default);
    profile::write(&path, &file).expect("the CLI writes its configuration");
}

/// Issue 31 item 6: credentials from the configuration file `customer-cloud configure` writes,
/// read by the CLI's own code. A named profile alone answers a read; the environment's
/// credential beats the default profile's; an unknown profile stops the start with an error
/// naming it, and the secret shows in no answer and no error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn credentials_come_from_the_clis_configuration_file() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let bearer = sb.credentials().bearer.bearer_token();
    let config_home = state_dir("profiles");
    write_profiles(&sb, &config_home, &bearer);
    let configured = |command: &mut tokio::process::Command| {
        command.env("XDG_CONFIG_HOME", &config_home);
    };

    let from_profile = Mcp::start_with("profile-work", &["--profile", "work"], configured).await;
    let zones = from_profile.ok("list_dns_zones", json!({})).await;
    assert!(zones["zones"].is_array(), "{zones}");
    assert!(!zones.to_string().contains(&bearer));

    let cred = &sb.credentials().signed;
    let env_wins = Mcp::start_with("profile-env", &[], |command| {
        configured(command);
        command
            .env("CUSTOMER_CLOUD_API_KEY", &cred.prefix)
            .env("CUSTOMER_CLOUD_API_SECRET", &cred.secret);
    })
    .await;
    env_wins.ok("list_dns_zones", json!({})).await;
    let refused = Mcp::start_with("profile-default", &[], configured).await;
    let answer = refused.call("list_dns_zones", json!({})).await;
    assert_eq!(
        answer.is_error,
        Some(true),
        "the default profile's credential is not the sandbox's: {}",
        text_of(&answer)
    );
    an_unknown_profile_stops_the_start(&config_home, &bearer);
    let _ = std::fs::remove_dir_all(&config_home);
}

/// A server started with a profile the file under `config_home` does not hold stops with an
/// error naming it and the file, printing nothing and not the `bearer` credential.
fn an_unknown_profile_stops_the_start(config_home: &Path, bearer: &str) {
    let state = state_dir("profile-missing");
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_customer-cloud-mcp"));
    command.args(["--profile", "nope", "--list-tools"]);
    isolate(&mut command, &state);
    let out = command
        .env("XDG_CONFIG_HOME", config_home)
        .output()
        .expect("the server runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "an unknown profile stops the start");
    assert!(
        stderr.contains("no profile `nope`") && stderr.contains("config.toml"),
        "{stderr}"
    );
    assert!(
        !stderr.contains(bearer) && out.stdout.is_empty(),
        "{stderr}"
    );
}
