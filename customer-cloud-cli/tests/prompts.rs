//! The confirmation question names what it confirms, in a pseudo-terminal (rexpect, as
//! `terminal.rs`): the operation, the resource its positional arguments name and, for a
//! purchase, the amount it may charge. Each step waits for output, never for time: the
//! 120-second timeouts only guard against a hang.

mod common;

use cloud_sandbox::Sandbox;
use common::Cli;
use rexpect::process::WaitStatus;
use rexpect::session::{PtySession, spawn_command};

const HANG_GUARD_MS: u64 = 120_000;

fn terminal(cli: &Cli, args: &[&str]) -> PtySession {
    let mut command = cli.command(args);
    command.env("TERM", "xterm").env("COLUMNS", "400");
    spawn_command(command, Some(HANG_GUARD_MS)).expect("the binary runs in a pseudo-terminal")
}

/// Declines the question `asked` of `args` and checks that nothing was sent (exit 2).
fn declined(cli: &Cli, args: &[&str], asked: &str) {
    let mut session = terminal(cli, args);
    session.exp_string(asked).expect("the question");
    session.send_line("n").expect("answered");
    session
        .exp_string("not confirmed: nothing was sent")
        .expect("declined");
    session.exp_eof().expect("ends");
    match session.process_mut().wait().expect("the process ends") {
        WaitStatus::Exited(_, code) => assert_eq!(code, 2),
        other => panic!("the process did not exit: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_purchase_asks_naming_the_resource_and_the_amount() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "prompt-purchase");
    let body = r#"{"hostname":"asked.example.net"}"#;
    declined(
        &cli,
        &[
            "deployments",
            "product-variant-deploy",
            "DE",
            "vps",
            "vps-xs",
            "--max-total",
            "25.50",
            "--json",
            body,
        ],
        "Order, pay and provision a product variant atomically (region DE, product_code vps, \
         variant_code vps-xs) for at most 25.50 in the account's currency: `customer-cloud \
         deployments product-variant-deploy` charges the account. Continue? [y/N]",
    );
    assert!(sb.operations().is_empty(), "nothing was ordered");

    let invoice = "00000000-0000-0000-0000-000000000003";
    declined(
        &cli,
        &["billing", "pay-invoice", invoice, "--accept-any-amount"],
        &format!(
            "Pay an invoice from account balance (id {invoice}) for an amount that cannot be \
             read before paying: `customer-cloud billing pay-invoice` charges the account."
        ),
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_destructive_command_asks_naming_the_resource() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "prompt-destructive");
    let webhook = sb.resources(|r| r.webhooks[0]["id"].as_str().expect("an id").to_owned());
    declined(
        &cli,
        &["integrations", "webhook-delete", &webhook],
        &format!(
            "Delete a webhook endpoint (id {webhook}): `customer-cloud integrations \
             webhook-delete` deletes or overwrites data. Continue? [y/N]"
        ),
    );
    assert!(sb.resources(|r| r.webhooks.iter().any(|w| w["id"] == webhook.as_str())));
}
