//! The server's command line and start-up: credentials, the journal, the selection, the gates,
//! the mode and the transport.
//!
//! Credentials and the base URL come from the environment, else from a profile of the
//! configuration file the generated CLI writes (`<profiles> configure`), read by the CLI's own
//! code (`oncegen_cli::profile::load`, `oncegen_cli::setup::config`): one file, one format, the
//! same precedence. The profile is `--profile`, else `<PREFIX>_PROFILE`, else `default`; a
//! credential variable set in the environment replaces the profile's credential as a whole.
//! The profile's `journal` is not used: the server keeps its own (a file journal is locked by
//! one process for its lifetime).

use crate::gate::Gates;
use crate::select::Selection;
use crate::transport::{self, Http};
use crate::{App, Mode, Server, setup};
use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgAction, ArgMatches};
use oncegen_cli::setup::Sources;
use std::io::Write as _;
use std::net::SocketAddr;
use std::process::ExitCode;

/// Everything the command line decides.
#[derive(Debug, Clone)]
pub struct Options {
    /// Which tools are offered.
    pub selection: Selection,
    /// What is enabled.
    pub gates: Gates,
    /// Per-operation tools or the dynamic three.
    pub mode: Mode,
    /// Where writes are journaled (path or PostgreSQL URL), when writes are enabled.
    pub journal: Option<String>,
    /// Serve streamable HTTP on this address instead of stdio.
    pub http: Option<SocketAddr>,
    /// Accept an HTTP address that is not loopback.
    pub allow_remote: bool,
    /// Print the `tools/list` answer as JSON and exit.
    pub list_tools: bool,
    /// The profile named on the command line or in `<PREFIX>_PROFILE`.
    pub profile: Option<String>,
    /// The base URL, replacing the environment's and the profile's.
    pub base_url: Option<String>,
}

/// Runs the server of `app` with the process's arguments; the exit code says how it ended.
pub fn main<C: Send + Sync + 'static>(app: &'static App<C>) -> ExitCode {
    let matches = match command(app).try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    // Over stdio the server has one client: one thread reads its requests, runs the tools and
    // the SDK's requests and writes the answers, with no hand-off between threads (measured in
    // BENCHMARKS.md, MCP section). Over HTTP it may have many: a worker per core.
    let runtime = if matches.contains_id("http") {
        tokio::runtime::Builder::new_multi_thread()
    } else {
        tokio::runtime::Builder::new_current_thread()
    }
    .enable_all()
    .build();
    let runtime = match runtime {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: starting the async runtime: {e}");
            return ExitCode::from(1);
        }
    };
    let ended = runtime.block_on(run(app, &matches));
    // Standard input from a terminal is read on a blocking thread that cannot be interrupted:
    // the process ends without waiting for it.
    runtime.shutdown_background();
    match ended {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(1)
        }
    }
}

async fn run<C: Send + Sync + 'static>(
    app: &'static App<C>,
    matches: &ArgMatches,
) -> Result<(), String> {
    let options = options(app, matches)?;
    let env = |name: &str| std::env::var(name).ok();
    let profile = oncegen_cli::profile::load(app.profiles, options.profile.as_deref(), env)
        .map_err(|f| f.message)?;
    let sources = Sources::new(app.env_prefix, &profile, (app.credentials, app.signs));
    let mut config = sources
        .config(options.base_url.as_deref())
        .map_err(|f| f.message)?;
    if options.gates.writes {
        let location = options.journal.clone().map_or_else(
            || setup::journal_location(app.bin, app.env_prefix, None),
            Ok,
        )?;
        config = config.journal(setup::open_journal(&location).await?);
    }
    let client = (app.connect)(config).map_err(|e| format!("{e}"))?;
    let server = Server::new(app, client, options.selection, options.gates, options.mode)?;
    if options.list_tools {
        let listed = serde_json::json!({ "tools": server.listed() });
        // A reader that stops early (`| head`) ends the listing, not the program with a panic.
        return match writeln!(std::io::stdout().lock(), "{listed}") {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                Err(format!("writing the tool list: {e}"))
            }
            _ => Ok(()),
        };
    }
    match options.http {
        None => transport::stdio(server).await,
        Some(addr) => {
            let token = std::env::var(format!("{}_MCP_TOKEN", app.env_prefix)).ok();
            let http = Http::new(addr, token, options.allow_remote, app.env_prefix)?
                .with_origins(transport::Origins::from_matches(matches)?);
            transport::http(server, http).await
        }
    }
}

const LIST: [&str; 7] = [
    "area",
    "method",
    "operation",
    "exclude-area",
    "exclude-method",
    "exclude-operation",
    "preset",
];

/// The server's command line: what it connects with, which tools it offers, what it enables
/// and how it serves.
fn command<C>(app: &App<C>) -> clap::Command {
    let prefix = app.env_prefix;
    clap::Command::new(app.bin)
        .about(app.about)
        .version(app.version)
        .after_help(format!(
            "Credentials: ${prefix}_BEARER{schemes}, and ${prefix}_BASE_URL, else the profile's in the configuration file of `{profiles}` \
             (`{profiles} configure` writes it) (never printed, never in a tool's schema or \
             result).\n\
             Over HTTP, clients send `Authorization: Bearer ${prefix}_MCP_TOKEN`.",
            profiles = app.profiles,
            schemes = oncegen_cli::credentials::help(prefix, app.credentials, app.signs),
        ))
        .args(connection_args(app))
        .args(selection_args())
        .args(gate_args())
        .args(serving_args(app))
}

/// `--profile` and `--base-url`: where the credentials and the API's address come from.
fn connection_args<C>(app: &App<C>) -> [Arg; 2] {
    let prefix = app.env_prefix;
    [
        Arg::new("profile")
            .long("profile")
            .value_name("NAME")
            .help(format!(
                "Credentials and base URL from this profile of `{}`'s configuration file \
                 [default: ${prefix}_PROFILE, else `default`]",
                app.profiles
            )),
        Arg::new("base-url")
            .long("base-url")
            .value_name("URL")
            .help(format!(
                "The API's base URL [default: ${prefix}_BASE_URL, else the profile's]"
            )),
    ]
}

/// The selection: areas, methods and operations offered or left out, presets and scopes.
fn selection_args() -> [Arg; 8] {
    [
        list("area", "Offer only these areas (dns, vps, …)"),
        list("method", "Offer only these HTTP methods (GET, POST, …)"),
        list(
            "operation",
            "Offer only these operations (operationId or tool name)",
        ),
        list("exclude-area", "Leave these areas out"),
        list("exclude-method", "Leave these methods out"),
        list("exclude-operation", "Leave these operations out"),
        list(
            "preset",
            "Named selections: readonly, <area>-readonly (dns-readonly)",
        ),
        Arg::new("scopes")
            .long("scopes")
            .value_name("SCOPES")
            .value_delimiter(',')
            .action(ArgAction::Append)
            .help("The credential's scopes: offer only the operations they allow"),
    ]
}

/// The gates: writes, destructive calls, unknown members, purchases and their ceiling, and
/// access grants.
fn gate_args() -> [Arg; 7] {
    [
        flag("allow-writes", "Enable tools that change state (off: read-only)"),
        flag("allow-destructive", "Also enable destructive tools (deletions)"),
        flag(
            "allow-unknown-members",
            "Send a body's members the API's document does not define as given, with a warning in the result, instead of refusing the call (for a document that is wrong)",
        ),
        flag("allow-purchases", "Also enable purchases (each needs a spending ceiling)"),
        Arg::new("max-total")
            .long("max-total")
            .value_name("AMOUNT")
            .help("The most one purchase may charge, in the account currency; a call's own ceiling may only be lower. A purchase whose amount cannot be read before paying is refused unless --allow-any-amount"),
        flag("allow-any-amount", "Also enable purchases that take no spending ceiling (their amount cannot be read before paying): nothing bounds them"),
        flag("allow-access-grants", "Also enable tools that grant access (issuing a credential, replacing a password)"),
    ]
}

/// How the server serves: its tools' mode, its journal, its transport and `--list-tools`.
fn serving_args<C>(app: &App<C>) -> [Arg; 6] {
    let prefix = app.env_prefix;
    [
        Arg::new("tools")
            .long("tools")
            .value_parser(PossibleValuesParser::new(["all", "dynamic"]))
            .default_value("all")
            .help("One tool per operation, or three (search, describe, call)"),
        Arg::new("journal")
            .long("journal")
            .value_name("PATH|URL")
            .help(format!(
                "Journal writes here: a file, or a postgres:// URL [default: ${prefix}_JOURNAL, \
                 else $XDG_STATE_HOME/{}/journal]",
                app.bin
            )),
        Arg::new("http")
            .long("http")
            .value_name("ADDR")
            .num_args(0..=1)
            .default_missing_value(transport::DEFAULT_HTTP)
            .help(format!(
                "Serve streamable HTTP at ADDR/mcp instead of stdio [default ADDR: {}]",
                transport::DEFAULT_HTTP
            )),
        flag(
            "allow-remote",
            "Accept an --http address that is not loopback",
        ),
        crate::origin::arg(),
        flag("list-tools", "Print the tools/list answer as JSON and exit"),
    ]
}

/// A repeatable, comma-separated list of names.
fn list(id: &'static str, help: &'static str) -> Arg {
    Arg::new(id)
        .long(id)
        .value_name("NAME")
        .action(ArgAction::Append)
        .value_delimiter(',')
        .help(help)
}

/// An on/off flag.
fn flag(id: &'static str, help: &'static str) -> Arg {
    Arg::new(id).long(id).action(ArgAction::SetTrue).help(help)
}

/// The options `m` holds, checked: the selection against the tools, the address and the
/// ceiling parsed.
fn options<C>(app: &App<C>, m: &ArgMatches) -> Result<Options, String> {
    let selection = selection(app, m)?;
    let http = http(m)?;
    let max_total = max_total(m)?;
    Ok(Options {
        selection,
        gates: Gates {
            writes: m.get_flag("allow-writes"),
            destructive: m.get_flag("allow-destructive"),
            purchases: m.get_flag("allow-purchases"),
            any_amount: m.get_flag("allow-any-amount"),
            access_grants: m.get_flag("allow-access-grants"),
            max_total,
            unknown_members: m.get_flag("allow-unknown-members"),
        },
        mode: match m.get_one::<String>("tools").map(String::as_str) {
            Some("dynamic") => Mode::Dynamic,
            _ => Mode::PerOperation,
        },
        journal: m.get_one::<String>("journal").cloned(),
        http,
        allow_remote: m.get_flag("allow-remote"),
        list_tools: m.get_flag("list-tools"),
        profile: m.get_one::<String>("profile").cloned().or_else(|| {
            std::env::var(format!("{}_PROFILE", app.env_prefix))
                .ok()
                .filter(|v| !v.is_empty())
        }),
        base_url: m.get_one::<String>("base-url").cloned(),
    })
}

/// The selection `m` asks for, its presets applied, checked against the app's tools.
fn selection<C>(app: &App<C>, m: &ArgMatches) -> Result<Selection, String> {
    let values = |id: &str| -> Vec<String> {
        m.get_many::<String>(id)
            .map(|v| v.cloned().collect())
            .unwrap_or_default()
    };
    let mut selection = Selection {
        areas: values(LIST[0]),
        methods: values(LIST[1]),
        operations: values(LIST[2]),
        exclude_areas: values(LIST[3]),
        exclude_methods: values(LIST[4]),
        exclude_operations: values(LIST[5]),
        scopes: m.contains_id("scopes").then(|| values("scopes")),
    };
    for preset in values(LIST[6]) {
        selection.preset(&preset, app.tools())?;
    }
    selection.check(app.tools())?;
    Ok(selection)
}

/// `--http`'s address, parsed.
fn http(m: &ArgMatches) -> Result<Option<SocketAddr>, String> {
    m.get_one::<String>("http")
        .map(|a| {
            a.parse::<SocketAddr>()
                .map_err(|e| format!("--http {a}: {e} (expected IP:PORT, e.g. 127.0.0.1:8080)"))
        })
        .transpose()
}

/// `--max-total`, a positive decimal amount.
fn max_total(m: &ArgMatches) -> Result<Option<rust_decimal::Decimal>, String> {
    m.get_one::<String>("max-total")
        .map(|a| {
            a.parse::<rust_decimal::Decimal>()
                .ok()
                .filter(|d| d.is_sign_positive())
                .ok_or_else(|| format!("--max-total {a}: expected a positive decimal amount"))
        })
        .transpose()
}
