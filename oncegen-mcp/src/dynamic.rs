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
    let object = |value: Value| -> Arc<JsonObject> {
        match value {
            Value::Object(map) => Arc::new(map),
            _ => unreachable!("the schemas below are objects"),
        }
    };
    let read = |title: &str| {
        ToolAnnotations::with_title(title)
            .read_only(true)
            .open_world(false)
    };
    let mut tools = vec![
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
        .with_annotations(read("Search operations")),
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
        .with_annotations(read("Describe an operation")),
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

/// A call tool: `name` and `arguments`.
fn call_tool(name: &'static str, description: &'static str) -> rmcp::model::Tool {
    let schema = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "arguments": {"type": "object"},
        },
        "required": ["name"],
    });
    let Value::Object(schema) = schema else {
        unreachable!("the schema is an object")
    };
    rmcp::model::Tool::new(name, description, Arc::new(schema))
}

/// Runs the dynamic tool `name`.
pub(crate) async fn call<C: Send + Sync + 'static>(
    server: &Server<C>,
    name: &str,
    mut arguments: Map<String, Value>,
    request: RequestId,
    peer: &Peer<RoleServer>,
) -> Result<CallToolResult, ErrorData> {
    let text = |key: &str, arguments: &Map<String, Value>| {
        arguments
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    match name {
        SEARCH => {
            let query = text("query", &arguments).to_lowercase();
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
            Ok(answer(json!({ "operations": found })))
        }
        DESCRIBE => {
            let wanted = text("name", &arguments);
            match offered(server, &wanted) {
                Ok(tool) => Ok(answer(json!({
                    "name": tool.name,
                    "description": tool.description,
                    "input_schema": parse(tool.input_schema),
                    "output_schema": tool.output_schema.map(parse),
                    "writes": tool.effects.writes,
                    "destructive": tool.effects.destructive,
                }))),
                Err(failure) => Ok(failed(&failure)),
            }
        }
        CALL | CALL_READ => {
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
        _ => Err(ErrorData::invalid_params(
            format!("no tool named `{name}` (dynamic mode offers {SEARCH}, {DESCRIBE}, {CALL})"),
            None,
        )),
    }
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
