//! Changes of the command-line tool generated from the surface (`crate::cli`), for the scripts
//! that call it: a command, a flag or a positional argument renamed or removed breaks them, and
//! so does a new required flag; a command or an optional flag added is additive. Every name is
//! `surface::command_line`'s, the functions the emitter names commands and flags with; an
//! operation and a parameter are followed across a rename as the Rust API's diff pairs them
//! (`operations::renames`, `operations::param_renames`).

use super::{Change, Class, operations};
use crate::surface::{OperationSurface, Surface, command_line};
use std::collections::{BTreeMap, BTreeSet};

/// One revision: its surface and the command name of each of its operations, by operationId.
type Side<'s> = (&'s Surface, BTreeMap<String, String>);

/// Every change of the tool's commands and flags from `old` to `new`, its area the command of
/// the operation's area.
pub(super) fn commands(old: &Surface, new: &Surface) -> Vec<Change> {
    let names: (Side, Side) = (
        (old, command_line::operation_commands(old)),
        (new, command_line::operation_commands(new)),
    );
    let renamed = operations::renames(&old.operations, &new.operations);
    let mut out = Vec::new();
    let mut kept = BTreeSet::new();
    for (id, o) in &old.operations {
        let now = if new.operations.contains_key(id) {
            Some(id.as_str())
        } else {
            renamed.get(id.as_str()).copied()
        };
        let Some(now) = now else {
            let text = format!(
                "command `{}` removed (`{} {}`)",
                command(&names.0, id, o),
                o.method,
                o.path
            );
            out.push(change(old, Class::Breaking, o, text));
            continue;
        };
        kept.insert(now);
        out.extend(kept_command(&names, (id, o), (now, &new.operations[now])));
    }
    for (id, n) in &new.operations {
        if !kept.contains(id.as_str()) {
            let text = format!(
                "command `{}` added (`{} {}`)",
                command(&names.1, id, n),
                n.method,
                n.path
            );
            out.push(change(new, Class::Additive, n, text));
        }
    }
    out
}

/// `area command`: the command line of operation `id` of one revision.
fn command((surface, names): &Side, id: &str, op: &OperationSurface) -> String {
    let area = command_line::area_command(surface, &op.area);
    format!("{area} {}", names[id])
}

/// A change filed under the command of `op`'s area in `surface`.
fn change(surface: &Surface, class: Class, op: &OperationSurface, text: String) -> Change {
    let area = command_line::area_command(surface, &op.area);
    Change { class, area, text }
}

/// The changes of a command both revisions have (`(id, o)` now `(now, n)`): its name, then its
/// arguments and flags.
fn kept_command(
    (old_side, new_side): &(Side, Side),
    (id, o): (&str, &OperationSurface),
    (now, n): (&str, &OperationSurface),
) -> Vec<Change> {
    let old_command = command(old_side, id, o);
    let new_command = command(new_side, now, n);
    let mut out = Vec::new();
    if old_command != new_command {
        let text = format!("command `{old_command}` renamed to `{new_command}`");
        out.push(change(new_side.0, Class::Breaking, n, text));
    }
    for (class, text) in arguments(o, n) {
        out.push(change(
            new_side.0,
            class,
            n,
            format!("`{new_command}`: {text}"),
        ));
    }
    out
}

/// A flag: its name and whether it is required.
type Flags = BTreeMap<String, (String, bool)>;

/// The changes of one command's positional arguments and flags.
fn arguments(o: &OperationSurface, n: &OperationSurface) -> Vec<(Class, String)> {
    let renamed = operations::param_renames(o, n);
    let now = |rust: &str| renamed.get(rust).copied().unwrap_or(rust).to_owned();
    let new_positional = command_line::positionals(n);
    let mut parts: Vec<(Class, String)> =
        positionals(&command_line::positionals(o), &new_positional, &now)
            .into_iter()
            .collect();
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

/// The positional arguments: another count, or the ones both keep (`now` names an old one as
/// the new revision does) in another order.
fn positionals(
    old: &[&str],
    new: &[&str],
    now: &dyn Fn(&str) -> String,
) -> Option<(Class, String)> {
    if old.len() != new.len() {
        let text = format!("positional arguments {} → {}", old.len(), new.len());
        return Some((Class::Breaking, text));
    }
    let kept_old: Vec<String> = old
        .iter()
        .map(|&p| now(p))
        .filter(|p| new.contains(&p.as_str()))
        .collect();
    let kept_new: Vec<&str> = new
        .iter()
        .copied()
        .filter(|p| kept_old.iter().any(|k| k.as_str() == *p))
        .collect();
    (kept_old != kept_new).then(|| (Class::Breaking, "positional arguments reordered".to_owned()))
}

/// The command's flags: parameters by their Rust name (`key` maps it), the tool's own flags by
/// their name.
fn flags(op: &OperationSurface, key: &dyn Fn(&str) -> String) -> Flags {
    let mut all: Flags = command_line::flags(op)
        .into_iter()
        .map(|(rust, flag)| (key(&rust), (flag, op.params[&rust].required)))
        .collect();
    for (flag, required) in command_line::own_flags(op) {
        all.insert(format!("--{flag}"), (flag.to_owned(), required));
    }
    all
}
