//! `cloud-sandbox` binary: serves the sandbox on a port and prints its base URL and credentials.

use std::time::Duration;

use cloud_sandbox::{Sandbox, SandboxConfig};

fn usage() -> ! {
    eprintln!(
        "usage: cloud-sandbox [--host 127.0.0.1] [--port 8080] [--seed 42] [--rate-limit N] [--spec PATH]\n  N: requests per minute per credential; PATH: serve this OpenAPI document (YAML or JSON) instead of the embedded spec/openapi.yaml"
    );
    std::process::exit(2)
}

#[tokio::main]
async fn main() {
    let config = parse_args(std::env::args().skip(1));
    let sandbox = match Sandbox::start_with(config).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("cloud-sandbox: {e}");
            std::process::exit(1)
        }
    };
    println!("cloud-sandbox listening on {}", sandbox.base_url());
    let spec = &sandbox.shared().spec;
    println!(
        "contract revision {}, {} operations",
        spec.version(),
        spec.operations.len()
    );
    print_credentials(&sandbox);
    print_resources(&sandbox);
    let _ = tokio::signal::ctrl_c().await;
}

/// The configuration the command line names; prints the usage and exits on a bad argument.
fn parse_args(mut args: impl Iterator<Item = String>) -> SandboxConfig {
    let mut config = SandboxConfig::default();
    let mut host = "127.0.0.1".to_owned();
    let mut port = 8080u16;
    while let Some(a) = args.next() {
        let mut val = || args.next().unwrap_or_else(|| usage());
        match a.as_str() {
            "--host" => host = val(),
            "--port" => port = val().parse().unwrap_or_else(|_| usage()),
            "--seed" => config.seed = val().parse().unwrap_or_else(|_| usage()),
            "--spec" => config.spec_yaml = Some(read_spec(&val())),
            "--rate-limit" => {
                config.rate_limit = Some((
                    val().parse().unwrap_or_else(|_| usage()),
                    Duration::from_secs(60),
                ))
            }
            _ => usage(),
        }
    }
    config.addr = format!("{host}:{port}").parse().unwrap_or_else(|_| usage());
    config
}

/// The text of the spec at `path`; exits naming the path when it cannot be read.
fn read_spec(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("cloud-sandbox: {path}: {e}");
        std::process::exit(1)
    })
}

/// One line per seeded credential: its role, id and what to send.
fn print_credentials(sandbox: &Sandbox) {
    let creds = sandbox.credentials();
    for (role, c) in [
        ("bearer (all scopes)", &creds.bearer),
        ("signed (all scopes)", &creds.signed),
        ("bearer read-only", &creds.read_only),
        ("signed read-only", &creds.signed_read_only),
        ("bearer ip-blocked", &creds.ip_blocked),
        ("bearer loopback-only", &creds.loopback_only),
        ("bearer disabled", &creds.disabled),
        ("bearer expired", &creds.expired),
    ] {
        match c.mode {
            cloud_sandbox::Mode::Bearer => println!(
                "{role:22} id={} Authorization: Bearer {}",
                c.id,
                c.bearer_token()
            ),
            cloud_sandbox::Mode::Signed => println!(
                "{role:22} id={} x-api-key: {}  HMAC secret: {}",
                c.id, c.prefix, c.secret
            ),
        }
    }
}

/// One line per kind of resource a path names: an active service of each kind, a webhook
/// endpoint and an unpaid invoice (`resource <name> <id>`), so that a client of the binary can
/// reach every operation. No shown operation creates a storage volume or, without a draft order,
/// an unpaid invoice: the binary adds one of each.
fn print_resources(sandbox: &Sandbox) {
    sandbox.add_service("storage", "volume-1.sandbox.test", "active");
    let invoice = sandbox.add_unpaid_invoice(rust_decimal::Decimal::new(1999, 2));
    for kind in ["vps", "dedicated", "domain", "tcp-proxy", "storage"] {
        if let Some(service) = sandbox.service_of_kind(kind) {
            println!("resource {kind:10} {}", service.id);
        }
    }
    let webhook = sandbox.resources(|r| r.webhooks.first().map(|w| w["id"].clone()));
    if let Some(serde_json::Value::String(id)) = webhook {
        println!("resource {:10} {id}", "webhook");
    }
    println!("resource {:10} {invoice}", "invoice");
}
