//! Confirmation of a destructive operation, a purchase or an access grant: a question on a
//! terminal, `--yes` otherwise; never a silent default. And the bound of a purchase:
//! `--max-total` written into its ceiling member, or, where it has none (its amount cannot be
//! read before paying), a refusal unless `--accept-any-amount` acknowledges that.

use crate::app::{ACCEPT_ANY_AMOUNT, MAX_TOTAL};
use crate::{Command, Failure, Input, exit};
use clap::ArgMatches;
use std::io::{BufRead, IsTerminal, Write};

/// Why `command` needs a confirmation, if it does: each of what it does, joined.
fn reason<C>(command: &Command<C>) -> Option<String> {
    let mut why = Vec::new();
    if command.destructive {
        why.push("deletes or overwrites data".to_owned());
    }
    if command.purchase.is_some() {
        why.push("charges the account".to_owned());
    }
    if let Some(what) = command.grants_access {
        why.push(format!("grants access: {what}"));
    }
    (!why.is_empty()).then(|| why.join(" and "))
}

/// Bounds a purchase (`line`: how the user called it): its `--max-total` goes into the body's
/// ceiling member; without a ceiling member it needs `--accept-any-amount`, and a
/// `--max-total` is refused, since nothing can hold the charge to it.
pub(crate) fn bound<C>(
    command: &Command<C>,
    line: &str,
    matches: &ArgMatches,
    input: &mut Input<'_>,
) -> Result<(), Failure> {
    let Some(ceiling) = command.purchase else {
        return Ok(());
    };
    match (ceiling, matches.get_one::<String>(MAX_TOTAL)) {
        ([], Some(max)) => Err(Failure::usage(format!(
            "`{line}` charges an amount that cannot be read before paying, so --max-total \
             {max} cannot bound it: nothing was sent. Pass --accept-any-amount instead of \
             --max-total to pay whatever it charges."
        ))),
        ([], None) if !matches.get_flag(ACCEPT_ANY_AMOUNT) => Err(Failure::usage(format!(
            "`{line}` charges an amount that cannot be read before paying: nothing was sent. \
             Pass --accept-any-amount to pay whatever it charges."
        ))),
        ([], None) => Ok(()),
        (ceiling, max) => input.set_ceiling(
            ceiling,
            max.expect("--max-total is required with a ceiling"),
        ),
    }
}

/// Asks before `command` (`line`: how the user called it) when it needs it: passes with
/// `yes`; asks on a terminal; refuses without one.
pub fn confirm<C>(command: &Command<C>, line: &str, yes: bool) -> Result<(), Failure> {
    let Some(why) = reason(command) else {
        return Ok(());
    };
    if yes {
        return Ok(());
    }
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        return Err(Failure::usage(format!(
            "`{line}` {why}: pass --yes to run it without a terminal"
        )));
    }
    let mut stderr = std::io::stderr().lock();
    let asked = write!(stderr, "`{line}` {why}. Continue? [y/N] ").and_then(|()| stderr.flush());
    drop(stderr);
    asked.map_err(|e| Failure::usage(format!("asking for confirmation: {e}")))?;
    let mut answer = String::new();
    stdin
        .lock()
        .read_line(&mut answer)
        .map_err(|e| Failure::usage(format!("reading the confirmation: {e}")))?;
    if matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
        Ok(())
    } else {
        Err(Failure {
            code: exit::USAGE,
            message: "not confirmed: nothing was sent".to_owned(),
            settled_key: None,
        })
    }
}
