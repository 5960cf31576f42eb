//! Dynamic mode (`--tools dynamic`): three or four tools whatever the API's size, so an agent's
//! context does not fill with hundreds of schemas. `search_operations` finds operations by
//! words, `describe_operation` gives one's description and schemas, `call_operation` runs it
//! through the same gates and exactly-once layer as a per-operation tool.
//!
//! A host may ask its user to confirm each call of a tool that is not read-only (MCP
//! annotations are hints to it), so the annotations say what the tool can reach on this server
//! ([`Reach`]): with no write offered, `call_operation` is read-only; with writes, it is not
//! (destructive only with `--allow-destructive`), and `call_read_operation`, read-only, runs the
//! operations that do not write, so reads are not confirmed one by one. One tool more (about
//! a hundred tokens of `tools/list`) only where writes are enabled, rather than a
//! `call_operation` whose hints understate what it does.

use crate::Server;
use crate::result::failed;
use crate::{Failure, Tool};
use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, RequestId, ToolAnnotations};
use rmcp::service::{Peer, RoleServer};
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// Name of the search tool.
pub const SEARCH: &str = "search_operations";
/// Name of the describe tool.
pub const DESCRIBE: &str = "describe_operation";
/// Name of the call tool.
pub const CALL: &str = "call_operation";
/// Name of the read-only call tool, offered when writes are.
pub const CALL_READ: &str = "call_read_operation";

/// What the offered operations can do, which the call tools' annotations say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reach {
    /// Some offered operation writes.
    pub writes: bool,
    /// Some offered operation is destructive.
    pub destructive: bool,
}

impl Reach {
    /// What `server`'s offered operations can do.
    pub(crate) fn of<C: Send + Sync + 'static>(server: &Server<C>) -> Reach {
        server.offered().fold(Reach::default(), |reach, t| Reach {
            writes: reach.writes || t.effects.writes,
            destructive: reach.destructive || t.effects.destructive,
        })
    }
}

/// The tools of a server whose operations have `reach`.
pub fn tools(reach: Reach) -> Vec<rmcp::model::Tool> {
    let mut tools = vec![
        search_tool(),
        describe_tool(),
        call_tool(
            CALL,
            "Call one operation with `arguments` matching its schema (describe_operation). \
             Writes are exactly-once: pass `idempotency_key` inside `arguments` to retry safely; \
             the result returns the key used.",
        )
        .with_annotations(
            ToolAnnotations::with_title("Call an operation")
                .read_only(!reach.writes)
                .destructive(reach.destructive)
                .idempotent(true)
                .open_world(true),
        ),
    ];
    if reach.writes {
        tools.push(
            call_tool(
                CALL_READ,
                "Call one operation that does not write (its `writes` is false), as \
                 call_operation does.",
            )
            .with_annotations(
                ToolAnnotations::with_title("Call a read")
                    .read_only(true)
                    .open_world(true),
            ),
        );
    }
    tools
}

/// `search_operations`: the offered operations matching every word of `query`.
fn search_tool() -> rmcp::model::Tool {
    rmcp::model::Tool::new(
        SEARCH,
        "Find the API's operations this server offers: matches every word of `query` \
         against names, paths, areas and summaries (empty: all). Returns name, method, \
         path, summary and whether it writes.",
        object(json!({
            "type": "object",
            "properties": {"query": {"type": "string", "description": "Words to match, e.g. `dns zone list`."}},
        })),
    )
    .with_annotations(read_only("Search operations"))
}

/// `describe_operation`: one operation's description and schemas.
fn describe_tool() -> rmcp::model::Tool {
    rmcp::model::Tool::new(
        DESCRIBE,
        "Describe one operation: its description, the JSON Schema of its arguments and of \
         its result.",
        object(json!({
            "type": "object",
            "properties": {"name": {"type": "string", "description": "The operation's name from search_operations."}},
            "required": ["name"],
        })),
    )
    .with_annotations(read_only("Describe an operation"))
}

/// The annotations of a tool that only reads what the server itself knows.
fn read_only(title: &str) -> ToolAnnotations {
    ToolAnnotations::with_title(title)
        .read_only(true)
        .open_world(false)
}

/// A tool's input schema.
fn object(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => unreachable!("the schemas are objects"),
    }
}

/// A call tool: `name` and `arguments`.
fn call_tool(name: &'static str, description: &'static str) -> rmcp::model::Tool {
    let schema = object(json!({
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "arguments": {"type": "object"},
        },
        "required": ["name"],
    }));
    rmcp::model::Tool::new(name, description, schema)
}

/// Runs the dynamic tool `name`.
pub(crate) async fn call<C: Send + Sync + 'static>(
    server: &Server<C>,
    name: &str,
    arguments: Map<String, Value>,
    request: RequestId,
    peer: &Peer<RoleServer>,
) -> Result<CallToolResult, ErrorData> {
    match name {
        SEARCH => Ok(search(server, &text("query", &arguments))),
        DESCRIBE => Ok(describe(server, &text("name", &arguments))),
        CALL | CALL_READ => call_operation(server, name, arguments, request, peer).await,
        _ => Err(ErrorData::invalid_params(
            format!("no tool named `{name}` (dynamic mode offers {SEARCH}, {DESCRIBE}, {CALL})"),
            None,
        )),
    }
}

/// The string argument `key`, empty when absent.
fn text(key: &str, arguments: &Map<String, Value>) -> String {
    arguments
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// The offered operations whose name, id, area, method, path or title hold every word of
/// `query` (any case).
fn search<C: Send + Sync + 'static>(server: &Server<C>, query: &str) -> CallToolResult {
    let query = query.to_lowercase();
    let words: Vec<&str> = query.split_whitespace().collect();
    let found: Vec<Value> = server
        .offered()
        .filter(|t| {
            let hay = format!(
                "{} {} {} {} {} {}",
                t.name, t.operation_id, t.area, t.method, t.path, t.title
            )
            .to_lowercase();
            words.iter().all(|w| hay.contains(w))
        })
        .map(|t| {
            json!({"name": t.name, "method": t.method, "path": t.path,
                   "summary": t.title, "writes": t.effects.writes})
        })
        .collect();
    answer(json!({ "operations": found }))
}

/// Operation `wanted`'s description, schemas and effects.
fn describe<C: Send + Sync + 'static>(server: &Server<C>, wanted: &str) -> CallToolResult {
    match offered(server, wanted) {
        Ok(tool) => answer(json!({
            "name": tool.name,
            "description": tool.description,
            "input_schema": parse(tool.input_schema),
            "output_schema": tool.output_schema.map(parse),
            "writes": tool.effects.writes,
            "destructive": tool.effects.destructive,
        })),
        Err(failure) => failed(&failure),
    }
}

/// `call_operation` (or `call_read`, which refuses a write): the named operation called with
/// `arguments.arguments`.
async fn call_operation<C: Send + Sync + 'static>(
    server: &Server<C>,
    name: &str,
    mut arguments: Map<String, Value>,
    request: RequestId,
    peer: &Peer<RoleServer>,
) -> Result<CallToolResult, ErrorData> {
    let wanted = text("name", &arguments);
    match offered(server, &wanted) {
        Err(failure) => return Ok(failed(&failure)),
        Ok(tool) if name == CALL_READ && tool.effects.writes => {
            let writes = format!("`{wanted}` writes: call it with {CALL}");
            return Ok(failed(&Failure::invalid(writes)));
        }
        Ok(_) => {}
    }
    let inner = match arguments.remove("arguments") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(map)) => map,
        Some(_) => return Ok(failed(&Failure::invalid("`arguments` must be an object"))),
    };
    server.call(&wanted, inner, request, peer).await
}

/// The operation tool `name`, when the server knows it (offered or refused with a reason by
/// the call itself).
fn offered<C: Send + Sync + 'static>(
    server: &Server<C>,
    name: &str,
) -> Result<&'static Tool<C>, Failure> {
    server.tool(name).ok_or_else(|| {
        Failure::invalid(format!(
            "no operation named `{name}`; find one with {SEARCH}"
        ))
    })
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// A search's or description's answer, once, as compact JSON text (these tools declare no
/// output schema).
fn answer(value: Value) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(value.to_string())])
}
