//! A zone request without its required `name` does not compile, neither through the
//! constructor nor as a struct literal.

use customer_cloud_sdk::dns::CreateDnsZoneRequest;

fn main() {
    let _ = CreateDnsZoneRequest::new();
    let _ = CreateDnsZoneRequest { dry_run: None, source: None };
}
