//! The server's own words in an error body that no `x-error-envelope` describes: where common
//! frameworks put them (`message`, `detail` as text or as FastAPI's list of `{loc, msg}`,
//! `error` as text or `{message}`, problem+json's `title` and `detail`, `errors[].message`).

use serde_json::Value;

/// How many entries of a list of problems the message names before "and N more".
const MAX_LISTED: usize = 5;

/// The message a JSON error body carries in a common place, if any.
pub(crate) fn common_message(body: &Value) -> Option<String> {
    let text = |v: &Value| {
        v.as_str()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    let title = body.get("title").and_then(text);
    let detail = body.get("detail");
    // problem+json: `title`, and `detail` when it says more.
    if let (Some(title), Some(detail)) = (&title, detail.and_then(text))
        && !detail.contains(title.as_str())
    {
        return Some(format!("{title}: {detail}"));
    }
    body.get("message")
        .and_then(text)
        .or_else(|| detail.and_then(text))
        .or_else(|| detail.and_then(problems))
        .or_else(|| {
            body.get("error")
                .and_then(|e| text(e).or_else(|| e.get("message").and_then(text)))
        })
        .or_else(|| body.get("errors").and_then(problems))
        .or_else(|| body.get("error_description").and_then(text))
        .or(title)
}

/// A list of problems (`[{loc, msg}]` as FastAPI and pydantic send, or `[{message}]`) as one
/// line: `body.name: field required; query.limit: must be positive`.
fn problems(list: &Value) -> Option<String> {
    let items = list.as_array()?;
    let lines: Vec<String> = items
        .iter()
        .filter_map(|item| {
            let msg = item
                .get("msg")
                .or_else(|| item.get("message"))
                .or_else(|| item.get("detail"))
                .and_then(Value::as_str)?;
            let loc = item.get("loc").and_then(Value::as_array).map(|parts| {
                parts
                    .iter()
                    .map(|p| match p {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(".")
            });
            Some(match loc {
                Some(loc) if !loc.is_empty() => format!("{loc}: {msg}"),
                _ => msg.to_owned(),
            })
        })
        .collect();
    if lines.is_empty() {
        return None;
    }
    let mut out = lines
        .iter()
        .take(MAX_LISTED)
        .cloned()
        .collect::<Vec<_>>()
        .join("; ");
    if lines.len() > MAX_LISTED {
        out.push_str(&format!("; and {} more", lines.len() - MAX_LISTED));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_common_places() {
        let cases = [
            (
                json!({"message": "no such collection"}),
                Some("no such collection"),
            ),
            (json!({"detail": "Not Found"}), Some("Not Found")),
            (
                json!({"detail": [
                    {"loc": ["body", "name"], "msg": "Field required", "type": "missing"},
                    {"loc": ["query", "limit", 0], "msg": "Input should be a valid integer", "type": "int_parsing"}
                ]}),
                Some("body.name: Field required; query.limit.0: Input should be a valid integer"),
            ),
            (json!({"error": "invalid_token"}), Some("invalid_token")),
            (
                json!({"error": {"message": "quota exceeded"}}),
                Some("quota exceeded"),
            ),
            (
                json!({"type": "about:blank", "title": "Out of credit", "detail": "Your balance is 30"}),
                Some("Out of credit: Your balance is 30"),
            ),
            (
                json!({"title": "Not Found", "status": 404}),
                Some("Not Found"),
            ),
            (
                json!({"errors": [{"message": "a"}, {"message": "b"}]}),
                Some("a; b"),
            ),
            (json!({"status": 500}), None),
            (json!({"message": "   "}), None),
        ];
        for (body, expected) in cases {
            assert_eq!(common_message(&body).as_deref(), expected, "{body}");
        }
    }

    #[test]
    fn a_long_list_is_cut() {
        let items: Vec<Value> = (0..8).map(|i| json!({"msg": format!("m{i}")})).collect();
        let message = common_message(&json!({ "detail": items })).unwrap();
        assert_eq!(message, "m0; m1; m2; m3; m4; and 3 more");
    }
}
