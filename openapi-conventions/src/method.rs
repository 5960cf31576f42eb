//! HTTP methods and the idempotency kinds of an operation.

use std::fmt;

/// HTTP method of an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "UPPERCASE"))]
pub enum Method {
    /// `GET`
    Get,
    /// `PUT`
    Put,
    /// `POST`
    Post,
    /// `DELETE`
    Delete,
    /// `OPTIONS`
    Options,
    /// `HEAD`
    Head,
    /// `PATCH`
    Patch,
    /// `TRACE`
    Trace,
}

impl Method {
    /// Every method, in the order OpenAPI path items list them.
    pub const ALL: [Method; 8] = [
        Method::Get,
        Method::Put,
        Method::Post,
        Method::Delete,
        Method::Options,
        Method::Head,
        Method::Patch,
        Method::Trace,
    ];

    /// The uppercase name, e.g. `"POST"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Put => "PUT",
            Method::Post => "POST",
            Method::Delete => "DELETE",
            Method::Options => "OPTIONS",
            Method::Head => "HEAD",
            Method::Patch => "PATCH",
            Method::Trace => "TRACE",
        }
    }

    /// The lowercase key of an OpenAPI path item, e.g. `"post"`.
    pub fn key(self) -> &'static str {
        match self {
            Method::Get => "get",
            Method::Put => "put",
            Method::Post => "post",
            Method::Delete => "delete",
            Method::Options => "options",
            Method::Head => "head",
            Method::Patch => "patch",
            Method::Trace => "trace",
        }
    }

    /// Reads a method name in any case.
    pub fn parse(name: &str) -> Option<Method> {
        Method::ALL
            .into_iter()
            .find(|m| m.as_str().eq_ignore_ascii_case(name))
    }

    /// Whether the method only reads (RFC 9110 safe methods: `GET`, `HEAD`, `OPTIONS`, `TRACE`).
    pub fn is_safe(self) -> bool {
        matches!(
            self,
            Method::Get | Method::Head | Method::Options | Method::Trace
        )
    }

    /// Whether the method may change state: every method that is not safe.
    pub fn is_write(self) -> bool {
        !self.is_safe()
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether and how an operation takes an `Idempotency-Key` header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Idempotency {
    /// No key (reads, and writes shown without one).
    None,
    /// A key is required.
    Required,
    /// A key is optional (but recommended).
    Optional,
    /// The requirement is not shown; a key is sent anyway.
    NotShown,
}

impl Idempotency {
    /// The name the contract writes (`x-idempotency-key`), `none` for no key.
    pub fn as_str(self) -> &'static str {
        match self {
            Idempotency::None => "none",
            Idempotency::Required => "required",
            Idempotency::Optional => "optional",
            Idempotency::NotShown => "not-shown",
        }
    }

    /// Whether a key is sent (generated when the caller gives none).
    pub fn sends_key(self) -> bool {
        !matches!(self, Idempotency::None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_write_ness() {
        for m in Method::ALL {
            assert_eq!(Method::parse(m.as_str()), Some(m));
            assert_eq!(Method::parse(m.key()), Some(m));
        }
        assert_eq!(Method::parse("FETCH"), None);
        let writes: Vec<Method> = Method::ALL.into_iter().filter(|m| m.is_write()).collect();
        assert_eq!(
            writes,
            [Method::Put, Method::Post, Method::Delete, Method::Patch]
        );
        assert!(!Idempotency::None.sends_key() && Idempotency::NotShown.sends_key());
    }
}
