//! Changes of the command-line tool generated from the surface (`crate::cli`), for the scripts
//! that call it: a command, a flag or a positional argument renamed or removed breaks them, and
//! so does a new required flag; a command or an optional flag added is additive. Every name is
//! `surface::command_line`'s, the functions the emitter names commands and flags with; an
//! operation and a parameter are followed across a rename as the Rust API's diff pairs them
//! (`operations::renames`, `operations::param_renames`).

use super::{Change, Class, operations};
use crate::surface::{OperationSurface, Surface, command_line};
use std::collections::{BTreeMap, BTreeSet};

/// Every change of the tool's commands and flags from `old` to `new`, its area the command of
/// the operation's area.
pub(super) fn commands(old: &Surface, new: &Surface) -> Vec<Change> {
    let (old_names, new_names) = (
        command_line::operation_commands(old),
        command_line::operation_commands(new),
    );
    let renamed = operations::renames(&old.operations, &new.operations);
    let mut out = Vec::new();
    let mut push = |class, area: String, text| out.push(Change { class, area, text });
    let mut kept = BTreeSet::new();
    for (id, o) in &old.operations {
        let old_command = command(old, &old_names, id);
        let now = if new.operations.contains_key(id) {
            Some(id.as_str())
        } else {
            renamed.get(id.as_str()).copied()
        };
        let Some(now) = now else {
            push(
                Class::Breaking,
                command_line::area_command(old, &o.area),
                format!(
                    "command `{old_command}` removed (`{} {}`)",
                    o.method, o.path
                ),
            );
            continue;
        };
        kept.insert(now);
        let n = &new.operations[now];
        let new_command = command(new, &new_names, now);
        let area = command_line::area_command(new, &n.area);
        if old_command != new_command {
            push(
                Class::Breaking,
                area.clone(),
                format!("command `{old_command}` renamed to `{new_command}`"),
            );
        }
        for (class, text) in arguments(o, n) {
            push(class, area.clone(), format!("`{new_command}`: {text}"));
        }
    }
    for (id, n) in &new.operations {
        if !kept.contains(id.as_str()) {
            push(
                Class::Additive,
                command_line::area_command(new, &n.area),
                format!(
                    "command `{}` added (`{} {}`)",
                    command(new, &new_names, id),
                    n.method,
                    n.path
                ),
            );
        }
    }
    out
}

/// The command of operation `id` of `surface` (`names`: its operations' commands).
fn command(surface: &Surface, names: &BTreeMap<String, String>, id: &str) -> String {
    let area = command_line::area_command(surface, &surface.operations[id].area);
    format!("{area} {}", names[id])
}

/// A flag: its name and whether it is required.
type Flags = BTreeMap<String, (String, bool)>;

/// The changes of one command's positional arguments and flags.
fn arguments(o: &OperationSurface, n: &OperationSurface) -> Vec<(Class, String)> {
    let renamed = operations::param_renames(o, n);
    let now = |rust: &str| renamed.get(rust).copied().unwrap_or(rust).to_owned();
    let mut parts = Vec::new();
    let (old_positional, new_positional) =
        (command_line::positionals(o), command_line::positionals(n));
    if old_positional.len() != new_positional.len() {
        parts.push((
            Class::Breaking,
            format!(
                "positional arguments {} → {}",
                old_positional.len(),
                new_positional.len()
            ),
        ));
    } else {
        let kept_old: Vec<String> = old_positional
            .iter()
            .map(|&p| now(p))
            .filter(|p| new_positional.contains(&p.as_str()))
            .collect();
        let kept_new: Vec<&str> = new_positional
            .iter()
            .copied()
            .filter(|p| kept_old.iter().any(|k| k.as_str() == *p))
            .collect();
        if kept_old != kept_new {
            parts.push((Class::Breaking, "positional arguments reordered".to_owned()));
        }
    }
    // Parameters by their new Rust name; the tool's own flags by their name.
    let flags = |op: &OperationSurface, key: &dyn Fn(&str) -> String| -> Flags {
        let mut all: Flags = command_line::flags(op)
            .into_iter()
            .map(|(rust, flag)| (key(&rust), (flag, op.params[&rust].required)))
            .collect();
        for (flag, required) in command_line::own_flags(op) {
            all.insert(format!("--{flag}"), (flag.to_owned(), required));
        }
        all
    };
    let (old_flags, new_flags) = (flags(o, &now), flags(n, &|rust| rust.to_owned()));
    for (key, (flag, required)) in &old_flags {
        match new_flags.get(key) {
            Some((new_flag, _)) if new_flag != flag => parts.push((
                Class::Breaking,
                format!("flag `--{flag}` renamed to `--{new_flag}`"),
            )),
            Some((_, true)) if !required => parts.push((
                Class::Breaking,
                format!("flag `--{flag}`: optional → required"),
            )),
            Some(_) => {}
            None if new_positional.contains(&key.as_str()) => parts.push((
                Class::Breaking,
                format!("flag `--{flag}` is now a positional argument"),
            )),
            None => parts.push((Class::Breaking, format!("flag `--{flag}` removed"))),
        }
    }
    for (key, (flag, required)) in &new_flags {
        if old_flags.contains_key(key) {
            continue;
        }
        parts.push(if *required {
            (Class::Breaking, format!("required flag `--{flag}` added"))
        } else {
            (Class::Additive, format!("flag `--{flag}` added"))
        });
    }
    parts
}
