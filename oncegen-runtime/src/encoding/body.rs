//! How a successful response body becomes the value a call returns ([`Format`]): JSON into a
//! type ([`Json`]), text ([`Text`]), bytes with their media type ([`Raw`], a [`Binary`]), or
//! nothing ([`NoBody`]). Generated code picks the format from the media types the operation
//! documents.

use std::marker::PhantomData;

use bytes::Bytes;
use http::HeaderMap;
use serde::de::DeserializeOwned;

use crate::binary::{Binary, content_type, essence};

/// Why a body did not decode.
#[derive(Debug)]
pub struct DecodeFailure {
    /// What went wrong.
    pub message: String,
}

/// How a successful body is decoded.
pub trait Format {
    /// The decoded value.
    type Output;
    /// The `Accept` a call sends when the request names none.
    const ACCEPT: &'static str;
    /// Decodes `body` (with the response's `headers`).
    fn decode(headers: &HeaderMap, body: Bytes) -> Result<Self::Output, DecodeFailure>;
}

/// A JSON body decoded into `T`; an empty body reads as `null` (so `Option<T>` and `()` accept it).
/// A body that does not decode fails, its message naming a `Content-Type` that is not JSON.
pub struct Json<T>(PhantomData<fn() -> T>);

impl<T: DeserializeOwned> Format for Json<T> {
    type Output = T;
    const ACCEPT: &'static str = "application/json";

    fn decode(headers: &HeaderMap, body: Bytes) -> Result<T, DecodeFailure> {
        let empty = body.iter().all(u8::is_ascii_whitespace);
        let json: &[u8] = if empty { b"null" } else { &body };
        serde_json::from_slice(json).map_err(|e| DecodeFailure {
            message: if empty {
                let text = e.to_string();
                let position = format!(" at line {} column {}", e.line(), e.column());
                format!(
                    "empty body: {}",
                    text.strip_suffix(&position).unwrap_or(&text)
                )
            } else {
                match content_type(headers) {
                    Some(c) if !is_json(&c) => format!("the body is `{c}`, not JSON: {e}"),
                    _ => located::<T>(json, e),
                }
            },
        })
    }
}

/// The message of a JSON decode failure, led by the path of the value that failed
/// (`data.items[2].created_at: premature end of input at line 1 column 373`) and, when the
/// message does not show it, the value found there. The path comes from decoding `json` a
/// second time through `serde_path_to_error`: only after a failure, so a body that decodes
/// pays nothing for it.
fn located<T: DeserializeOwned>(json: &[u8], first: serde_json::Error) -> String {
    let mut tracked = serde_json::Deserializer::from_slice(json);
    let Err(failure) = serde_path_to_error::deserialize::<_, T>(&mut tracked) else {
        // The value decoded; what failed was after it (trailing characters).
        return first.to_string();
    };
    let path = failure.path().clone();
    let message = failure.into_inner().to_string();
    if path.iter().next().is_none() {
        return message;
    }
    match found_at(json, &path) {
        Some(found) if !message.contains(&found) => format!("{path}: {message} (found {found})"),
        _ => format!("{path}: {message}"),
    }
}

/// How many characters of the value found at a failing path a decode message shows.
const MAX_FOUND_CHARS: usize = 80;

/// The JSON text of the scalar at `path` in `json` (cut to [`MAX_FOUND_CHARS`] characters), if
/// the body is JSON and the path leads to a string, number, boolean or null.
fn found_at(json: &[u8], path: &serde_path_to_error::Path) -> Option<String> {
    use serde_path_to_error::Segment;
    let root: serde_json::Value = serde_json::from_slice(json).ok()?;
    let mut value = &root;
    for segment in path.iter() {
        value = match segment {
            Segment::Seq { index } => value.get(*index)?,
            Segment::Map { key } => value.get(key.as_str())?,
            Segment::Enum { .. } | Segment::Unknown => return None,
        };
    }
    if value.is_object() || value.is_array() {
        return None;
    }
    let text = value.to_string();
    Some(match text.char_indices().nth(MAX_FOUND_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    })
}

/// A text body as a `String`; it must be UTF-8 (the charset JSON-era servers send). The
/// response's own `Content-Type` decides how it reads: a JSON one whose value is a string (a
/// server that answers a documented `text/plain` with `"1.0.0"`) gives that string; any other
/// body is the text as it came.
pub struct Text;

impl Format for Text {
    type Output = String;
    const ACCEPT: &'static str = "text/*";

    fn decode(headers: &HeaderMap, body: Bytes) -> Result<String, DecodeFailure> {
        if content_type(headers).is_some_and(|c| is_json(&c))
            && let Ok(text) = serde_json::from_slice::<String>(&body)
        {
            return Ok(text);
        }
        String::from_utf8(body.to_vec()).map_err(|e| DecodeFailure {
            message: format!(
                "the text body ({}) is not UTF-8: invalid byte at {}",
                content_type(headers).unwrap_or_else(|| "no content type".to_owned()),
                e.utf8_error().valid_up_to()
            ),
        })
    }
}

/// Any other body: its bytes and `Content-Type`, as they came.
pub struct Raw;

impl Format for Raw {
    type Output = Binary;
    const ACCEPT: &'static str = "*/*";

    fn decode(headers: &HeaderMap, body: Bytes) -> Result<Binary, DecodeFailure> {
        Ok(Binary::from_response(headers, body))
    }
}

/// A response documented without a body (`204`, or no `content`): whatever came is ignored.
pub struct NoBody;

impl Format for NoBody {
    type Output = ();
    const ACCEPT: &'static str = "*/*";

    fn decode(_: &HeaderMap, _: Bytes) -> Result<(), DecodeFailure> {
        Ok(())
    }
}

/// Whether a `Content-Type` names JSON: `application/json` or a `…+json` type.
pub(crate) fn is_json(content_type: &str) -> bool {
    // The common answer first: no parameters to strip.
    if content_type.eq_ignore_ascii_case("application/json") {
        return true;
    }
    let essence = essence(content_type);
    essence.eq_ignore_ascii_case("application/json")
        || essence
            .rsplit_once('+')
            .is_some_and(|(_, suffix)| suffix.eq_ignore_ascii_case("json"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::header::CONTENT_TYPE;

    fn headers(content_type: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(CONTENT_TYPE, content_type.parse().unwrap());
        h
    }

    #[test]
    fn json_reads_an_empty_body_as_null() {
        let none = Json::<Option<u8>>::decode(&HeaderMap::new(), Bytes::new()).unwrap();
        assert_eq!(none, None);
        let err = Json::<u8>::decode(&HeaderMap::new(), Bytes::from_static(b" ")).unwrap_err();
        assert!(
            err.message.starts_with("empty body: invalid type: null"),
            "{}",
            err.message
        );
    }

    #[test]
    fn text_must_be_utf8_and_names_the_content_type() {
        let h = headers("text/csv; charset=utf-8");
        assert_eq!(
            Text::decode(&h, Bytes::from_static(b"a,b\n")).unwrap(),
            "a,b\n"
        );
        let err = Text::decode(&h, Bytes::from_static(b"ok\xff")).unwrap_err();
        assert!(
            err.message.contains("text/csv") && err.message.contains("at 2"),
            "{}",
            err.message
        );
    }

    #[test]
    fn json_names_a_content_type_that_is_not_json() {
        let err = Json::<serde_json::Value>::decode(
            &headers("text/csv; charset=utf-8"),
            Bytes::from_static(b"a,b\n1,2\n"),
        )
        .unwrap_err();
        assert!(
            err.message
                .starts_with("the body is `text/csv; charset=utf-8`, not JSON: expected value"),
            "{}",
            err.message
        );
        let err =
            Json::<u8>::decode(&headers("application/json"), Bytes::from_static(b"x")).unwrap_err();
        assert!(err.message.starts_with("expected value"), "{}", err.message);
    }

    #[test]
    fn text_reads_a_json_string_by_the_response_content_type() {
        let json = headers("application/json");
        let text =
            |h: &HeaderMap, b: &'static [u8]| Text::decode(h, Bytes::from_static(b)).unwrap();
        assert_eq!(text(&json, b"\"1.0.0\""), "1.0.0");
        assert_eq!(
            text(&headers("application/vnd.x+json"), b" \"a\\\"b\" "),
            "a\"b"
        );
        // Another JSON value is its JSON text; a text type is never decoded.
        assert_eq!(text(&json, b"{\"a\":1}"), "{\"a\":1}");
        assert_eq!(text(&headers("text/plain"), b"\"1.0.0\""), "\"1.0.0\"");
        assert_eq!(text(&HeaderMap::new(), b"\"1.0.0\""), "\"1.0.0\"");
    }

    #[test]
    fn json_media_types() {
        for yes in [
            "application/json",
            "Application/JSON; charset=utf-8",
            "application/problem+json",
        ] {
            assert!(is_json(yes), "{yes}");
        }
        for no in ["text/json-ish", "text/csv", "application/jsonl", ""] {
            assert!(!is_json(no), "{no}");
        }
    }

    #[test]
    fn raw_keeps_bytes_and_media_type_and_debug_hides_the_bytes() {
        let b = Raw::decode(
            &headers("application/pdf; x=1"),
            Bytes::from_static(b"%PDF"),
        )
        .unwrap();
        assert_eq!(b.media_type(), Some("application/pdf"));
        assert_eq!(b.bytes(), &Bytes::from_static(b"%PDF"));
        assert_eq!(b.text(), Some("%PDF"));
        assert!(!format!("{b:?}").contains("PDF\""), "{b:?}");
    }
}
