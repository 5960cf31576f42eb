//! Purchases and access grants through the `customer-cloud` binary in a pipe (no terminal),
//! against the sandbox in this process: a purchase whose amount cannot be read before paying
//! (paying an invoice, a renewal checkout) is refused under `--max-total`, naming the bound,
//! and without `--accept-any-amount`; creating an API credential is refused without `--yes`,
//! naming what it grants, and on a terminal it asks so. Each refusal sends nothing.

mod common;

use cloud_sandbox::Sandbox;
use common::Cli;
use rexpect::process::WaitStatus;
use rexpect::session::spawn_command;
use rust_decimal::Decimal;

fn paid(sb: &Sandbox, id: &str) -> bool {
    sb.invoices()
        .iter()
        .find(|i| i.id.to_string() == id)
        .expect("the invoice exists")
        .status
        == "paid"
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pay_invoice_above_max_total_is_refused_and_the_invoice_stays_unpaid() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "charges-pay");
    let invoice = sb.add_unpaid_invoice(Decimal::new(1999, 2)).to_string();
    let pay = ["billing", "pay-invoice", &invoice, "--yes"];
    let (code, stderr) = cli.fails(&[&pay[..], &["--max-total", "2.50"]].concat());
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("--max-total 2.50") && stderr.contains("--accept-any-amount"),
        "the refusal names the bound and the acknowledgement: {stderr}"
    );
    let (code, stderr) = cli.fails(&pay);
    assert!(
        code == 2 && stderr.contains("cannot be read before paying"),
        "{stderr}"
    );
    assert!(!paid(&sb, &invoice), "the refused invoice stays unpaid");
    assert_eq!(sb.total_writes(), 0, "nothing was sent");

    cli.ok(&[&pay[..], &["--accept-any-amount"]].concat());
    assert!(paid(&sb, &invoice));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_renewal_checkout_needs_yes_and_an_acknowledged_amount() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "charges-renewal");
    let vps = sb
        .service_of_kind("vps")
        .expect("a seeded VPS")
        .id
        .to_string();
    let renew = [
        "services",
        "service-renewal-checkout",
        &vps,
        "--json",
        r#"{"unit": "MONTH", "count": 1}"#,
    ];
    let balance = sb.balance();
    let (code, stderr) = cli.fails(&[&renew[..], &["--accept-any-amount"]].concat());
    assert!(
        code == 2 && stderr.contains("charges the account") && stderr.contains("pass --yes"),
        "{stderr}"
    );
    let (code, stderr) = cli.fails(&[&renew[..], &["--yes", "--max-total", "5"]].concat());
    assert!(
        code == 2 && stderr.contains("--max-total 5") && stderr.contains("--accept-any-amount"),
        "{stderr}"
    );
    assert_eq!(sb.balance(), balance, "nothing was charged");
    assert_eq!(sb.total_writes(), 0, "nothing was sent");

    let answer = cli.ok(&[&renew[..], &["--yes", "--accept-any-amount"]].concat());
    assert!(sb.balance() < balance, "the renewal was paid: {answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creating_an_api_credential_is_confirmed_naming_the_grant() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "charges-credential");
    let create = [
        "integrations",
        "api-credential-create",
        "--json",
        r#"{"name": "agent", "scopes": ["billing.invoice.pay", "vps.write"]}"#,
    ];
    let (code, stderr) = cli.fails(&create);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("grants access: a new API credential") && stderr.contains("pass --yes"),
        "{stderr}"
    );
    assert_eq!(sb.total_writes(), 0, "nothing was sent");

    let created = cli.ok(&[&create[..], &["--yes"]].concat());
    assert!(created["item"]["id"].is_string(), "{created}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_terminal_creating_an_api_credential_asks_naming_the_grant() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "charges-credential-terminal");
    let mut command = cli.command(&[
        "integrations",
        "api-credential-create",
        "--json",
        r#"{"name": "agent", "scopes": ["vps.write"]}"#,
    ]);
    command.env("TERM", "xterm");
    // The timeout only guards against a hang: each step waits for output.
    let mut session = spawn_command(command, Some(120_000)).expect("a pseudo-terminal");
    session
        .exp_string("grants access: a new API credential")
        .expect("the question names the grant");
    session.exp_string("Continue? [y/N]").expect("the question");
    session.send_line("n").expect("answered");
    session
        .exp_string("not confirmed: nothing was sent")
        .expect("declined");
    session.exp_eof().expect("ends");
    let status = session.process_mut().wait().expect("the process ends");
    assert!(matches!(status, WaitStatus::Exited(_, 2)), "{status:?}");
    assert_eq!(sb.total_writes(), 0, "nothing was sent");
}

/// `secret` as text and as it reads inside any Base64 text that encodes it (each of the three
/// alignments, its first and last partial groups left out).
fn encodings(secret: &str) -> Vec<String> {
    use base64::Engine as _;
    let mut found = vec![secret.to_owned()];
    for pad in 0..3 {
        let mut bytes = vec![b'x'; pad];
        bytes.extend_from_slice(secret.as_bytes());
        let text = base64::engine::general_purpose::STANDARD.encode(&bytes);
        found.push(text[4..text.len() - 4].to_owned());
    }
    found
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_minted_secret_leaves_the_journal_once_it_is_printed() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "charges-secret");
    let created = tokio::task::block_in_place(|| {
        cli.ok(&[
            "--yes",
            "integrations",
            "api-credential-create",
            "--json",
            r#"{"name": "agent", "scopes": ["vps.read"]}"#,
        ])
    });
    let secret = created["item"]["secret"]
        .as_str()
        .or_else(|| created["secret"].as_str())
        .unwrap_or_else(|| panic!("the answer carries a secret: {created}"))
        .to_owned();
    assert!(secret.len() >= 16, "{secret}");
    let dir = cli.state.join("customer-cloud");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).expect("the state directory") {
        let path = entry.expect("an entry").path();
        if !path.is_file() {
            continue;
        }
        files += 1;
        let bytes = std::fs::read(&path).expect("readable");
        let text = String::from_utf8_lossy(&bytes);
        for needle in encodings(&secret) {
            assert!(
                !text.contains(&needle),
                "{} holds the secret",
                path.display()
            );
        }
    }
    assert!(files > 0, "the journal is in {}", dir.display());
}
