//! Two required fields of one type cannot be passed crossed: `DnsTemplateCreateRequest::new`
//! takes `name` and `zone_file` (both strings) named, in one struct, so a positional call (here
//! with the values in the wrong order) does not compile; nor does the struct with one of them
//! left out.

use customer_cloud_sdk::dns::{DnsTemplateCreateRequest, DnsTemplateCreateRequestArgs};

pub fn crossed(name: String, zone_file: String) {
    let _ = DnsTemplateCreateRequest::new(zone_file, name.clone());
    let _ = DnsTemplateCreateRequest::new(DnsTemplateCreateRequestArgs { name });
}

fn main() {}
