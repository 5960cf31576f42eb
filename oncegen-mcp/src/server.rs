//! A configured server: the SDK client, the tools it offers, and a tool call through the gates
//! and, for writes, the exactly-once layer.

use crate::args::{self, Args};
use crate::confirm;
use crate::gate::Gates;
use crate::once::{self, Outcomes};
use crate::result::{failed, result};
use crate::select::Selection;
use crate::{App, Failure, Tool};
use rmcp::ErrorData;
use rmcp::model::CallToolResult;
use rmcp::service::{Peer, RoleServer};
use serde_json::{Map, Value};
use std::sync::Arc;

/// Which tools `tools/list` shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// One tool per selected operation.
    PerOperation,
    /// Three tools (search, describe, call) whatever the API's size.
    Dynamic,
}

/// A generated server, configured: the SDK client, what is offered and what is enabled.
pub struct Server<C: 'static> {
    pub(crate) state: Arc<State<C>>,
}

impl<C> Clone for Server<C> {
    fn clone(&self) -> Self {
        Server {
            state: self.state.clone(),
        }
    }
}

pub(crate) struct State<C: 'static> {
    pub(crate) app: &'static App<C>,
    client: C,
    selection: Selection,
    gates: Gates,
    pub(crate) mode: Mode,
    outcomes: Outcomes,
    /// The per-operation tools offered, described for `tools/list`.
    pub(crate) per_operation: Vec<rmcp::model::Tool>,
}

impl<C: Send + Sync + 'static> Server<C> {
    /// A server of `app` calling through `client`, offering what `selection` and `gates` allow.
    pub fn new(
        app: &'static App<C>,
        client: C,
        selection: Selection,
        gates: Gates,
        mode: Mode,
    ) -> Result<Self, String> {
        let offered: Vec<&Tool<C>> = app
            .tools()
            .filter(|t| selection.admits(t) && gates.refusal(t).is_none())
            .collect();
        let per_operation = offered
            .iter()
            .map(|t| t.listing().describe())
            .collect::<Result<_, _>>()?;
        Ok(Server {
            state: Arc::new(State {
                app,
                client,
                selection,
                gates,
                mode,
                outcomes: Outcomes::default(),
                per_operation,
            }),
        })
    }

    /// The tools this server offers (selected and enabled), in table order.
    pub(crate) fn offered(&self) -> impl Iterator<Item = &'static Tool<C>> + '_ {
        let s = &self.state;
        s.app
            .tools()
            .filter(|t| s.selection.admits(t) && s.gates.refusal(t).is_none())
    }

    /// The tool named `name` of the table, offered or not.
    pub(crate) fn tool(&self, name: &str) -> Option<&'static Tool<C>> {
        self.state.app.tools().find(|t| t.name == name)
    }

    /// Calls the operation tool `name` with `arguments`.
    pub(crate) async fn call(
        &self,
        name: &str,
        mut arguments: Map<String, Value>,
        peer: &Peer<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let s = &self.state;
        let Some(tool) = self.tool(name) else {
            return Err(ErrorData::invalid_params(
                format!("no tool named `{name}`"),
                None,
            ));
        };
        if !s.selection.admits(tool) {
            return Ok(failed(&Failure::refused(format!(
                "`{name}` is not offered by this server: the operator's selection (areas, \
                 methods, operations, presets or the credential's scopes) leaves it out."
            ))));
        }
        if let Some(refusal) = s.gates.refusal(tool) {
            return Ok(failed(&refusal));
        }
        // The server's own arguments exist only where it offers them: a read may have a
        // parameter of the same name (a lookup by idempotency key).
        let given_key = match tool
            .effects
            .writes
            .then(|| arguments.remove(args::IDEMPOTENCY_KEY))
            .flatten()
        {
            None | Some(Value::Null) => None,
            Some(Value::String(key)) if !key.is_empty() && key.len() <= 255 => Some(key),
            Some(_) => {
                return Ok(failed(&Failure::invalid(
                    "`idempotency_key` must be a non-empty string of at most 255 characters",
                )));
            }
        };
        let wait = match tool
            .effects
            .waits
            .then(|| arguments.remove(args::WAIT))
            .flatten()
        {
            None | Some(Value::Null) => false,
            Some(Value::Bool(wait)) => wait,
            Some(_) => return Ok(failed(&Failure::invalid("`wait` must be true or false"))),
        };
        if !tool.effects.writes {
            let input = Args::new(arguments, None, wait);
            let outcome = (tool.run)(&s.client, &input).await;
            return Ok(result(tool, outcome, false));
        }
        if let Err(refusal) = s.gates.cap(tool, &mut arguments) {
            return Ok(failed(&refusal));
        }
        if confirm::asks(tool)
            && let Err(refusal) = confirm::confirm(peer, tool).await
        {
            return Ok(failed(&refusal));
        }
        let key = given_key.unwrap_or_else(|| once::derived_key(tool.name, &arguments));
        let input = Args::new(arguments.clone(), Some(key.clone()), wait);
        let answer = s
            .outcomes
            .run(&key, tool.name, &arguments, (tool.run)(&s.client, &input))
            .await;
        let settled = match &answer.outcome {
            Ok(_) => true,
            Err(f) => f.is_settled(),
        };
        if settled && !answer.replayed {
            // The outcome is known and is being handed over: the journal entry is closed. An
            // unknown outcome stays open for recovery.
            let _ = (s.app.runtime)(&s.client).acknowledge_write(&key).await;
        }
        let outcome = answer.outcome.map(|mut sent| {
            sent.idempotency_key.get_or_insert(key.clone());
            sent
        });
        let outcome = outcome.map_err(|mut f| {
            f.idempotency_key.get_or_insert(key);
            f
        });
        Ok(result(tool, outcome, answer.replayed))
    }
}
