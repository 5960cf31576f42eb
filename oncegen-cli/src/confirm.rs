//! Confirmation of a destructive operation or a purchase: a question on a terminal, `--yes`
//! otherwise; never a silent default.

use crate::{Command, Failure, exit};
use std::io::{BufRead, IsTerminal, Write};

/// Why `command` needs a confirmation, if it does.
pub fn reason<C>(command: &Command<C>) -> Option<&'static str> {
    if command.destructive {
        Some("deletes or overwrites data")
    } else if command.purchase.is_some() {
        Some("charges the account")
    } else {
        None
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
