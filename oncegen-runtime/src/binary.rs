//! A body of bytes with its media type ([`Binary`]): what a call returns for a body that is
//! neither JSON nor text, and what an error keeps of a body it could not read.

use std::fmt;

use bytes::Bytes;
use http::HeaderMap;
use http::header::CONTENT_TYPE;

/// A response body of a media type that is neither JSON nor text: its bytes and the
/// `Content-Type` the server sent.
#[derive(Clone, PartialEq, Eq)]
pub struct Binary {
    /// The `Content-Type` header, when the server sent one.
    pub content_type: Option<String>,
    /// The body.
    pub bytes: Bytes,
}

impl Binary {
    /// A response's body with the `Content-Type` of its `headers`.
    pub(crate) fn from_response(headers: &HeaderMap, bytes: Bytes) -> Self {
        Binary {
            content_type: content_type(headers),
            bytes,
        }
    }

    /// The body's bytes.
    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// The media type without parameters (`application/pdf`), when the server sent one.
    pub fn media_type(&self) -> Option<&str> {
        self.content_type.as_deref().map(essence)
    }

    /// The body as text, when it is UTF-8 (`None` otherwise).
    pub fn text(&self) -> Option<&str> {
        std::str::from_utf8(&self.bytes).ok()
    }
}

impl fmt::Debug for Binary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Binary")
            .field("content_type", &self.content_type)
            .field("len", &self.bytes.len())
            .finish()
    }
}

/// The `Content-Type` of `headers`, when it is text.
pub(crate) fn content_type(headers: &HeaderMap) -> Option<String> {
    headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// A `Content-Type` without its parameters (`text/csv; charset=utf-8` gives `text/csv`).
pub(crate) fn essence(content_type: &str) -> &str {
    content_type
        .split(';')
        .next()
        .unwrap_or(content_type)
        .trim()
}
