//! SSH keys: import (the public key's algorithm and SHA-256 fingerprint are read from it) and
//! generation (its private key returned once); both are saved to the account.

use base64::Engine;
use serde_json::json;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::{Ctx, Reply};
use crate::errors::ApiError;
use crate::state::State;

/// `POST /v1/ssh/keys/generate`: the saved key and its private key, returned once.
///
/// The reference does not show this response's members; the sandbox answers `key` (an SSH key
/// record of reference 2.5) and `private_key`, names of its own choosing.
pub fn generate(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let body = ctx.body.clone().unwrap_or_default();
    let id = Uuid::new_v4();
    let now = chrono::Utc::now().to_rfc3339();
    let algorithm = body["algorithm"].as_str().unwrap_or("ed25519");
    let key = json!({
                "id": id,
                "name": body["name"],
                "algorithm": algorithm,
                "fingerprint": format!("SHA256:{}", id.simple()),
                "isPrimary": false,
                "hasPrivateKey": true,
                "createdAt": now,
                "updatedAt": now,
    });
    st.ssh_keys.push(key.clone());
    Ok(ctx.success(json!({
            "ok": true,
            "key": key,
            "private_key": format!(
                "-----BEGIN OPENSSH PRIVATE KEY-----\nsandbox-{}\n-----END OPENSSH PRIVATE KEY-----\n",
                id.simple()
            ),
    })))
}

/// `POST /v1/ssh/keys`: an OpenSSH public key line `<algorithm> <base64 blob> [comment]`.
pub fn import(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let body = ctx.body.clone().unwrap_or_default();
    let line = body["public_key"].as_str().unwrap_or_default();
    let mut parts = line.split_whitespace();
    let (algorithm, blob) = (
        parts.next().unwrap_or_default(),
        parts.next().unwrap_or_default(),
    );
    let engine = base64::engine::general_purpose::STANDARD;
    let decoded = engine
        .decode(blob)
        .ok()
        .filter(|_| algorithm.starts_with("ssh-") || algorithm.starts_with("ecdsa-"));
    let decoded = decoded
        .ok_or_else(|| ApiError::invalid_field("body/public_key", "not an OpenSSH public key"))?;
    let fingerprint =
        base64::engine::general_purpose::STANDARD_NO_PAD.encode(Sha256::digest(&decoded));
    let now = crate::state::ts(chrono::Utc::now());
    let key = json!({
        "id": Uuid::new_v4(),
        "name": body["name"],
        "algorithm": algorithm.trim_start_matches("ssh-"),
        "fingerprint": format!("SHA256:{fingerprint}"),
        "isPrimary": st.ssh_keys.is_empty(),
        "hasPrivateKey": false,
        "createdAt": now,
        "updatedAt": now,
    });
    st.ssh_keys.push(key.clone());
    Ok(ctx.success(json!({"ok": true, "key": key})))
}
