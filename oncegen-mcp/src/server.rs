//! A configured server: the SDK client, the tools it offers, and a tool call through the gates
//! and, for writes, the exactly-once layer.

use crate::args::{self, Args};
use crate::confirm;
use crate::delivery::{Acknowledge, Delivered, Outgoing};
use crate::filter::Filter;
use crate::gate::Gates;
use crate::once::{self, Answered, Turns};
use crate::result::{Form, Replay, failed, result};
use crate::select::Selection;
use crate::{App, Failure, Tool};
use oncegen_runtime::same_write::{self, Plan};
use rmcp::ErrorData;
use rmcp::model::{CallToolResult, RequestId};
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
    turns: Turns,
    answered: Answered,
    pub(crate) outgoing: Arc<Outgoing>,
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
        let listings: Vec<_> = offered.iter().map(|t| t.listing()).collect();
        let per_operation = crate::describe_all(&listings)?;
        Ok(Server {
            state: Arc::new(State {
                app,
                client,
                selection,
                gates,
                mode,
                turns: Turns::default(),
                answered: Answered::default(),
                outgoing: Arc::default(),
                per_operation,
            }),
        })
    }

    /// `transport`, closing each write's journal entry once the response carrying its outcome
    /// has been written ([`crate::delivery`]).
    pub(crate) fn delivered<T>(&self, transport: T) -> Delivered<T> {
        let state = self.state.clone();
        let acknowledge: Acknowledge = Arc::new(move |key: String| {
            let state = state.clone();
            Box::pin(async move {
                let runtime = (state.app.runtime)(&state.client);
                if let Err(e) = runtime.acknowledge_write(&key).await {
                    eprintln!(
                        "warning: closing the journal entry of the delivered write {key}: {e}"
                    );
                }
            })
        });
        Delivered::new(transport, self.state.outgoing.clone(), acknowledge)
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

    /// Calls the operation tool `name` with `arguments`, in answer to `request`.
    pub(crate) async fn call(
        &self,
        name: &str,
        mut arguments: Map<String, Value>,
        request: RequestId,
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
        let (given_key, wait) = match own_arguments(tool, &mut arguments) {
            Ok(own) => own,
            Err(invalid) => return Ok(failed(&invalid)),
        };
        let client = peer.peer_info();
        let form = Form::for_protocol(client.as_deref().map(|i| &i.protocol_version));
        if !tool.effects.writes {
            return Ok(self.read(tool, arguments, wait, form).await);
        }
        if let Err(refusal) = s.gates.cap(tool, &mut arguments) {
            return Ok(failed(&refusal));
        }
        if confirm::asks(tool)
            && let Err(refusal) = confirm::confirm(peer, tool, &arguments).await
        {
            return Ok(failed(&refusal));
        }
        Ok(self
            .write(tool, arguments, given_key, wait, request, form)
            .await)
    }

    /// A read, its answer narrowed by the caller's `jq` filter when one is given (then as
    /// text: the filter's output has the tool's output schema no longer).
    async fn read(
        &self,
        tool: &'static Tool<C>,
        mut arguments: Map<String, Value>,
        wait: bool,
        form: Form,
    ) -> CallToolResult {
        let filter = match Filter::take(&mut arguments) {
            Ok(filter) => filter,
            Err(invalid) => return failed(&invalid),
        };
        let input = Args::new(arguments, None, wait);
        let outcome = (tool.run)(&self.state.client, &input).await;
        match filter {
            None => result(tool, outcome, None, form),
            Some(filter) => result(
                tool,
                outcome.and_then(|s| filter.apply(s)),
                None,
                Form::Text,
            ),
        }
    }

    /// A write through [the rule of the same write](oncegen_runtime::same_write): sent, or
    /// answered with the outcome of the identical call it retries; its journal entry closed
    /// once the outcome is delivered.
    async fn write(
        &self,
        tool: &'static Tool<C>,
        arguments: Map<String, Value>,
        given_key: Option<String>,
        wait: bool,
        request: RequestId,
        form: Form,
    ) -> CallToolResult {
        let s = &self.state;
        let runtime = (s.app.runtime)(&s.client);
        let identity = once::identity(runtime.config(), tool.name, &arguments);
        let _turn = s.turns.take(&identity).await;
        if let Some(key) = &given_key
            && let Some(again) = self.answered_again(tool, key, &identity, form)
        {
            return again;
        }
        let plan = match self.plan(&identity, given_key.as_deref()).await {
            Ok(plan) => plan,
            Err(refused) => return failed(&refused),
        };
        let key = match &plan {
            Plan::Send { key, .. } => Some(key.clone()),
            _ => None,
        };
        let input = Args::new(arguments, key, wait)
            .with_intent(identity.intent())
            .allowing_unknown(s.gates.unknown_members);
        let (key, outcome, replay) = self.answer(tool, plan, &input).await;
        let settled = match &outcome {
            Ok(_) => true,
            Err(f) => f.is_settled(),
        };
        if settled && !s.outgoing.after_response(request, key.clone()) {
            let _ = runtime.acknowledge_write(&key).await;
        }
        if let Ok(sent) = &outcome {
            s.answered.put(&key, &identity, sent);
        }
        let outcome = outcome
            .map(|mut sent| {
                sent.idempotency_key.get_or_insert(key.clone());
                sent
            })
            .map_err(|mut f| {
                f.idempotency_key.get_or_insert(key);
                f
            });
        with_warning(result(tool, outcome, replay, form), input.sent_unknown())
    }

    /// The answer this server already delivered under the caller's `key`: again, for the same
    /// write; a refusal for another.
    fn answered_again(
        &self,
        tool: &Tool<C>,
        key: &str,
        identity: &oncegen_runtime::same_write::Identity,
        form: Form,
    ) -> Option<CallToolResult> {
        let (prefix, mut sent, at) = self.state.answered.get(key)?;
        if prefix != identity.prefix() {
            return Some(failed(&Failure::refused(format!(
                "the idempotency key `{key}` was already used for another write (other \
                 operation or arguments). A key names one write: pass a new key for a new write."
            ))));
        }
        let replay = Replay {
            applied_at: Some(at),
        };
        sent.idempotency_key.get_or_insert(key.to_owned());
        Some(result(tool, Ok(sent), Some(replay), form))
    }

    /// What [the rule](oncegen_runtime::same_write) says of a call of `identity` under `key`;
    /// a refusal when it may not be sent.
    async fn plan(
        &self,
        identity: &oncegen_runtime::same_write::Identity,
        key: Option<&str>,
    ) -> Result<Plan, Failure> {
        let runtime = (self.state.app.runtime)(&self.state.client);
        let plan = match runtime.config().get_journal() {
            Some(journal) => same_write::plan(journal.as_ref(), identity, key)
                .await
                .map_err(|e| {
                    Failure::internal(format!("the write journal: {e} (nothing was sent)"))
                })?,
            None => Plan::Send {
                key: key.map_or_else(|| uuid::Uuid::new_v4().to_string(), str::to_owned),
                applied_at: None,
            },
        };
        match plan {
            Plan::Refused(why) => Err(Failure::refused(why)),
            Plan::Busy { key } => Err(Failure::busy(&key)),
            plan => Ok(plan),
        }
    }

    /// The outcome `plan` gives: an earlier call's settled again, or `input`'s sent (a
    /// delivered write's under its key, which the API replays); its key.
    async fn answer(
        &self,
        tool: &'static Tool<C>,
        plan: Plan,
        input: &Args,
    ) -> (String, Result<crate::Sent, Failure>, Option<Replay>) {
        let s = &self.state;
        match plan {
            Plan::Resume(entry) => {
                let key = entry.write.key.clone();
                let applied_at = entry.settled_at;
                let write = (s.app.runtime)(&s.client).settle_write(*entry).await;
                let replay = Replay {
                    applied_at: applied_at
                        .or_else(|| write.is_settled().then(std::time::SystemTime::now)),
                };
                (key, crate::respond(write.outcome), Some(replay))
            }
            Plan::Send { key, applied_at } => {
                let replay = applied_at.map(|t| Replay {
                    applied_at: Some(t),
                });
                (key, (tool.run)(&s.client, input).await, replay)
            }
            Plan::Busy { key } => (key.clone(), Err(Failure::busy(&key)), None),
            Plan::Refused(why) => (String::new(), Err(Failure::refused(why)), None),
        }
    }
}

/// Takes the server's own arguments out of `arguments`: the write's `idempotency_key` and
/// `wait`. They exist only where the tool offers them: a read may have a parameter of the same
/// name (a lookup by idempotency key).
fn own_arguments<C>(
    tool: &Tool<C>,
    arguments: &mut Map<String, Value>,
) -> Result<(Option<String>, bool), Failure> {
    let key = match tool
        .effects
        .writes
        .then(|| arguments.remove(args::IDEMPOTENCY_KEY))
        .flatten()
    {
        None | Some(Value::Null) => None,
        Some(Value::String(key)) if !key.is_empty() && key.len() <= 255 => Some(key),
        Some(_) => {
            return Err(Failure::invalid(
                "`idempotency_key` must be a non-empty string of at most 255 characters",
            ));
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
        Some(_) => return Err(Failure::invalid("`wait` must be true or false")),
    };
    Ok((key, wait))
}

/// `result`, saying first which body members the document does not define were sent as given.
fn with_warning(mut result: CallToolResult, unknown: &[String]) -> CallToolResult {
    if !unknown.is_empty() {
        let warning = format!(
            "warning: --allow-unknown-members: sent members the API document does not define: {}",
            unknown.join(", ")
        );
        result
            .content
            .insert(0, rmcp::model::ContentBlock::text(warning));
    }
    result
}
