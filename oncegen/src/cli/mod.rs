//! The command-line tool of a generated SDK: `<bin> <area> <operation>`, read from the
//! [`Surface`] alone, never from the IR, so it decides nothing the surface has not decided
//! (command and flag names come from `command_line`, call order from each operation's
//! `arguments`, effects from its `effects`).
//!
//! What it writes is a table per area and one function per operation that calls the SDK's
//! client method; every mechanism (the command tree, decoding, output, exit codes,
//! credentials, the journal) is the hand-written `oncegen-cli` crate's.

mod body_help;
pub(crate) mod credentials;
mod operation;

use crate::Result;
use crate::emit::{GeneratedFile, format_file};
use crate::surface::{OperationSurface, Surface, command_line};
use quote::{format_ident, quote};

/// The names a generated CLI crate is written with.
#[derive(Debug, Clone)]
pub struct Options {
    /// Cargo package name of the CLI crate.
    pub crate_name: String,
    /// Name of its binary.
    pub bin: String,
    /// Cargo package name of the SDK it calls (its library is named the same in snake case).
    pub sdk_crate: String,
    /// What the `@generated` header names as the source (`spec/openapi.yaml`).
    pub spec_label: String,
    /// Lines of `[dependencies]` (the SDK, `oncegen-cli`), as they are.
    pub dependencies: Vec<String>,
    /// Lines appended to `[package]`, as they are.
    pub package: Vec<String>,
    /// Lines of `[dev-dependencies]` (for hand-written tests in `tests/`), as they are.
    pub dev_dependencies: Vec<String>,
}

/// Every file of the CLI crate for `surface`.
pub fn emit(surface: &Surface, options: &Options) -> Result<Vec<GeneratedFile>> {
    let header = crate::write::header("//", &options.spec_label);
    let sdk = format_ident!("{}", options.sdk_crate.replace('-', "_"));
    let mut files = vec![GeneratedFile {
        path: "Cargo.toml".into(),
        contents: manifest(options, &header),
    }];
    let mut modules = Vec::new();
    for (module, area) in &surface.areas {
        let ops: Vec<_> = surface
            .operations
            .iter()
            .filter(|(_, op)| &op.area == module)
            .collect();
        if ops.is_empty() {
            continue;
        }
        let name = command_line::area_command(surface, module);
        let about = area_about(&ops);
        let (entries, functions) =
            commands(surface, &ops, &format!("{} {name}", options.bin), &sdk);
        let tokens = quote! {
            use #sdk::Client;
            use oncegen_cli::{Area, Command, Input, Run, respond};

            /// The area's commands.
            pub(crate) const AREA: Area<Client> = Area {
                name: #name,
                about: #about,
                commands: &[#(#entries),*],
            };

            #(#functions)*
        };
        let doc = format!("`{} {name}`: the `{}` operations.", options.bin, area.tag);
        files.push(GeneratedFile {
            path: format!("src/{module}.rs").into(),
            contents: format_file(&header, &doc, tokens)?,
        });
        modules.push(format_ident!("{module}"));
    }
    files.push(main_file(surface, options, &modules, &header)?);
    Ok(files)
}

/// `src/main.rs`: the tool's table naming the area modules `modules`.
fn main_file(
    surface: &Surface,
    options: &Options,
    modules: &[proc_macro2::Ident],
    header: &str,
) -> Result<GeneratedFile> {
    let sdk = format_ident!("{}", options.sdk_crate.replace('-', "_"));
    let bin = &options.bin;
    let about = format!(
        "Command-line tool of {} (contract {})",
        options.sdk_crate, surface.contract_revision
    );
    let version = &surface.crate_version;
    let credentials = credentials::app_fields(surface, &sdk, "oncegen_cli");
    let check_contract = if surface.checks_contract {
        quote!(Some(|client| Box::pin(client.check_contract())))
    } else {
        quote!(None)
    };
    // The tables are laid out by prettyplease, which rustfmt would lay out otherwise.
    let main = quote! {
        #(#[rustfmt::skip] mod #modules;)*

        use #sdk::Client;

        /// The tool: its names and every area.
        #[rustfmt::skip]
        static APP: oncegen_cli::App<Client> = oncegen_cli::App {
            bin: #bin,
            about: #about,
            version: #version,
            env_prefix: #sdk::ENV_PREFIX,
            areas: &[#(#modules::AREA),*],
            #credentials
            connect: Client::new,
            runtime: Client::runtime,
            check_contract: #check_contract,
        };

        fn main() -> std::process::ExitCode {
            oncegen_cli::main(&APP)
        }
    };
    let doc = format!(
        "`{bin}`: every operation of {} from a shell.",
        options.sdk_crate
    );
    Ok(GeneratedFile {
        path: "src/main.rs".into(),
        contents: format_file(header, &doc, main)?,
    })
}

/// The table entries and functions of `ops`, the operations of the area called as `area_line`
/// (`<bin> <area>`).
fn commands(
    surface: &Surface,
    ops: &[(&String, &OperationSurface)],
    area_line: &str,
    sdk: &proc_macro2::Ident,
) -> (Vec<proc_macro2::TokenStream>, Vec<proc_macro2::TokenStream>) {
    let commands = command_line::operation_commands(surface);
    let former = command_line::former_commands(surface);
    ops.iter()
        .map(|(id, op)| {
            let names = operation::Names {
                name: &commands[*id],
                former: former.get(*id).map(String::as_str),
                line: format!("{area_line} {}", commands[*id]),
            };
            operation::render(surface, id, op, &names, sdk)
        })
        .unzip()
}

/// An area command's help line: what its first commands do, from their summaries (the
/// operationId where there is none), and how many more there are. Not the tag's description:
/// that describes the whole area of the API, operations the document does not have included.
fn area_about(ops: &[(&String, &OperationSurface)]) -> String {
    const SHOWN: usize = 3;
    let mut parts: Vec<String> = ops
        .iter()
        .take(SHOWN)
        .enumerate()
        .map(|(i, (id, op))| {
            let what = op.summary.as_deref().unwrap_or(id).trim_end_matches('.');
            if i == 0 {
                what.to_owned()
            } else {
                lowered(what)
            }
        })
        .collect();
    if ops.len() > SHOWN {
        parts.push(format!("and {} more", ops.len() - SHOWN));
    }
    parts.join("; ")
}

/// `text` with its first letter in lower case, unless its first word is an acronym (`DNS`).
fn lowered(text: &str) -> String {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if !second.is_uppercase() => first
            .to_lowercase()
            .chain(text[first.len_utf8()..].chars())
            .collect(),
        _ => text.to_owned(),
    }
}

fn manifest(options: &Options, header: &str) -> String {
    let mut out = format!(
        "{}\n[package]\nname = \"{}\"\ndescription = \"Command-line tool of {}, generated from {} by `oncegen`.\"\n",
        header.replacen("//", "#", 1),
        options.crate_name,
        options.sdk_crate,
        options.spec_label
    );
    for line in &options.package {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(&format!(
        "\n[[bin]]\nname = \"{}\"\npath = \"src/main.rs\"\n\n[dependencies]\n",
        options.bin
    ));
    for line in &options.dependencies {
        out.push_str(line);
        out.push('\n');
    }
    if !options.dev_dependencies.is_empty() {
        out.push_str("\n[dev-dependencies]\n");
        for line in &options.dev_dependencies {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}
