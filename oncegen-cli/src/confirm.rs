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

/// The question before `command` (`line`: how the user called it, `matches` its arguments),
/// `why` it is asked: what it does (its summary), to which resource (the positional arguments
/// given) and, for a purchase, for how much (`--max-total`, or that the amount cannot be read
/// before paying): `Delete a webhook endpoint (id 7f…)? …`, `Order, pay and provision a
/// product variant atomically (region DE, …) for at most 25.00 in the account's currency: …`.
fn question<C>(command: &Command<C>, line: &str, matches: &ArgMatches, why: &str) -> String {
    let resource: Vec<String> = command
        .params
        .iter()
        .filter(|p| p.flag.is_none())
        .filter_map(|p| Some(format!("{} {}", p.id, matches.get_one::<String>(p.id)?)))
        .collect();
    let mut what = command.about.trim_end_matches('.').to_owned();
    if !resource.is_empty() {
        what = format!("{what} ({})", resource.join(", "));
    }
    // Only a purchase has `--max-total`.
    let amount = match command
        .purchase
        .map(|_| matches.get_one::<String>(MAX_TOTAL))
    {
        None => String::new(),
        Some(Some(max)) => format!(" for at most {max} in the account's currency"),
        Some(None) => " for an amount that cannot be read before paying".to_owned(),
    };
    format!("{what}{amount}: `{line}` {why}. Continue? [y/N] ")
}

/// Asks before `command` (`line`: how the user called it, `matches` its arguments) when it
/// needs it: passes with `yes`; asks on a terminal ([`question`]); refuses without one.
pub fn confirm<C>(
    command: &Command<C>,
    line: &str,
    matches: &ArgMatches,
    yes: bool,
) -> Result<(), Failure> {
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
    let asked =
        write!(stderr, "{}", question(command, line, matches, &why)).and_then(|()| stderr.flush());
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
