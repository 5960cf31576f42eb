//! Asking the user before a destructive call, a purchase or an access grant, where the client supports
//! elicitation (a form with one yes/no field). A client without it is not asked: the operator's
//! start-up flags are the consent then. When asking fails, nothing is sent.

use crate::{Failure, Tool};
use rmcp::model::{ElicitRequestParams, ElicitationAction, ElicitationSchema};
use rmcp::service::{ElicitationMode, Peer, RoleServer};

/// The form field the user sets.
const FIELD: &str = "confirm";

/// Whether `tool`'s call asks first.
pub(crate) fn asks<C>(tool: &Tool<C>) -> bool {
    tool.effects.destructive
        || tool.effects.purchase.is_some()
        || tool.effects.grants_access.is_some()
}

/// Asks the user through `peer` to confirm calling `tool`; a refusal when they do not.
pub(crate) async fn confirm<C>(peer: &Peer<RoleServer>, tool: &Tool<C>) -> Result<(), Failure> {
    if !peer
        .supported_elicitation_modes()
        .contains(&ElicitationMode::Form)
    {
        return Ok(());
    }
    let what = if let Some(granted) = tool.effects.grants_access {
        format!("grants access ({granted})")
    } else if tool.effects.purchase.is_some() {
        "charges the account".to_owned()
    } else {
        "is destructive".to_owned()
    };
    let schema = ElicitationSchema::builder()
        .required_bool(FIELD)
        .build()
        .map_err(|e| Failure::internal(format!("the confirmation form: {e}")))?;
    let params = ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: format!(
            "`{}` ({} {}) {what}: {}. Set `{FIELD}` to proceed.",
            tool.name, tool.method, tool.path, tool.title
        ),
        requested_schema: schema,
    };
    // The client said it can ask: when asking fails, nothing is sent.
    let answer = peer.create_elicitation(params).await.map_err(|e| {
        Failure::refused(format!(
            "could not ask the user to confirm `{}` ({e}); nothing was sent",
            tool.name
        ))
    })?;
    let confirmed = answer.action == ElicitationAction::Accept
        && answer
            .content
            .as_ref()
            .and_then(|c| c.get(FIELD))
            .and_then(|v| v.as_bool())
            == Some(true);
    if confirmed {
        Ok(())
    } else {
        Err(Failure::refused(format!(
            "the user did not confirm `{}`; nothing was sent. Do not retry unless the user asks.",
            tool.name
        )))
    }
}
