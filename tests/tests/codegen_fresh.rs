//! Freshness: `generated/` must equal what the generator makes from `spec/openapi.yaml` now
//! (the same check as `cargo xtask gen --check`), so CI fails on a stale checkout.

use sdk_generator::emit::Options;
use sdk_generator::write::{Mode, ensure_files};
use std::path::Path;

#[test]
fn generated_crate_is_fresh() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let (_, files) =
        sdk_generator::generate(&root.join("spec/openapi.yaml"), &Options::workspace())
            .unwrap_or_else(|e| panic!("generation failed: {e}"));
    let report = ensure_files(
        &root.join("generated"),
        &files,
        Path::new("src/generated"),
        Mode::Check,
    )
    .unwrap_or_else(|e| panic!("check failed: {e}"));
    assert!(
        report.is_clean(),
        "generated/ is stale, run `cargo xtask gen`:\nchanged: {:#?}\nno longer generated: {:#?}",
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
