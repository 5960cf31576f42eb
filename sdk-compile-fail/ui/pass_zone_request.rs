//! The valid ways to build a zone request compile: no source, or exactly one.

use customer_cloud_sdk::dns::{CreateDnsZoneRequest, CreateDnsZoneRequestSource as Source};

fn main() {
    let empty = CreateDnsZoneRequest::new("example.com");
    let from_file = CreateDnsZoneRequest::new("example.com")
        .dry_run(true)
        .source(Source::ZoneFile("$TTL 300".to_owned()));
    assert!(empty.source.is_none());
    assert!(from_file.source.is_some());
}
