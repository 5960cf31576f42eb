//! Asking the user before a destructive call, a purchase or an access grant, where the client supports
//! elicitation (a form with one yes/no field). A client without it is not asked: the operator's
//! start-up flags are the consent then. When asking fails, nothing is sent.

use crate::args::BODY;
use crate::{Failure, Tool};
use rmcp::model::{ElicitRequestParams, ElicitationAction, ElicitationSchema};
use rmcp::service::{ElicitationMode, Peer, RoleServer};
use serde_json::{Map, Value};

/// The form field the user sets.
const FIELD: &str = "confirm";

/// Whether `tool`'s call asks first.
pub(crate) fn asks<C>(tool: &Tool<C>) -> bool {
    tool.effects.destructive
        || tool.effects.purchase.is_some()
        || tool.effects.grants_access.is_some()
}

/// The question before calling `tool` with `arguments` (its ceiling already set): what it
/// does (its title), to which resource (its path parameters) and, for a purchase, for how
/// much (the ceiling member's value, or that the amount cannot be read before paying).
fn question<C>(tool: &Tool<C>, arguments: &Map<String, Value>) -> String {
    let what = if let Some(granted) = tool.effects.grants_access {
        format!("grants access ({granted})")
    } else if tool.effects.purchase.is_some() {
        "charges the account".to_owned()
    } else {
        "is destructive".to_owned()
    };
    let resource: Vec<String> = tool
        .path
        .split('/')
        .filter_map(|s| s.strip_prefix('{')?.strip_suffix('}'))
        .filter_map(|name| Some(format!("{name} {}", shown(arguments.get(name)?))))
        .collect();
    let mut title = tool.title.trim_end_matches('.').to_owned();
    if !resource.is_empty() {
        title = format!("{title} ({})", resource.join(", "));
    }
    let amount = match tool.effects.purchase {
        None => String::new(),
        Some(purchase) => {
            let body = arguments.get(BODY).and_then(Value::as_object);
            let ceiling = purchase
                .ceiling
                .iter()
                .find_map(|name| body?.get(*name).filter(|v| !v.is_null()));
            match ceiling {
                Some(max) => format!(" for at most {} in the account's currency", shown(max)),
                None => " for an amount that cannot be read before paying".to_owned(),
            }
        }
    };
    format!(
        "{title}{amount}? `{}` ({} {}) {what}. Set `{FIELD}` to proceed.",
        tool.name, tool.method, tool.path
    )
}

/// A string argument as it is, another as JSON.
fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Asks the user through `peer` to confirm calling `tool` with `arguments`; a refusal when
/// they do not.
pub(crate) async fn confirm<C>(
    peer: &Peer<RoleServer>,
    tool: &Tool<C>,
    arguments: &Map<String, Value>,
) -> Result<(), Failure> {
    if !peer
        .supported_elicitation_modes()
        .contains(&ElicitationMode::Form)
    {
        return Ok(());
    }
    let schema = ElicitationSchema::builder()
        .required_bool(FIELD)
        .build()
        .map_err(|e| Failure::internal(format!("the confirmation form: {e}")))?;
    let params = ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: question(tool, arguments),
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

#[cfg(test)]
mod tests {
    use super::question;
    use crate::{Args, Effects, Purchase, Run, Tool};
    use serde_json::{Map, Value, json};

    fn unused<'a>(_: &'a (), _: &'a Args) -> Run<'a> {
        unreachable!("asking never calls the tool")
    }

    fn tool(path: &'static str, title: &'static str, effects: Effects) -> Tool<()> {
        Tool {
            name: "t",
            operation_id: "t",
            area: "a",
            method: "POST",
            path,
            title,
            description: "",
            input_schema: "{}",
            output_schema: None,
            effects,
            scopes: &[],
            paging: None,
            run: unused,
        }
    }

    fn arguments(value: Value) -> Map<String, Value> {
        value.as_object().expect("an object").clone()
    }

    #[test]
    fn the_question_names_the_resource_and_the_amount() {
        let purchase = |ceiling| Effects {
            writes: true,
            purchase: Some(Purchase { ceiling }),
            ..Effects::default()
        };
        let deploy = tool(
            "/deploy/{region}/{productCode}",
            "Deploy.",
            purchase(&["max_total"]),
        );
        let given = arguments(
            json!({"region": "DE", "productCode": "vps", "body": {"max_total": "25.50"}}),
        );
        assert_eq!(
            question(&deploy, &given),
            "Deploy (region DE, productCode vps) for at most 25.50 in the account's currency? \
             `t` (POST /deploy/{region}/{productCode}) charges the account. Set `confirm` to proceed."
        );
        let pay = tool("/invoices/{id}/pay", "Pay an invoice", purchase(&[]));
        assert!(question(&pay, &arguments(json!({"id": 42}))).starts_with(
            "Pay an invoice (id 42) for an amount that cannot be read before paying? "
        ));
        let delete = Effects {
            writes: true,
            destructive: true,
            ..Effects::default()
        };
        let hook = tool("/webhooks/{id}", "Delete a webhook endpoint", delete);
        assert!(
            question(&hook, &arguments(json!({"id": "w1"}))).starts_with(
                "Delete a webhook endpoint (id w1)? `t` (POST /webhooks/{id}) is destructive."
            )
        );
    }
}
