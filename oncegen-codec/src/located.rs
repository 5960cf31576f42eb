//! A decoding error with the JSON path where it occurred (`records[0].ttl`), also inside a
//! union: a union decodes its members from the value's text with a deserializer of their own,
//! so the path inside the member travels in the message (`at `path`: …`), and [`Located::of`]
//! joins it to the path outside.

use std::fmt;

use serde::de::DeserializeOwned;

/// A decoding error and where it occurred.
#[derive(Debug, Clone, PartialEq)]
pub struct Located {
    /// The JSON path (`items[0].name`); empty for the value itself.
    pub path: String,
    /// What went wrong there.
    pub message: String,
    /// The line and column in the text where decoding stopped: how far it got.
    pub(crate) reached: (usize, usize),
}

impl Located {
    /// The error `error` at its path, joined with a path its message carries from a union.
    pub fn of(error: &serde_path_to_error::Error<serde_json::Error>) -> Self {
        let outer = error.path().to_string();
        let outer = if outer == "." { String::new() } else { outer };
        let message = error.inner().to_string();
        // serde_json appends " at line L column C" to a message: not a JSON path, and the
        // line and column of a member's own text besides.
        let message = match message.rsplit_once(" at line ") {
            Some((text, place)) if place.contains(" column ") => text.to_owned(),
            _ => message,
        };
        let reached = (error.inner().line(), error.inner().column());
        match split(&message) {
            Some((inner, rest)) => Located {
                path: join(&outer, inner),
                message: rest.to_owned(),
                reached,
            },
            None => Located {
                path: outer,
                message,
                reached,
            },
        }
    }
}

impl fmt::Display for Located {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "at `{}`: {}", self.path, self.message)
        }
    }
}

/// Decodes the JSON text `json` as a `T` (nothing may follow it), locating an error.
pub fn from_str<T: DeserializeOwned>(json: &str) -> Result<T, Located> {
    let mut de = serde_json::Deserializer::from_str(json);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| Located::of(&e))?;
    de.end().map_err(|e| Located {
        path: String::new(),
        message: format!("trailing input: {e}"),
        reached: (e.line(), e.column()),
    })?;
    Ok(value)
}

/// Decodes `value` as a `T`, locating an error.
pub fn from_value<T: DeserializeOwned>(value: &serde_json::Value) -> Result<T, Located> {
    serde_path_to_error::deserialize(value).map_err(|e| Located::of(&e))
}

/// The path and the rest of a message `at `path`: rest`.
fn split(message: &str) -> Option<(&str, &str)> {
    message.strip_prefix("at `")?.split_once("`: ")
}

/// The path `inner` inside the value at `outer`.
fn join(outer: &str, inner: &str) -> String {
    if outer.is_empty() || inner.starts_with('[') {
        format!("{outer}{inner}")
    } else {
        format!("{outer}.{inner}")
    }
}

#[cfg(test)]
mod tests {
    use super::from_str;

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Set {
        ttl: u32,
    }

    #[test]
    fn paths_of_a_member_and_of_a_union_inside_it_are_joined() {
        let e = from_str::<Vec<Set>>(r#"[{"ttl":1},{"ttl":"300"}]"#).unwrap_err();
        assert_eq!(e.path, "[1].ttl");
        assert!(e.message.starts_with("invalid type: string \"300\""), "{e}");
        assert!(!e.message.contains("line"), "{e}");
        assert_eq!(e.to_string(), format!("at `[1].ttl`: {}", e.message));
        assert_eq!(super::split("at `a[0]`: wrong"), Some(("a[0]", "wrong")));
        assert_eq!(super::join("records[2]", "a[0]"), "records[2].a[0]");
        assert_eq!(super::join("records", "[0].a"), "records[0].a");
        assert_eq!(super::join("", "a"), "a");
    }
}
