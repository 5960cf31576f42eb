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
    let mut config = SandboxConfig::default();
    let mut host = "127.0.0.1".to_owned();
    let mut port = 8080u16;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().unwrap_or_else(|| usage());
        match a.as_str() {
            "--host" => host = val(),
            "--port" => port = val().parse().unwrap_or_else(|_| usage()),
            "--seed" => config.seed = val().parse().unwrap_or_else(|_| usage()),
            "--spec" => {
                let path = val();
                let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
                    eprintln!("cloud-sandbox: {path}: {e}");
                    std::process::exit(1)
                });
                config.spec_yaml = Some(text);
            }
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
    let _ = tokio::signal::ctrl_c().await;
}
