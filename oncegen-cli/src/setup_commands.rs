//! `<bin> configure` (write a profile) and `<bin> doctor` (check the configuration, the
//! journal and the server's contract against the tool's).

use crate::Credential;
use crate::profile::{self, Profile};
use crate::setup::Sources;
use crate::user_dirs::{self, Kind, Platform};
use crate::{App, Failure, exit, journal, setup};
use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgMatches};
use serde_json::{Value, json};
use std::io::{BufRead, IsTerminal, Write};

/// `configure`.
pub const CONFIGURE: &str = "configure";
/// `doctor`.
pub const DOCTOR: &str = "doctor";
/// `configure --credential MODE`.
const CREDENTIAL: &str = "credential";

/// The `configure` and `doctor` commands of an API with `credentials` that `signs` or not.
pub fn commands(credentials: &[Credential], signs: bool) -> [clap::Command; 2] {
    let modes = ["bearer"]
        .into_iter()
        .chain(signs.then_some("signed"))
        .chain(credentials.iter().map(|c| c.scheme.name))
        .chain(["none"]);
    let schemes: String = credentials
        .iter()
        .map(|c| format!("; `{}`: {}, a line each", c.scheme.name, c.what()))
        .collect();
    let signed = if signs {
        " or a signed key and secret (two lines)"
    } else {
        ""
    };
    [
        clap::Command::new(CONFIGURE)
            .about("Write a profile (--profile, else `default`) to the configuration file, owner-only: --base-url and --journal as given, the credential read from standard input (prompted on a terminal, where the bearer credential and the secret are not echoed)")
            .arg(
                Arg::new(CREDENTIAL)
                    .long(CREDENTIAL)
                    .value_name("MODE")
                    .value_parser(PossibleValuesParser::new(modes))
                    .help(format!("Read a bearer credential (one line){signed} from standard input{schemes}; `none` removes every credential [default: keep the profile's]")),
            ),
        clap::Command::new(DOCTOR).about(
            "Check the configuration, the write journal and the server's contract revision and capabilities against the tool's",
        ),
    ]
}

/// One line of standard input. On a terminal it is prompted for, and a `secret` is read with
/// the terminal's echo off (rpassword), so it never shows on the screen or in its scrollback.
fn read_line(prompt: &str, secret: bool) -> Result<String, Failure> {
    let failed = |e: std::io::Error| Failure::usage(format!("reading {prompt}: {e}"));
    let stdin = std::io::stdin();
    let line = if stdin.is_terminal() && secret {
        rpassword::prompt_password(format!("{prompt} (not shown): ")).map_err(failed)?
    } else {
        if stdin.is_terminal() {
            let mut err = std::io::stderr();
            let _ = write!(err, "{prompt}: ");
            let _ = err.flush();
        }
        let mut line = String::new();
        stdin.lock().read_line(&mut line).map_err(failed)?;
        line
    };
    let line = line.trim().to_owned();
    if line.is_empty() {
        return Err(Failure::usage(format!(
            "{prompt}: nothing was given on standard input"
        )));
    }
    Ok(line)
}

/// Reads the parts of `scheme`'s credential into `entry`, a line each (a password or key not
/// echoed on a terminal); the profile's other credentials stay.
fn read_scheme(
    entry: &mut Profile,
    credentials: &[Credential],
    scheme: &str,
) -> Result<(), Failure> {
    let credential = credentials
        .iter()
        .find(|c| c.scheme.name == scheme)
        .ok_or_else(|| {
            Failure::usage(format!("--credential {scheme}: not a scheme of this API"))
        })?;
    for (i, part) in credential.parts.iter().enumerate() {
        let role = credential.part_role(i);
        let what = role.unwrap_or("credential");
        let line = read_line(&format!("{what} of `{scheme}`"), role != Some("user name"))?;
        entry.credentials.insert(part.profile_key(), line);
    }
    Ok(())
}

/// What a profile says, secrets left out.
fn summary(name: &str, path: &std::path::Path, profile: &Profile) -> Value {
    json!({
        "profile": name,
        "file": path.display().to_string(),
        "base_url": profile.base_url,
        "credential": profile.credential_kind(),
        "journal": profile.journal.as_deref().map(journal_label),
    })
}

/// A journal location as it may be shown: a PostgreSQL URL may hold a password.
fn journal_label(location: &str) -> String {
    if journal::is_postgres(location) {
        "postgres (connection string not shown)".to_owned()
    } else {
        location.to_owned()
    }
}

/// `configure`: updates the profile `name` with the flags and standard input given.
pub fn configure(
    (bin, credentials): (&str, &[Credential]),
    name: &str,
    base_url: Option<&str>,
    journal_location: Option<&str>,
    matches: &ArgMatches,
) -> Result<Value, Failure> {
    let path = profile::path(bin, |n| std::env::var(n).ok()).ok_or_else(|| {
        Failure::usage(format!(
            "no configuration directory: set {}",
            user_dirs::needs(Platform::CURRENT, Kind::Config)
        ))
    })?;
    let mut file = profile::read(&path)?;
    let mut entry = file.profiles.get(name).cloned().unwrap_or_default();
    if let Some(url) = base_url {
        entry.base_url = Some(url.to_owned());
    }
    if let Some(location) = journal_location {
        entry.journal = Some(location.to_owned());
    }
    match matches.get_one::<String>(CREDENTIAL).map(String::as_str) {
        Some("none") => {
            (entry.bearer, entry.key, entry.secret) = (None, None, None);
            entry.credentials.clear();
        }
        Some("bearer") => {
            entry.bearer = Some(read_line("bearer credential", true)?);
            (entry.key, entry.secret) = (None, None);
        }
        Some("signed") => {
            entry.key = Some(read_line("key", false)?);
            entry.secret = Some(read_line("secret", true)?);
            entry.bearer = None;
        }
        Some(scheme) => read_scheme(&mut entry, credentials, scheme)?,
        None => {}
    }
    let shown = summary(name, &path, &entry);
    file.profiles.insert(name.to_owned(), entry);
    profile::write(&path, &file)?;
    Ok(shown)
}

/// The credentials `sources` set: `bearer`, `signed` and each scheme's flag name.
fn credential_kinds(sources: &Sources<'_>) -> Vec<String> {
    let settings = sources.lookup();
    let set = |variable: &str| settings(&format!("{}_{variable}", sources.prefix)).is_some();
    let own = [("BEARER", "bearer"), ("KEY", "signed")]
        .into_iter()
        .filter(|(variable, _)| set(variable))
        .map(|(_, kind)| kind.to_owned());
    let schemes = sources
        .credentials
        .iter()
        .filter(|c| c.parts.iter().any(|p| set(p.variable)))
        .map(|c| c.scheme.name.to_owned());
    own.chain(schemes).collect()
}

/// What `doctor` says of the server's contract against the tool's (nothing when it cannot be
/// read); each difference, and a failure to read it, is one of `problems`.
async fn contract<C>(app: &App<C>, client: &C, problems: &mut Vec<String>) -> Option<Value> {
    let Some(check) = app.check_contract else {
        return Some(json!("the contract declares no version operation to check"));
    };
    let check = match check(client).await {
        Ok(check) => check,
        Err(e) => {
            let failure = Failure::from(e);
            problems.push(format!(
                "the server's version could not be read: {}",
                failure.message
            ));
            return None;
        }
    };
    if check.differs() {
        problems.push(format!(
            "the server runs contract {} and this tool was generated from {}",
            check.deployed_revision.as_deref().unwrap_or("(unknown)"),
            check.sdk_revision
        ));
    }
    for (name, on) in &check.features {
        if *on == Some(false) {
            problems.push(format!("the server does not offer `{name}`"));
        }
    }
    let features: serde_json::Map<String, Value> = check
        .features
        .iter()
        .map(|(name, on)| (name.clone(), json!(on)))
        .collect();
    Some(json!({
        "tool": check.sdk_revision,
        "server": check.deployed_revision,
        "features": features,
    }))
}

/// `doctor`: the report, and a failure naming every problem found (after the report is
/// printed by `print`).
pub async fn doctor<C>(
    app: &App<C>,
    sources: &Sources<'_>,
    (base_url, journal_flag): (Option<&str>, Option<&str>),
    print: impl FnOnce(&Value) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let mut problems = Vec::new();
    let config = sources.config(base_url)?;
    let credential = credential_kinds(sources);
    if credential.is_empty() {
        problems.push("no credential is configured".to_owned());
    }
    let location = setup::journal_location(app.bin, sources, journal_flag)?;
    let journal = match journal::open(&location).await {
        Ok(_) => json!({"location": journal_label(&location), "ok": true}),
        Err(e) => {
            problems.push(format!("the write journal cannot be opened: {}", e.message));
            json!({"location": journal_label(&location), "ok": false})
        }
    };
    let mut report = json!({
        "base_url": config.get_base_url(),
        "credential": if credential.is_empty() { "none".to_owned() } else { credential.join(", ") },
        "journal": journal,
    });
    let client = (app.connect)(config).map_err(Failure::from)?;
    if let Some(contract) = contract(app, &client, &mut problems).await {
        report["contract"] = contract;
    }
    print(&report)?;
    if problems.is_empty() {
        return Ok(());
    }
    Err(Failure {
        code: exit::OTHER,
        message: problems.join("\n  "),
        settled_key: None,
    })
}
