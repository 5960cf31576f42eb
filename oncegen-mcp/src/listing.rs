//! What `tools/list` says of a tool, and the size of the answer: the one place a generated
//! table entry becomes the protocol's tool description, so a figure computed from a generator's
//! output in-process is the answer a built server gives.
//!
//! A listing carries what an agent needs to choose and call a tool: name, description, the
//! arguments' schema and the hints that differ from the protocol's defaults (none at all when
//! every hint is the default). The answer's schema is left out (it is a fifth of the listing,
//! and every answer shows its own shape); the dynamic mode's `describe` gives it on demand. So
//! is the title: the protocol means it for a person's display, which shows the name without
//! one, while the agent reads the description, which says the summary where it adds a word.

mod repeats;

use rmcp::model::{JsonObject, ListToolsResult, ToolAnnotations};
use std::sync::Arc;

/// The protocol's descriptions of the tools one listing offers, in its order, a passage that
/// several descriptions share said once (`repeats`); an error names a schema that is not an
/// object.
pub fn describe_all(listings: &[Listing]) -> Result<Vec<rmcp::model::Tool>, String> {
    let texts: Vec<(&str, &str)> = listings.iter().map(|l| (l.name, l.description)).collect();
    let said = repeats::said_once(&texts);
    listings
        .iter()
        .zip(&said)
        .map(|(listing, description)| {
            Listing {
                description,
                ..*listing
            }
            .describe()
        })
        .collect()
}

/// The fields of a tool that `tools/list` shows.
#[derive(Debug, Clone, Copy)]
pub struct Listing<'a> {
    /// Tool name.
    pub name: &'a str,
    /// The description for the agent.
    pub description: &'a str,
    /// JSON Schema of the arguments, as text.
    pub input_schema: &'a str,
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
        let input: JsonObject = serde_json::from_str(self.input_schema).map_err(|e| {
            format!(
                "the input schema of `{}` is not a JSON object: {e}",
                self.name
            )
        })?;
        let tool = rmcp::model::Tool::new(
            self.name.to_owned(),
            self.description.to_owned(),
            Arc::new(input),
        );
        let hints = self.annotations();
        Ok(if hints == ToolAnnotations::default() {
            tool
        } else {
            tool.with_annotations(hints)
        })
    }
}

impl Listing<'_> {
    /// The hints that differ from the protocol's defaults (not read-only, destructive, not
    /// idempotent, open world), so a listing pays only for what it says: a read is read-only
    /// (the other hints apply to writes alone); a write says when it is not destructive and
    /// when it is idempotent.
    fn annotations(&self) -> ToolAnnotations {
        let mut hints = ToolAnnotations::default();
        if !self.writes {
            hints.read_only_hint = Some(true);
            return hints;
        }
        // Spending cannot be undone: a purchase is marked like a deletion, so a client that
        // asks before destructive calls asks before it too.
        if !(self.destructive || self.purchase) {
            hints.destructive_hint = Some(false);
        }
        // A retry is answered once, but a repeat after its outcome is a new write (`once`):
        // only an idempotent operation has no further effect.
        if self.idempotent {
            hints.idempotent_hint = Some(true);
        }
        hints
    }
}

/// The size in bytes of the `tools/list` result listing `tools` (its JSON, as sent).
pub fn result_size(tools: &[rmcp::model::Tool]) -> usize {
    serde_json::to_vec(&ListToolsResult::with_all_items(tools.to_vec()))
        .map_or(0, |json| json.len())
}
