//! Freshness: `customer-cloud-sdk/` (the crate, `api.json`, `CHANGELOG.md`) must equal what the generator
//! makes from `spec/openapi.yaml` now (the same check as `cargo xtask gen --check`), so CI fails
//! on a stale checkout.

use oncegen::emit::Options;
use oncegen::write::Mode;
use std::path::Path;

#[test]
fn generated_crate_is_fresh() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let run = oncegen::regenerate(
        &root.join("spec/openapi.yaml"),
        &root.join("customer-cloud-sdk"),
        &xtask::customer_cloud_sdk_options(),
        Mode::Check,
    )
    .unwrap_or_else(|e| panic!("generation failed: {e}"));
    let report = run.written;
    assert!(
        report.is_clean(),
        "customer-cloud-sdk/ is stale, run `cargo xtask gen`:\nchanged: {:#?}\nno longer generated: {:#?}",
        report.changed,
        report.stale
    );
}

#[test]
fn generation_is_deterministic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let spec = root.join("spec/openapi.yaml");
    let first = oncegen::generate(&spec, &xtask::customer_cloud_sdk_options()).map(|(_, f)| f);
    let second = oncegen::generate(&spec, &xtask::customer_cloud_sdk_options()).map(|(_, f)| f);
    assert_eq!(first.ok(), second.ok());
}

/// A standalone crate generated from a corpus document (given by absolute path, written to an
/// absolute directory, with the runtime by path as inside this workspace, and by version as
/// anywhere else) names no absolute path of this machine: not the checkout, not the output
/// directory, not the spec.
#[test]
fn a_generated_crate_holds_no_absolute_path() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("checkout");
    let spec = root.join("sdk-tests/realspecs/train-travel.yaml");
    let out = root.join("target/no-absolute-path/train-travel-sdk");
    let runtime = root.join("oncegen-runtime");
    for runtime_dir in [Some(runtime.as_path()), None] {
        let options = Options::standalone(&spec, &out, runtime_dir).expect("options");
        let (_, files) = oncegen::generate(&spec, &options).expect("generates");
        let manifest = files
            .iter()
            .find(|f| f.path == Path::new("Cargo.toml"))
            .expect("a Cargo.toml");
        match runtime_dir {
            Some(_) => assert!(
                manifest.contents.contains(
                    "oncegen-runtime = { path = \"../../../oncegen-runtime\", version = "
                ),
                "{}",
                manifest.contents
            ),
            None => assert!(
                manifest.contents.contains(&format!(
                    "oncegen-runtime = {{ version = \"{}\", default-features = false }}",
                    oncegen::emit::RUNTIME_VERSION
                )),
                "{}",
                manifest.contents
            ),
        }
        let home = std::env::var("HOME").unwrap_or_default();
        for file in &files {
            for needle in [root.to_str().expect("utf-8"), home.as_str(), "path = \"/"] {
                if needle.len() > 1 {
                    assert!(
                        !file.contents.contains(needle),
                        "{} contains `{needle}`",
                        file.path.display()
                    );
                }
            }
        }
    }
}

/// The version a published-layout crate asks for is the runtime's own.
#[test]
fn the_published_runtime_version_is_the_runtimes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let read = |path: &str| std::fs::read_to_string(root.join(path)).expect(path);
    let runtime = read("oncegen-runtime/Cargo.toml");
    let version = if runtime.contains("\nversion.workspace = true\n") {
        let workspace = read("Cargo.toml");
        let section = workspace
            .split("[workspace.package]")
            .nth(1)
            .expect("[workspace.package]");
        value_of(section, "version")
    } else {
        value_of(&runtime, "version")
    };
    assert_eq!(version, oncegen::emit::RUNTIME_VERSION);
}

/// The string value of the first `key = "value"` line of a manifest section.
fn value_of(section: &str, key: &str) -> String {
    section
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once('=')?;
            (k.trim() == key).then(|| v.trim().trim_matches('"').to_owned())
        })
        .unwrap_or_else(|| panic!("no `{key}`"))
}
