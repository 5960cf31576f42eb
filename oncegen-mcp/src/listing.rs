//! What `tools/list` says of a tool, and the size of the answer: the one place a generated
//! table entry becomes the protocol's tool description, so a figure computed from a generator's
//! output in-process is the answer a built server gives.

use rmcp::model::{JsonObject, ListToolsResult, ToolAnnotations};
use std::sync::Arc;

/// The fields of a tool that `tools/list` shows.
#[derive(Debug, Clone, Copy)]
pub struct Listing<'a> {
    /// Tool name.
    pub name: &'a str,
    /// The summary.
    pub title: &'a str,
    /// The description for the agent.
    pub description: &'a str,
    /// JSON Schema of the arguments, as text.
    pub input_schema: &'a str,
    /// JSON Schema of the structured result, as text.
    pub output_schema: Option<&'a str>,
    /// Changes state.
    pub writes: bool,
    /// Deletes or undoes.
    pub destructive: bool,
    /// Charges the account.
    pub purchase: bool,
    /// The same request again has no further effect.
    pub idempotent: bool,
}

impl Listing<'_> {
    /// The protocol's description of the tool; an error names a schema that is not an object.
    pub fn describe(&self) -> Result<rmcp::model::Tool, String> {
        let schema = |text: &str, what: &str| -> Result<Arc<JsonObject>, String> {
            serde_json::from_str(text).map(Arc::new).map_err(|e| {
                format!(
                    "the {what} schema of `{}` is not a JSON object: {e}",
                    self.name
                )
            })
        };
        let mut out = rmcp::model::Tool::new(
            self.name.to_owned(),
            self.description.to_owned(),
            schema(self.input_schema, "input")?,
        )
        .with_title(self.title)
        .with_annotations(
            ToolAnnotations::with_title(self.title)
                .read_only(!self.writes)
                // Spending cannot be undone: a purchase is marked like a deletion, so a client
                // that asks before destructive calls asks before it too.
                .destructive(self.destructive || self.purchase)
                // A retry is answered once, but a repeat after its outcome is a new write
                // (`once`): only an idempotent operation has no further effect.
                .idempotent(self.idempotent)
                .open_world(true),
        );
        if let Some(output) = self.output_schema {
            out = out.with_raw_output_schema(schema(output, "output")?);
        }
        Ok(out)
    }
}

/// The size in bytes of the `tools/list` result listing `tools` (its JSON, as sent).
pub fn result_size(tools: &[rmcp::model::Tool]) -> usize {
    serde_json::to_vec(&ListToolsResult::with_all_items(tools.to_vec()))
        .map_or(0, |json| json.len())
}
