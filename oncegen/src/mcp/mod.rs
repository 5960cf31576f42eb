//! The Model Context Protocol server of a generated SDK, read from the [`Surface`] alone,
//! never from the IR: per area a table of tools (`oncegen_mcp::Tool`: name, texts, JSON
//! Schemas, effects, scopes, paging) and per operation one function calling the SDK's client
//! method with the arguments in the surface's call order and its builder's setters.
//!
//! Tool names are the operations' client method names (`get_dns_zone`): unique, stable and the
//! name a Rust caller knows. Every mechanism (the rmcp handler, selection, gates, the journal,
//! transports) is the hand-written `oncegen-mcp` crate's.

mod arguments;
mod description;
mod operation;
mod repeats;
mod schema;
mod schema_text;

use crate::Result;
use crate::emit::{GeneratedFile, format_file};
use crate::surface::{AreaSurface, OperationSurface, Surface};
use quote::{format_ident, quote};
use serde_json::Value;

/// The names a generated MCP server crate is written with.
#[derive(Debug, Clone)]
pub struct Options {
    /// Cargo package name of the server crate.
    pub crate_name: String,
    /// Name of its binary.
    pub bin: String,
    /// The program whose configuration file holds the profiles the server reads credentials
    /// from: the generated CLI's binary, so both share one file (or `bin` without a CLI).
    pub profiles: String,
    /// Cargo package name of the SDK it calls (its library is named the same in snake case).
    pub sdk_crate: String,
    /// What the `@generated` header names as the source (`spec/openapi.yaml`).
    pub spec_label: String,
    /// Lines of `[dependencies]` (the SDK, `oncegen-mcp`), as they are.
    pub dependencies: Vec<String>,
    /// Lines appended to `[package]`, as they are.
    pub package: Vec<String>,
    /// Lines of `[features]`, as they are.
    pub features: Vec<String>,
    /// Lines of `[dev-dependencies]` (for hand-written tests in `tests/`), as they are.
    pub dev_dependencies: Vec<String>,
}

/// What `tools/list` says of one operation's tool: the fields its entry in the generated table
/// holds (`oncegen_mcp::Tool`), the schemas as values (the table holds their JSON text).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDefinition {
    /// Tool name: the operation's client method name.
    pub name: String,
    /// The contract's `operationId`.
    pub operation_id: String,
    /// The summary (the `operationId` without one).
    pub title: String,
    /// What the agent reads: summary, description and what calling it does.
    pub description: String,
    /// JSON Schema of the arguments.
    pub input_schema: Value,
    /// JSON Schema of the structured result, when the success body is an object.
    pub output_schema: Option<Value>,
    /// Changes state.
    pub writes: bool,
    /// Deletes or undoes.
    pub destructive: bool,
    /// Charges the account.
    pub purchase: bool,
    /// The same request again has no further effect (a new write's key aside).
    pub idempotent: bool,
}

/// Every operation's tool, in the generated server's table order: what its `tools/list`
/// answers with every tool offered, computed without building the server.
pub fn tools(surface: &Surface) -> Result<Vec<ToolDefinition>> {
    let mut tools = Vec::new();
    for (_, _, ops) in areas(surface) {
        for (id, op) in ops {
            tools.push(operation::definition(surface, id, op)?);
        }
    }
    Ok(tools)
}

/// An area's module name, the area and its operations (by `operationId`).
type Area<'s> = (
    &'s String,
    &'s AreaSurface,
    Vec<(&'s String, &'s OperationSurface)>,
);

/// The areas that have operations, in table order.
fn areas(surface: &Surface) -> Vec<Area<'_>> {
    surface
        .areas
        .iter()
        .map(|(module, area)| {
            let ops = surface
                .operations
                .iter()
                .filter(|(_, op)| &op.area == module)
                .collect();
            (module, area, ops)
        })
        .filter(|(_, _, ops): &Area| !ops.is_empty())
        .collect()
}

/// Every file of the MCP server crate for `surface`.
pub fn emit(surface: &Surface, options: &Options) -> Result<Vec<GeneratedFile>> {
    let header = crate::write::header("//", &options.spec_label);
    let sdk = format_ident!("{}", options.sdk_crate.replace('-', "_"));
    let mut files = vec![GeneratedFile {
        path: "Cargo.toml".into(),
        contents: manifest(options, &header),
    }];
    let mut modules = Vec::new();
    for (module, area, ops) in areas(surface) {
        let mut entries = Vec::new();
        let mut functions = Vec::new();
        for (id, op) in ops {
            let (entry, function) = operation::render(surface, id, op, module, &sdk)?;
            entries.push(entry);
            functions.push(function);
        }
        let tokens = quote! {
            use #sdk::Client;
            use oncegen_mcp::{Args, Effects, Run, Tool, respond};

            /// The area's tools.
            pub(crate) const TOOLS: &[Tool<Client>] = &[#(#entries),*];

            #(#functions)*
        };
        let doc = format!("The `{}` operations as tools.", area.tag);
        files.push(GeneratedFile {
            path: format!("src/{module}.rs").into(),
            contents: format_file(&header, &doc, tokens)?,
        });
        modules.push(format_ident!("{module}"));
    }
    files.push(main_file(surface, options, &modules, &header)?);
    Ok(files)
}

/// `src/main.rs`: the server's table naming the area modules `modules`.
fn main_file(
    surface: &Surface,
    options: &Options,
    modules: &[proc_macro2::Ident],
    header: &str,
) -> Result<GeneratedFile> {
    let sdk = format_ident!("{}", options.sdk_crate.replace('-', "_"));
    let (bin, profiles) = (&options.bin, &options.profiles);
    let about = format!(
        "MCP server of {} (contract {})",
        options.sdk_crate, surface.contract_revision
    );
    let version = &surface.crate_version;
    let credentials = crate::cli::credentials::app_fields(surface, &sdk, "oncegen_mcp");
    let main = quote! {
        #(#[rustfmt::skip] mod #modules;)*

        use #sdk::Client;

        /// The server: its names and every area's tools.
        #[rustfmt::skip]
        static APP: oncegen_mcp::App<Client> = oncegen_mcp::App {
            bin: #bin,
            about: #about,
            version: #version,
            env_prefix: #sdk::ENV_PREFIX,
            areas: &[#(#modules::TOOLS),*],
            #credentials
            profiles: #profiles,
            connect: Client::new,
            runtime: Client::runtime,
        };

        fn main() -> std::process::ExitCode {
            oncegen_mcp::main(&APP)
        }
    };
    let doc = format!(
        "`{bin}`: every operation of {} as a Model Context Protocol tool.",
        options.sdk_crate
    );
    Ok(GeneratedFile {
        path: "src/main.rs".into(),
        contents: format_file(header, &doc, main)?,
    })
}

fn manifest(options: &Options, header: &str) -> String {
    let mut out = format!(
        "{}\n[package]\nname = \"{}\"\ndescription = \"MCP server of {}, generated from {} by `oncegen`.\"\n",
        header.replacen("//", "#", 1),
        options.crate_name,
        options.sdk_crate,
        options.spec_label
    );
    let section = |out: &mut String, title: &str, lines: &[String]| {
        if !lines.is_empty() {
            out.push_str(&format!("\n[{title}]\n"));
            for line in lines {
                out.push_str(line);
                out.push('\n');
            }
        }
    };
    for line in &options.package {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(&format!(
        "\n[[bin]]\nname = \"{}\"\npath = \"src/main.rs\"\n",
        options.bin
    ));
    section(&mut out, "features", &options.features);
    section(&mut out, "dependencies", &options.dependencies);
    section(&mut out, "dev-dependencies", &options.dev_dependencies);
    out
}
