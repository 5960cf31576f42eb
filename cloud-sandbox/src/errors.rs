//! The documented error envelope (`{ok:false, error:{code,message,request_id,field_errors}}` plus
//! the legacy flat fields) and the error type every handler returns.

use serde_json::{Value, json};

/// One invalid field, as carried in `error.field_errors`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// Location of the field: `body.<json pointer>`, `query.<name>`, `header.<name>` or `path.<name>`.
    pub field: String,
    /// Short machine code of the violation (e.g. `invalid`, `required`).
    pub code: String,
    /// Human readable explanation.
    pub message: String,
}

impl FieldError {
    /// A field error with code `invalid`.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            code: "invalid".into(),
            message: message.into(),
        }
    }

    fn to_json(&self) -> Value {
        json!({"field": self.field, "code": self.code, "message": self.message})
    }
}

/// An API failure answered with the error envelope.
#[derive(Clone, Debug)]
pub struct ApiError {
    /// HTTP status.
    pub status: u16,
    /// The part-7 error code.
    pub code: String,
    /// Safe human readable message.
    pub message: String,
    /// Field errors (validation failures).
    pub field_errors: Vec<FieldError>,
    /// `Retry-After` seconds, for 409 in-progress and 429.
    pub retry_after: Option<u64>,
}

impl ApiError {
    /// A new error with the given status, code and message.
    pub fn new(status: u16, code: &str, message: impl Into<String>) -> Self {
        Self {
            status,
            code: code.into(),
            message: message.into(),
            field_errors: Vec::new(),
            retry_after: None,
        }
    }

    /// 400 `validation_error` with the given field errors.
    pub fn validation(field_errors: Vec<FieldError>) -> Self {
        let mut e = Self::new(400, "validation_error", "The request is invalid.");
        e.field_errors = field_errors;
        e
    }

    /// 400 `validation_error` about one field.
    pub fn invalid_field(field: &str, message: &str) -> Self {
        Self::validation(vec![FieldError::new(field, message)])
    }

    /// 404 `not_found`.
    pub fn not_found(what: &str) -> Self {
        Self::new(404, "not_found", format!("{what} not found."))
    }

    /// 401 `unauthorized`.
    pub fn unauthorized(message: &str) -> Self {
        Self::new(401, "unauthorized", message)
    }

    /// 401 `invalid_signature`.
    pub fn invalid_signature(message: &str) -> Self {
        Self::new(401, "invalid_signature", message)
    }

    /// 5xx `service_unavailable` with no internal detail.
    pub fn service_unavailable(status: u16) -> Self {
        Self::new(
            status,
            "service_unavailable",
            "The service is temporarily unavailable.",
        )
    }

    /// 429 `rate_limited` with `Retry-After` seconds.
    pub fn rate_limited(retry_after: u64) -> Self {
        Self::new(429, "rate_limited", "The key reached its request limit.")
            .with_retry_after(retry_after)
    }

    /// Sets `Retry-After`.
    #[must_use]
    pub fn with_retry_after(mut self, seconds: u64) -> Self {
        self.retry_after = Some(seconds);
        self
    }

    /// The JSON body: nested `error` plus the legacy flat fields.
    pub fn body(&self, request_id: &str) -> Value {
        let fe: Vec<Value> = self.field_errors.iter().map(FieldError::to_json).collect();
        json!({
            "ok": false,
            "error": {
                "code": self.code,
                "message": self.message,
                "request_id": request_id,
                "field_errors": fe,
            },
            "code": self.code,
            "message": self.message,
            "request_id": request_id,
            "field_errors": fe,
            "status": self.status,
        })
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.status, self.code, self.message)
    }
}

impl std::error::Error for ApiError {}
