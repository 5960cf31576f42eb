//! Required fields of a request body named where it is created compile in any order, and each
//! lands in its field; a body with one required field still takes it positionally.

use customer_cloud_sdk::dns::{
    CreateDnsZoneRequest, DnsTemplateCreateRequest, DnsTemplateCreateRequestArgs,
};

fn main() {
    let zone_file = "@ 3600 IN A 192.0.2.1\n".to_owned();
    let template = DnsTemplateCreateRequest::new(DnsTemplateCreateRequestArgs {
        zone_file: zone_file.clone(),
        name: "web".to_owned(),
    });
    assert_eq!((template.name.as_str(), template.zone_file), ("web", zone_file));
    let zone = CreateDnsZoneRequest::new("example.com");
    assert_eq!(zone.name, "example.com");
}
