//! The kill-and-re-run test: the `customer-cloud` process is killed with SIGKILL at every step
//! of a write — a VPS deploy (the server does not deduplicate it: a duplicate is a second VPS
//! charged) and a DNS zone creation — and the same command is run again, as a person or a
//! pipeline would. Pass: exactly one VPS or zone per command line (0 duplicates), the re-run
//! reports its outcome (0 lost), and the journal holds nothing afterwards.
//!
//! The kill points are the runtime's named steps of the journal protocol (`crash-points`
//! feature, on in the binary built for these tests): `append`, `fsync`, `send`, `receive`,
//! `settle`, `close`, and the CLI's own `acknowledge` (outcome printed, entry not yet closed).
//! The process stops there and says so on stdout; the test waits for that line, then kills it.
//! `in-flight` (the server committed the write and holds its answer) is the sandbox's: the test
//! waits until the sandbox has applied the write, then kills. Nothing depends on timing: waits
//! are for output or state, their deadlines only guard against a hang.
//!
//! A kill at `close` lands after the command finished (its outcome printed, its entry closed):
//! the test checks that the outcome had been printed; running the command again then is a new
//! command, as `create` twice is.

mod common;

use cloud_sandbox::{Fault, Matcher, Sandbox};
use common::Cli;
use rust_decimal::Decimal;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The kill points, in protocol order.
const STEPS: [&str; 8] = [
    "append",
    "fsync",
    "send",
    "in-flight",
    "receive",
    "settle",
    "acknowledge",
    "close",
];

/// Guards every wait against a hang (never reached when things work).
const HANG_GUARD: Duration = Duration::from_secs(120);

const REGION: &str = "DE";
const VARIANT: &str = "vps-xs";

/// What the command line creates.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Deploy,
    Zone,
}

impl Kind {
    /// The command line creating the resource named `name`.
    fn args(self, name: &str) -> Vec<String> {
        let owned = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        match self {
            Kind::Deploy => {
                let body = json!({"hostname": name, "max_total": "100000"}).to_string();
                let mut args = owned(&[
                    "--yes",
                    "deployments",
                    "product-variant-deploy",
                    REGION,
                    "vps",
                    VARIANT,
                    "--max-total",
                    "100000",
                    "--json",
                ]);
                args.push(body);
                args
            }
            Kind::Zone => {
                let body = json!({"name": name}).to_string();
                let mut args = owned(&["dns", "create-dns-zone", "--json"]);
                args.push(body);
                args
            }
        }
    }

    /// How many resources named `name` the sandbox holds.
    fn count(self, sb: &Sandbox, name: &str) -> usize {
        match self {
            Kind::Deploy => sb.services().iter().filter(|s| s.hostname == name).count(),
            Kind::Zone => sb.zones().iter().filter(|z| z.name == name).count(),
        }
    }

    fn name(self, step: &str) -> String {
        match self {
            Kind::Deploy => format!("rerun-{step}.example.net"),
            Kind::Zone => format!("rerun-{step}.example"),
        }
    }
}

/// Runs `args` until it stops at `step` (or, for `in-flight`, until the sandbox applied its
/// write), kills it with SIGKILL and returns its stdout lines.
fn kill_at(sb: &Sandbox, cli: &Cli, args: &[&str], step: &str) -> Vec<String> {
    let writes = sb.total_writes();
    let mut command = cli.command(args);
    if step == "in-flight" {
        sb.inject(
            Fault::Delay(Duration::from_secs(1)),
            Matcher {
                method: Some("POST".into()),
                ..Matcher::default()
            },
            1,
        );
    } else {
        command.env("SDK_CRASH_POINT", format!("{step}:1"));
    }
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let marker = format!("sdk-crash-point {step} 1");
    let started = Instant::now();
    let mut lines = Vec::new();
    loop {
        assert!(
            started.elapsed() < HANG_GUARD,
            "step {step} never reached: {lines:?}"
        );
        if step == "in-flight" {
            if sb.total_writes() > writes {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
            continue;
        }
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(line) if line == marker => break,
            Ok(line) => lines.push(line),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                panic!("the process ended before step {step}: {lines:?}")
            }
        }
    }
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    lines.extend(rx.try_iter());
    sb.clear_faults();
    lines
}

/// Runs `args` until it exits 0, again while it says the outcome is still unknown (exit 8);
/// returns its stdout and stderr.
fn rerun(cli: &Cli, args: &[&str]) -> (Value, String) {
    let started = Instant::now();
    loop {
        let out = cli.output(args);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        match out.status.code() {
            Some(0) => {
                let value = serde_json::from_slice(&out.stdout).expect("the outcome as JSON");
                return (value, stderr);
            }
            Some(8) if started.elapsed() < HANG_GUARD => {
                std::thread::sleep(Duration::from_millis(50));
            }
            other => panic!("the re-run exited with {other:?}: {stderr}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_killed_at_any_step_and_run_again_writes_once() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    sb.set_balance(Decimal::new(100_000_000, 2));
    let mut kills = 0;
    for kind in [Kind::Deploy, Kind::Zone] {
        for step in STEPS {
            let cli = Cli::new(&sb, &format!("rerun-{kind:?}-{step}"));
            let name = kind.name(step);
            let owned = kind.args(&name);
            let args: Vec<&str> = owned.iter().map(String::as_str).collect();
            let printed = kill_at(&sb, &cli, &args, step);
            kills += 1;
            if step == "close" {
                let answer = printed.join("\n");
                assert!(
                    answer.contains(&name) || answer.contains("operation"),
                    "{kind:?}: the outcome was printed before the entry closed: {answer}"
                );
                if let Kind::Deploy = kind {
                    // Killed after its entry closed, before it exited: a purchase run again
                    // is that purchase again (the guard), never a second one.
                    let (answer, stderr) = rerun(&cli, &args);
                    assert!(stderr.contains("replayed"), "{kind:?} at close: {stderr}");
                    assert!(answer.is_object(), "{answer}");
                }
            } else {
                let (answer, stderr) = rerun(&cli, &args);
                // Killed before its record committed, the earlier run left nothing: the
                // re-run is the write. Afterwards, it answers the earlier run's write.
                assert_eq!(
                    stderr.contains("replayed: the outcome of an earlier run of this command"),
                    step != "append",
                    "{kind:?} at {step}: the re-run settled the earlier run: {stderr}"
                );
                assert!(answer.is_object(), "{kind:?} at {step}: {answer}");
            }
            assert_eq!(
                kind.count(&sb, &name),
                1,
                "{kind:?} killed at {step}, then run again: exactly one"
            );
            let listed = cli.ok(&["writes", "list"]);
            assert_eq!(listed, json!([]), "{kind:?} at {step}: nothing left open");
        }
    }
    println!("cli kill-and-re-run: {kills} kills, 0 duplicates, 0 lost");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_command_run_again_is_a_new_write_and_new_write_insists() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "rerun-finished");
    let template = |name: &str| {
        vec![
            "dns".to_owned(),
            "template-create".to_owned(),
            "--json".to_owned(),
            json!({"name": name, "zone_file": "@ 3600 IN A 192.0.2.1\n"}).to_string(),
        ]
    };
    let a = template("a");
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    cli.ok(&a);
    let out = cli.output(&a);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("earlier run"), "{stderr}");
    assert_eq!(
        templates_named(&cli, "a"),
        2,
        "a finished command runs again"
    );

    // Killed before sending, then run with --new-write: the earlier entry stays for `writes`.
    let b = template("b");
    let b: Vec<&str> = b.iter().map(String::as_str).collect();
    kill_at(&sb, &cli, &b, "fsync");
    let mut new_write = vec!["--new-write"];
    new_write.extend(&b);
    cli.ok(&new_write);
    let listed = cli.ok(&["writes", "list"]);
    assert_eq!(listed.as_array().map(Vec::len), Some(1), "{listed}");
    assert_eq!(listed[0]["command"], "dns template-create");
    assert_eq!(listed[0]["state"], "open");
    // `writes recover` settles the earlier entry under its own key (never sent: the server
    // applies it now), reports it and closes it: --new-write asked for two writes.
    let recovered = cli.ok(&["writes", "recover"]);
    assert_eq!(recovered[0]["state"], "applied", "{recovered}");
    assert_eq!(cli.ok(&["writes", "list"]), json!([]));
    assert_eq!(templates_named(&cli, "b"), 2);
}

fn templates_named(cli: &Cli, name: &str) -> usize {
    let templates = cli.ok(&["dns", "get-dns-templates"]);
    templates["templates"]
        .as_array()
        .expect("templates")
        .iter()
        .filter(|t| t["name"] == name)
        .count()
}

/// The same with the journal on PostgreSQL (`--journal postgres://…`, issue 34's journal
/// shared by machines): a deploy killed after its request left, then run again, writes once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_the_postgres_journal_a_killed_deploy_run_again_writes_once() {
    let cluster = match sdk_tests::postgres::Cluster::start("cli-rerun") {
        Ok(c) => c,
        Err(e) if !sdk_tests::postgres::required() => {
            println!("skipped: no PostgreSQL ({e}); `bash .ci/postgres` installs it");
            return;
        }
        Err(e) => panic!("PostgreSQL is required under CI=true: {e}"),
    };
    let sb = Sandbox::start().await.expect("sandbox starts");
    sb.set_balance(Decimal::new(100_000_000, 2));
    let cli = Cli::new(&sb, "rerun-postgres");
    let url = cluster.url();
    for step in ["send", "receive"] {
        let name = format!("pg-{step}.example.net");
        let mut owned = vec!["--journal".to_owned(), url.clone()];
        owned.extend(Kind::Deploy.args(&name));
        let args: Vec<&str> = owned.iter().map(String::as_str).collect();
        kill_at(&sb, &cli, &args, step);
        let (answer, stderr) = rerun(&cli, &args);
        assert!(stderr.contains("replayed"), "{step}: {stderr}");
        assert!(answer.is_object(), "{answer}");
        assert_eq!(
            Kind::Deploy.count(&sb, &name),
            1,
            "killed at {step}: one VPS"
        );
    }
    let listed = cli.ok(&["--journal", &url, "writes", "list"]);
    assert_eq!(listed, json!([]), "nothing left open in PostgreSQL");
}

/// Runs `args` with `env` set until it exits other than 8; its exit code, stdout and stderr.
fn settled_run(cli: &Cli, args: &[&str], env: &[(&str, &str)]) -> (i32, Value, String) {
    let started = Instant::now();
    loop {
        let mut command = cli.command(args);
        command.envs(env.iter().copied());
        let out = command.output().expect("the binary runs");
        let code = out.status.code().expect("an exit code");
        let stdout = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        if code != 8 || started.elapsed() > HANG_GUARD || !env.is_empty() {
            return (code, stdout, stderr);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_recovered_write_goes_only_to_its_own_server_with_its_own_credential() {
    let a = Sandbox::start().await.expect("sandbox A starts");
    let b = Sandbox::start().await.expect("sandbox B starts");
    let cli = Cli::new(&a, "recover-own-server");
    let name = "own-server.example";
    let owned = Kind::Zone.args(name);
    let args: Vec<&str> = owned.iter().map(String::as_str).collect();
    tokio::task::block_in_place(|| kill_at(&a, &cli, &args, "in-flight"));
    // Another credential (another profile's) settles nothing and sends nothing.
    // Requests received from now on (the killed run's may still be logged later).
    let since = Instant::now();
    let sent_since = |sb: &Sandbox| {
        sb.requests()
            .iter()
            .filter(|r| r.received_at > since)
            .count()
    };
    let recover = ["writes", "recover"];
    let other = [("CUSTOMER_CLOUD_API_SECRET", "another-profiles-secret")];
    let (code, rows, stderr) = tokio::task::block_in_place(|| settled_run(&cli, &recover, &other));
    assert_eq!(code, 8, "{rows} {stderr}");
    assert_eq!(rows[0]["state"], "unknown", "{rows}");
    assert!(
        rows[0]["error"]
            .as_str()
            .unwrap_or_default()
            .contains("another credential"),
        "{rows}"
    );
    assert_eq!(sent_since(&a), 0, "nothing sent with another credential");
    // Pointed at server B, the write is still settled at A, where it was made.
    let b_url = b.base_url();
    let at_b = ["--base-url", b_url.as_str(), "writes", "recover"];
    let (code, rows, stderr) = tokio::task::block_in_place(|| settled_run(&cli, &at_b, &[]));
    assert_eq!(code, 0, "{rows} {stderr}");
    assert_eq!(rows[0]["state"], "applied", "{rows}");
    assert_eq!(rows[0]["server"], json!(a.base_url()), "{rows}");
    assert!(b.requests().is_empty(), "server B received nothing");
    assert_eq!(Kind::Zone.count(&a, name), 1);
    assert_eq!(Kind::Zone.count(&b, name), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_that_never_reached_the_server_blocks_nothing() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "never-reached");
    // A loopback port nothing listens on: the first run's connection is refused.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let base = format!("http://127.0.0.1:{port}");
    let body = json!({"name": "never-reached.example"}).to_string();
    let args = [
        "--base-url",
        base.as_str(),
        "dns",
        "create-dns-zone",
        "--json",
        body.as_str(),
    ];
    let (code, stderr) = tokio::task::block_in_place(|| cli.fails(&args));
    assert_ne!(code, 8, "certainly not applied: {stderr}");
    // Now the same address reaches the sandbox: the same command is sent.
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .expect("the port again");
    let upstream = sb.base_url().trim_start_matches("http://").to_owned();
    tokio::spawn(async move {
        while let Ok((mut inbound, _)) = listener.accept().await {
            let upstream = upstream.clone();
            tokio::spawn(async move {
                if let Ok(mut outbound) = tokio::net::TcpStream::connect(&upstream).await {
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                }
            });
        }
    });
    let out = tokio::task::block_in_place(|| cli.output(&args));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("replayed"), "{stderr}");
    assert_eq!(Kind::Zone.count(&sb, "never-reached.example"), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thirty_two_commands_at_once_share_the_journal() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "parallel");
    let children: Vec<_> = (0..32)
        .map(|i| {
            let body = json!({"name": format!("parallel-{i}.example")}).to_string();
            cli.command(&["dns", "create-dns-zone", "--json", &body])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("a command starts")
        })
        .collect();
    let failures: Vec<String> = tokio::task::block_in_place(|| {
        children
            .into_iter()
            .map(|c| c.wait_with_output().expect("it ends"))
            .filter(|o| !o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stderr).into_owned())
            .collect()
    });
    assert!(failures.is_empty(), "{failures:#?}");
    let made = sb
        .zones()
        .iter()
        .filter(|z| z.name.starts_with("parallel-"))
        .count();
    assert_eq!(made, 32, "each once");
    let listed = tokio::task::block_in_place(|| cli.ok(&["writes", "list"]));
    assert_eq!(listed, json!([]), "nothing left open");
}
