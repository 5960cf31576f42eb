//! Members of a JSON object that no field of its type names.
//!
//! By default they are skipped: an API may add members to its answers, and an SDK decoding a
//! response must not fail on them. Input a person or an agent wrote is another matter: an
//! unknown member there is a mistake (`quietrun` for `quietRun`) that would otherwise be dropped
//! silently and the rest sent. [`refusing_unknown`] decodes such input with every object
//! refusing a member it does not name, unless its type keeps them (`additionalProperties`).
//!
//! The mode is thread-local rather than a parameter: decoding is synchronous, and a union
//! decodes its members from the value's text with a deserializer of their own, which no
//! wrapper of the outer deserializer (`serde_ignored`) would reach.

use serde_json::Value;
use std::cell::Cell;

use serde::de::{DeserializeSeed, Deserializer, Error as _};

thread_local! {
    static REFUSING: Cell<bool> = const { Cell::new(false) };
}

/// Runs `decode` with every object refusing a member that none of its fields names and that
/// its type does not keep: the error names the member (a `serde_path_to_error` path ends at
/// it), a close match among the allowed names, and the allowed names.
///
/// ```
/// #[derive(Debug)]
/// pub struct Zone {
///     pub name: String,
///     pub quiet_run: Option<bool>,
/// }
/// oncegen_codec::json_object!(Zone { name, quiet_run = "quietRun" optional });
///
/// let text = r#"{"name":"a.test","quietrun":true}"#;
/// assert!(serde_json::from_str::<Zone>(text).is_ok());
/// let refused = oncegen_codec::refusing_unknown(|| serde_json::from_str::<Zone>(text));
/// let message = refused.unwrap_err().to_string();
/// assert!(message.contains("unknown member `quietrun`, did you mean `quietRun`?"), "{message}");
/// ```
pub fn refusing_unknown<T>(decode: impl FnOnce() -> T) -> T {
    /// Restores the mode found, also when `decode` panics.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            REFUSING.set(self.0);
        }
    }
    let _restore = Restore(REFUSING.replace(true));
    decode()
}

/// Whether objects now refuse members they do not name.
pub(crate) fn refusing() -> bool {
    REFUSING.get()
}

/// The error for the member `key` of an object whose members are `allowed`.
pub(crate) fn message<'a>(key: &str, allowed: impl Iterator<Item = &'a str> + Clone) -> String {
    let mut text = format!("unknown member `{key}`");
    if let Some(close) = closest(key, allowed.clone()) {
        text.push_str(&format!(", did you mean `{close}`?"));
    }
    let names: Vec<String> = allowed.map(|name| format!("`{name}`")).collect();
    if names.is_empty() {
        text.push_str(" (this object has no members)");
    } else {
        text.push_str(&format!(" (the members here: {})", names.join(", ")));
    }
    text
}

/// The allowed name `key` most likely meant, when one is close: the same letters in another
/// case or with other separators, else one letter added, dropped, changed or swapped, else a
/// Jaro-Winkler similarity above 0.85 (`strsim`, as clap's suggestions).
pub fn closest<'a>(key: &str, allowed: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let plain = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let wanted = plain(key);
    allowed
        .map(|name| {
            let name_plain = plain(name);
            let score = if name_plain == wanted {
                1.0
            } else if strsim::osa_distance(&wanted, &name_plain) == 1 {
                0.99
            } else {
                strsim::jaro_winkler(&wanted, &name_plain)
            };
            (score, name)
        })
        .filter(|(score, _)| *score > 0.85)
        .fold(
            None,
            |best: Option<(f64, &str)>, (score, name)| match best {
                Some((top, _)) if top >= score => best,
                _ => Some((score, name)),
            },
        )
        .map(|(_, name)| name)
}

/// A member's value refused with a message: read through `next_value_seed`, so that the
/// error's path (`serde_path_to_error`) ends at the member.
pub(crate) struct Refuse(pub(crate) String);

impl<'de> DeserializeSeed<'de> for Refuse {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, _: D) -> Result<(), D::Error> {
        Err(D::Error::custom(self.0))
    }
}

/// The paths of the members of `given` that `typed` (the body decoded and encoded again) no
/// longer has: the ones its type does not define. A `null` member is no loss (`None` is left
/// out).
pub fn dropped_members(given: &Value, typed: &Value) -> Vec<String> {
    let mut paths = Vec::new();
    walk(given, typed, "", &mut paths);
    paths
}

fn walk(given: &Value, typed: &Value, at: &str, paths: &mut Vec<String>) {
    match (given, typed) {
        (Value::Object(given), Value::Object(typed)) => {
            for (key, value) in given {
                let path = if at.is_empty() {
                    key.clone()
                } else {
                    format!("{at}.{key}")
                };
                match typed.get(key) {
                    Some(typed) => walk(value, typed, &path, paths),
                    None if !value.is_null() => paths.push(format!("`{path}`")),
                    None => {}
                }
            }
        }
        (Value::Array(given), Value::Array(typed)) => {
            for (i, (value, typed)) in given.iter().zip(typed).enumerate() {
                walk(value, typed, &format!("{at}[{i}]"), paths);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::{closest, message};

    #[test]
    fn a_close_name_is_suggested_and_a_far_one_is_not() {
        let allowed = ["name", "quietRun", "template", "text", "records"];
        assert_eq!(closest("quietrun", allowed.into_iter()), Some("quietRun"));
        assert_eq!(closest("textFile", allowed.into_iter()), Some("text"));
        assert_eq!(closest("record", allowed.into_iter()), Some("records"));
        assert_eq!(
            closest("tll", ["name", "type", "ttl"].into_iter()),
            Some("ttl")
        );
        assert_eq!(closest("colour", allowed.into_iter()), None);
        let text = message("colour", allowed.into_iter());
        assert!(!text.contains("did you mean"), "{text}");
        assert!(text.contains("`template`, `text`"), "{text}");
    }
    #[test]
    fn dropped_members_are_the_given_ones_the_typed_body_lost() {
        let given = serde_json::json!({"name": "a", "quietrun": true, "gone": null,
            "records": [{"ttl": 1, "colour": "red"}]});
        let typed = serde_json::json!({"name": "a", "records": [{"ttl": 1}]});
        assert_eq!(
            super::dropped_members(&given, &typed),
            ["`quietrun`", "`records[0].colour`"]
        );
    }
}
