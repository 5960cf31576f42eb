//! What must not compile: a request without a required field, and a DNS zone with two sources.
//!
//! `sdk-compile-fail/ui/*.rs` use the generated `customer-cloud-sdk` crate as a user would; the expected compiler
//! errors are in the `.stderr` files next to them (refresh with `TRYBUILD=overwrite`).

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("ui/pass_*.rs");
    t.compile_fail("ui/fail_*.rs");
}
