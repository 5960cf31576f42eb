//! SSH keys: key generation returns its private key once.

use serde_json::json;
use uuid::Uuid;

use super::{Ctx, Reply};
use crate::errors::ApiError;
use crate::state::State;

/// `POST /v1/ssh/keys/generate`: the saved key and its private key, returned once.
///
/// The reference does not show this response's members; the sandbox answers `key` (an SSH key
/// record of reference 2.5) and `private_key`, names of its own choosing.
pub fn generate(_: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let body = ctx.body.clone().unwrap_or_default();
    let id = Uuid::new_v4();
    let now = chrono::Utc::now().to_rfc3339();
    let algorithm = body["algorithm"].as_str().unwrap_or("ed25519");
    Ok(ctx.success(json!({
            "ok": true,
            "key": {
                "id": id,
                "name": body["name"],
                "algorithm": algorithm,
                "fingerprint": format!("SHA256:{}", id.simple()),
                "isPrimary": false,
                "hasPrivateKey": true,
                "createdAt": now,
                "updatedAt": now,
            },
            "private_key": format!(
                "-----BEGIN OPENSSH PRIVATE KEY-----\nsandbox-{}\n-----END OPENSSH PRIVATE KEY-----\n",
                id.simple()
            ),
    })))
}
