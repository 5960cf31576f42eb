//! What `cargo xtask gen` knows of this workspace and the generator does not: the generated
//! crate's name and directory, the document it is generated from, and the manifest lines that
//! are the project's to decide. `main.rs` runs the generator with them; the tests that check
//! `cloud-sdk/` against the spec use the same.

use sdk_generator::emit::{ManifestExtras, Options};

/// The contract, relative to the workspace root.
pub const SPEC: &str = "spec/openapi.yaml";

/// The generated crate's directory, relative to the workspace root.
pub const CRATE_DIR: &str = "cloud-sdk";

/// The options `cargo xtask gen` generates `cloud-sdk/` with.
pub fn cloud_sdk_options() -> Options {
    let lines = |lines: &[&str]| lines.iter().map(|l| (*l).to_owned()).collect();
    Options::workspace_member(
        "cloud-sdk",
        SPEC,
        ManifestExtras {
            package: lines(&[
                "license.workspace = true",
                "readme = \"README.md\"",
                "documentation = \"https://docs.rs/cloud-sdk\"",
                "keywords = [\"sdk\", \"api\", \"hosting\", \"cloud\", \"dns\"]",
                "categories = [\"api-bindings\", \"web-programming::http-client\"]",
            ]),
            dev_dependencies: lines(&[
                "cloud-sandbox.workspace = true",
                // The examples (crash_safe_writes) use the write journal.
                "cloud-sdk = { path = \".\", features = [\"journal\"] }",
                "tokio = { workspace = true, features = [\"rt-multi-thread\", \"macros\"] }",
            ]),
        },
    )
}
