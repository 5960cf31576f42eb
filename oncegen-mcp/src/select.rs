//! Which tools a server offers: selection at start-up by area, method and operationId, named
//! presets, and the credential's scopes.
//!
//! A tool is offered when it matches every kind of include given (any value within a kind) and
//! no exclude. Presets are derived from the table, not written per API: `readonly` (every
//! `GET`) and `<area>-readonly` for each area (`dns-readonly`).

use crate::Tool;

/// The operator's selection.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// Areas to include (empty: all).
    pub areas: Vec<String>,
    /// HTTP methods to include (empty: all), any case.
    pub methods: Vec<String>,
    /// Operations to include by `operationId` or tool name (empty: all).
    pub operations: Vec<String>,
    /// Areas to leave out.
    pub exclude_areas: Vec<String>,
    /// Methods to leave out.
    pub exclude_methods: Vec<String>,
    /// Operations to leave out.
    pub exclude_operations: Vec<String>,
    /// The scopes the credential holds (`None`: not configured, every tool).
    pub scopes: Option<Vec<String>>,
}

impl Selection {
    /// Adds the preset `name` to the selection; an unknown name is an error listing the known.
    pub fn preset<C: 'static>(
        &mut self,
        name: &str,
        tools: impl Iterator<Item = &'static Tool<C>>,
    ) -> Result<(), String> {
        let mut areas: Vec<&str> = tools.map(|t| t.area).collect();
        areas.sort_unstable();
        areas.dedup();
        let area = name.strip_suffix("-readonly");
        match area {
            Some(area) if areas.iter().any(|a| area_name(a) == area) => {
                self.areas.push(area.to_owned());
                self.methods.push("GET".to_owned());
                Ok(())
            }
            None if name == "readonly" => {
                self.methods.push("GET".to_owned());
                Ok(())
            }
            _ => Err(format!(
                "unknown preset `{name}`; known: readonly, {}",
                areas
                    .iter()
                    .map(|a| format!("{}-readonly", area_name(a)))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    /// Whether `tool` is selected.
    pub fn admits<C>(&self, tool: &Tool<C>) -> bool {
        let area = |list: &[String]| list.iter().any(|a| area_matches(a, tool.area));
        let method = |list: &[String]| list.iter().any(|m| m.eq_ignore_ascii_case(tool.method));
        let operation = |list: &[String]| {
            list.iter()
                .any(|o| o == tool.operation_id || o == tool.name)
        };
        (self.areas.is_empty() || area(&self.areas))
            && (self.methods.is_empty() || method(&self.methods))
            && (self.operations.is_empty() || operation(&self.operations))
            && !area(&self.exclude_areas)
            && !method(&self.exclude_methods)
            && !operation(&self.exclude_operations)
            && self.scopes_allow(tool)
    }

    /// Whether the configured scopes allow `tool` (one of its scopes suffices).
    pub fn scopes_allow<C>(&self, tool: &Tool<C>) -> bool {
        match &self.scopes {
            None => true,
            Some(held) => {
                tool.scopes.is_empty() || tool.scopes.iter().any(|s| held.iter().any(|h| h == s))
            }
        }
    }
}

/// An area as the operator names it: the module with `-` for `_` (`dedicated-servers`).
pub fn area_name(module: &str) -> String {
    module.replace('_', "-")
}

fn area_matches(given: &str, module: &str) -> bool {
    given == module || given == area_name(module)
}
