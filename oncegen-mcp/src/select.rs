//! Which tools a server offers: selection at start-up by area, method and operationId, named
//! presets, and the credential's scopes.
//!
//! A tool is offered when it matches every kind of include given (any value within a kind) and
//! no exclude. Presets are derived from the table, not written per API: `readonly` (every
//! `GET`) and `<area>-readonly` for each area (`dns-readonly`). A value that names no area,
//! method or operation of the table is an error at start-up ([`Selection::check`]).

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

    /// Refuses a value of an include or exclude that names nothing in `tools`: the error names
    /// the flag and the value and lists the valid values, the closest first.
    pub fn check<C: 'static>(
        &self,
        tools: impl Iterator<Item = &'static Tool<C>>,
    ) -> Result<(), String> {
        let tools: Vec<&Tool<C>> = tools.collect();
        let areas = known(tools.iter().map(|t| area_name(t.area)));
        let methods = known(tools.iter().map(|t| t.method.to_ascii_uppercase()));
        let operations = known(tools.iter().map(|t| t.operation_id.to_owned()));
        let names = known(tools.iter().map(|t| t.name.to_owned()));
        let area = |g: &str| tools.iter().any(|t| area_matches(g, t.area));
        let method = |g: &str| methods.iter().any(|m| m.eq_ignore_ascii_case(g));
        let operation = |g: &str| operations.iter().chain(&names).any(|o| o == g);
        refuse("area", [&self.areas, &self.exclude_areas], area, &areas)?;
        refuse(
            "method",
            [&self.methods, &self.exclude_methods],
            method,
            &methods,
        )?;
        let given = [&self.operations, &self.exclude_operations];
        refuse("operation", given, operation, &operations)?;
        Ok(())
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

/// Refuses the first of the values given for `kind` (its include, then its exclude) that
/// `accepts` does not, naming its flag and listing `valid`, the closest first.
fn refuse(
    kind: &str,
    [include, exclude]: [&Vec<String>; 2],
    accepts: impl Fn(&str) -> bool,
    valid: &[String],
) -> Result<(), String> {
    let given = include.iter().map(|g| (kind.to_owned(), g));
    let excluded = exclude.iter().map(|g| (format!("exclude-{kind}"), g));
    match given.chain(excluded).find(|(_, g)| !accepts(g)) {
        Some((flag, unknown)) => Err(format!(
            "--{flag} {unknown}: no such {kind}; valid (closest first): {}",
            closest_first(unknown, valid).join(", ")
        )),
        None => Ok(()),
    }
}

/// The distinct values, sorted.
fn known(values: impl Iterator<Item = String>) -> Vec<String> {
    let mut values: Vec<String> = values.collect();
    values.sort_unstable();
    values.dedup();
    values
}

/// `valid` with the values close to `given` first (closest first), then the others in order.
fn closest_first<'a>(given: &str, valid: &'a [String]) -> Vec<&'a str> {
    let given = given.to_ascii_lowercase();
    let mut ranked: Vec<(&str, f64)> = valid
        .iter()
        .map(|v| (v.as_str(), strsim::jaro(&given, &v.to_ascii_lowercase())))
        .map(|(v, score)| (v, if score > CLOSE { score } else { 0.0 }))
        .collect();
    // A stable sort: the values that are not close keep their order.
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    ranked.into_iter().map(|(v, _)| v).collect()
}

/// The Jaro similarity above which a value counts as close (clap's, for its "did you mean").
const CLOSE: f64 = 0.7;

#[cfg(test)]
mod tests {
    use super::Selection;
    use crate::{Args, Effects, Run, Tool};

    fn unused<'a>(_: &'a (), _: &'a Args) -> Run<'a> {
        unreachable!("selection never calls a tool")
    }

    fn tool(name: &'static str, operation_id: &'static str, area: &'static str) -> Tool<()> {
        Tool {
            name,
            operation_id,
            area,
            method: "GET",
            path: "/",
            title: "",
            description: "",
            input_schema: "{}",
            output_schema: None,
            effects: Effects::default(),
            scopes: &[],
            paging: None,
            run: unused,
        }
    }

    #[test]
    fn a_value_naming_nothing_is_refused_with_the_valid_ones_closest_first() {
        let tools: &'static [Tool<()>] = Box::leak(Box::new([
            tool("list_zones", "dnsZones", "dns"),
            tool("get_vps", "vpsGet", "dedicated_servers"),
        ]));
        let check = |selection: Selection| selection.check(tools.iter());
        let valid = Selection {
            areas: vec!["dns".into(), "dedicated_servers".into()],
            methods: vec!["get".into()],
            operations: vec!["dnsZones".into(), "get_vps".into()],
            ..Selection::default()
        };
        assert_eq!(check(valid), Ok(()));
        let area = check(Selection {
            exclude_areas: vec!["dedicated-server".into()],
            ..Selection::default()
        });
        let expected = "--exclude-area dedicated-server: no such area; valid (closest first): \
                        dedicated-servers, dns";
        assert_eq!(area.unwrap_err(), expected);
        let operation = check(Selection {
            operations: vec!["vpsGt".into()],
            ..Selection::default()
        });
        assert!(operation.unwrap_err().ends_with("vpsGet, dnsZones"));
        let method = check(Selection {
            methods: vec!["FETCH".into()],
            ..Selection::default()
        });
        assert!(
            method
                .unwrap_err()
                .starts_with("--method FETCH: no such method")
        );
    }
}
