//! The names of a tool's arguments: each parameter under its name in the API (`type`, not the
//! Rust field `type_`), so an agent that read the API's reference passes what the tool takes;
//! the generated function maps each name back to the client method's argument or setter.

use std::collections::BTreeMap;

use crate::surface::OperationSurface;

/// The argument name of each parameter of `op`, by Rust name: its wire name, or
/// `{location}_{name}` (`query_region`) when another parameter of `op` has the same wire name.
pub(super) fn names(op: &OperationSurface) -> BTreeMap<String, String> {
    op.params
        .iter()
        .map(|(rust, p)| {
            let shared = op.params.values().filter(|o| o.name == p.name).count() > 1;
            let name = if shared {
                format!("{}_{}", p.location.as_str(), p.name)
            } else {
                p.name.clone()
            };
            (rust.clone(), name)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::names;
    use crate::surface::Surface;

    #[test]
    fn arguments_are_wire_names_unless_two_parameters_share_one() {
        let text = r#"
openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /things/{region}:
    get:
      operationId: thingsRead
      parameters:
        - {name: region, in: path, required: true, schema: {type: string}}
        - {name: region, in: query, schema: {type: string}}
        - {name: type, in: query, schema: {type: string}}
        - {name: pageSize, in: query, schema: {type: integer}}
      responses: {'204': {description: ok}}
"#;
        let api = crate::model_str(text, "arguments.yaml").expect("the document lowers");
        let surface = Surface::of(&api, "t", "0.1.0");
        let op = &surface.operations["thingsRead"];
        let names = names(op);
        let named: Vec<&str> = names.values().map(String::as_str).collect();
        assert_eq!(names["type_"], "type");
        assert_eq!(names["page_size"], "pageSize");
        assert!(named.contains(&"path_region"), "{names:?}");
        assert!(named.contains(&"query_region"), "{names:?}");
    }
}
