//! What `cargo xtask gen` knows of this workspace and the generator does not: the generated
//! crate's name and directory, the document it is generated from, and the manifest lines that
//! are the project's to decide. `main.rs` runs the generator with them; the tests that check
//! `customer-cloud-sdk/` against the spec use the same.

use oncegen::emit::{ManifestExtras, Options};

/// The contract, relative to the workspace root.
pub const SPEC: &str = "spec/openapi.yaml";

/// The generated crate's directory, relative to the workspace root.
pub const CRATE_DIR: &str = "customer-cloud-sdk";

/// The options `cargo xtask gen` generates `customer-cloud-sdk/` with.
pub fn customer_cloud_sdk_options() -> Options {
    let lines = |lines: &[&str]| lines.iter().map(|l| (*l).to_owned()).collect();
    Options::workspace_member(
        "customer-cloud-sdk",
        SPEC,
        ManifestExtras {
            package: lines(&[
                "license.workspace = true",
                "readme = \"README.md\"",
                "documentation = \"https://docs.rs/customer-cloud-sdk\"",
                "keywords = [\"sdk\", \"api\", \"hosting\", \"cloud\", \"dns\"]",
                "categories = [\"api-bindings\", \"web-programming::http-client\"]",
            ]),
            dev_dependencies: lines(&[
                "cloud-sandbox.workspace = true",
                // The examples (crash_safe_writes) use the write journal.
                "customer-cloud-sdk = { path = \".\", features = [\"journal\"] }",
                "tokio = { workspace = true, features = [\"rt-multi-thread\", \"macros\"] }",
            ]),
        },
    )
}

/// The generated command-line tool's directory, relative to the workspace root.
pub const CLI_DIR: &str = "customer-cloud-cli";

/// The names `cargo xtask gen` generates `customer-cloud-cli/` with: the one place they are said.
/// The SDK is named by path and by its version `sdk_version` (the one this generation gave it),
/// so the published tool depends on the published SDK.
pub fn customer_cloud_cli_options(sdk_version: &str) -> oncegen::cli::Options {
    oncegen::cli::Options {
        crate_name: "customer-cloud-cli".to_owned(),
        bin: "customer-cloud".to_owned(),
        sdk_crate: "customer-cloud-sdk".to_owned(),
        spec_label: SPEC.to_owned(),
        dependencies: vec![
            format!(
                "customer-cloud-sdk = {{ path = \"../{CRATE_DIR}\", version = \"{sdk_version}\", features = [\"journal\"] }}"
            ),
            // A `postgres://` journal location selects the SDK's PostgreSQL journal.
            "oncegen-cli = { workspace = true, features = [\"postgres\"] }".to_owned(),
        ],
        package: vec![
            "version.workspace = true".to_owned(),
            "edition.workspace = true".to_owned(),
            "rust-version.workspace = true".to_owned(),
            "license.workspace = true".to_owned(),
            "readme = \"../README.md\"".to_owned(),
            "documentation = \"https://docs.rs/customer-cloud-cli\"".to_owned(),
            "keywords = [\"cli\", \"cloud\", \"hosting\", \"dns\", \"api\"]".to_owned(),
            "categories = [\"command-line-utilities\", \"api-bindings\"]".to_owned(),
        ],
        // `tests/` (hand-written): every operation through the binary against the sandbox,
        // the help texts' snapshots, and the kill-and-re-run test (the binary built for the
        // tests has the journal protocol's kill points).
        dev_dependencies: vec![
            "oncegen-cli = { workspace = true, features = [\"crash-points\"] }".to_owned(),
            "cloud-sandbox.workspace = true".to_owned(),
            // Its throwaway PostgreSQL cluster, for the journal on PostgreSQL.
            "sdk-tests.workspace = true".to_owned(),
            // A secret looked for in the journal's files, as the journal would encode it.
            "base64.workspace = true".to_owned(),
            "tokio = { workspace = true, features = [\"rt-multi-thread\", \"macros\"] }".to_owned(),
            "serde_json.workspace = true".to_owned(),
            "yaml_serde.workspace = true".to_owned(),
            "rust_decimal.workspace = true".to_owned(),
            "snapbox = { version = \"0.6\", features = [\"cmd\"] }".to_owned(),
            // The interactive tests run the binary in a pseudo-terminal.
            "rexpect = \"0.7\"".to_owned(),
            // Whether the binary turned the terminal's echo off (rexpect's dependency).
            "nix = { version = \"0.31\", features = [\"term\"] }".to_owned(),
        ],
    }
}

/// The generated MCP server's directory, relative to the workspace root.
pub const MCP_DIR: &str = "customer-cloud-mcp";

/// The names `cargo xtask gen` generates `customer-cloud-mcp/` with: the one place they are said.
pub fn customer_cloud_mcp_options(sdk_version: &str) -> oncegen::mcp::Options {
    let lines = |lines: &[&str]| lines.iter().map(|l| (*l).to_owned()).collect();
    oncegen::mcp::Options {
        crate_name: "customer-cloud-mcp".to_owned(),
        bin: "customer-cloud-mcp".to_owned(),
        // One configuration file for both: the CLI's (`customer-cloud configure`).
        profiles: customer_cloud_cli_options(sdk_version).bin,
        sdk_crate: "customer-cloud-sdk".to_owned(),
        spec_label: SPEC.to_owned(),
        // Published: the SDK by path and by the version its last generation gave it.
        dependencies: vec![
            format!(
                "customer-cloud-sdk = {{ path = \"../{CRATE_DIR}\", version = \"{sdk_version}\", features = [\"journal\"] }}"
            ),
            "oncegen-mcp.workspace = true".to_owned(),
        ],
        package: lines(&[
            "version.workspace = true",
            "edition.workspace = true",
            "rust-version.workspace = true",
            "license.workspace = true",
            "readme = \"../README.md\"",
            "documentation = \"https://docs.rs/customer-cloud-mcp\"",
            "keywords = [\"mcp\", \"agent\", \"cloud\", \"hosting\", \"api\"]",
            "categories = [\"command-line-utilities\", \"api-bindings\"]",
        ]),
        // `--journal postgres://…`: the write journal shared by many processes.
        features: lines(&[
            "postgres = [\"oncegen-mcp/postgres\", \"customer-cloud-sdk/postgres\"]",
        ]),
        // `tests/` (hand-written): every operation as a tool against the sandbox, through
        // rmcp's client and the official Python SDK's.
        dev_dependencies: lines(&[
            "cloud-sandbox.workspace = true",
            // The tests' server has the PostgreSQL journal, and a throwaway cluster to use it on.
            "oncegen-mcp = { workspace = true, features = [\"postgres\"] }",
            "sdk-tests.workspace = true",
            // The `tools/list` size `bench-report mcp` computes in-process, checked against
            // the built server's answer.
            "sdk-benches = { path = \"../sdk-benches\" }",
            // The CLI's configuration file, written the way `customer-cloud configure` does.
            "oncegen-cli.workspace = true",
            "rmcp = { version = \"3.11\", default-features = false, features = [\"client\", \"transport-child-process\"] }",
            "tokio = { workspace = true, features = [\"rt-multi-thread\", \"macros\"] }",
            "serde_json.workspace = true",
            "yaml_serde.workspace = true",
            "rust_decimal.workspace = true",
        ]),
    }
}
