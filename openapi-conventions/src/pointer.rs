//! JSON pointer tokens (RFC 6901): `~` is written `~0` and `/` is written `~1`.

/// Escapes one token.
pub fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Unescapes one token.
pub fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

#[cfg(test)]
mod tests {
    #[test]
    fn round_trip() {
        for token in ["/v1/zones/{name}", "a~b", "~1", "plain"] {
            assert_eq!(super::unescape(&super::escape(token)), token);
        }
        assert_eq!(super::escape("/a~b"), "~1a~0b");
    }
}
