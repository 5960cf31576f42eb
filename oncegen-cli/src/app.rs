//! The command tree, built from the generated table, and one run of it.

use crate::output::Format;
use crate::table::{App, Area, Command};
use crate::{credentials, docs, exit, input, setup_commands, writes};
use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgAction};

pub(crate) const BASE_URL: &str = "base-url";
pub(crate) const OUTPUT: &str = "output";
pub(crate) const JOURNAL: &str = "journal";
pub(crate) const KEY: &str = "idempotency-key";
pub(crate) const DRY_RUN: &str = "dry-run";
pub(crate) const NEW_WRITE: &str = "new-write";
pub(crate) const YES: &str = "yes";
pub(crate) const JQ: &str = "jq";
pub(crate) const ALL: &str = "all";
pub(crate) const PROFILE: &str = "profile";
pub(crate) const WAIT: &str = "wait";
pub(crate) const TIMEOUT: &str = "timeout";
pub(crate) const MAX_TOTAL: &str = "max-total";
pub(crate) const ACCEPT_ANY_AMOUNT: &str = "accept-any-amount";
pub(crate) use crate::setup::{READ_TIMEOUT, TOTAL_TIMEOUT};

/// Every flag the tool has of its own, on every command: no parameter of an operation may take
/// one of these names (the generator's `surface::command_line::RESERVED_FLAGS` is this list;
/// `sdk-tests/tests/architecture.rs` holds them equal).
pub const OWN_FLAGS: [&str; 20] = [
    ACCEPT_ANY_AMOUNT,
    ALL,
    input::ALLOW_UNKNOWN,
    BASE_URL,
    DRY_RUN,
    "help",
    KEY,
    JOURNAL,
    JQ,
    input::BODY,
    MAX_TOTAL,
    NEW_WRITE,
    OUTPUT,
    PROFILE,
    READ_TIMEOUT,
    TIMEOUT,
    TOTAL_TIMEOUT,
    "version",
    WAIT,
    YES,
];

/// The variables the tool reads of its own after its prefix (`<PREFIX>_BASE_URL`, …; the MCP
/// server's `MCP_TOKEN` included): no scheme's credential may take one of these names (the
/// generator's `surface::credentials::RESERVED_VARIABLES` is this list).
pub const OWN_VARIABLES: [&str; 9] = [
    "BASE_URL",
    "BEARER",
    "JOURNAL",
    "KEY",
    "MCP_TOKEN",
    "PROFILE",
    "READ_TIMEOUT",
    "SECRET",
    "TOTAL_TIMEOUT",
];

/// The commands the tool has of its own besides the areas: an area named like one of these
/// gets another name (the generator's `surface::command_line::RESERVED_COMMANDS` is this list).
pub const OWN_COMMANDS: [&str; 6] = [
    setup_commands::CONFIGURE,
    docs::COMPLETIONS,
    setup_commands::DOCTOR,
    "help",
    docs::MAN,
    writes::AREA,
];

impl<C> App<C> {
    /// The clap command tree.
    pub fn command(&self) -> clap::Command {
        let global = |id: &'static str, value: &'static str, help: String| {
            Arg::new(id)
                .long(id)
                .value_name(value)
                .global(true)
                .help(help)
        };
        let prefix = self.env_prefix;
        let journal_help = format!(
            "Journal writes in this file, or in PostgreSQL at a postgres:// URL [default: ${prefix}_JOURNAL, else the profile's, else `journal` in the state directory (below)]"
        );
        clap::Command::new(self.bin)
            .about(self.about)
            .version(self.version)
            .after_help(self.after_help())
            .subcommand_required(true)
            .arg_required_else_help(true)
            .arg(global(BASE_URL, "URL", format!("The API's base URL [default: ${prefix}_BASE_URL, else the profile's]")))
            .arg(global(PROFILE, "NAME", format!("The configuration profile [default: ${prefix}_PROFILE, else default]")))
            .arg(
                global(OUTPUT, "FORMAT", "Output format [default: a table on a terminal, else JSON]; ndjson: one value a line, a list's items each on one".into())
                    .value_parser(PossibleValuesParser::new(Format::NAMES)),
            )
            .arg(global(JQ, "FILTER", "Print what this jq filter selects from the answer (jq syntax, run by jaq; strings printed raw)".into()))
            .arg(global(JOURNAL, "PATH", journal_help))
            .arg(global(KEY, "KEY", "Send a write under this Idempotency-Key (re-running with it never writes twice)".into()))
            .arg(seconds(global(READ_TIMEOUT, "SECS", format!("Give up on one HTTP attempt after this many seconds (then retry if safe) [default: ${prefix}_READ_TIMEOUT, else the SDK's default]"))))
            .arg(seconds(global(TOTAL_TIMEOUT, "SECS", format!("Give up on a call after this many seconds, retries and waits included [default: ${prefix}_TOTAL_TIMEOUT, else the SDK's default]"))))
            .arg(
                Arg::new(NEW_WRITE)
                    .long(NEW_WRITE)
                    .global(true)
                    .action(ArgAction::SetTrue)
                    .help("Send a new write even when an earlier run of the same command did not finish (by default that run's write is settled and reported instead)"),
            )
            .arg(
                Arg::new(YES)
                    .long(YES)
                    .global(true)
                    .action(ArgAction::SetTrue)
                    .help("Run a destructive operation, a purchase or an access grant without asking (required when standard input is not a terminal)"),
            )
            .arg(
                Arg::new(DRY_RUN)
                    .long(DRY_RUN)
                    .global(true)
                    .action(ArgAction::SetTrue)
                    .help("Print the request (method, URL, headers with credentials redacted, body) and send nothing"),
            )
            .args(credentials::args(prefix, self.credentials))
            .subcommands(self.areas.iter().map(area_command))
            .subcommand(writes::command())
            .subcommands(docs::commands(self.bin))
            .subcommands(setup_commands::commands(self.credentials, self.signs))
    }

    /// What `--help` says after the flags: credentials, bodies, directories, exit codes.
    fn after_help(&self) -> String {
        let prefix = self.env_prefix;
        format!(
            "Credentials: ${prefix}_BEARER{}, else the profile's (`{} configure`); never printed.\n\nBodies: --json is decoded into the operation's type before anything is sent; a member the API document does not define is refused (exit 2), unless the command is given --allow-unknown-members, which sends it as given with a warning naming it.\n\n{}\n\n{}",
            credentials::help(prefix, self.credentials, self.signs),
            self.bin,
            crate::user_dirs::HELP.replace("<bin>", self.bin),
            exit::TABLE
        )
    }
}

/// `arg` taking a whole number of seconds, at least 1.
fn seconds(arg: Arg) -> Arg {
    arg.value_parser(clap::value_parser!(u64).range(1..))
}

fn area_command<C>(area: &Area<C>) -> clap::Command {
    clap::Command::new(area.name)
        .about(area.about)
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommands(area.commands.iter().map(operation_command))
}

fn operation_command<C>(command: &Command<C>) -> clap::Command {
    let mut cmd = clap::Command::new(command.name)
        .about(command.about)
        .aliases(command.aliases);
    if !command.long_about.is_empty() {
        cmd = cmd.long_about(command.long_about);
    }
    if !command.after_help.is_empty() {
        cmd = cmd.after_long_help(command.after_help);
    }
    for param in command.params {
        let mut arg = Arg::new(param.id).help(param.help).required(param.required);
        if let Some(flag) = param.flag {
            arg = arg.long(flag);
        }
        if param.repeated {
            arg = arg.action(ArgAction::Append);
        }
        if !param.values.is_empty() {
            arg = arg.value_parser(PossibleValuesParser::new(param.values));
        } else if param.minimum.is_some() || param.maximum.is_some() {
            let (minimum, maximum) = (param.minimum, param.maximum);
            arg = arg.value_parser(move |raw: &str| within(raw, minimum, maximum));
        }
        cmd = cmd.arg(arg);
    }
    if command.pages {
        cmd =
            cmd.arg(Arg::new(ALL).long(ALL).action(ArgAction::SetTrue).help(
                "Every item of every page, printed as it arrives (JSON as NDJSON, table rows)",
            ));
    }
    if command.waits {
        cmd = cmd
            .arg(Arg::new(WAIT).long(WAIT).action(ArgAction::SetTrue).help(
                "Follow the work to its end and print its final state (a spinner on a terminal)",
            ))
            .arg(
                Arg::new(TIMEOUT)
                    .long(TIMEOUT)
                    .value_name("SECONDS")
                    .requires(WAIT)
                    .value_parser(clap::value_parser!(u64).range(1..))
                    .help("Stop waiting after this many seconds (the work goes on; exit 1)"),
            );
    }
    body_flags(purchase_flags(cmd, command.purchase), command.body)
}

/// `--json` (required when the body is) and `--allow-unknown-members` of a command with a
/// body (`body`: `Some(required)`).
fn body_flags(mut cmd: clap::Command, body: Option<bool>) -> clap::Command {
    if let Some(required) = body {
        cmd = cmd.arg(
            Arg::new(input::BODY)
                .long(input::BODY)
                .value_name("JSON | @FILE | -")
                .required(required)
                .help(
                    "The request body as JSON: inline, from a file (@FILE) or standard input (-). A member the API document does not define is refused; --help lists the members and an example",
                ),
        );
        cmd = cmd.arg(
            Arg::new(input::ALLOW_UNKNOWN)
                .long(input::ALLOW_UNKNOWN)
                .action(ArgAction::SetTrue)
                .help("Send --json members the API document does not define (for a document that is wrong), as given, with a warning naming them, instead of refusing the body"),
        );
    }
    cmd
}

/// `--max-total` of a purchase: required and written into its ceiling member, or, where it has
/// none, refused and `--accept-any-amount` offered instead.
fn purchase_flags(cmd: clap::Command, purchase: Option<&[&str]>) -> clap::Command {
    match purchase {
        Some([]) => {
            cmd
                .arg(
                    Arg::new(MAX_TOTAL)
                        .long(MAX_TOTAL)
                        .value_name("AMOUNT")
                        .conflicts_with(ACCEPT_ANY_AMOUNT)
                        .help("Refused: this purchase's amount cannot be read before paying, so no ceiling can bound it"),
                )
                .arg(
                    Arg::new(ACCEPT_ANY_AMOUNT)
                        .long(ACCEPT_ANY_AMOUNT)
                        .action(ArgAction::SetTrue)
                        .help("Pay whatever this charges: its amount cannot be read before paying (required)"),
                )
        }
        Some(ceiling) => {
            cmd.arg(
                Arg::new(MAX_TOTAL)
                    .long(MAX_TOTAL)
                    .value_name("AMOUNT")
                    .required(true)
                    .help(format!(
                        "The most this purchase may charge, in the account's currency (sent as the body's `{}`; the call fails and charges nothing above it)",
                        ceiling[0]
                    )),
            )
        }
        None => cmd,
    }
}

/// `raw`, unless it is a number outside the schema's bounds: then why, in the API's terms
/// (clap names the flag: `invalid value '1000' for '--limit <limit>': 1000 is above the
/// maximum 100`), before the SDK's type could say `expected u8`.
fn within(raw: &str, minimum: Option<f64>, maximum: Option<f64>) -> Result<String, String> {
    let Ok(number) = raw.trim().parse::<f64>() else {
        return Ok(raw.to_owned());
    };
    match (minimum, maximum) {
        (Some(min), _) if number < min => Err(format!("{raw} is below the minimum {min}")),
        (_, Some(max)) if number > max => Err(format!("{raw} is above the maximum {max}")),
        _ => Ok(raw.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::{App, OWN_COMMANDS, OWN_FLAGS};
    use std::collections::BTreeSet;

    #[test]
    fn own_flags_are_the_flags_the_tool_has() {
        let app: App<()> = App {
            bin: "t",
            about: "",
            version: "0",
            env_prefix: "T",
            areas: &[],
            credentials: &[],
            signs: false,
            connect: |_| Ok(()),
            runtime: |_| unreachable!("no command runs"),
            check_contract: None,
        };
        let mut command = app.command();
        command.build();
        let mut has: BTreeSet<String> = command
            .get_arguments()
            .filter_map(|a| a.get_long().map(str::to_owned))
            .collect();
        has.insert(super::input::BODY.to_owned());
        has.insert(super::input::ALLOW_UNKNOWN.to_owned());
        has.insert(super::MAX_TOTAL.to_owned());
        has.insert(super::ACCEPT_ANY_AMOUNT.to_owned());
        has.insert(super::ALL.to_owned());
        has.insert(super::WAIT.to_owned());
        has.insert(super::TIMEOUT.to_owned());
        let own: BTreeSet<String> = OWN_FLAGS.iter().map(|f| (*f).to_owned()).collect();
        assert_eq!(has, own);
        let commands: BTreeSet<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
        assert_eq!(commands, OWN_COMMANDS.into_iter().collect());
    }
}
