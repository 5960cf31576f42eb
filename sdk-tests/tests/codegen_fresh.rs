//! Freshness: `cloud-sdk/` (the crate, `api.json`, `CHANGELOG.md`) must equal what the generator
//! makes from `spec/openapi.yaml` now (the same check as `cargo xtask gen --check`), so CI fails
//! on a stale checkout.

use sdk_generator::emit::Options;
use sdk_generator::write::Mode;
use std::path::Path;

#[test]
fn generated_crate_is_fresh() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let run = sdk_generator::report::regenerate(
        &root.join("spec/openapi.yaml"),
        &root.join("cloud-sdk"),
        &Options::workspace(),
        Mode::Check,
    )
    .unwrap_or_else(|e| panic!("generation failed: {e}"));
    let report = run.written;
    assert!(
        report.is_clean(),
        "cloud-sdk/ is stale, run `cargo xtask gen`:\nchanged: {:#?}\nno longer generated: {:#?}",
        report.changed,
        report.stale
    );
}

#[test]
fn generation_is_deterministic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let spec = root.join("spec/openapi.yaml");
    let first = sdk_generator::generate(&spec, &Options::workspace()).map(|(_, f)| f);
    let second = sdk_generator::generate(&spec, &Options::workspace()).map(|(_, f)| f);
    assert_eq!(first.ok(), second.ok());
}
