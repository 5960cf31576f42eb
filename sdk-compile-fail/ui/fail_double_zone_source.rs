//! A zone request with two sources (template and zone file) cannot be built: the sources are
//! one enum value, and there is no separate setter for a second one.

use customer_cloud_sdk::dns::{CreateDnsZoneRequest, CreateDnsZoneRequestSource as Source};

fn main() {
    let _ = CreateDnsZoneRequest::new("example.com")
        .source(Source::TemplateId(uuid::Uuid::nil()))
        .zone_file("$TTL 300");
    let _ = Source::TemplateId(uuid::Uuid::nil(), "$TTL 300".to_owned());
}
