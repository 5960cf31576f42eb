//! The safety gates: what the operator must enable at start before a tool may change anything.
//! Reads are always allowed; writes need `--allow-writes`; destructive operations also need
//! `--allow-destructive`; access grants (a credential, a password) `--allow-access-grants`;
//! purchases need `--allow-purchases` and a spending ceiling: the call's own (under the
//! server's `--max-total`, when set) or the server's, written into the call. A purchase that
//! takes no ceiling cannot be bounded (its amount cannot be read before paying): it also needs
//! `--allow-any-amount`. A refusal says what would allow the call, so an agent can tell its
//! user instead of retrying.

use crate::args::BODY;
use crate::{Failure, Tool};
use rust_decimal::Decimal;
use serde_json::{Map, Value};
use std::str::FromStr;

/// What the operator enabled.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Gates {
    /// `--allow-writes`.
    pub writes: bool,
    /// `--allow-destructive`.
    pub destructive: bool,
    /// `--allow-purchases`.
    pub purchases: bool,
    /// `--allow-any-amount`: purchases without a ceiling member, which nothing can bound.
    pub any_amount: bool,
    /// `--allow-access-grants`.
    pub access_grants: bool,
    /// `--max-total`: the most one purchase may charge.
    pub max_total: Option<Decimal>,
    /// `--allow-unknown-members`: a body's members the document does not define are sent as
    /// given (with a warning in the result) instead of refused.
    pub unknown_members: bool,
}

impl Gates {
    /// Why `tool` may not be called at all, if it may not.
    pub fn refusal<C>(&self, tool: &Tool<C>) -> Option<Failure> {
        let name = tool.name;
        let restart = |flag: &str, what: &str| {
            Some(Failure::refused(format!(
                "`{name}` {what} and this server was started without {flag}. Ask the operator \
                 to restart it with {flag} if this is wanted; do not retry."
            )))
        };
        if tool.effects.writes && !self.writes {
            return restart("--allow-writes", "changes state");
        }
        if tool.effects.destructive && !self.destructive {
            return restart(
                "--allow-destructive",
                &format!("is destructive ({} {})", tool.method, tool.path),
            );
        }
        if let Some(what) = tool.effects.grants_access
            && !self.access_grants
        {
            return restart("--allow-access-grants", &format!("grants access ({what})"));
        }
        let purchase = tool.effects.purchase?;
        if !self.purchases {
            return restart("--allow-purchases", "charges the account");
        }
        if purchase.ceiling.is_empty() && !self.any_amount {
            let bound = self.max_total.map_or("no ceiling can".to_owned(), |max| {
                format!("--max-total {max} cannot")
            });
            return restart(
                "--allow-any-amount",
                &format!(
                    "charges an amount that cannot be read before paying (so {bound} bound it)"
                ),
            );
        }
        None
    }

    /// Puts the spending ceiling of a purchase into `arguments`, or refuses: the call's own
    /// ceiling must not exceed the server's; without one, the server's is used; without
    /// either, the purchase is refused.
    pub fn cap<C>(
        &self,
        tool: &Tool<C>,
        arguments: &mut Map<String, Value>,
    ) -> Result<(), Failure> {
        let Some(purchase) = tool.effects.purchase else {
            return Ok(());
        };
        let Some(first) = purchase.ceiling.first() else {
            // The call takes no ceiling: `--allow-any-amount` was the operator's consent.
            return Ok(());
        };
        let names = purchase.ceiling.join("` or `body.");
        let body = match arguments.get_mut(BODY) {
            Some(Value::Object(body)) => body,
            _ => {
                return Err(Failure::invalid(format!(
                    "`{}` needs a `body` object",
                    tool.name
                )));
            }
        };
        let given = purchase.ceiling.iter().find_map(|name| {
            body.get(*name)
                .filter(|v| !v.is_null())
                .map(|v| (*name, v.clone()))
        });
        match (given, self.max_total) {
            (Some((name, value)), limit) => {
                let text = match &value {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                let amount = Decimal::from_str(&text).map_err(|_| {
                    Failure::invalid(format!(
                        "`body.{name}` must be a decimal amount, got {text}"
                    ))
                })?;
                match limit {
                    Some(max) if amount > max => Err(Failure::refused(format!(
                        "`body.{name}` {amount} is above this server's spending ceiling {max} \
                         (--max-total). Lower it to at most {max}, or ask the operator."
                    ))),
                    _ => Ok(()),
                }
            }
            (None, Some(max)) => {
                body.insert((*first).to_owned(), Value::String(max.to_string()));
                Ok(())
            }
            (None, None) => Err(Failure::refused(format!(
                "`{}` charges the account and has no spending ceiling: pass `body.{names}` \
                 (a decimal amount in the account currency; the API charges nothing when the \
                 total is higher), or ask the operator to start the server with --max-total.",
                tool.name
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Gates;
    use crate::{Args, Effects, Purchase, Run, Tool};
    use rust_decimal::Decimal;
    use serde_json::{Map, Value, json};

    fn unused<'a>(_: &'a (), _: &'a Args) -> Run<'a> {
        unreachable!("the gates never call a tool")
    }

    fn tool(effects: Effects) -> Tool<()> {
        Tool {
            name: "buy",
            operation_id: "buy",
            area: "billing",
            method: "POST",
            path: "/buy",
            title: "Buy",
            description: "",
            input_schema: "{}",
            output_schema: None,
            effects,
            scopes: &[],
            paging: None,
            run: unused,
        }
    }

    fn body(value: Value) -> Map<String, Value> {
        json!({ "body": value }).as_object().unwrap().clone()
    }

    #[test]
    fn each_effect_needs_its_own_flag() {
        let write = tool(Effects {
            writes: true,
            ..Effects::default()
        });
        let delete = tool(Effects {
            writes: true,
            destructive: true,
            ..Effects::default()
        });
        let read = tool(Effects::default());
        let none = Gates::default();
        assert!(none.refusal(&read).is_none());
        assert!(
            none.refusal(&write)
                .unwrap()
                .message
                .contains("--allow-writes")
        );
        let writes = Gates {
            writes: true,
            ..Gates::default()
        };
        assert!(writes.refusal(&write).is_none());
        assert!(
            writes
                .refusal(&delete)
                .unwrap()
                .message
                .contains("--allow-destructive")
        );
    }

    #[test]
    fn an_access_grant_and_an_unbounded_purchase_need_their_own_flags() {
        let grant = tool(Effects {
            writes: true,
            grants_access: Some("a credential"),
            ..Effects::default()
        });
        let pay = tool(Effects {
            writes: true,
            purchase: Some(Purchase { ceiling: &[] }),
            ..Effects::default()
        });
        let open = Gates {
            writes: true,
            purchases: true,
            max_total: Some(Decimal::new(250, 2)),
            ..Gates::default()
        };
        let refused = open.refusal(&grant).unwrap().message;
        assert!(
            refused.contains("--allow-access-grants") && refused.contains("a credential"),
            "{refused}"
        );
        let refused = open.refusal(&pay).unwrap().message;
        assert!(
            refused.contains("--allow-any-amount") && refused.contains("--max-total 2.50"),
            "{refused}"
        );
        let all = Gates {
            any_amount: true,
            access_grants: true,
            ..open
        };
        assert!(all.refusal(&grant).is_none() && all.refusal(&pay).is_none());
        assert!(all.cap(&pay, &mut Map::new()).is_ok());
    }

    #[test]
    fn a_purchase_carries_a_ceiling_at_most_the_servers() {
        let buy = tool(Effects {
            writes: true,
            purchase: Some(Purchase {
                ceiling: &["max_total", "maxTotal"],
            }),
            ..Effects::default()
        });
        let open = Gates {
            writes: true,
            purchases: true,
            ..Gates::default()
        };
        let refused = open.cap(&buy, &mut body(json!({}))).unwrap_err();
        assert!(
            refused.message.contains("body.max_total"),
            "{}",
            refused.message
        );
        assert!(open.cap(&buy, &mut body(json!({"maxTotal": "9"}))).is_ok());
        let bad = open
            .cap(&buy, &mut body(json!({"max_total": "lots"})))
            .unwrap_err();
        assert_eq!(bad.kind, "invalid_arguments");

        let capped = Gates {
            max_total: Some(Decimal::new(50, 0)),
            ..open
        };
        let above = capped
            .cap(&buy, &mut body(json!({"max_total": "50.01"})))
            .unwrap_err();
        assert!(above.message.contains("--max-total"), "{}", above.message);
        assert!(
            capped
                .cap(&buy, &mut body(json!({"max_total": 50})))
                .is_ok()
        );
        let mut absent = body(json!({"hostname": "h"}));
        capped.cap(&buy, &mut absent).unwrap();
        assert_eq!(
            absent["body"]["max_total"], "50",
            "the server's ceiling is written in"
        );
    }
}
