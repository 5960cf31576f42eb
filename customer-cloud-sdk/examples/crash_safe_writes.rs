//! Exactly-once writes across crashes with the write journal (feature `journal`): each write
//! carries the application's own intent id; at start-up the application recovers what the
//! journal holds, records each outcome against its intent, acknowledges it, and only then
//! sends the intents that have none. A "crash" is simulated after a write's answer arrived but
//! before the application recorded it: the next start gets the same outcome again.
//!
//! ```sh
//! cargo run -p customer-cloud-sdk --example crash_safe_writes
//! ```

mod support;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use customer_cloud_sdk::journal::SqliteJournal;
use customer_cloud_sdk::{CallBuilder, Client, Config, dns};

/// The application's own durable record: intent id → idempotency key of the write that
/// carried it out (a database table in a real application; kept in memory here).
type Done = BTreeMap<String, String>;

/// Start-up: open the journal, recover, record and acknowledge every outcome it reports.
async fn start(
    config: &Config,
    journal: &Path,
    done: &mut Done,
) -> Result<Client, Box<dyn std::error::Error>> {
    let journal = Arc::new(SqliteJournal::open(journal)?);
    let client = Client::new(config.clone().journal(journal))?;
    let recovery = client.recover_writes().await?;
    for w in &recovery.writes {
        let intent = w.intent().unwrap_or("-").to_owned();
        if !w.is_settled() {
            // Unknown for now: never resend it under a new key; the next start retries.
            println!(
                "  {intent}: still unknown ({}), kept in the journal",
                w.key()
            );
            continue;
        }
        let seen = done.contains_key(&intent);
        if w.is_applied() {
            done.insert(intent.clone(), w.key().to_owned());
        }
        println!(
            "  {intent}: recovered ({}, {})",
            if w.is_applied() {
                "applied"
            } else {
                "not applied"
            },
            if seen {
                "already recorded"
            } else {
                "recorded now"
            }
        );
        client.acknowledge_write(w.key()).await?;
    }
    Ok(client)
}

/// Sends `intent` (creating the zone it names) unless the application already has its outcome.
async fn create_zone(
    client: &Client,
    intent: &str,
    done: &mut Done,
    acknowledge: bool,
) -> Result<(), Box<dyn std::error::Error>> {
    if done.contains_key(intent) {
        println!("  {intent}: already done, not sent");
        return Ok(());
    }
    let zone = dns::CreateDnsZoneRequest::new(intent.trim_start_matches("zone:").to_owned());
    let created = client.create_dns_zone(zone).intent(intent).send().await?;
    let key = created.meta().idempotency_key.clone().unwrap_or_default();
    if !acknowledge {
        println!("  {intent}: answered, then the process \"dies\" before recording it");
        return Ok(());
    }
    done.insert(intent.to_owned(), key.clone());
    client.acknowledge_write(&key).await?;
    println!("  {intent}: created and acknowledged");
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (config, _sandbox) = support::config().await?;
    let dir = std::env::temp_dir().join(format!("crash-safe-writes-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir)?;
    let journal = dir.join("writes.journal");
    let run = uuid::Uuid::new_v4().simple().to_string();
    let intents: Vec<String> = (1..=3)
        .map(|i| format!("zone:example-{i}-{run}.test"))
        .collect();
    let mut done = Done::new();

    println!("First start:");
    let client = start(&config, &journal, &mut done).await?;
    create_zone(&client, &intents[0], &mut done, true).await?;
    create_zone(&client, &intents[1], &mut done, false).await?;
    drop(client); // the crash: intent 2 was applied, the application never recorded it

    println!("Second start:");
    let client = start(&config, &journal, &mut done).await?;
    for intent in &intents {
        create_zone(&client, intent, &mut done, true).await?;
    }
    let left = client.recover_writes().await?;
    println!(
        "Done: {} intents, each carried out once; {} journal entries left.",
        done.len(),
        left.writes.len()
    );
    drop(client);
    std::fs::remove_dir_all(&dir)?;
    assert_eq!(done.len(), intents.len());
    assert!(left.writes.is_empty());
    Ok(())
}
