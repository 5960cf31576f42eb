//! `progenitor-compare SPEC OUT_DIR CRATE_NAME`: generates a client for the OpenAPI document at
//! `SPEC` with progenitor 0.15.1 in builder style and writes it as a standalone crate to
//! `OUT_DIR` (`Cargo.toml` with its own `[workspace]`, `src/lib.rs`).
//!
//! The code is formatted with prettyplease, as in progenitor's README (`build.rs` usage) and as
//! our generator formats its own output, so that line counts compare like with like. The
//! manifest names the crates progenitor's generated code uses, following progenitor's README.
//!
//! Used by `bench-report compare` (issue #13); not a workspace member.

use std::error::Error;
use std::path::Path;

use progenitor::{GenerationSettings, Generator, InterfaceStyle};

type Result<T> = std::result::Result<T, Box<dyn Error>>;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [spec, out, name] = args.as_slice() else {
        return Err("usage: progenitor-compare SPEC OUT_DIR CRATE_NAME".into());
    };
    let api: openapiv3::OpenAPI = serde_json::from_slice(&std::fs::read(spec)?)?;
    let mut generator =
        Generator::new(GenerationSettings::default().with_interface(InterfaceStyle::Builder));
    let tokens = generator
        .generate_tokens(&api)
        .map_err(|e| format!("progenitor: {e}"))?;
    let code = prettyplease::unparse(&syn::parse2(tokens)?);
    let out = Path::new(out);
    std::fs::create_dir_all(out.join("src"))?;
    std::fs::write(out.join("Cargo.toml"), manifest(name, &generator))?;
    std::fs::write(out.join("src/lib.rs"), code)?;
    Ok(())
}

/// The generated crate's manifest: the dependencies its code needs, by what the generator used.
fn manifest(name: &str, generator: &Generator) -> String {
    let types = generator.get_type_space();
    let mut deps = vec![
        "bytes = \"1\"",
        "futures-core = \"0.3\"",
        "progenitor-client = \"=0.15.1\"",
        "reqwest = { version = \"0.13\", default-features = false, features = [\"json\", \"query\", \"stream\"] }",
        "serde = { version = \"1\", features = [\"derive\"] }",
        "serde_json = \"1\"",
        "serde_urlencoded = \"0.7\"",
    ];
    let optional = [
        (
            types.uses_chrono(),
            "chrono = { version = \"0.4\", default-features = false, features = [\"serde\"] }",
        ),
        (
            types.uses_uuid(),
            "uuid = { version = \"1\", features = [\"serde\", \"v4\"] }",
        ),
        (types.uses_regress(), "regress = \"0.10\""),
        (generator.uses_futures(), "futures = \"0.3\""),
        (generator.uses_websockets(), "base64 = \"0.22\""),
        (generator.uses_websockets(), "rand = \"0.8\""),
    ];
    deps.extend(
        optional
            .iter()
            .filter(|(used, _)| *used)
            .map(|(_, dep)| *dep),
    );
    format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n[workspace]\n\n[dependencies]\n{}\n",
        deps.join("\n")
    )
}
