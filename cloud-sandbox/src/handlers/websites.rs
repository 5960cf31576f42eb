//! Service DNS/WAF uploads for a service: the website loader page and the SSL certificate.
//! The SSL upload checks the PEM shape of certificate and key, keeps the certificate's
//! SHA-256 fingerprint and never returns key material.

use serde_json::json;
use sha2::{Digest, Sha256};

use super::{Ctx, Reply};
use crate::errors::ApiError;
use crate::state::State;

/// Stores one upload of the service the path names under `domain/name`.
fn store(st: &mut State, ctx: &Ctx, kind: &str, value: serde_json::Value) -> Result<(), ApiError> {
    let id = st.require_service(ctx.path_arg(0))?.id;
    let body = ctx.body.clone().unwrap_or_default();
    let key = format!(
        "{kind}:{}/{}",
        body["domain"].as_str().unwrap_or_default(),
        body["name"].as_str().unwrap_or_default()
    );
    st.resources
        .websites
        .entry(id)
        .or_default()
        .insert(key, value);
    Ok(())
}

/// `POST .../proxy-config/upload-loader`.
pub fn upload_loader(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let html = ctx.body.as_ref().map_or(json!(null), |b| b["html"].clone());
    store(st, ctx, "loader", html.clone())?;
    Ok(ctx.success(json!({"ok": true, "data": null, "html": html})))
}

/// `POST .../proxy-config/upload-ssl`.
pub fn upload_ssl(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let body = ctx.body.clone().unwrap_or_default();
    let cert = body["cert"].as_str().unwrap_or_default();
    if !is_pem(cert, "CERTIFICATE") {
        return Err(ApiError::invalid_field(
            "body/cert",
            "not a PEM certificate",
        ));
    }
    if !is_pem(body["pkey"].as_str().unwrap_or_default(), "PRIVATE KEY") {
        return Err(ApiError::invalid_field(
            "body/pkey",
            "not a PEM private key",
        ));
    }
    let fingerprint = hex(&Sha256::digest(cert.trim().as_bytes()));
    store(
        st,
        ctx,
        "ssl",
        json!({"mode": body["mode"], "fingerprint256": fingerprint}),
    )?;
    Ok(ctx.success(json!({"ok": true, "expected_fingerprint256": fingerprint})))
}

/// True when `text` is one PEM block whose label ends with `label`.
fn is_pem(text: &str, label: &str) -> bool {
    let t = text.trim();
    t.starts_with("-----BEGIN ") && t.ends_with("-----") && t.contains(&format!("{label}-----"))
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(":")
}
