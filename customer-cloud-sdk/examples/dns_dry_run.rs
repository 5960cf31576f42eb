//! Create a DNS zone from records: a dry run first (validates, creates nothing), then the real
//! write with its own idempotency key.
//!
//! ```sh
//! cargo run -p customer-cloud-sdk --example dns_dry_run
//! ```

mod support;

use customer_cloud_sdk::dns;
use serde_json::Value;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (client, _sandbox) = support::connect().await?;
    let name = format!("example-{}.test", uuid::Uuid::new_v4().simple());
    let records = dns::CreateDnsZoneRequestSource::Records(vec![
        dns::DnsRecordSet::new()
            .name("@")
            .type_("A")
            .ttl(300)
            .values(vec![Value::from("192.0.2.10")]),
        dns::DnsRecordSet::new()
            .name("www")
            .type_("CNAME")
            .ttl(300)
            .values(vec![Value::from(format!("{name}."))]),
    ]);
    let zone = dns::CreateDnsZoneRequest::new(name.clone()).source(records);

    client
        .create_dns_zone(zone.clone().dry_run(true))
        .send()
        .await?;
    let listed = client
        .list_dns_zones()
        .q(name.clone())
        .send()
        .await?
        .into_body();
    println!(
        "Dry run accepted; zones named {name}: {}.",
        listed.zones.len()
    );

    let created = client.create_dns_zone(zone).send().await?;
    println!(
        "Created {name} (idempotency key {}).",
        created.meta().idempotency_key.as_deref().unwrap_or("-")
    );
    let listed = client
        .list_dns_zones()
        .q(name.clone())
        .send()
        .await?
        .into_body();
    println!("Zones named {name}: {}.", listed.zones.len());
    Ok(())
}
