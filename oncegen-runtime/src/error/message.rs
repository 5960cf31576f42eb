//! The server's own words in an error body that no `x-error-envelope` describes: where common
//! frameworks put them (`message`, `detail` as text or as FastAPI's list of `{loc, msg}`,
//! `error` as text or `{message}`, problem+json's `title` and `detail`, `errors[].message`),
//! the error code (`code`, `error.code`, `errors[0].code`, GraphQL's
//! `errors[0].extensions.code`, `name`, problem+json's `type`, and `error` as text beside a
//! `message` or an OAuth `error_description`), and the reasons a `details` or
//! `errors` list gives.

use serde_json::Value;

/// How many entries of a list of problems the message names before "and N more".
const MAX_LISTED: usize = 5;

/// How many characters of one entry of a list of problems are shown before "…".
const MAX_ENTRY_CHARS: usize = 160;

/// Where common frameworks put an error code, in the order they are tried.
const CODE_POINTERS: &[&str] = &[
    "/code",
    "/error/code",
    "/errors/0/code",
    "/errors/0/extensions/code",
    "/name",
];

/// Where a list of reasons sits beside the message, in the order they are tried.
const REASON_POINTERS: &[&str] = &["/details", "/errors", "/error/details", "/error/errors"];

/// The error code a JSON error body carries in a common place, if any: a string or number at
/// one of [`CODE_POINTERS`], else `error` as text when a `message` or `error_description`
/// says the rest (Chroma's `{"error": "NotFoundError", "message": …}`, OAuth 2.0's
/// `{"error": "invalid_grant", "error_description": …}`), else a problem+json `type` other
/// than `about:blank`.
pub(crate) fn common_code(body: &Value) -> Option<String> {
    let code = |v: &Value| match v {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    CODE_POINTERS
        .iter()
        .find_map(|p| body.pointer(p).and_then(code))
        .or_else(|| {
            let explained = ["message", "error_description"]
                .iter()
                .any(|k| body.get(k).is_some_and(Value::is_string));
            body.get("error")
                .filter(|e| explained && e.is_string())
                .and_then(code)
        })
        .or_else(|| {
            // `type` names the problem only in problem+json (with `title` or `status`).
            let is_problem = body.get("title").is_some() || body.get("status").is_some();
            body.get("type")
                .and_then(Value::as_str)
                .filter(|t| is_problem && !t.trim().is_empty() && *t != "about:blank")
                .map(str::to_owned)
        })
}

/// The reasons of the first `details` or `errors` list of a JSON error body, as one bounded
/// line (at most [`MAX_LISTED`] entries of at most [`MAX_ENTRY_CHARS`] characters each), unless
/// `message` already says them.
pub(crate) fn reasons(body: &Value, message: &str) -> Option<String> {
    REASON_POINTERS
        .iter()
        .find_map(|p| body.pointer(p).and_then(problems))
        .filter(|line| !message.contains(line.as_str()))
}

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
        .or_else(|| body.get("error_description").and_then(text))
        .or_else(|| {
            body.get("error")
                .and_then(|e| text(e).or_else(|| e.get("message").and_then(text)))
        })
        .or_else(|| body.get("errors").and_then(problems))
        .or(title)
}

/// A list of problems (`[{loc, msg}]` as FastAPI and pydantic send, `[{field, message}]`,
/// `[{message, path}]` as GraphQL sends, or plain strings) as one line:
/// `body.name: field required; query.limit: must be positive`.
fn problems(list: &Value) -> Option<String> {
    let lines: Vec<String> = list.as_array()?.iter().filter_map(problem).collect();
    if lines.is_empty() {
        return None;
    }
    let mut out = lines
        .iter()
        .take(MAX_LISTED)
        .map(|line| truncated(line))
        .collect::<Vec<_>>()
        .join("; ");
    if lines.len() > MAX_LISTED {
        out.push_str(&format!("; and {} more", lines.len() - MAX_LISTED));
    }
    Some(out)
}

/// One entry of a list of problems: its text, after its location when it names one.
fn problem(item: &Value) -> Option<String> {
    if let Some(text) = item.as_str() {
        return Some(text.to_owned()).filter(|t| !t.trim().is_empty());
    }
    let msg = ["msg", "message", "detail", "reason", "description"]
        .iter()
        .find_map(|k| item.get(*k).and_then(Value::as_str))?;
    let joined = |parts: &Vec<Value>| {
        parts
            .iter()
            .map(|p| match p {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .collect::<Vec<_>>()
            .join(".")
    };
    let loc = ["loc", "path"]
        .iter()
        .find_map(|k| item.get(*k).and_then(Value::as_array).map(joined))
        .or_else(|| {
            // JSON:API puts the location in `source.pointer`.
            [
                "field",
                "path",
                "property",
                "param",
                "parameter",
                "pointer",
                "source",
            ]
            .iter()
            .find_map(|k| match item.get(*k)? {
                Value::String(s) => Some(s.clone()),
                source => source.get("pointer")?.as_str().map(str::to_owned),
            })
        });
    Some(match loc {
        Some(loc) if !loc.is_empty() => format!("{loc}: {msg}"),
        _ => msg.to_owned(),
    })
}

/// `text` cut to [`MAX_ENTRY_CHARS`] characters, with "…" when cut.
fn truncated(text: &str) -> String {
    match text.char_indices().nth(MAX_ENTRY_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
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
            // OAuth 2.0: `error` is the code, `error_description` the words.
            (
                json!({"error": "invalid_grant", "error_description": "the code expired"}),
                Some("the code expired"),
            ),
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

    #[test]
    fn codes_in_the_common_places() {
        let cases = [
            (
                json!({"code": "no_such_item", "name": "x"}),
                Some("no_such_item"),
            ),
            (json!({"code": 1042}), Some("1042")),
            (
                json!({"error": {"code": "quota", "message": "m"}}),
                Some("quota"),
            ),
            (
                json!({"errors": [{"code": "E1"}, {"code": "E2"}]}),
                Some("E1"),
            ),
            (
                json!({"errors": [{"message": "no", "extensions": {"code": "FORBIDDEN"}}]}),
                Some("FORBIDDEN"),
            ),
            (
                json!({"name": "NotFoundError", "message": "m"}),
                Some("NotFoundError"),
            ),
            (
                json!({"type": "https://example.com/probs/out-of-credit", "title": "Out of credit"}),
                Some("https://example.com/probs/out-of-credit"),
            ),
            (json!({"type": "about:blank", "title": "Not Found"}), None),
            // `type` outside problem+json is not a code.
            (json!({"type": "card", "message": "m"}), None),
            (
                json!({"code": "  ", "error": {"code": {"nested": 1}}}),
                None,
            ),
            (
                json!({"error": "NotFoundError", "message": "Database [x] not found"}),
                Some("NotFoundError"),
            ),
            (
                json!({"error": "invalid_grant", "error_description": "expired"}),
                Some("invalid_grant"),
            ),
            // `error` alone is the message, not a code.
            (json!({"error": "Something went wrong"}), None),
        ];
        for (body, expected) in cases {
            assert_eq!(common_code(&body).as_deref(), expected, "{body}");
        }
    }

    #[test]
    fn reasons_of_a_list_are_bounded_and_not_repeated() {
        let body = json!({"message": "Validation failed", "details": [
            {"field": "name", "message": "is required"},
            {"source": {"pointer": "/data/age"}, "detail": "must be positive"},
            "plain text reason",
        ]});
        assert_eq!(
            reasons(&body, "Validation failed").as_deref(),
            Some("name: is required; /data/age: must be positive; plain text reason")
        );
        // When the message already is the list, it is not said twice.
        let body = json!({"errors": [{"message": "a"}, {"message": "b"}]});
        assert_eq!(reasons(&body, &common_message(&body).unwrap()), None);
        // Long entries are cut, long lists end in "and N more".
        let long = "x".repeat(500);
        let items: Vec<Value> = (0..7).map(|_| json!({"message": long})).collect();
        let line = reasons(&json!({"errors": items}), "m").unwrap();
        assert!(line.ends_with("; and 2 more"), "{line}");
        assert!(
            line.chars().count() < 5 * (MAX_ENTRY_CHARS + 3) + 20,
            "{line}"
        );
        assert_eq!(reasons(&json!({"details": {"not": "a list"}}), "m"), None);
    }
}
