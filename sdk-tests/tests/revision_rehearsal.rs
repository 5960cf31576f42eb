//! Revision rehearsal: a revision of the contract of our own (`fixtures/rehearsal/revision.json`,
//! a JSON Patch: new `info.version`, a field type change, an enum value removed and one added,
//! page → cursor pagination, a scope added, a moved path, a renamed path parameter) is applied to a copy of
//! `spec/openapi.yaml`; the SDK is regenerated from the copy into a scratch directory; the
//! sandbox is started on the copy; and a driver crate compiled against the regenerated SDK calls
//! the changed operations against it. Nothing of the sandbox is edited by hand.
//!
//! The driver (`fixtures/rehearsal/driver.rs`) is Rust that only compiles against the revised
//! SDK (`cpu` is a `String`, `CatalogProductType::Proxy` exists, the transactions builder takes
//! a `cursor`), so the compile itself checks the regenerated types. The scratch crates live under
//! `CARGO_TARGET_TMPDIR/rehearsal/`; the driver builds into `sdk_tests::generated_crates_target()`
//! with the real-server drivers' features and profile, so the dependencies those built are
//! reused (alone, the first build compiles them: a few minutes on two cores). The test prints
//! the time of each stage.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use cloud_sandbox::{Sandbox, SandboxConfig};
use oncegen::emit::{Layout, Options};
use serde_json::Value;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/rehearsal")
        .join(name)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The revised contract: the fixture patch applied to a copy of the spec.
fn revised_spec() -> Value {
    let mut doc: Value = yaml_serde::from_str(&read(&workspace().join("spec/openapi.yaml")))
        .expect("spec/openapi.yaml parses");
    let patch: Value = serde_json::from_str(&read(&fixture("revision.json"))).expect("patch");
    cloud_sandbox::revision::apply_patch(&mut doc, &patch).expect("the revision applies");
    doc
}

/// Writes the regenerated SDK crate into `dir` (replacing what a previous run left).
fn regenerate(spec: &Path, dir: &Path) {
    let options = Options {
        crate_name: "rehearsal-sdk".to_owned(),
        spec_label: "revised spec/openapi.yaml".to_owned(),
        layout: Layout::Standalone {
            runtime_path: workspace()
                .join("oncegen-runtime")
                .canonicalize()
                .expect("runtime"),
        },
        crate_version: None,
        manifest: Default::default(),
    };
    let (_, files) = oncegen::generate(spec, &options).expect("the revised spec generates");
    let _ = std::fs::remove_dir_all(dir.join("src"));
    for f in files {
        let path = dir.join(&f.path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("sdk directory");
        std::fs::write(&path, f.contents).expect("sdk file");
    }
}

/// Writes the driver crate: `fixtures/rehearsal/driver.rs` against the regenerated SDK.
fn write_driver(dir: &Path, sdk: &Path) {
    let manifest = format!(
        "[package]\nname = \"rehearsal-driver\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [workspace]\n\n[dependencies]\nrehearsal-sdk = {{ path = {:?} }}\n\
         tokio = {{ version = \"1\", features = [\"rt-multi-thread\", \"macros\"] }}\n\n\
         [profile.dev]\ndebug = false\nincremental = false\n",
        sdk.display().to_string()
    );
    std::fs::create_dir_all(dir.join("src")).expect("driver directory");
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("driver manifest");
    std::fs::copy(fixture("driver.rs"), dir.join("src/main.rs")).expect("driver source");
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).expect("lock copied");
}

/// Builds the driver; returns its binary.
fn build(driver: &Path, target: &Path) -> PathBuf {
    let out = Command::new(env!("CARGO"))
        .args(["build", "--quiet"])
        .current_dir(driver)
        .env("CARGO_TARGET_DIR", target)
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "the driver does not compile against the regenerated SDK:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    target.join("debug/rehearsal-driver")
}

#[tokio::test(flavor = "multi_thread")]
async fn the_regenerated_sdk_drives_the_sandbox_on_the_revised_spec() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rehearsal");
    let (sdk, driver) = (root.join("sdk"), root.join("driver"));
    std::fs::create_dir_all(&root).expect("scratch directory");
    let started = Instant::now();
    let revised = revised_spec();
    let spec_path = root.join("openapi.json");
    let text = serde_json::to_string_pretty(&revised).expect("json");
    std::fs::write(&spec_path, &text).expect("revised spec written");
    regenerate(&spec_path, &sdk);
    write_driver(&driver, &sdk);
    let generated = started.elapsed();
    let binary = build(&driver, &sdk_tests::generated_crates_target());
    let built = started.elapsed();

    let config = SandboxConfig {
        spec_yaml: Some(text),
        ..SandboxConfig::default()
    };
    let sb = Sandbox::start_with(config)
        .await
        .expect("the sandbox starts on the revision");
    let revision = revised["info"]["version"].as_str().expect("version");
    let stdout = run_driver(&binary, &sb, revision);
    assert_eq!(sb.schema_violations(), Vec::<(String, String)>::new());
    assert_round_trips(&sb);
    print!("{stdout}");
    println!(
        "rehearsal: generated in {:.1?}, driver built in {:.1?}, run in {:.1?}",
        generated,
        built - generated,
        started.elapsed() - built
    );
}

/// Runs the driver `binary` against the sandbox `sb` of the contract `revision`: it succeeds;
/// its output.
fn run_driver(binary: &Path, sb: &Sandbox, revision: &str) -> String {
    let out = Command::new(binary)
        .env("REHEARSAL_BASE_URL", sb.base_url())
        .env("REHEARSAL_BEARER", sb.credentials().bearer.bearer_token())
        .env("REHEARSAL_REVISION", revision)
        .output()
        .expect("the driver runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "the regenerated SDK failed against the sandbox:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Every operation the driver calls had a round trip, the moved path and the renamed path
/// parameter included (served by the template handler, not a 404).
fn assert_round_trips(sb: &Sandbox) {
    let covered = sb.covered_operations();
    for id in [
        "getVersion",
        "getProducts",
        "billingTransactions",
        "getRegions",
        "dnsTemplateCreate",
        "getDnsTemplates",
        "getDnsTemplate",
    ] {
        assert!(covered.iter().any(|c| c == id), "{id} had no round trip");
    }
    assert!(
        sb.requests()
            .iter()
            .any(|r| r.path == "/v1/dns/zone-templates")
    );
    assert!(
        sb.requests()
            .iter()
            .any(|r| r.path == "/v1/dns/templates/moved" && r.status == 200),
        "{:#?}",
        sb.requests()
    );
}
