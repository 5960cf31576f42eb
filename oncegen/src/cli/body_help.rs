//! The part of an operation's `--help` after its flags (clap's `after_long_help`, so `-h`
//! stays short), the way `gh` lays it out: a "JSON body" section listing the body's members
//! ([`body_members`]) and an example command line with the document's example of the body, else
//! one built from the schema.

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
    let example = body
        .example
        .clone()
        .unwrap_or_else(|| body_members::example(surface, &body.ty));
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

#[cfg(test)]
mod tests {
    use super::render;
    use crate::surface::Surface;

    /// A media type's named example, a `$ref`'d schema's `example`, and neither.
    const DOCUMENT: &str = r#"
openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /a:
    post:
      operationId: named
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Thing'}
            examples: {small: {value: {name: from-examples}}}
      responses: {'204': {description: ok}}
  /b:
    post:
      operationId: fromSchema
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Thing'}
      responses: {'204': {description: ok}}
  /c:
    post:
      operationId: built
      requestBody:
        content:
          application/json:
            schema: {type: object, required: [size], properties: {size: {type: integer}}}
      responses: {'204': {description: ok}}
components:
  schemas:
    Thing:
      type: object
      required: [name]
      properties: {name: {type: string, description: What it is called.}}
      example: {name: from-schema}
"#;

    #[test]
    fn the_example_is_the_documents_else_built_from_the_schema() {
        let api = crate::model_str(DOCUMENT, "examples.yaml").expect("the document lowers");
        let surface = Surface::of(&api, "t", "0.1.0");
        let help = |id: &str| render(&surface, &surface.operations[id], "t x y");
        assert!(
            help("named").ends_with(r#"$ t x y --json '{"name":"from-examples"}'"#),
            "{}",
            help("named")
        );
        assert!(help("named").contains("    name  string, required. What it is called.\n"));
        assert!(help("fromSchema").ends_with(r#"--json '{"name":"from-schema"}'"#));
        assert!(help("built").ends_with(r#"--json '{"size":1}'"#));
    }
}
