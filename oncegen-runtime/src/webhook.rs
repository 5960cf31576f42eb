//! Decoding incoming webhooks and callbacks: the generated `Webhook::parse` checks the content
//! type and decodes the body into the payload type the spec names.

use serde::de::DeserializeOwned;

use crate::webhook_error::WebhookError;

/// Checks that a `Content-Type` among `headers` (if any) is JSON.
pub fn check_content_type<'h>(
    name: &str,
    headers: impl IntoIterator<Item = (&'h str, &'h str)>,
) -> Result<(), WebhookError> {
    for (header, value) in headers {
        if header.eq_ignore_ascii_case("content-type") {
            let essence = value
                .split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            if !(essence == "application/json" || essence.ends_with("+json")) {
                return Err(WebhookError::ContentType {
                    name: name.to_owned(),
                    content_type: value.to_owned(),
                });
            }
        }
    }
    Ok(())
}

/// Decodes `body` as the payload of webhook `name`.
pub fn decode<T: DeserializeOwned>(name: &str, body: &[u8]) -> Result<T, WebhookError> {
    serde_json::from_slice(body).map_err(|e| WebhookError::Decode {
        name: name.to_owned(),
        message: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_type_and_decoding() {
        assert!(
            check_content_type("w", [("Content-Type", "application/json; charset=utf-8")]).is_ok()
        );
        assert!(check_content_type("w", [("x-other", "1")]).is_ok());
        let err = check_content_type("w", [("content-type", "text/html")]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "webhook `w`: content type `text/html` is not JSON"
        );
        let n: u8 = decode("w", b"7").unwrap();
        assert_eq!(n, 7);
        let err = decode::<u8>("w", b"{").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("webhook `w`: the body does not decode"),
            "{err}"
        );
        assert_eq!(
            WebhookError::unknown("x", &["a", "b"]).to_string(),
            "unknown webhook `x` (known: a, b)"
        );
    }
}
