//! The generated crate's Cargo.toml: package, one feature per area, dependencies.

use super::options::{Layout, Options, RUNTIME_VERSION};
use crate::ir::{Api, BodyEncoding};

/// Dependencies generated code names, besides the runtime (workspace names).
const DEPENDENCIES: &[&str] = &[
    "serde",
    "serde_json",
    "uuid",
    "chrono",
    "rust_decimal",
    "futures",
];

/// The manifest of the crate for `api`.
pub(super) fn cargo_toml(api: &Api, options: &Options) -> String {
    let mut out = options.header("#");
    out.push('\n');
    out.push_str(&package(api, options));
    out.push_str(&features(api));
    out.push_str("\n[dependencies]\n");
    out.push_str(&dependencies(api, options));
    // docs.rs builds every area and shows each module's feature (`doc(cfg)`).
    out.push_str(
        "\n[package.metadata.docs.rs]\nall-features = true\nrustdoc-args = [\"--cfg\", \"docsrs\"]\n\n[lints.rust]\nunexpected_cfgs = { level = \"warn\", check-cfg = [\"cfg(docsrs)\"] }\n",
    );
    let dev = &options.manifest.dev_dependencies;
    if !dev.is_empty() {
        out.push_str("\n[dev-dependencies]\n");
        for line in dev {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

fn package(api: &Api, options: &Options) -> String {
    let description = format!(
        "Typed Rust SDK for {}, generated from {} by `oncegen`.",
        api.title.replace(['"', '\\', '\n'], " "),
        options.spec_label
    );
    let version = match (&options.crate_version, &options.layout) {
        (Some(v), _) => format!("version = \"{v}\""),
        (None, Layout::Workspace) => "version.workspace = true".to_owned(),
        (None, Layout::Standalone { .. } | Layout::Published) => "version = \"0.1.0\"".to_owned(),
    };
    let mut lines = vec![
        "[package]".to_owned(),
        format!("name = \"{}\"", options.crate_name),
        format!("description = \"{description}\""),
        version,
    ];
    match &options.layout {
        Layout::Workspace => {
            lines.push("edition.workspace = true".to_owned());
            lines.push("rust-version.workspace = true".to_owned());
        }
        Layout::Standalone { .. } | Layout::Published => {
            lines.push("edition = \"2024\"".to_owned());
            lines.push("publish = false".to_owned());
        }
    }
    lines.extend(options.manifest.package.iter().cloned());
    let mut out = lines.join("\n");
    out.push_str("\n\n");
    if options.layout.is_standalone() {
        out.push_str("[workspace]\n\n");
    }
    out
}

/// One feature per area (all on by default); the TLS stack (`rustls` by default, or
/// `native-tls`), the `reqwest` transport (calls through a proxy the environment names), the
/// write `journal` of the runtime and its PostgreSQL store (`postgres`); `test-util`: response
/// types open to struct literals.
fn features(api: &Api) -> String {
    let areas: Vec<String> = api
        .areas
        .iter()
        .map(|a| format!("\"{}\"", a.module))
        .chain(["\"rustls\"".to_owned()])
        .collect();
    let mut out = format!("[features]\ndefault = [{}]\n", areas.join(", "));
    for a in &api.areas {
        out.push_str(&format!("{} = []\n", a.module));
    }
    out.push_str(
        "rustls = [\"oncegen-runtime/rustls\"]\nnative-tls = [\"oncegen-runtime/native-tls\"]\nreqwest = [\"oncegen-runtime/reqwest\"]\njournal = [\"oncegen-runtime/journal\"]\npostgres = [\"oncegen-runtime/postgres\"]\ntest-util = []\n",
    );
    out
}

pub(super) fn dependencies(api: &Api, options: &Options) -> String {
    // `bytes` only when a binary request body names `bytes::Bytes`.
    let bytes = api.operations.iter().any(|o| {
        o.body
            .as_ref()
            .is_some_and(|b| b.encoding == BodyEncoding::Binary)
    });
    let mut out = String::new();
    match &options.layout {
        Layout::Workspace => {
            out.push_str("oncegen-runtime.workspace = true\n");
            for dep in DEPENDENCIES {
                out.push_str(&format!("{dep}.workspace = true\n"));
            }
            if bytes {
                out.push_str("bytes.workspace = true\n");
            }
        }
        Layout::Standalone { .. } | Layout::Published => {
            let runtime = match &options.layout {
                Layout::Standalone { runtime_path } => {
                    let path = runtime_path.display().to_string().replace('\\', "/");
                    format!("path = \"{path}\", version = \"{RUNTIME_VERSION}\"")
                }
                _ => format!("version = \"{RUNTIME_VERSION}\""),
            };
            out.push_str(&format!(
                "oncegen-runtime = {{ {runtime}, default-features = false }}\nserde = {{ version = \"1\", features = [\"derive\"] }}\nserde_json = \"1\"\nuuid = {{ version = \"1\", features = [\"serde\"] }}\nchrono = {{ version = \"0.4\", default-features = false, features = [\"std\", \"serde\"] }}\nrust_decimal = {{ version = \"1\", features = [\"serde-str\"] }}\nfutures = \"0.3\"\n"
            ));
            if bytes {
                out.push_str("bytes = \"1\"\n");
            }
        }
    }
    out
}
