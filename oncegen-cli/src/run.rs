//! One run of a command: the client it goes through, the journal of its write, re-run
//! settlement ([`crate::rerun`]), the call, the output and the journal entry's close.

use crate::app::{
    ALL, BASE_URL, DRY_RUN, JOURNAL, JQ, KEY, NEW_WRITE, OUTPUT, PROFILE, TIMEOUT, WAIT, YES,
};
use crate::dry_run::Recorder;
use crate::output::{self, Format, Jq, Rows};
use crate::profile::{self, Profile};
use crate::setup::Sources;
use crate::writes;
use crate::{
    App, Area, Command, Failure, Input, Sent, confirm, docs, exit, journal, rerun, setup,
    setup_commands,
};
use clap::ArgMatches;
use oncegen_runtime::journal::WriteJournal;
use oncegen_runtime::same_write::{self, Plan};
use oncegen_runtime::{Config, ParamIn, RetryPolicy, SchemeKind};
use serde_json::Value;
use std::process::ExitCode;
use std::rc::Rc;
use std::sync::Arc;

impl<C> App<C> {
    /// Runs the command line `args` (the binary's name first) and returns the exit code.
    pub fn run(&self, args: impl IntoIterator<Item = String>) -> ExitCode {
        let matches = match self.command().try_get_matches_from(args) {
            Ok(m) => m,
            Err(e) => {
                let _ = e.print();
                return ExitCode::from(if e.use_stderr() {
                    exit::USAGE
                } else {
                    exit::OK
                });
            }
        };
        match dispatch(self, &matches) {
            Ok(()) => ExitCode::from(exit::OK),
            Err(failure) => {
                eprintln!("{}: {failure}", output::error_label());
                ExitCode::from(failure.code)
            }
        }
    }
}

/// Runs `app` on the process's arguments.
pub fn main<C>(app: &App<C>) -> ExitCode {
    app.run(std::env::args())
}

/// The tool's own flags as one command line gave them.
struct Globals<'m> {
    format: Format,
    jq: Option<Rc<Jq>>,
    base_url: Option<&'m str>,
    journal: Option<&'m str>,
    key: Option<String>,
    dry_run: bool,
    new_write: bool,
    yes: bool,
    /// The profile's settings (empty without a configuration file).
    profile: Profile,
    /// The command's flags (the timeouts are read from them, `setup::timeouts`).
    leaf: &'m ArgMatches,
}

impl Globals<'_> {
    /// Where the command's settings come from: its credential flags, the environment, the
    /// profile.
    fn sources<'s, C>(&'s self, app: &'s App<C>) -> Sources<'s> {
        Sources::new(app.env_prefix, &self.profile, (app.credentials, app.signs))
            .with_flags(self.leaf)
    }
}

impl<'m> Globals<'m> {
    /// The flags of `leaf`; a `--jq` filter is compiled here, before anything is sent.
    fn of(app_bin: &str, prefix: &str, leaf: &'m ArgMatches) -> Result<Self, Failure> {
        let text = |id| leaf.get_one::<String>(id).map(String::as_str);
        let env = |name: &str| std::env::var(name).ok();
        let chosen = text(PROFILE)
            .map(str::to_owned)
            .or_else(|| env(&format!("{prefix}_PROFILE")).filter(|v| !v.is_empty()));
        let profile = profile::load(app_bin, chosen.as_deref(), env)?;
        let jq = text(JQ)
            .map(|code| Jq::compile(code).map(Rc::new))
            .transpose()
            .map_err(|e| Failure::usage(format!("--jq: {e}")))?;
        Ok(Globals {
            format: Format::named(text(OUTPUT)).expect("a listed format"),
            jq,
            base_url: text(BASE_URL),
            journal: text(JOURNAL),
            key: text(KEY).map(str::to_owned),
            dry_run: leaf.get_flag(DRY_RUN),
            new_write: leaf.get_flag(NEW_WRITE),
            yes: leaf.get_flag(YES),
            profile,
            leaf,
        })
    }
}

fn other(what: &str, e: impl std::fmt::Display) -> Failure {
    Failure {
        code: exit::OTHER,
        message: format!("{what}: {e}"),
        settled_key: None,
    }
}

/// Runs the command `matches` selected.
pub(crate) fn dispatch<C>(app: &App<C>, matches: &ArgMatches) -> Result<(), Failure> {
    let (area_name, area_matches) = matches.subcommand().expect("an area is required");
    if [docs::COMPLETIONS, docs::MAN].contains(&area_name) {
        return docs::run(app.command(), area_name, area_matches);
    }
    if area_name == setup_commands::CONFIGURE {
        return configure(app, area_matches);
    }
    if area_name == setup_commands::DOCTOR {
        let globals = Globals::of(app.bin, app.env_prefix, area_matches)?;
        let runtime = current_thread()?;
        return runtime.block_on(setup_commands::doctor(
            app,
            &globals.sources(app),
            (globals.base_url, globals.journal),
            |report| print(report, &globals),
        ));
    }
    let (name, leaf) = area_matches.subcommand().expect("an operation is required");
    let globals = Globals::of(app.bin, app.env_prefix, leaf)?;
    let runtime = current_thread()?;
    if area_name == writes::AREA {
        return runtime.block_on(journal_command(app, name, &globals));
    }
    let area = app
        .areas
        .iter()
        .find(|a| a.name == area_name)
        .expect("a known area");
    let command = area
        .commands
        .iter()
        .find(|c| c.name == name)
        .expect("a known command");
    let wait = (command.waits && leaf.get_flag(WAIT)).then(|| crate::wait::Wait {
        timeout: leaf
            .get_one::<u64>(TIMEOUT)
            .map(|s| std::time::Duration::from_secs(*s)),
    });
    let mut input = Input::new(leaf)?.with_wait(wait);
    let line = format!("{} {} {}", app.bin, area.name, command.name);
    confirm::bound(command, &line, leaf, &mut input)?;
    if !globals.dry_run {
        confirm::confirm(command, &line, leaf, globals.yes)?;
    }
    runtime.block_on(operation(app, area, command, input, &globals))
}

/// `configure`: writes the profile and prints what it now says.
fn configure<C>(app: &App<C>, matches: &ArgMatches) -> Result<(), Failure> {
    let text = |id| matches.get_one::<String>(id).map(String::as_str);
    let name = text(PROFILE).unwrap_or("default");
    let shown = setup_commands::configure(
        (app.bin, app.credentials),
        name,
        text(BASE_URL),
        text(JOURNAL),
        matches,
    )?;
    let format = Format::named(text(OUTPUT)).expect("a listed format");
    output::print(&shown, format, None).map_err(|e| other("writing the output", e))
}

fn current_thread() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| other("starting the async runtime", e))
}

/// `writes list` or `writes recover`.
async fn journal_command<C>(
    app: &App<C>,
    name: &str,
    globals: &Globals<'_>,
) -> Result<(), Failure> {
    let sources = globals.sources(app);
    let location = setup::journal_location(app.bin, &sources, globals.journal)?;
    let journal = journal::open(&location).await?;
    if name == writes::LIST {
        let listed = writes::list(journal.as_ref()).await?;
        return print(&listed, globals);
    }
    let config = sources.config(globals.base_url)?.journal(journal.clone());
    writes::recover(app, &config, journal.as_ref(), |rows| print(rows, globals)).await
}

/// One operation: a dry run, a read, or a journaled write.
async fn operation<C>(
    app: &App<C>,
    area: &Area<C>,
    command: &Command<C>,
    input: Input<'_>,
    globals: &Globals<'_>,
) -> Result<(), Failure> {
    let sources = globals.sources(app);
    let config = sources.config(globals.base_url)?;
    let config = setup::timeouts(config, app.env_prefix, globals.leaf)?;
    if globals.dry_run {
        return dry_run(
            app,
            command,
            config,
            input.with_key(globals.key.clone()),
            globals,
        )
        .await;
    }
    if !command.writes {
        return read(app, command, config, input, globals).await;
    }
    let location = setup::journal_location(app.bin, &sources, globals.journal)?;
    let journal = journal::open(&location).await?;
    let config = config.journal(journal.clone());
    let identity = rerun::identity(
        &config,
        area.name,
        command.name,
        &arguments(command, input.matches()),
        input.body_text(),
    );
    let (result, settled) = match plan(command, journal.as_ref(), &identity, globals).await? {
        Plan::Refused(why) => return Err(Failure::usage(why)),
        Plan::Busy { key } => return Err(busy(&key)),
        Plan::Resume(entry) => writes::resume(app, &config, *entry).await?,
        Plan::Send { key, applied_at } => {
            if applied_at.is_some() {
                writes::replay_note(&key, applied_at);
            }
            let input = input
                .with_key(Some(key))
                .with_intent(Some(identity.intent()));
            let client = (app.connect)(config).map_err(Failure::from)?;
            let result = (command.run)(&client, &input).await;
            let settled = match &result {
                Ok(sent) => sent.idempotency_key.clone(),
                Err(failure) => failure.settled_key.clone(),
            };
            (result, settled)
        }
    };
    finish(result, settled, Some(journal.as_ref()), globals).await
}

/// A read: sent as it is, every page printed as it comes with `--all`.
async fn read<C>(
    app: &App<C>,
    command: &Command<C>,
    config: Config,
    input: Input<'_>,
    globals: &Globals<'_>,
) -> Result<(), Failure> {
    let client = (app.connect)(config).map_err(Failure::from)?;
    let all = command.pages && input.matches().get_flag(ALL);
    let rows = all.then(|| Rows::new(globals.format, globals.jq.clone()));
    let input = input.with_rows(rows);
    let result = (command.run)(&client, &input).await;
    finish(result, None, None, globals).await
}

/// What a write does ([`same_write`]): with `--new-write` and no key, a fresh send; else what
/// the journal says of the same write (a purchase guarded against a quick repeat).
async fn plan<C>(
    command: &Command<C>,
    journal: &dyn WriteJournal,
    identity: &same_write::Identity,
    globals: &Globals<'_>,
) -> Result<Plan, Failure> {
    match (globals.new_write, &globals.key) {
        (true, None) => Ok(Plan::Send {
            key: uuid_key(),
            applied_at: None,
        }),
        (_, key) => {
            let guard = command.purchase.is_some().then_some(PURCHASE_GUARD);
            same_write::plan_guarded(journal, identity, key.as_deref(), guard)
                .await
                .map_err(journal::failed)
        }
    }
}

/// How long after a purchase's outcome was printed the same command line answers that
/// purchase again instead of buying twice (`same_write` rule 6): a script that re-runs a
/// command killed after printing cannot be told apart from a person repeating it, and only
/// spending money is worth asking the person for `--new-write`.
const PURCHASE_GUARD: std::time::Duration = std::time::Duration::from_secs(600);

/// A new idempotency key.
fn uuid_key() -> String {
    uuid::Uuid::new_v4().to_string()
}

fn busy(key: &str) -> Failure {
    Failure {
        code: exit::OUTCOME_UNKNOWN,
        message: format!(
            "the same write (idempotency key {key}) is being sent or settled by another process right now; nothing was sent: run the command again once that one ends"
        ),
        settled_key: None,
    }
}

/// Each argument of `command` as given (for the write's identity), in the table's order.
fn arguments<'c, C>(command: &'c Command<C>, matches: &ArgMatches) -> Vec<(&'c str, Vec<String>)> {
    command
        .params
        .iter()
        .filter_map(|p| {
            let values = matches.get_many::<String>(p.id)?;
            Some((p.id, values.cloned().collect()))
        })
        .collect()
}

/// Delivers the outcome (prints it, or its error), then closes the write's journal entry
/// (`settled`) and ends the process at once: an outcome is printed before its entry goes, so
/// a run killed in between answers it again; and no kill can land between the closing and the
/// exit status a caller sees but in the microseconds of `exit` itself (README, "Re-running a
/// write").
async fn finish(
    result: Result<Sent, Failure>,
    settled: Option<String>,
    journal: Option<&dyn WriteJournal>,
    globals: &Globals<'_>,
) -> Result<(), Failure> {
    let (Some(key), Some(journal)) = (settled, journal) else {
        return deliver(result, globals);
    };
    let code = match deliver(result, globals) {
        Ok(()) => exit::OK,
        Err(failure) => {
            eprintln!("{}: {failure}", output::error_label());
            failure.code
        }
    };
    #[cfg(feature = "crash-points")]
    oncegen_runtime::crash_point::reached("acknowledge");
    if let Err(e) = journal.acknowledge(&key).await {
        eprintln!("warning: closing the journal entry of {key}: {e}");
    }
    std::process::exit(i32::from(code))
}

/// Prints a success's value (unless it was printed as it came) and flushes standard output.
fn deliver(result: Result<Sent, Failure>, globals: &Globals<'_>) -> Result<(), Failure> {
    if let Ok(sent) = result.as_ref()
        && !sent.printed
    {
        print(&sent.value, globals)?;
    }
    std::io::Write::flush(&mut std::io::stdout()).map_err(|e| other("writing the output", e))?;
    result.map(|_| ())
}

/// `--dry-run`: the request the command would send, printed; nothing sent or journaled.
async fn dry_run<C>(
    app: &App<C>,
    command: &Command<C>,
    config: Config,
    input: Input<'_>,
    globals: &Globals<'_>,
) -> Result<(), Failure> {
    let secret_query = app.credentials.iter().filter_map(|c| match c.scheme.kind {
        SchemeKind::ApiKey {
            location: ParamIn::Query,
            param,
        } => Some(param),
        _ => None,
    });
    let recorder = Arc::new(Recorder::redacting(secret_query));
    let once = RetryPolicy {
        enabled: false,
        ..RetryPolicy::default()
    };
    let config = config.transport(recorder.clone()).retry_policy(once);
    let client = (app.connect)(config).map_err(Failure::from)?;
    let result = (command.run)(&client, &input).await;
    match recorder.request() {
        Some(request) => print(&request, globals),
        None => result.map(|_| ()),
    }
}

fn print(value: &Value, globals: &Globals<'_>) -> Result<(), Failure> {
    output::print(value, globals.format, globals.jq.as_deref())
        .map_err(|e| other("writing the output", e))
}
