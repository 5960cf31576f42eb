//! Why an incoming webhook could not be decoded ([`WebhookError`], what
//! [`webhook`](crate::webhook)'s functions return).

use std::fmt;

/// Why an incoming webhook could not be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WebhookError {
    /// The name matches no webhook or callback of the spec.
    Unknown {
        /// The name given.
        name: String,
        /// The names the spec lists.
        known: Vec<String>,
    },
    /// The `Content-Type` header is not JSON.
    ContentType {
        /// The webhook.
        name: String,
        /// The content type received.
        content_type: String,
    },
    /// The body does not decode into the webhook's payload type.
    Decode {
        /// The webhook.
        name: String,
        /// The decoder's message (line and column included).
        message: String,
    },
}

impl fmt::Display for WebhookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WebhookError::Unknown { name, known } => {
                write!(f, "unknown webhook `{name}` (known: {})", known.join(", "))
            }
            WebhookError::ContentType { name, content_type } => write!(
                f,
                "webhook `{name}`: content type `{content_type}` is not JSON"
            ),
            WebhookError::Decode { name, message } => {
                write!(f, "webhook `{name}`: the body does not decode: {message}")
            }
        }
    }
}

impl std::error::Error for WebhookError {}

impl WebhookError {
    /// An [`WebhookError::Unknown`] for `name`.
    pub fn unknown(name: &str, known: &[&str]) -> Self {
        WebhookError::Unknown {
            name: name.to_owned(),
            known: known.iter().map(|k| (*k).to_owned()).collect(),
        }
    }
}
