//! Idempotency keys and client request ids: generation and validation against the documented patterns.

use crate::error::Error;

/// Minimum length of an `Idempotency-Key` (reference part 8).
pub const IDEMPOTENCY_KEY_MIN_LEN: usize = 8;
/// Maximum length of an `Idempotency-Key` (reference part 8).
pub const IDEMPOTENCY_KEY_MAX_LEN: usize = 128;
/// Maximum length of `x-client-request-id` (reference 5.4).
pub const CLIENT_REQUEST_ID_MAX_LEN: usize = 120;

fn is_key_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | ':' | '-')
}

/// Whether `key` is a valid `Idempotency-Key`: 8 to 128 of letters, digits, `.`, `_`, `:`, `-`.
pub fn is_valid_idempotency_key(key: &str) -> bool {
    (IDEMPOTENCY_KEY_MIN_LEN..=IDEMPOTENCY_KEY_MAX_LEN).contains(&key.len())
        && key.chars().all(is_key_char)
}

/// Validates an `Idempotency-Key`, returning [`Error::Validation`] when invalid.
pub fn validate_idempotency_key(key: &str) -> Result<(), Error> {
    if is_valid_idempotency_key(key) {
        Ok(())
    } else {
        Err(Error::validation(format!(
            "invalid Idempotency-Key: expected 8 to 128 characters of letters, digits, '.', '_', ':', '-' (got {} characters)",
            key.chars().count()
        )))
    }
}

/// Whether `id` is a valid `x-client-request-id`: 1 to 120 characters, first a letter or digit,
/// then letters, digits, `.`, `_`, `:`, `-`.
pub fn is_valid_client_request_id(id: &str) -> bool {
    let mut chars = id.chars();
    match chars.next() {
        Some(first) if first.is_ascii_alphanumeric() => {}
        _ => return false,
    }
    id.len() <= CLIENT_REQUEST_ID_MAX_LEN && chars.all(is_key_char)
}

/// Validates an `x-client-request-id`, returning [`Error::Validation`] when invalid.
pub fn validate_client_request_id(id: &str) -> Result<(), Error> {
    if is_valid_client_request_id(id) {
        Ok(())
    } else {
        Err(Error::validation(
            "invalid x-client-request-id: expected 1 to 120 characters, first a letter or digit, then letters, digits, '.', '_', ':', '-'",
        ))
    }
}

/// A fresh idempotency key: a random (v4) UUID in hyphenated form (36 characters, valid pattern).
pub fn generate_idempotency_key() -> String {
    uuid::Uuid::new_v4().hyphenated().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_bounds() {
        assert!(!is_valid_idempotency_key("1234567"));
        assert!(is_valid_idempotency_key("12345678"));
        assert!(is_valid_idempotency_key(&"a".repeat(128)));
        assert!(!is_valid_idempotency_key(&"a".repeat(129)));
        assert!(!is_valid_idempotency_key("abcdefgh!"));
        assert!(!is_valid_idempotency_key("abc defgh"));
        assert!(is_valid_idempotency_key("a.b_c:d-e"));
        assert!(is_valid_idempotency_key(&generate_idempotency_key()));
    }

    #[test]
    fn client_request_id_bounds() {
        assert!(!is_valid_client_request_id(""));
        assert!(is_valid_client_request_id("a"));
        assert!(!is_valid_client_request_id("-a"));
        assert!(!is_valid_client_request_id(".a"));
        assert!(is_valid_client_request_id("9.a_b:c-d"));
        assert!(is_valid_client_request_id(&"a".repeat(120)));
        assert!(!is_valid_client_request_id(&"a".repeat(121)));
        assert!(!is_valid_client_request_id("aé"));
    }
}
