//! `multipart/form-data` bodies, encoded once into fixed bytes (so every retry sends, and signed
//! mode signs, the same body) — which is why this is not reqwest's streaming `multipart::Form`.

use std::fmt::Write as _;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bytes::{BufMut, Bytes, BytesMut};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::error::Error;

/// Marks a [`FilePart`] inside the JSON view of a body (not a name any API uses).
const FILE_MARKER: &str = "\u{0}oncegen-runtime-file";

/// A file in a multipart body: its bytes, and optionally a file name and a media type.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct FilePart {
    /// The content.
    pub data: Bytes,
    /// `filename` of the part's `Content-Disposition`.
    pub filename: Option<String>,
    /// The part's `Content-Type` (default `application/octet-stream`).
    pub content_type: Option<String>,
}

impl FilePart {
    /// A file part holding `data`.
    pub fn new(data: impl Into<Bytes>) -> Self {
        FilePart {
            data: data.into(),
            ..FilePart::default()
        }
    }

    /// Sets the file name.
    pub fn filename(mut self, name: impl Into<String>) -> Self {
        self.filename = Some(name.into());
        self
    }

    /// Sets the media type.
    pub fn content_type(mut self, media_type: impl Into<String>) -> Self {
        self.content_type = Some(media_type.into());
        self
    }
}

impl From<Vec<u8>> for FilePart {
    fn from(data: Vec<u8>) -> Self {
        FilePart::new(data)
    }
}

impl From<&'static [u8]> for FilePart {
    fn from(data: &'static [u8]) -> Self {
        FilePart::new(data)
    }
}

impl Serialize for FilePart {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut view = serde_json::Map::new();
        view.insert(
            FILE_MARKER.to_owned(),
            Value::String(STANDARD.encode(&self.data)),
        );
        if let Some(name) = &self.filename {
            view.insert("filename".to_owned(), Value::String(name.clone()));
        }
        if let Some(media) = &self.content_type {
            view.insert("content_type".to_owned(), Value::String(media.clone()));
        }
        view.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for FilePart {
    /// Reads a file back from its JSON view, or a string as its UTF-8 bytes.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Value::deserialize(deserializer)? {
            Value::String(text) => Ok(FilePart::new(text.into_bytes())),
            value => file_of(&value)
                .ok_or_else(|| D::Error::custom("expected a file (bytes) or a string")),
        }
    }
}

/// The file a JSON view holds, if it is one.
fn file_of(value: &Value) -> Option<FilePart> {
    let data = STANDARD.decode(value.get(FILE_MARKER)?.as_str()?).ok()?;
    let text = |k: &str| value.get(k).and_then(Value::as_str).map(str::to_owned);
    Some(FilePart {
        data: Bytes::from(data),
        filename: text("filename"),
        content_type: text("content_type"),
    })
}

/// Encodes `body` (an object) as `multipart/form-data` with `boundary`: one part per member;
/// a list gives one part per item; files keep their name and type; strings, numbers and
/// booleans are text parts; objects are `application/json` parts. Returns the bytes.
pub(crate) fn encode(body: &Value, boundary: &str) -> Result<Bytes, Error> {
    let Value::Object(members) = body else {
        return Err(Error::validation(
            "a multipart body must serialize as an object of parts",
        ));
    };
    let mut out = BytesMut::new();
    for (name, value) in members {
        // A list of files or scalars is one part per item; anything else is one part.
        let items: &[Value] = match value {
            Value::Array(items) if items.iter().all(|i| !i.is_object() || file_of(i).is_some()) => {
                items
            }
            other => std::slice::from_ref(other),
        };
        for item in items {
            part(&mut out, boundary, name, item);
        }
    }
    let _ = write!(Writer(&mut out), "--{boundary}--\r\n");
    Ok(out.freeze())
}

fn part(out: &mut BytesMut, boundary: &str, name: &str, value: &Value) {
    let name = quoted(name);
    let mut w = Writer(out);
    let _ = write!(
        w,
        "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\""
    );
    if let Some(file) = file_of(value) {
        if let Some(filename) = &file.filename {
            let _ = write!(w, "; filename=\"{}\"", quoted(filename));
        }
        let media = file
            .content_type
            .as_deref()
            .unwrap_or("application/octet-stream");
        let _ = write!(w, "\r\nContent-Type: {media}\r\n\r\n");
        out.put_slice(&file.data);
    } else {
        let (media, text) = match value {
            Value::Null => (None, String::new()),
            Value::String(s) => (None, s.clone()),
            Value::Object(_) | Value::Array(_) => (Some("application/json"), value.to_string()),
            other => (None, other.to_string()),
        };
        if let Some(media) = media {
            let _ = write!(w, "\r\nContent-Type: {media}");
        }
        let _ = write!(w, "\r\n\r\n{text}");
    }
    out.put_slice(b"\r\n");
}

/// A header parameter value with `"`, CR and LF escaped (RFC 7578 §4.2).
fn quoted(s: &str) -> String {
    s.replace('"', "%22")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// `fmt::Write` into a byte buffer.
struct Writer<'a>(&'a mut BytesMut);

impl std::fmt::Write for Writer<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.put_slice(s.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parts_of_every_kind() {
        let file = serde_json::to_value(
            FilePart::new(b"\x00\x01bin".to_vec())
                .filename("a \"b\".png")
                .content_type("image/png"),
        )
        .unwrap();
        let body = json!({
            "purpose": "fine-tune",
            "n": 2,
            "file": file,
            "tags": ["x", "y"],
            "meta": {"k": "v"},
        });
        let bytes = encode(&body, "BOUNDARY").unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let expected = "--BOUNDARY\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nfine-tune\r\n\
--BOUNDARY\r\nContent-Disposition: form-data; name=\"n\"\r\n\r\n2\r\n\
--BOUNDARY\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a %22b%22.png\"\r\nContent-Type: image/png\r\n\r\n\u{0}\u{1}bin\r\n\
--BOUNDARY\r\nContent-Disposition: form-data; name=\"tags\"\r\n\r\nx\r\n\
--BOUNDARY\r\nContent-Disposition: form-data; name=\"tags\"\r\n\r\ny\r\n\
--BOUNDARY\r\nContent-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\n{\"k\":\"v\"}\r\n\
--BOUNDARY--\r\n";
        assert_eq!(text, expected);
        assert!(encode(&json!([1]), "B").is_err());
    }

    #[test]
    fn a_file_round_trips_through_its_json_view() {
        let file = FilePart::new(b"data".to_vec()).filename("f.txt");
        let back: FilePart = serde_json::from_value(serde_json::to_value(&file).unwrap()).unwrap();
        assert_eq!(back, file);
        let text: FilePart = serde_json::from_value(json!("plain")).unwrap();
        assert_eq!(text.data.as_ref(), b"plain");
    }
}
