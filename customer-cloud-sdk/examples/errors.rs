//! Errors: a typed API error, and a write whose answer was lost, settled with the SDK's own
//! helpers (look it up by its idempotency key, or resend it with the same key).
//!
//! ```sh
//! cargo run -p customer-cloud-sdk --example errors
//! ```
//!
//! Against the sandbox the lost answer is staged (the sandbox commits the write, then drops the
//! connection); against a real deployment the example only shows the typed error.

mod support;

use customer_cloud_sdk::prelude::*;
use customer_cloud_sdk::{RetryPolicy, UnknownOutcome, dns};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (client, sandbox) = support::connect().await?;
    show_a_typed_error(&client).await;
    let Some(sandbox) = sandbox else {
        return Ok(());
    };
    // The next write is committed, but its answer never arrives.
    sandbox.inject(
        cloud_sandbox::Fault::DropAfterCommit,
        cloud_sandbox::Matcher::writes(),
        1,
    );
    let name = format!("lost-{}.test", uuid::Uuid::new_v4().simple());
    let zone = dns::CreateDnsZoneRequest::new(name.clone());
    // With retries off for this call, the unknown outcome reaches us instead of being settled
    // by the SDK itself (which is what happens with the default policy).
    let err = client
        .create_dns_zone(zone.clone())
        .retry_policy(RetryPolicy::disabled())
        .send()
        .await
        .expect_err("the answer was dropped");
    let Error::WriteOutcomeUnknown(unknown) = &err else {
        return Err(err.into());
    };
    let key = unknown
        .idempotency_key
        .clone()
        .ok_or("writes carry a key")?;
    println!("Outcome unknown: {err}");

    // Settle it: look the write up by its key (never a new write)…
    look_up(&client, unknown, &key).await;
    // …or resend the identical request with the same key: the server answers with the stored
    // response, so the zone exists exactly once.
    client
        .create_dns_zone(zone)
        .idempotency_key(key)
        .send()
        .await?;
    let listed = client.list_dns_zones().q(name.clone()).send().await?;
    let zones = listed.into_body().zones.len();
    println!("Zones named {name}: {zones} (exactly once).");
    Ok(())
}

/// A typed API error: status, code and request id.
async fn show_a_typed_error(client: &Client) {
    match client.get_dns_zone("no-such-zone.test").send().await {
        Err(e) if e.error_code() == Some(ErrorCode::NotFound) => println!(
            "Typed error: {} {} (request id {})",
            e.status().unwrap_or_default(),
            e.error_code().map(|c| c.to_string()).unwrap_or_default(),
            e.request_id().unwrap_or("-")
        ),
        other => println!("Unexpected: {other:?}"),
    }
}

/// Looks up the write of unknown outcome by its idempotency `key`, method and path, and says
/// what the server recorded.
async fn look_up(client: &Client, unknown: &UnknownOutcome, key: &str) {
    let found = client
        .get_operations()
        .idempotency_key(key)
        .method(unknown.method.as_str())
        .path(unknown.path.clone())
        .send()
        .await;
    match &found {
        Ok(r) => println!("Lookup: recorded as operation {}", r.body().operation.id),
        Err(e) => println!("Lookup: {e}"),
    }
}
