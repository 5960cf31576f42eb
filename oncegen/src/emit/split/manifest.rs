//! The Cargo.toml of each crate of a split SDK. The facade is the workspace root; the core and
//! the area crates are its path dependencies below it, hence members of that workspace (one
//! `Cargo.lock`, one `target/`).

use super::{AreaCrate, SplitNames, nested_options};
use crate::emit::Options;
use crate::emit::manifest::dependencies;
use crate::ir::Api;

/// The runtime features a crate of the SDK forwards: TLS stack and write journal.
const RUNTIME_FEATURES: [&str; 4] = ["rustls", "native-tls", "reqwest", "journal"];

/// The facade: one optional dependency and feature per area (all on by default).
pub(super) fn facade_toml(api: &Api, options: &Options, names: &SplitNames) -> String {
    let version = version(options);
    let mut out = package(
        options,
        &names.facade,
        &format!(
            "Typed Rust SDK for {}, generated from {} by `oncegen` (one crate per area).",
            title(api),
            options.spec_label
        ),
    );
    out.push_str(&options.manifest.package.join("\n"));
    if !options.manifest.package.is_empty() {
        out.push('\n');
    }
    out.push_str("\n[workspace]\n\n[features]\n");
    let defaults: Vec<String> = names
        .areas
        .iter()
        .map(|a| format!("\"{}\"", a.module))
        .chain(["\"rustls\"".to_owned()])
        .collect();
    out.push_str(&format!("default = [{}]\n", defaults.join(", ")));
    for a in &names.areas {
        out.push_str(&format!("{} = [\"dep:{}\"]\n", a.module, a.package));
    }
    for f in RUNTIME_FEATURES {
        out.push_str(&format!("{f} = [\"{}/{f}\"]\n", names.core));
    }
    let test_util: Vec<String> = std::iter::once(format!("\"{}/test-util\"", names.core))
        .chain(
            names
                .areas
                .iter()
                .map(|a| format!("\"{}?/test-util\"", a.package)),
        )
        .collect();
    out.push_str(&format!("test-util = [{}]\n", test_util.join(", ")));
    out.push_str("\n[dependencies]\n");
    out.push_str(&format!(
        "{} = {{ path = \"core\", version = \"{version}\" }}\n",
        names.core
    ));
    for a in &names.areas {
        out.push_str(&format!(
            "{} = {{ path = \"areas/{}\", version = \"{version}\", optional = true }}\n",
            a.package, a.module
        ));
    }
    out.push_str(&dependencies(api, options));
    out.push_str(&metadata());
    dev_dependencies(&mut out, &options.manifest.dev_dependencies);
    out
}

/// The core: the runtime's features, forwarded; no area.
pub(super) fn core_toml(api: &Api, options: &Options, names: &SplitNames) -> String {
    let mut out = package(
        options,
        &names.core,
        &format!(
            "The core of {} (client, conventions, shared types), generated from {} by `oncegen`.",
            names.facade, options.spec_label
        ),
    );
    out.push_str("\n[features]\n");
    for f in RUNTIME_FEATURES {
        out.push_str(&format!("{f} = [\"oncegen-runtime/{f}\"]\n"));
    }
    out.push_str("test-util = []\n\n[dependencies]\n");
    out.push_str(&dependencies(api, &nested_options(options, 1)));
    out.push_str(&metadata());
    out
}

/// An area crate: the core and the crates generated code names; the facade as a
/// dev-dependency, for its doc examples.
pub(super) fn area_toml(
    api: &Api,
    options: &Options,
    names: &SplitNames,
    area: &AreaCrate,
) -> String {
    let version = version(options);
    let mut out = package(
        options,
        &area.package,
        &format!(
            "Area `{}` of {}, generated from {} by `oncegen`.",
            area.module, names.facade, options.spec_label
        ),
    );
    out.push_str(&format!(
        "\n[features]\ntest-util = [\"{}/test-util\"]\n\n[dependencies]\n",
        names.core
    ));
    out.push_str(&format!(
        "{} = {{ path = \"../../core\", version = \"{version}\" }}\n",
        names.core
    ));
    out.push_str(&dependencies(api, &nested_options(options, 2)));
    out.push_str(&metadata());
    dev_dependencies(
        &mut out,
        &[format!(
            "{} = {{ path = \"../..\", default-features = false, features = [\"{}\"] }}",
            names.facade, area.module
        )],
    );
    out
}

fn version(options: &Options) -> String {
    options
        .crate_version
        .clone()
        .unwrap_or_else(|| "0.1.0".to_owned())
}

fn title(api: &Api) -> String {
    api.title.replace(['"', '\\', '\n'], " ")
}

/// The header and `[package]` table (without the caller's extra lines).
fn package(options: &Options, name: &str, description: &str) -> String {
    let mut out = options.header("#");
    out.push_str(&format!(
        "\n[package]\nname = \"{name}\"\ndescription = \"{}\"\nversion = \"{}\"\nedition = \"2024\"\npublish = false\n",
        description.replace(['"', '\\', '\n'], " "),
        version(options)
    ));
    out
}

/// docs.rs builds every feature and shows each one's `doc(cfg)`.
fn metadata() -> String {
    "\n[package.metadata.docs.rs]\nall-features = true\nrustdoc-args = [\"--cfg\", \"docsrs\"]\n\n[lints.rust]\nunexpected_cfgs = { level = \"warn\", check-cfg = [\"cfg(docsrs)\"] }\n".to_owned()
}

fn dev_dependencies(out: &mut String, lines: &[String]) {
    if lines.is_empty() {
        return;
    }
    out.push_str("\n[dev-dependencies]\n");
    for line in lines {
        out.push_str(line);
        out.push('\n');
    }
}
