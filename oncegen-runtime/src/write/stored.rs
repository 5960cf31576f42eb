//! How a journal stores an outcome, a header list and a method: JSON text and names in a
//! column, the one encoding of the SQLite and PostgreSQL journals.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};

use crate::spec::Method;
use crate::write::journal::{Settlement, StoredResponse};

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
enum Outcome {
    Answered {
        status: u16,
        headers: Vec<(String, String)>,
        /// Base64.
        body: String,
    },
    AppliedUnread {
        status: u16,
    },
    NotApplied {
        reason: String,
    },
}

/// A settlement as stored.
pub(crate) fn encode_settlement(settlement: &Settlement) -> String {
    let outcome = match settlement {
        Settlement::Answered(r) => Outcome::Answered {
            status: r.status,
            headers: r.headers.clone(),
            body: STANDARD.encode(&r.body),
        },
        Settlement::AppliedUnread { status } => Outcome::AppliedUnread { status: *status },
        Settlement::NotApplied { reason } => Outcome::NotApplied {
            reason: reason.clone(),
        },
    };
    serde_json::to_string(&outcome).unwrap_or_default()
}

/// A stored settlement read back.
pub(crate) fn decode_settlement(text: &str) -> Result<Settlement, String> {
    let outcome: Outcome =
        serde_json::from_str(text).map_err(|e| format!("unreadable settlement: {e}"))?;
    Ok(match outcome {
        Outcome::Answered {
            status,
            headers,
            body,
        } => Settlement::Answered(StoredResponse {
            status,
            headers,
            body: STANDARD
                .decode(body)
                .map_err(|e| format!("unreadable settlement body: {e}"))?
                .into(),
        }),
        Outcome::AppliedUnread { status } => Settlement::AppliedUnread { status },
        Outcome::NotApplied { reason } => Settlement::NotApplied { reason },
    })
}

/// The method named `name` (as [`Method::as_str`] spells it).
pub(crate) fn method(name: &str) -> Option<Method> {
    [
        Method::Get,
        Method::Post,
        Method::Put,
        Method::Patch,
        Method::Delete,
        Method::Head,
        Method::Options,
        Method::Trace,
    ]
    .into_iter()
    .find(|m| m.as_str() == name)
}

/// Headers as stored.
pub(crate) fn encode_headers(headers: &[(String, String)]) -> String {
    serde_json::to_string(headers).unwrap_or_default()
}

/// Stored headers read back.
pub(crate) fn decode_headers(text: &str) -> Result<Vec<(String, String)>, String> {
    serde_json::from_str(text).map_err(|e| format!("unreadable headers: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settlements_round_trip() {
        for s in [
            Settlement::Answered(StoredResponse {
                status: 201,
                headers: vec![("x-a".into(), "b".into())],
                body: bytes::Bytes::from_static(b"{\"id\":1}\xff"),
            }),
            Settlement::AppliedUnread { status: 200 },
            Settlement::NotApplied {
                reason: "refused".into(),
            },
        ] {
            assert_eq!(decode_settlement(&encode_settlement(&s)).unwrap(), s);
        }
        assert!(decode_settlement("{").is_err());
        let headers = vec![("a".to_owned(), "b".to_owned())];
        assert_eq!(decode_headers(&encode_headers(&headers)).unwrap(), headers);
    }
}
