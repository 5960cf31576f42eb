//! The part of an operation's `--help` after its flags (clap's `after_long_help`, so `-h`
//! stays short), the way `gh` lays it out: a "JSON body" section listing the body's members
//! ([`body_members`]) and an example command line with a body built from the schema.

use crate::surface::{OperationSurface, Surface, body_members, command_line};
use std::fmt::Write;

/// A body shape lists at most this many members; the rest are counted.
const MAX_MEMBERS: usize = 40;

/// The text after the flags of `op`'s command `line` (`<bin> <area> <command>`); empty for an
/// operation without a body.
pub(super) fn render(surface: &Surface, op: &OperationSurface, line: &str) -> String {
    let Some(body) = &op.body else {
        return String::new();
    };
    let shapes = body_members::shapes(surface, &body.ty);
    let mut out = String::from("JSON body (--json):\n");
    match shapes.as_slice() {
        [] => {
            let ty = body_members::json_type(surface, &body.ty, None);
            let _ = writeln!(out, "  {ty}; the API document lists no members");
        }
        [one] => list(&mut out, &one.members),
        several => {
            let _ = writeln!(out, "  one of {} shapes:", several.len());
            for shape in several {
                let _ = writeln!(out, "  {}:", shape.variant.as_deref().unwrap_or_default());
                list(&mut out, &shape.members);
            }
        }
    }
    let example = body_members::example(surface, &body.ty);
    let _ = write!(
        out,
        "\nExample:\n  $ {}{} --json {}",
        line,
        arguments(op),
        quoted(&example.to_string())
    );
    out
}

/// One line per member, names aligned, capped at [`MAX_MEMBERS`].
fn list(out: &mut String, members: &[body_members::Member]) {
    let width = members
        .iter()
        .take(MAX_MEMBERS)
        .map(|m| m.name.len())
        .max()
        .unwrap_or(0);
    for member in members.iter().take(MAX_MEMBERS) {
        let mut what = member.ty.clone();
        if member.required {
            what.push_str(", required");
        }
        if !member.values.is_empty() {
            let _ = write!(what, "; one of: {}", member.values.join(", "));
        }
        if let Some(doc) = &member.doc {
            let _ = write!(what, ". {doc}");
        }
        let _ = writeln!(out, "    {:width$}  {what}", member.name);
    }
    if members.len() > MAX_MEMBERS {
        let _ = writeln!(out, "    … {} more members", members.len() - MAX_MEMBERS);
    }
}

/// The positional arguments and required flags of `op`'s command, as placeholders.
fn arguments(op: &OperationSurface) -> String {
    let mut out = String::new();
    for rust in command_line::positionals(op) {
        let _ = write!(out, " <{rust}>");
    }
    for (rust, flag) in command_line::flags(op) {
        if op.params[&rust].required {
            let _ = write!(out, " --{flag} <{rust}>");
        }
    }
    if let Some(purchase) = &op.effects.purchase {
        out.push_str(if purchase.ceiling.is_empty() {
            " --accept-any-amount"
        } else {
            " --max-total <AMOUNT>"
        });
    }
    out
}

/// `text` as one single-quoted shell word (a `'` inside written `'\''`; too small a rule for a
/// crate).
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}
