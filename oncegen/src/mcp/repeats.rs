//! A fact said once per tool: a sentence or clause of the tool's description is not said again
//! in the description of one of its arguments (or their members), and a description that says
//! only what the names and the schema say ("Page number." of `page`) is left out.

use heck::ToSnakeCase;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// Removes from every description in `schema` the sentences and clauses `said` already says.
pub(super) fn drop_said(schema: &mut Value, said: &str) {
    let said: BTreeSet<String> = clauses(said).map(normal).collect();
    walk(schema, &mut |object| {
        let Some(text) = object.get("description").and_then(Value::as_str) else {
            return;
        };
        let kept: String = clauses(text)
            .filter(|c| !(worth_matching(c) && said.contains(&normal(c))))
            .collect();
        let kept = kept.trim_end().trim_end_matches([';', ',', ':']);
        if kept.is_empty() {
            object.remove("description");
        } else if kept.len() < text.trim_end().len() {
            let end = if kept.ends_with(['.', '!', '?', ')']) {
                ""
            } else {
                "."
            };
            object.insert("description".into(), Value::from(format!("{kept}{end}")));
        }
    });
}

/// Words a description may use that say nothing beyond an argument's names and schema.
const SAID_BY_SCHEMA: [&str; 21] = [
    "a", "an", "the", "of", "to", "for", "by", "and", "or", "in", "on", "with", "from", "its",
    "string", "integer", "number", "boolean", "list", "object", "body",
];

/// Removes every description in `schema` (the arguments of tool `tool`) whose words are all
/// the tool's, the described member's or an enclosing one's name, a type's, or a value its
/// schema states (`format`, `default`, bounds).
pub(super) fn drop_restated(schema: &mut Value, tool: &str) {
    restated(schema, &words(tool).collect());
}

fn restated(schema: &mut Value, names: &BTreeSet<String>) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    let said = |object: &Map<String, Value>, text: &str| {
        let mut known = names.clone();
        for key in ["format", "default", "minimum", "maximum"] {
            if let Some(value) = object.get(key) {
                known.insert(key.to_owned());
                known.extend(words(&value.to_string()));
            }
        }
        words(text).all(|w| known.contains(&w) || SAID_BY_SCHEMA.contains(&w.as_str()))
    };
    if let Some(text) = object.get("description").and_then(Value::as_str)
        && said(object, text)
    {
        object.remove("description");
    }
    for (key, value) in object.iter_mut() {
        match (key.as_str(), value) {
            ("properties", Value::Object(members)) => {
                for (name, member) in members.iter_mut() {
                    let mut names = names.clone();
                    names.extend(words(name));
                    restated(member, &names);
                }
            }
            ("items" | "additionalProperties", member) => restated(member, names),
            ("anyOf" | "oneOf" | "allOf", Value::Array(variants)) => {
                variants.iter_mut().for_each(|v| restated(v, names));
            }
            _ => {}
        }
    }
}

/// The words of `text` (an identifier's parts too), lowercased, a plural's `s` dropped.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .flat_map(|w| {
            w.to_snake_case()
                .split('_')
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .filter(|w| !w.is_empty())
        .map(|w| match w.strip_suffix('s') {
            Some(stem) if stem.len() > 2 => stem.to_owned(),
            _ => w,
        })
}

/// Calls `visit` on every schema object in `schema`: itself, its properties, items, variants.
fn walk(schema: &mut Value, visit: &mut dyn FnMut(&mut serde_json::Map<String, Value>)) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    visit(object);
    for (key, value) in object.iter_mut() {
        match (key.as_str(), value) {
            ("properties", Value::Object(members)) => {
                members.values_mut().for_each(|m| walk(m, visit));
            }
            ("items" | "additionalProperties", member) => walk(member, visit),
            ("anyOf" | "oneOf" | "allOf", Value::Array(variants)) => {
                variants.iter_mut().for_each(|v| walk(v, visit));
            }
            _ => {}
        }
    }
}

/// `text` cut after each `.`, `;` or `:` that a space follows, the separators kept, so that
/// the clauses joined are `text` again.
fn clauses(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest
            .char_indices()
            .zip(rest.chars().skip(1))
            .find(|((_, c), next)| matches!(c, '.' | ';' | ':') && next.is_whitespace())
            .map_or(rest.len(), |((i, _), _)| i + 2);
        let (clause, after) = rest.split_at(end);
        rest = after;
        Some(clause)
    })
}

/// A clause compared without case, surrounding space or its closing separator.
fn normal(clause: &str) -> String {
    clause
        .trim()
        .trim_end_matches(['.', ';', ':'])
        .to_lowercase()
}

/// Whether `clause` says enough to count as a repeat (not a lone word such as "e.g.").
fn worth_matching(clause: &str) -> bool {
    normal(clause).split_whitespace().count() >= 2
}

#[cfg(test)]
mod tests {
    use super::{clauses, drop_said};
    use serde_json::json;

    #[test]
    fn a_description_that_says_only_names_and_schema_is_left_out() {
        let mut schema = json!({"type": "object", "properties": {
            "page": {"type": "integer", "description": "Page number."},
            "offset": {"type": "integer", "default": 0, "description": "Offset, default 0."},
            "id": {"type": "string", "format": "uuid", "description": "Invoice uuid."},
            "ttl": {"type": "integer", "description": "Seconds."},
            "limit": {"type": "integer", "default": 50, "description": "Page size, default 50."}
        }});
        super::drop_restated(&mut schema, "pay_invoice");
        let described: Vec<&str> = ["page", "offset", "id", "ttl", "limit"]
            .into_iter()
            .filter(|p| schema["properties"][p].get("description").is_some())
            .collect();
        assert_eq!(described, ["ttl", "limit"]);
    }

    #[test]
    fn clauses_join_back_into_the_text() {
        let text = "Body: all optional; arrays replace. IPv4 only.";
        let cut: Vec<&str> = clauses(text).collect();
        assert_eq!(
            cut,
            ["Body: ", "all optional; ", "arrays replace. ", "IPv4 only."]
        );
        assert_eq!(cut.concat(), text);
    }

    #[test]
    fn an_argument_does_not_repeat_what_the_tool_says() {
        let mut schema = json!({"type": "object", "properties": {
            "body": {"type": "object", "description": "Update body: all optional; omitted fields stay unchanged. IPv4 only.",
                "properties": {"ttl": {"type": "integer", "description": "Expiry is capped."}}},
            "id": {"type": "string", "description": "Seconds."}
        }});
        drop_said(
            &mut schema,
            "Updates it. Omitted fields stay unchanged. IPv4 only; expiry is capped.",
        );
        let body = &schema["properties"]["body"];
        assert_eq!(body["description"], "Update body: all optional.");
        assert!(body["properties"]["ttl"].get("description").is_none());
        assert_eq!(schema["properties"]["id"]["description"], "Seconds.");
    }
}
