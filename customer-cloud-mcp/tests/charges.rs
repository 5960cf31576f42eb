//! The purchase and access-grant gates of the `customer-cloud-mcp` binary, over stdio with raw
//! JSON-RPC lines, against the sandbox (in this process): every call that moves money is a
//! purchase, one whose amount cannot be read before paying is refused even under
//! `--max-total` unless the operator starts the server with `--allow-any-amount`, and creating
//! an API credential needs `--allow-access-grants`. Each refusal leaves the sandbox unchanged.

use cloud_sandbox::Sandbox;
use common::{Server, state_dir, text};

mod common;
use rust_decimal::Decimal;
use serde_json::{Value, json};

/// A server spoken to line by line, its answers read as these tests need them.
struct Session(Server);

impl Session {
    /// A server with `flags` and the sandbox's signed credential, initialized.
    fn start(sb: &Sandbox, test: &str, flags: &[&str]) -> Self {
        Session(Server::start(
            sb,
            &state_dir(&format!("charges-{test}")),
            flags,
        ))
    }

    /// The result of request `method`, which must not be a protocol error.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let answer = self.0.request(method, params);
        assert!(answer["error"].is_null(), "{method}: {answer}");
        answer["result"].clone()
    }

    /// Calls `tool`: whether it failed, and its text.
    fn call(&mut self, tool: &str, arguments: Value) -> (bool, String) {
        let result = self.0.call(tool, arguments);
        (result["isError"] == true, text(&result))
    }

    /// The names `tools/list` offers.
    fn tools(&mut self) -> Vec<String> {
        let listed = self.request("tools/list", json!({}));
        listed["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .map(|t| t["name"].as_str().expect("a name").to_owned())
            .collect()
    }
}

/// Whether invoice `id` is paid on the sandbox.
fn paid(sb: &Sandbox, id: &str) -> bool {
    sb.invoices()
        .iter()
        .find(|i| i.id.to_string() == id)
        .expect("the invoice exists")
        .status
        == "paid"
}

const PURCHASES: [&str; 5] = [
    "--allow-writes",
    "--allow-purchases",
    "--max-total",
    "2.50",
    "--allow-any-amount",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pay_invoice_above_max_total_is_refused_and_the_invoice_stays_unpaid() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let above = sb.add_unpaid_invoice(Decimal::new(1999, 2)).to_string();
    let mut bounded = Session::start(&sb, "bounded", &PURCHASES[..4]);
    assert!(!bounded.tools().iter().any(|t| t == "pay_invoice"));
    let (failed, text) = bounded.call("pay_invoice", json!({ "id": above }));
    assert!(failed, "{text}");
    assert!(
        text.contains("--max-total 2.50") && text.contains("--allow-any-amount"),
        "the refusal names the bound and what allows the call: {text}"
    );
    assert!(!paid(&sb, &above), "the refused invoice stays unpaid");
    assert_eq!(sb.total_writes(), 0, "nothing was sent");

    // The operator's acknowledgement that no bound holds: the invoice is paid.
    let mut acknowledged = Session::start(&sb, "any-amount", &PURCHASES);
    let (failed, text) = acknowledged.call("pay_invoice", json!({ "id": above }));
    assert!(!failed, "{text}");
    assert!(paid(&sb, &above));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_renewal_checkout_is_a_purchase() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let vps = sb.service_of_kind("vps").expect("a seeded VPS").id;
    let checkout = json!({"serviceId": vps.to_string(), "body": {"unit": "MONTH", "count": 1}});
    let balance = sb.balance();
    let mut writes = Session::start(&sb, "writes", &["--allow-writes"]);
    for tool in [
        "service_renewal_checkout",
        "service_billing_change_checkout",
    ] {
        let (failed, text) = writes.call(tool, checkout.clone());
        assert!(
            failed && text.contains("--allow-purchases"),
            "{tool}: {text}"
        );
    }
    let mut bounded = Session::start(&sb, "renewal-bounded", &PURCHASES[..4]);
    let (failed, text) = bounded.call("service_renewal_checkout", checkout.clone());
    assert!(failed && text.contains("--allow-any-amount"), "{text}");
    assert_eq!(sb.balance(), balance, "nothing was charged");
    assert_eq!(sb.total_writes(), 0, "nothing was sent");

    let mut acknowledged = Session::start(&sb, "renewal-any-amount", &PURCHASES);
    let (failed, text) = acknowledged.call("service_renewal_checkout", checkout);
    assert!(!failed, "{text}");
    assert!(sb.balance() < balance, "the renewal was paid: {text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creating_an_api_credential_needs_the_access_grant_flag() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let body = json!({"name": "agent", "scopes": ["billing.invoice.pay", "vps.write"]});
    let all_but = ["--allow-writes", "--allow-destructive", "--allow-purchases"];
    let mut without = Session::start(&sb, "no-grants", &all_but);
    assert!(!without.tools().iter().any(|t| t == "api_credential_create"));
    let (failed, text) = without.call("api_credential_create", json!({ "body": body }));
    assert!(
        failed && text.contains("--allow-access-grants") && text.contains("API credential"),
        "{text}"
    );
    assert_eq!(sb.total_writes(), 0, "nothing was sent");

    let granting = [&all_but[..], &["--allow-access-grants"]].concat();
    let mut with = Session::start(&sb, "grants", &granting);
    let (failed, text) = with.call("api_credential_create", json!({ "body": body }));
    assert!(!failed, "{text}");
}
