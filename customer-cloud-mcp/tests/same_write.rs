//! "The same write" through the real server over stdio, spoken as raw JSON-RPC: a deliberate
//! repeat after the outcome is a new write (attach, detach, attach does three things; a final
//! 400 is not replayed once its cause is fixed), a call refused before sending leaves its key
//! free, a write whose outcome was never delivered (the server killed mid-call) is answered on
//! the next identical call as a replay saying when it applied, and two servers share one state
//! directory.

use cloud_sandbox::{Fault, Matcher, Sandbox};
use common::{Server, state_dir, text};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::time::{Duration, Instant};

mod common;

/// Guards every wait against a hang (never reached when things work).
const HANG_GUARD: Duration = Duration::from_secs(120);

/// A server with writes and deletions enabled, its state under `state`.
fn start(sb: &Sandbox, state: &PathBuf) -> Server {
    Server::start(sb, state, &["--allow-writes", "--allow-destructive"])
}

fn ok(result: &Value) -> bool {
    result["isError"] != json!(true)
}

/// POST requests the sandbox received whose path ends with `suffix`.
fn posts(sb: &Sandbox, suffix: &str) -> usize {
    sb.requests()
        .iter()
        .filter(|r| r.method == "POST" && r.path.ends_with(suffix))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deliberate_repeat_is_a_new_write_and_a_fixed_400_is_not_replayed() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let x = sb.add_service("vps", "x.example.net", "active");
    let y = sb.add_service("vps", "y.example.net", "active");
    let volume = sb.add_service("storage", "volume.example.net", "active");
    let state = state_dir("same-write-repeat");
    let attached = |sb: &Sandbox| sb.resources(|r| r.volume_attachments.get(&volume).copied());
    let mut mcp = tokio::task::block_in_place(|| start(&sb, &state));
    let attach = |to| json!({"serviceId": volume, "body": {"target_service_id": to}});
    let detach = json!({"serviceId": volume});
    tokio::task::block_in_place(|| {
        for (tool, args) in [
            ("storage_volume_attach", attach(x)),
            ("storage_volume_detach", detach.clone()),
            ("storage_volume_attach", attach(x)),
        ] {
            let result = mcp.call(tool, args);
            assert!(ok(&result), "{tool}: {result}");
            assert!(!text(&result).contains("replayed"), "{tool}: {result}");
        }
        assert_eq!(attached(&sb), Some(x), "attach, detach, attach: attached");
        let refused = mcp.call("storage_volume_attach", attach(y));
        assert!(!ok(&refused), "attached elsewhere: {refused}");
        assert!(ok(&mcp.call("storage_volume_detach", detach.clone())));
        let again = mcp.call("storage_volume_attach", attach(y));
        assert!(
            ok(&again),
            "the cause fixed, the same call is sent: {again}"
        );
    });
    assert_eq!(attached(&sb), Some(y));
    assert_eq!(posts(&sb, "/attach"), 4, "every attach was sent");
    assert_eq!(posts(&sb, "/detach"), 2, "both detaches were sent");
    drop(mcp);
    let _ = std::fs::remove_dir_all(&state);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_refused_before_sending_leaves_its_key_free() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let x = sb.add_service("vps", "x.example.net", "active");
    let volume = sb.add_service("storage", "volume.example.net", "active");
    let state = state_dir("same-write-refused");
    let mut mcp = tokio::task::block_in_place(|| start(&sb, &state));
    let key = "caller-key-0001";
    tokio::task::block_in_place(|| {
        let wrong = json!({"serviceId": volume, "body": {}, "idempotency_key": key});
        let refused = mcp.call("storage_volume_attach", wrong);
        assert!(!ok(&refused), "{refused}");
        assert_eq!(posts(&sb, "/attach"), 0, "nothing was sent");
        let right = json!({"serviceId": volume, "body": {"target_service_id": x},
                           "idempotency_key": key});
        let sent = mcp.call("storage_volume_attach", right.clone());
        assert!(ok(&sent), "the corrected call under the same key: {sent}");
        assert_eq!(posts(&sb, "/attach"), 1);
        // The key names that one write: again, it answers the same outcome.
        let again = mcp.call("storage_volume_attach", right);
        assert!(ok(&again), "{again}");
        assert_eq!(again["_meta"]["replayed"], json!(true), "{again}");
    });
    let _ = std::fs::remove_dir_all(&state);
}

/// The zone the undelivered write creates.
const UNDELIVERED: &str = "undelivered.example";

/// How many zones named [`UNDELIVERED`] the sandbox holds.
fn undelivered_zones(sb: &Sandbox) -> usize {
    sb.zones().iter().filter(|z| z.name == UNDELIVERED).count()
}

/// Calls `create_dns_zone` with `zone` on a server that is killed once the API has committed
/// the write and while it still holds the answer: an outcome never delivered.
fn kill_mid_call(sb: &Sandbox, state: &PathBuf, zone: &Value) {
    sb.inject(
        Fault::Delay(Duration::from_secs(1)),
        Matcher {
            method: Some("POST".into()),
            path_prefix: Some("/v1/dns/zones".into()),
            ..Matcher::default()
        },
        1,
    );
    let mut mcp = start(sb, state);
    mcp.send_request(
        "tools/call",
        json!({"name": "create_dns_zone", "arguments": zone}),
    );
    let started = Instant::now();
    while undelivered_zones(sb) == 0 {
        assert!(
            started.elapsed() < HANG_GUARD,
            "the write never reached the API"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    mcp.kill();
    sb.clear_faults();
}

/// Calls `create_dns_zone` with `zone` until the answer is not `outcome_unknown`: while the API
/// still holds the first call, a retry is told the outcome is unknown, and an agent calls
/// again, as the answer says.
fn call_until_known(mcp: &mut Server, zone: &Value) -> Value {
    let started = Instant::now();
    loop {
        let again = mcp.call("create_dns_zone", zone.clone());
        if !text(&again).contains("outcome_unknown") {
            return again;
        }
        assert!(started.elapsed() < HANG_GUARD, "never settled: {again}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_outcome_never_delivered_is_answered_as_a_replay_after_a_restart() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let state = state_dir("same-write-restart");
    let zone = json!({"body": {"name": UNDELIVERED}});
    tokio::task::block_in_place(|| kill_mid_call(&sb, &state, &zone));
    let mut mcp = tokio::task::block_in_place(|| start(&sb, &state));
    let again = tokio::task::block_in_place(|| call_until_known(&mut mcp, &zone));
    assert!(ok(&again), "{again}");
    assert_eq!(again["_meta"]["replayed"], json!(true), "{again}");
    assert!(again["_meta"]["applied_at"].is_string(), "{again}");
    assert!(text(&again).contains("replayed"), "{again}");
    assert_eq!(
        undelivered_zones(&sb),
        1,
        "one zone for the killed call and its retry"
    );
    // Delivered now: the same call again is a new write (the API refuses a second zone of
    // that name, which shows it was sent).
    let repeat = tokio::task::block_in_place(|| mcp.call("create_dns_zone", zone));
    assert_ne!(repeat["_meta"]["replayed"], json!(true), "{repeat}");
    assert!(
        text(&repeat).contains("api_error"),
        "sent, and refused: {repeat}"
    );
    assert_eq!(undelivered_zones(&sb), 1);
    // Killed right after an outcome was sent: the call again under its key is that write.
    let key = again["_meta"]["idempotency_key"].clone();
    mcp.kill();
    let mut mcp = tokio::task::block_in_place(|| start(&sb, &state));
    let keyed = json!({"body": {"name": UNDELIVERED}, "idempotency_key": key});
    let after = tokio::task::block_in_place(|| mcp.call("create_dns_zone", keyed));
    assert!(ok(&after), "{after}");
    assert_eq!(after["_meta"]["replayed"], json!(true), "{after}");
    assert_eq!(undelivered_zones(&sb), 1, "still one zone");
    let _ = std::fs::remove_dir_all(&state);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_share_one_state_directory() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let state = state_dir("same-write-shared");
    let (mut a, mut b) = tokio::task::block_in_place(|| (start(&sb, &state), start(&sb, &state)));
    tokio::task::block_in_place(|| {
        for i in 0..4 {
            let mcp = if i % 2 == 0 { &mut a } else { &mut b };
            let name = format!("shared-{i}.example");
            let result = mcp.call("create_dns_zone", json!({"body": {"name": name}}));
            assert!(ok(&result), "server {i}: {result}");
        }
    });
    let made = sb
        .zones()
        .iter()
        .filter(|z| z.name.starts_with("shared-"))
        .count();
    assert_eq!(made, 4);
    let _ = std::fs::remove_dir_all(&state);
}
