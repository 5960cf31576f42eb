//! What must not compile: a request without a required field, a DNS zone with two sources, and
//! two required values of one type passed without their names (so possibly crossed), to a
//! client method or to a request body's `new`.
//!
//! `sdk-compile-fail/ui/*.rs` use the generated `customer-cloud-sdk` crate as a user would; the expected compiler
//! errors are in the `.stderr` files next to them (refresh with `TRYBUILD=overwrite`).

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("ui/pass_*.rs");
    t.compile_fail("ui/fail_*.rs");
}
