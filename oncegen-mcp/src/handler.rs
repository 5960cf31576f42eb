//! The rmcp server handler: `tools/list` from the generated table as selected at start-up, and
//! `tools/call` through the gates and, for writes, the exactly-once layer.

use crate::args::{self, Args};
use crate::dynamic;
use crate::gate::Gates;
use crate::once::{self, Outcomes};
use crate::select::Selection;
use crate::{App, Failure, Sent, Tool};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, MetaObject, PaginatedRequestParams, ServerCapabilities,
    ServerConfig, ToolAnnotations,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};
use serde_json::{Map, Value, json};
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
    state: Arc<State<C>>,
}

impl<C> Clone for Server<C> {
    fn clone(&self) -> Self {
        Server {
            state: self.state.clone(),
        }
    }
}

pub(crate) struct State<C: 'static> {
    app: &'static App<C>,
    client: C,
    selection: Selection,
    gates: Gates,
    mode: Mode,
    outcomes: Outcomes,
    listed: Vec<rmcp::model::Tool>,
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
        let listed = match mode {
            Mode::PerOperation => offered
                .iter()
                .map(|t| describe(t))
                .collect::<Result<_, _>>()?,
            Mode::Dynamic => dynamic::tools(),
        };
        Ok(Server {
            state: Arc::new(State {
                app,
                client,
                selection,
                gates,
                mode,
                outcomes: Outcomes::default(),
                listed,
            }),
        })
    }

    /// The tools `tools/list` answers.
    pub fn listed(&self) -> &[rmcp::model::Tool] {
        &self.state.listed
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

/// The rmcp description of `tool`.
fn describe<C>(tool: &Tool<C>) -> Result<rmcp::model::Tool, String> {
    let schema = |text: &str, what: &str| -> Result<Arc<JsonObject>, String> {
        serde_json::from_str(text).map(Arc::new).map_err(|e| {
            format!(
                "the {what} schema of `{}` is not a JSON object: {e}",
                tool.name
            )
        })
    };
    let mut out = rmcp::model::Tool::new(
        tool.name,
        tool.description,
        schema(tool.input_schema, "input")?,
    )
    .with_title(tool.title)
    .with_annotations(
        ToolAnnotations::with_title(tool.title)
            .read_only(!tool.effects.writes)
            // Spending cannot be undone: a purchase is marked like a deletion, so a client
            // that asks before destructive calls asks before it too.
            .destructive(tool.effects.destructive || tool.effects.purchase.is_some())
            // Every write is sent under a key derived from its arguments (or given): the same
            // call again has no further effect.
            .idempotent(true)
            .open_world(true),
    );
    if let Some(output) = tool.output_schema {
        out = out.with_raw_output_schema(schema(output, "output")?);
    }
    Ok(out)
}

/// The tool result of `outcome`.
pub(crate) fn result<C>(
    tool: &Tool<C>,
    outcome: Result<Sent, Failure>,
    replayed: bool,
) -> CallToolResult {
    let sent = match outcome {
        Ok(sent) => sent,
        Err(failure) => return failed(&failure),
    };
    let mut text = String::new();
    if let Some(key) = &sent.idempotency_key {
        text.push_str(&format!(
            "idempotency_key: {key} (calling this tool again with this key returns this outcome \
             and never writes twice)\n"
        ));
        if replayed {
            text.push_str("replayed: this is the first call's outcome; nothing was sent again\n");
        }
    }
    if tool.effects.long_running {
        text.push_str(
            "This write answered an operation receipt: follow it to its end with the \
             operation tool that offers `wait` (pass `wait: true`).\n",
        );
    }
    if let Some(paging) = tool.paging {
        text.push_str(&format!(
            "More results: call again with `{}` set from the answer's `{}` (absent or null \
             when this is the last page).\n",
            paging.argument, paging.next
        ));
    }
    text.push_str(&serde_json::to_string_pretty(&sent.value).unwrap_or_default());
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    if tool.output_schema.is_some() && sent.value.is_object() {
        result.structured_content = Some(sent.value);
    }
    if let Some(key) = sent.idempotency_key {
        let mut meta = JsonObject::new();
        meta.insert("idempotency_key".into(), json!(key));
        meta.insert("replayed".into(), json!(replayed));
        result.meta = Some(MetaObject(meta));
    }
    result
}

/// The error result of `failure`.
pub(crate) fn failed(failure: &Failure) -> CallToolResult {
    let text = serde_json::to_string_pretty(&failure.to_json()).unwrap_or_default();
    CallToolResult::error(vec![ContentBlock::text(text)])
}

impl<C: Send + Sync + 'static> ServerHandler for Server<C> {
    fn get_info(&self) -> ServerConfig {
        let app = self.state.app;
        let mut instructions = format!(
            "{}. Writes are exactly-once: each write tool takes an optional `idempotency_key` \
             and returns the key it used; calling again with it returns the first outcome.",
            app.about
        );
        if self.state.mode == Mode::Dynamic {
            instructions.push_str(&format!(
                " Find operations with `{}`, read one with `{}`, run it with `{}`.",
                dynamic::SEARCH,
                dynamic::DESCRIBE,
                dynamic::CALL
            ));
        }
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(app.bin, app.version))
            .with_instructions(instructions)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.state.listed.clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.unwrap_or_default();
        let result = match self.state.mode {
            Mode::PerOperation => self.call(&request.name, arguments).await?,
            Mode::Dynamic => dynamic::call(self, &request.name, arguments).await?,
        };
        Ok(result.into())
    }
}
