//! The harness crate of a generated SDK: a binary that decodes each example of the document into
//! its generated type, re-encodes it and compares the result with the example (`compare.rs`,
//! copied into the harness). It prints one line per example, `pass\t<pointer>` or
//! `fail\t<pointer>\t<reason>`, then `total\t<tried>\t<failed>`.

use super::{DocExample, Target};
use crate::emit::{GeneratedFile, format_file};
use crate::error::Result;
use crate::ir::Api;
use crate::lower::Shape;
use crate::surface::rust_type::{self, NamedPaths, Spelling};
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::BTreeMap;
use std::path::Path;

/// The comparison, compiled into the harness as its `compare` module.
const COMPARE: &str = include_str!("compare.rs");

/// The files of the harness crate (`Cargo.toml`, `src/main.rs`, `src/compare.rs`) for the SDK
/// crate `sdk_crate` generated from `api` and found at `sdk_path`; the harness tries the
/// examples that have a [`Target::Type`]. Its package is `<sdk_crate>-examples`, with no
/// `[workspace]` of its own: it builds as a member of the caller's workspace.
pub fn harness(
    api: &Api,
    examples: &[DocExample],
    sdk_crate: &str,
    sdk_path: &Path,
    spec_label: &str,
) -> Result<Vec<GeneratedFile>> {
    let header = crate::write::header("//", spec_label);
    let doc = format!(
        "Decodes every example of {spec_label} into its generated type and compares the \
         re-encoding with it."
    );
    let main = main_rs(entries(api, examples, sdk_crate));
    Ok(vec![
        GeneratedFile {
            path: "Cargo.toml".into(),
            contents: manifest(api, sdk_crate, sdk_path, spec_label),
        },
        GeneratedFile {
            path: "src/main.rs".into(),
            contents: format_file(&header, &doc, main)?,
        },
        GeneratedFile {
            path: "src/compare.rs".into(),
            contents: format!("{header}\n\n{COMPARE}"),
        },
    ])
}

/// One `(pointer, JSON text, round trip)` entry per example with a [`Target::Type`].
fn entries(api: &Api, examples: &[DocExample], sdk_crate: &str) -> Vec<TokenStream> {
    let modules: BTreeMap<&str, &str> = api
        .types
        .iter()
        .map(|d| (d.name.as_str(), d.module.as_str()))
        .collect();
    let krate = sdk_crate.replace('-', "_");
    let entries = examples.iter().filter_map(|e| {
        let Target::Type(shape) = &e.target else {
            return None;
        };
        let ty = shape_tokens(&krate, &modules, shape);
        let pointer = &e.pointer;
        let json = e.value.to_string();
        Some(quote!((#pointer, #json, round_trip::<#ty> as RoundTrip),))
    });
    entries.collect()
}

/// The harness's `main.rs`: the entries, the round trip, and the loop that prints each result.
fn main_rs(entries: Vec<TokenStream>) -> TokenStream {
    quote! {
        // The examples of deprecated schemas decode too.
        #![allow(deprecated)]

        mod compare;

        use serde_json::Value;

        /// Decodes an example into one generated type and encodes it again.
        type RoundTrip = fn(&Value) -> Result<Value, String>;

        /// Each example: its pointer in the document, its JSON text, its round trip.
        static EXAMPLES: &[(&str, &str, RoundTrip)] = &[ #(#entries)* ];

        fn round_trip<T: ::serde::de::DeserializeOwned + ::serde::Serialize>(
            example: &Value,
        ) -> Result<Value, String> {
            let decoded: T = ::serde_json::from_value(example.clone())
                .map_err(|e| format!("does not decode: {e}"))?;
            ::serde_json::to_value(&decoded).map_err(|e| format!("does not encode: {e}"))
        }

        fn main() {
            let mut failed = 0;
            for (pointer, text, round_trip) in EXAMPLES {
                let example: Value = ::serde_json::from_str(text).expect("examples are JSON");
                match round_trip(&example).and_then(|again| compare::same(&example, &again)) {
                    Ok(()) => println!("pass\t{pointer}"),
                    Err(reason) => {
                        failed += 1;
                        println!("fail\t{pointer}\t{}", reason.replace(['\n', '\t'], " "));
                    }
                }
            }
            println!("total\t{}\t{failed}", EXAMPLES.len());
        }
    }
}

/// The harness's `Cargo.toml`: the SDK crate at `sdk_path` with every area enabled.
fn manifest(api: &Api, sdk_crate: &str, sdk_path: &Path, spec_label: &str) -> String {
    let features: Vec<String> = api
        .areas
        .iter()
        .map(|a| format!("\"{}\"", a.module))
        .collect();
    let path = sdk_path.display().to_string().replace('\\', "/");
    format!(
        "{}\n[package]\nname = \"{sdk_crate}-examples\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\n{sdk_crate} = {{ path = \"{path}\", default-features = false, features = [{features}] }}\nserde = \"1\"\nserde_json = \"1\"\nchrono = {{ version = \"0.4\", default-features = false, features = [\"std\"] }}\nrust_decimal = \"1\"\nuuid = \"1\"\n",
        crate::write::header("#", spec_label),
        features = features.join(", ")
    )
}

/// The Rust type a shape decodes into, as a path from outside the SDK crate.
fn shape_tokens(krate: &str, modules: &BTreeMap<&str, &str>, shape: &Shape) -> TokenStream {
    let runtime = format!("::{krate}::");
    let paths = OutsidePaths { krate, modules };
    let spelling = Spelling {
        named: &paths,
        runtime: &runtime,
        qualified: true,
    };
    let ty = rust_type::spell(&shape.ty, &spelling);
    let text = if shape.nullable {
        format!("Option<{ty}>")
    } else {
        ty
    };
    text.parse()
        .unwrap_or_else(|e| panic!("spelled type `{text}` is not Rust tokens: {e}"))
}

/// Named types by their path from outside the SDK crate (`::sdk::dns::Zone`); the crate
/// re-exports the runtime items its types use (`Secret`) at its root. Files have no JSON
/// form, so `list` never targets a type holding one.
struct OutsidePaths<'a> {
    krate: &'a str,
    modules: &'a BTreeMap<&'a str, &'a str>,
}

impl NamedPaths for OutsidePaths<'_> {
    fn path(&self, name: &str) -> String {
        let module = self.modules.get(name).copied().unwrap_or_default();
        format!("::{}::{module}::{name}", self.krate)
    }
}
