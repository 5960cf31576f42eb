//! The valid ways to build a zone request compile: no source, or exactly one.

use cloud_sdk::dns::{CreateDnsZoneRequest, CreateDnsZoneRequestTemplateIdOrZoneFileOrRecords as Source};

fn main() {
    let empty = CreateDnsZoneRequest::new("example.com");
    let from_file = CreateDnsZoneRequest::new("example.com")
        .dry_run(true)
        .template_id_or_zone_file_or_records(Source::ZoneFile("$TTL 300".to_owned()));
    assert!(empty.template_id_or_zone_file_or_records.is_none());
    assert!(from_file.template_id_or_zone_file_or_records.is_some());
}
