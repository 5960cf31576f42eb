//! The tool as a person uses it, in a pseudo-terminal (rexpect): a destructive command asks
//! and honours the answer, a terminal gets a table and a red `error`, and `--wait` shows a
//! spinner until the work ends. Each step waits for output, never for time: the 120-second
//! timeouts only guard against a hang. (Without a terminal, the same commands refuse without
//! `--yes`, print JSON and no colour: `operations.rs`.) `configure` reads a typed secret
//! with the terminal's echo off.

mod common;

use cloud_sandbox::{OpStatus, Progression, Sandbox};
use common::Cli;
use rexpect::process::WaitStatus;
use rexpect::session::{PtySession, spawn_command};
use rust_decimal::Decimal;
use serde_json::json;

const HANG_GUARD_MS: u64 = 120_000;

fn terminal(cli: &Cli, args: &[&str]) -> PtySession {
    let mut command = cli.command(args);
    command.env("TERM", "xterm").env_remove("NO_COLOR");
    spawn_command(command, Some(HANG_GUARD_MS)).expect("the binary runs in a pseudo-terminal")
}

fn exit_code(session: &mut PtySession) -> i32 {
    match session.process_mut().wait().expect("the process ends") {
        WaitStatus::Exited(_, code) => code,
        other => panic!("the process did not exit: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_destructive_command_asks_and_honours_the_answer() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "terminal-confirm");
    let webhook = sb.resources(|r| r.webhooks[0]["id"].as_str().expect("an id").to_owned());
    let args = ["integrations", "webhook-delete", webhook.as_str()];

    let mut declined = terminal(&cli, &args);
    declined
        .exp_string("deletes or overwrites data. Continue? [y/N]")
        .expect("the question");
    declined.send_line("n").expect("answered");
    declined
        .exp_string("not confirmed: nothing was sent")
        .expect("declined");
    declined.exp_eof().expect("ends");
    assert_eq!(exit_code(&mut declined), 2);
    assert!(sb.resources(|r| r.webhooks.iter().any(|w| w["id"] == webhook.as_str())));

    let mut confirmed = terminal(&cli, &args);
    confirmed
        .exp_string("Continue? [y/N]")
        .expect("the question");
    confirmed.send_line("y").expect("answered");
    confirmed.exp_eof().expect("ends");
    assert_eq!(exit_code(&mut confirmed), 0);
    assert!(!sb.resources(|r| r.webhooks.iter().any(|w| w["id"] == webhook.as_str())));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_terminal_gets_a_table_and_a_red_error() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "terminal-output");
    let mut listed = terminal(&cli, &["catalog", "get-regions"]);
    let (_, header) = listed.exp_regex(r"ID +NAME").expect("a table header");
    assert!(header.starts_with("ID"), "{header}");
    listed.exp_string("Germany").expect("a row");
    listed.exp_eof().expect("ends");
    assert_eq!(exit_code(&mut listed), 0);

    let mut failed = terminal(&cli, &["dns", "get-dns-zone", "missing.example"]);
    failed
        .exp_string("\x1b[31merror\x1b[0m: 404")
        .expect("a red error label");
    failed.exp_eof().expect("ends");
    assert_eq!(exit_code(&mut failed), 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wait_shows_a_spinner_until_the_work_ends() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    sb.set_balance(Decimal::new(100_000_000, 2));
    sb.set_progression(Progression::Manual);
    let cli = Cli::new(&sb, "terminal-wait");
    let body = json!({"hostname": "spinner.example.net"}).to_string();
    let mut session = terminal(
        &cli,
        &[
            "--yes",
            "--output",
            "json",
            "deployments",
            "product-variant-deploy",
            "DE",
            "vps",
            "vps-xs",
            "--max-total",
            "1000",
            "--json",
            &body,
            "--wait",
        ],
    );
    session
        .exp_string("waiting for productVariantDeploy")
        .expect("a spinner while the operation runs");
    // The operation ends only now, whatever time it is.
    let operation = sb
        .operations()
        .into_iter()
        .next()
        .expect("the deploy's operation");
    assert!(sb.set_operation_status(&operation.id, OpStatus::Succeeded));
    session
        .exp_string("\"succeeded\"")
        .expect("the final state");
    session.exp_eof().expect("ends");
    assert_eq!(exit_code(&mut session), 0);
}

/// `configure` as a person types a credential. rexpect starts its pseudo-terminal with echo
/// off, so the command runs under `stty echo` (echo on, as a terminal is): the key, typed
/// like any input, shows, which proves typing is echoed here; the bearer credential and the
/// secret are typed only once the terminal's echo is off (polled from the terminal's
/// settings, not timed) and never show; the file is written owner-only and holds them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn configure_reads_secrets_without_echo_and_writes_them_owner_only() {
    const BEARER: &str = "typedprefix.typed-bearer-secret";
    const KEY: &str = "typed-key-id";
    const SECRET: &str = "typed-signed-secret";
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "terminal-configure");
    let config_home = cli.state.join("config");
    let configure =
        |profile: &str, credential: &str| configure_in(&cli, &config_home, profile, credential);

    let mut bearer = configure("typed-bearer", "bearer");
    bearer
        .exp_string("bearer credential (not shown): ")
        .expect("the prompt");
    wait_for_echo_off(&bearer);
    bearer.send_line(BEARER).expect("typed");
    let shown = bearer.exp_eof().expect("ends");
    assert_eq!(exit_code(&mut bearer), 0, "{shown}");
    assert!(!shown.contains("typed-bearer-secret"), "echoed: {shown:?}");
    assert!(shown.contains("bearer"), "the profile's summary: {shown:?}");

    let mut signed = configure("typed-signed", "signed");
    signed.exp_string("key: ").expect("the key's prompt");
    signed.send_line(KEY).expect("typed");
    signed
        .exp_string(KEY)
        .expect("the key is echoed: this terminal shows what is typed");
    signed
        .exp_string("secret (not shown): ")
        .expect("the secret's prompt");
    wait_for_echo_off(&signed);
    signed.send_line(SECRET).expect("typed");
    let shown = signed.exp_eof().expect("ends");
    assert_eq!(exit_code(&mut signed), 0, "{shown}");
    assert!(!shown.contains(SECRET), "echoed: {shown:?}");

    let file = config_home.join("customer-cloud").join("config.toml");
    assert_owner_only_and_holding(&file, &[BEARER, KEY, SECRET]);
}

/// `configure --credential credential` for `profile` in a pseudo-terminal whose echo is on, its
/// profiles under `config_home`.
fn configure_in(
    cli: &Cli,
    config_home: &std::path::Path,
    profile: &str,
    credential: &str,
) -> PtySession {
    let tool = cli.command(&[]);
    let mut command = std::process::Command::new("sh");
    command
        .args(["-c", "stty echo && exec \"$0\" \"$@\""])
        .arg(tool.get_program())
        .args([
            "--profile",
            profile,
            "configure",
            "--credential",
            credential,
        ])
        .envs(tool.get_envs().filter_map(|(k, v)| Some((k, v?))))
        .env("TERM", "xterm")
        .env("XDG_CONFIG_HOME", config_home);
    spawn_command(command, Some(HANG_GUARD_MS)).expect("the binary runs in a pseudo-terminal")
}

/// The configuration file holds every typed value and only its owner may read or write it.
fn assert_owner_only_and_holding(file: &std::path::Path, typed: &[&str]) {
    let written = std::fs::read_to_string(file).expect("the configuration file");
    for typed in typed {
        assert!(written.contains(typed), "{typed} is in the profile");
    }
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(file)
        .expect("written")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "owner-only");
}

/// Waits until the program in `session` has turned its terminal's echo off (the terminal's
/// settings, read through the pseudo-terminal's master side); the hang guard bounds it.
fn wait_for_echo_off(session: &PtySession) {
    use nix::sys::termios::{LocalFlags, tcgetattr};
    let pty = session
        .process()
        .get_file_handle()
        .expect("the pseudo-terminal");
    let guard = std::time::Instant::now() + std::time::Duration::from_millis(HANG_GUARD_MS);
    while tcgetattr(&pty)
        .expect("the terminal's settings")
        .local_flags
        .contains(LocalFlags::ECHO)
    {
        assert!(
            std::time::Instant::now() < guard,
            "echo never went off: the secret would be shown"
        );
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}
