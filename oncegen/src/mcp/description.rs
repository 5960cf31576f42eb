//! What the agent reads about a tool: the operation's summary and description, then one line
//! of what calling it does. Each fact is said once: the summary only when the description
//! does not already say it, the `operationId` only when the tool's name does not spell it, and
//! how writes, `jq` and `wait` behave in the server's instructions or the argument's schema.

use crate::surface::OperationSurface;
use heck::ToSnakeCase;
use serde_json::Value;

/// The description of tool `name` for operation `id`, whose arguments `input` describes.
pub(super) fn of(id: &str, name: &str, op: &OperationSurface, input: &Value) -> String {
    let text = op.description.as_deref().unwrap_or_default();
    let mut said: Vec<String> = Vec::new();
    if let Some(summary) = op.summary.as_deref().filter(|s| !restates(text, s)) {
        said.push(sentence(summary));
    }
    if !text.is_empty() {
        said.push(text.to_owned());
    }
    if let Some(note) = &op.deprecation_note {
        said.push(format!("Deprecated: {}", sentence(note)));
    } else if op.deprecated {
        said.push("Deprecated.".to_owned());
    }
    let prose = said.join(" ");
    let effects = effects(id, name, op, input);
    if prose.is_empty() {
        effects
    } else {
        format!("{prose}\n{effects}")
    }
}

/// What calling the tool does: its request, effects and scopes.
fn effects(id: &str, name: &str, op: &OperationSurface, input: &Value) -> String {
    let mut line = String::new();
    if id.to_snake_case() != name {
        line.push_str(&format!("`{id}`: "));
    }
    line.push_str(&format!("{} {}.", op.method.as_str(), op.path));
    let e = &op.effects;
    if e.destructive {
        line.push_str(" Destructive.");
    }
    if let Some(what) = &e.grants_access {
        line.push_str(&format!(
            " Grants access: {what} (needs --allow-access-grants)."
        ));
    }
    if let Some(purchase) = &e.purchase {
        match offered(&purchase.ceiling, input).as_slice() {
            [] => line.push_str(
                " Charges the account an amount that cannot be read before paying: no ceiling \
                 bounds it (needs --allow-any-amount).",
            ),
            names => line.push_str(&format!(
                " Charges the account: set a spending ceiling in `body.{}` (the server's \
                 --max-total applies when absent; a purchase without a ceiling is refused).",
                names.join("` or `body.")
            )),
        }
    }
    if e.long_running {
        line.push_str(" Long-running: answers an operation receipt to follow.");
    }
    match op.scopes.as_slice() {
        [] => {}
        [scope] => line.push_str(&format!(" Scope: {scope}.")),
        [first @ .., last] => line.push_str(&format!(" Scope: {} or {last}.", first.join(", "))),
    }
    line
}

/// The members of `ceiling` that the body's schema in `input` offers (all of them if it
/// offers none: a shape left out as deprecated is still accepted).
fn offered<'c>(ceiling: &'c [String], input: &Value) -> Vec<&'c str> {
    let body = &input["properties"]["body"];
    let shapes: Vec<&Value> = match body["anyOf"].as_array() {
        Some(shapes) => shapes.iter().collect(),
        None => vec![body],
    };
    let all = ceiling.iter().map(String::as_str);
    let offered: Vec<&str> = all
        .clone()
        .filter(|m| shapes.iter().any(|s| s["properties"].get(*m).is_some()))
        .collect();
    if offered.is_empty() {
        all.collect()
    } else {
        offered
    }
}

/// `text` ending as a sentence does.
fn sentence(text: &str) -> String {
    let text = text.trim();
    if text.ends_with(['.', '!', '?']) {
        text.to_owned()
    } else {
        format!("{text}.")
    }
}

/// Words that carry no fact of their own.
const FILLER: [&str; 14] = [
    "a", "an", "the", "of", "to", "for", "by", "and", "or", "in", "on", "with", "from", "its",
];

/// Whether `text` says every word of `summary` but filler (a plural or third person counting
/// as its stem: "Lists services" restates "List service").
fn restates(text: &str, summary: &str) -> bool {
    let said: Vec<String> = words(text).collect();
    words(summary)
        .filter(|w| !FILLER.contains(&w.as_str()))
        .all(|w| said.contains(&w))
}

/// The lowercased words of `text`, a trailing `s` dropped.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let w = w.to_lowercase();
            match w.strip_suffix('s') {
                Some(stem) if stem.len() > 2 => stem.to_owned(),
                _ => w,
            }
        })
}

#[cfg(test)]
mod tests {
    use super::{restates, sentence};

    #[test]
    fn a_summary_is_restated_only_when_the_description_says_each_of_its_words() {
        assert!(restates(
            "Creates an unpaid draft order; this does not charge the account.",
            "Create an unpaid draft order"
        ));
        assert!(restates(
            "Lists billing service items.",
            "List billing services"
        ));
        assert!(!restates("Reads one task.", "Get a dedicated task"));
        assert!(!restates("", "Get a dedicated task"));
    }

    #[test]
    fn a_summary_becomes_a_sentence() {
        assert_eq!(sentence("List regions"), "List regions.");
        assert_eq!(sentence("Done?"), "Done?");
    }
}
