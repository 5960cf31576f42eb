//! Request validation against the spec: JSON bodies through `jsonschema` (draft 2020-12, with the
//! whole spec registered so `#/components/...` refs resolve), and path/query/header parameters
//! coerced from strings to their schema type and validated the same way.

use openapi_conventions::headers;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use jsonschema::{Draft, Registry, Validator};
use serde_json::{Value, json};

use crate::errors::{ApiError, FieldError};
use crate::spec::{Operation, Param, ParamIn, Spec};

const SPEC_URI: &str = "https://sandbox.invalid/openapi.json";

/// Compiles and caches one validator per schema pointer of one spec.
pub struct Validators {
    spec: Arc<Spec>,
    registry: Registry<'static>,
    cache: Mutex<HashMap<String, Arc<Validator>>>,
}

impl std::fmt::Debug for Validators {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Validators").finish_non_exhaustive()
    }
}

/// Validators of the embedded spec, shared by every sandbox in the process.
pub static EMBEDDED: LazyLock<Arc<Validators>> =
    LazyLock::new(|| Arc::new(Validators::new(crate::spec::SPEC.clone()).expect("spec registers")));

impl Validators {
    /// Registers the spec document as a schema resource.
    pub fn new(spec: Arc<Spec>) -> Result<Self, String> {
        let registry = Registry::new()
            .draft(Draft::Draft202012)
            .add(SPEC_URI, spec.doc.clone())
            .and_then(|b| b.prepare())
            .map_err(|e| e.to_string())?;
        Ok(Self {
            spec,
            registry,
            cache: Mutex::new(HashMap::new()),
        })
    }

    /// The spec these validators follow.
    pub fn spec(&self) -> &Arc<Spec> {
        &self.spec
    }

    fn validator(&self, pointer: &str) -> Option<Arc<Validator>> {
        if let Some(v) = self.cache.lock().unwrap().get(pointer) {
            return Some(v.clone());
        }
        let wrapper = json!({"$ref": format!("{SPEC_URI}#{}", fragment_encode(pointer))});
        let built = jsonschema::options()
            .with_draft(Draft::Draft202012)
            .should_validate_formats(true)
            .with_registry(&self.registry)
            .build(&wrapper);
        match built {
            Ok(v) => {
                let v = Arc::new(v);
                self.cache
                    .lock()
                    .unwrap()
                    .insert(pointer.to_owned(), v.clone());
                Some(v)
            }
            Err(e) => {
                tracing::warn!("schema {pointer} does not compile: {e}");
                None
            }
        }
    }

    /// Validates `instance` against the schema at `pointer`, prefixing field names with `prefix`.
    pub fn check(&self, pointer: &str, instance: &Value, prefix: &str) -> Vec<FieldError> {
        let Some(v) = self.validator(pointer) else {
            return Vec::new();
        };
        v.iter_errors(instance)
            .map(|e| {
                let path = e.instance_path().to_string();
                let field = if path.is_empty() {
                    prefix.to_owned()
                } else {
                    format!("{prefix}{path}")
                };
                FieldError::new(field, e.to_string())
            })
            .collect()
    }

    /// Checks an answer against the contract: `status` must be documented for `op` (exactly,
    /// as `NXX` or `default`), `body` must match that response's JSON schema, and an error's
    /// `error.code` must be one of its `x-error-codes`. Each violation names the pointer of
    /// the response object in the spec and the place in the body.
    pub fn check_answer(&self, op: &Operation, status: u16, body: &Value) -> Vec<FieldError> {
        let Some(response) = self.documented_response(op, status) else {
            let at = format!("{}/responses", op.pointer);
            return vec![FieldError::new(
                at,
                format!("status {status} is not documented"),
            )];
        };
        let Some(doc) = self.spec.doc.pointer(&response) else {
            return Vec::new();
        };
        let mut errors = match doc.pointer("/content/application~1json/schema") {
            Some(_) => self.check(
                &format!("{response}/content/application~1json/schema"),
                body,
                &format!("{response}: body"),
            ),
            None => Vec::new(),
        };
        let codes = self.documented_codes(op, status);
        let code = body.pointer("/error/code");
        if let Some(code) = code.filter(|_| !codes.is_empty())
            && !codes.contains(code)
        {
            let listed = Value::Array(codes);
            errors.push(FieldError::new(
                format!("{response}/x-error-codes"),
                format!("error code {code} is not one of {listed}"),
            ));
        }
        errors
    }

    /// The codes `op` documents for `status`: the `x-error-codes` of its exact response, its
    /// status class (`5XX`) and `default` together, since the reference ties the generic codes
    /// to a class (`5xx service_unavailable`) that includes statuses an operation also lists on
    /// their own (503 `catalog_unavailable`).
    fn documented_codes(&self, op: &Operation, status: u16) -> Vec<Value> {
        let responses = format!("{}/responses", op.pointer);
        let class = format!("{}XX", status / 100);
        [
            status.to_string(),
            class.clone(),
            class.to_ascii_lowercase(),
            "default".into(),
        ]
        .iter()
        .filter(|k| {
            self.spec
                .doc
                .pointer(&responses)
                .is_some_and(|r| r.get(k.as_str()).is_some())
        })
        .map(|k| self.spec.deref_pointer(&format!("{responses}/{k}")))
        .filter_map(|p| {
            self.spec
                .doc
                .pointer(&p)?
                .get("x-error-codes")?
                .as_array()
                .cloned()
        })
        .flatten()
        .collect()
    }

    /// The pointer of the response object `op` documents for `status` (`$ref`s followed).
    fn documented_response(&self, op: &Operation, status: u16) -> Option<String> {
        let responses = format!("{}/responses", op.pointer);
        let listed = self.spec.doc.pointer(&responses)?;
        let class = format!("{}XX", status / 100);
        [
            status.to_string(),
            class.clone(),
            class.to_ascii_lowercase(),
            "default".into(),
        ]
        .into_iter()
        .find(|k| listed.get(k).is_some())
        .map(|k| self.spec.deref_pointer(&format!("{responses}/{k}")))
    }

    /// Validates parameters and body of a request; returns the parsed body.
    pub fn check_request(
        &self,
        op: &Operation,
        path_params: &HashMap<String, String>,
        query: &[(String, String)],
        headers: &http::HeaderMap,
        body: &[u8],
    ) -> Result<Option<Value>, ApiError> {
        let mut errors = Vec::new();
        for p in &op.params {
            let raw = raw_param(p, path_params, query, headers);
            if p.name.eq_ignore_ascii_case(headers::IDEMPOTENCY_KEY)
                && p.location == ParamIn::Header
            {
                self.check_idempotency_key(op, p, raw.as_deref())?;
                continue;
            }
            errors.extend(self.check_param(p, raw));
        }
        if !errors.is_empty() {
            return Err(ApiError::validation(errors));
        }
        self.check_body(op, body)
    }

    /// The violations of one parameter's raw value (missing and required, or off its schema).
    fn check_param(&self, p: &Param, raw: Option<String>) -> Vec<FieldError> {
        let prefix = match p.location {
            ParamIn::Path => "path",
            ParamIn::Query => "query",
            ParamIn::Header => "header",
        };
        let field = format!("{prefix}.{}", p.name);
        match (raw, &p.schema_pointer) {
            (None, _) if p.required => vec![FieldError {
                field,
                code: "required".into(),
                message: "is required".into(),
            }],
            (Some(raw), Some(ptr)) => self.check(ptr, &coerce(&self.spec, ptr, &raw), &field),
            _ => Vec::new(),
        }
    }

    /// The parsed body, checked against the operation's body schema.
    fn check_body(&self, op: &Operation, body: &[u8]) -> Result<Option<Value>, ApiError> {
        let Some((ptr, required)) = &op.body else {
            return Ok(if body.is_empty() {
                None
            } else {
                serde_json::from_slice(body).ok()
            });
        };
        if body.iter().all(u8::is_ascii_whitespace) {
            if *required {
                return Err(ApiError::validation(vec![FieldError {
                    field: "body".into(),
                    code: "required".into(),
                    message: "a JSON body is required".into(),
                }]));
            }
            return Ok(None);
        }
        let value: Value = serde_json::from_slice(body).map_err(|e| {
            ApiError::invalid_field("body", &format!("body is not valid JSON: {e}"))
        })?;
        let errors = self.check(ptr, &value, "body");
        if errors.is_empty() {
            Ok(Some(value))
        } else {
            Err(ApiError::validation(errors))
        }
    }

    fn check_idempotency_key(
        &self,
        op: &Operation,
        p: &Param,
        raw: Option<&str>,
    ) -> Result<(), ApiError> {
        let required = p.required || op.idempotency.as_deref() == Some("required");
        match raw {
            None if required => Err(ApiError::new(
                400,
                "idempotency_key_required",
                "This action needs an Idempotency-Key header: 8 to 128 letters, digits, dots, underscores, colons, hyphens.",
            )),
            None => Ok(()),
            Some(k) if !valid_idempotency_key(k) => Err(ApiError::new(
                400,
                "invalid_idempotency_key",
                "The Idempotency-Key format is invalid.",
            )),
            Some(k) => {
                let errs = p
                    .schema_pointer
                    .as_deref()
                    .map(|ptr| self.check(ptr, &json!(k), "header.Idempotency-Key"));
                if errs.is_some_and(|e| !e.is_empty()) {
                    Err(ApiError::new(
                        400,
                        "invalid_idempotency_key",
                        "The Idempotency-Key format is invalid.",
                    ))
                } else {
                    Ok(())
                }
            }
        }
    }
}

/// Percent-encodes a JSON pointer for use as a URI fragment (RFC 6901 section 6).
fn fragment_encode(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for b in pointer.bytes() {
        if b.is_ascii_alphanumeric() || b"/~-._!$&'()*+,;=:@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A parameter's raw value as received (repeated query values joined by commas).
fn raw_param(
    p: &Param,
    path_params: &HashMap<String, String>,
    query: &[(String, String)],
    headers: &http::HeaderMap,
) -> Option<String> {
    match p.location {
        ParamIn::Path => path_params.get(&p.name).cloned(),
        ParamIn::Query => {
            let vals: Vec<&str> = query
                .iter()
                .filter(|(k, _)| *k == p.name)
                .map(|(_, v)| v.as_str())
                .collect();
            (!vals.is_empty()).then(|| vals.join(","))
        }
        ParamIn::Header => headers
            .get(p.name.as_str())
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned()),
    }
}

/// 8 to 128 letters, digits, dots, underscores, colons, hyphens.
pub fn valid_idempotency_key(k: &str) -> bool {
    (8..=128).contains(&k.len())
        && k.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".:_-".contains(&b))
}

/// 1 to 120 characters, first a letter or digit, then letters, digits, dot, underscore, colon, hyphen.
pub fn valid_client_request_id(v: &str) -> bool {
    (1..=120).contains(&v.len())
        && v.bytes().next().is_some_and(|b| b.is_ascii_alphanumeric())
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".:_-".contains(&b))
}

fn schema_types(spec: &Spec, ptr: &str) -> Vec<String> {
    let ptr = spec.deref_pointer(ptr);
    let Some(s) = spec.doc.pointer(&ptr) else {
        return Vec::new();
    };
    let mut out: Vec<String> = match s.get("type") {
        Some(Value::String(t)) => vec![t.clone()],
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    };
    for key in ["oneOf", "anyOf", "allOf"] {
        if let Some(list) = s.get(key).and_then(Value::as_array) {
            for i in 0..list.len() {
                out.extend(schema_types(spec, &format!("{ptr}/{key}/{i}")));
            }
        }
    }
    out
}

/// Turns a raw parameter string into the JSON value its schema expects.
fn coerce(spec: &Spec, ptr: &str, raw: &str) -> Value {
    let types = schema_types(spec, ptr);
    let has = |t: &str| types.iter().any(|x| x == t);
    if has("array") {
        let item_ptr = format!("{}/items", spec.deref_pointer(ptr));
        return Value::Array(raw.split(',').map(|s| coerce(spec, &item_ptr, s)).collect());
    }
    if has("integer")
        && let Ok(i) = raw.parse::<i64>()
    {
        return json!(i);
    }
    if has("number")
        && let Ok(f) = raw.parse::<f64>()
    {
        return json!(f);
    }
    if has("boolean") && (raw == "true" || raw == "false") {
        return json!(raw == "true");
    }
    if has("null") && raw == "null" && !has("string") {
        return Value::Null;
    }
    Value::String(raw.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_validate_with_component_refs() {
        let v = &*EMBEDDED;
        let ptr = "/components/schemas/ProductVariantDeployRequest";
        assert!(v.check(ptr, &json!({}), "body").is_empty());
        assert!(!v.check(ptr, &json!({"bogus": 1}), "body").is_empty());
        assert!(
            !v.check(
                "/components/schemas/DeployRequest",
                &json!({"additional_ips": 101}),
                "body"
            )
            .is_empty()
        );
        assert!(
            !v.check(ptr, &json!({"additional_ips": 101}), "body")
                .is_empty()
        );
        assert!(
            !v.check(
                ptr,
                &json!({"billing": {"unit": "MONTH", "count": 0}}),
                "body"
            )
            .is_empty()
        );
        let (op, _) = v.spec().route("POST", "/v1/deploy/DE/vps/vps-s").unwrap();
        let (body_ptr, required) = op.body.clone().unwrap();
        assert!(required);
        let errs = v.check(&body_ptr, &json!({"additional_ips": 101}), "body");
        assert!(!errs.is_empty(), "{body_ptr}");
        // Every body and parameter schema of the spec compiles.
        for op in &v.spec().operations {
            for ptr in op
                .body
                .iter()
                .map(|b| b.0.clone())
                .chain(op.params.iter().filter_map(|p| p.schema_pointer.clone()))
            {
                assert!(v.validator(&ptr).is_some(), "{} {ptr}", op.operation_id);
            }
        }
    }
}
