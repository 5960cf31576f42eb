//! Lowering: the OpenAPI document (3.1 form) becomes the [`crate::ir`] model.
//!
//! Every naming and shaping decision happens here, once: component schemas are named first
//! (sorted), then operations are lowered in path order, then `graph` boxes recursive fields,
//! assigns types to areas, marks request types and sorts everything.

mod arguments;
mod conventions;
mod effects;
mod graph;
mod member_tags;

mod operation;
mod pagination;
mod references;
mod response_headers;
mod schema;
mod security;
mod servers;
mod webhooks;

pub(crate) use schema::Shape;

use crate::error::Result;
use crate::ir::{Api, Area, TypeDef, TypeRef};
use crate::naming::{self, Namespace};
use crate::read::{Document, Node, escape_pointer};
use crate::surface::modules::{ERROR_CODES_MODULE, SHARED_MODULE, WEBHOOKS_MODULE};
use std::collections::BTreeMap;

/// The type every schema lowering met became, by the schema's JSON pointer in the document's
/// 3.1 form (a `$ref` and the schema it names each have an entry).
pub(crate) type SchemaTypes = BTreeMap<String, Shape>;

/// Lowers a document into the model.
pub fn lower(doc: &Document) -> Result<Api> {
    Ok(lower_with_schema_types(doc)?.0)
}

/// [`lower`], also telling which type each schema became ([`crate::doc_examples`] decodes the
/// document's examples with it).
pub(crate) fn lower_with_schema_types(doc: &Document) -> Result<(Api, SchemaTypes)> {
    let root = doc.node();
    let mut cx = Lowerer::new(&doc.root);
    cx.security_schemes = security::schemes(&root);
    cx.servers = servers::servers(&root);
    cx.register_components(&root);
    cx.lower_components(&root)?;
    let (mut operations, skipped, areas) = cx.lower_operations(&root)?;
    let response_headers = response_headers::views(&mut operations, &mut cx.type_names);
    arguments::name_structs(&mut operations, &mut cx.type_names);
    let webhooks = cx.lower_webhooks(&root)?;
    let conventions = conventions::conventions(&root, &operations)?;
    let error_codes = conventions::error_codes(&root, &operations)?;
    let info = root.get("info");
    let api = Api {
        title: info
            .as_ref()
            .and_then(|i| i.str("title"))
            .unwrap_or("API")
            .to_owned(),
        version: info
            .as_ref()
            .and_then(|i| i.str("version"))
            .unwrap_or("0")
            .to_owned(),
        description: info
            .as_ref()
            .and_then(|i| i.str("description"))
            .map(str::to_owned),
        areas,
        operations,
        types: cx.defs,
        skipped,
        webhooks,
        error_codes,
        conventions,
        security_schemes: std::mem::take(&mut cx.security_schemes),
        servers: std::mem::take(&mut cx.servers),
        response_headers,
    };
    let (mut api, removed) = graph::finish(api);
    arguments::name_constructor_structs(&mut api.types, &mut cx.type_names);
    let mut schema_types = cx.schema_types;
    schema_types.retain(|_, shape| !matches!(&shape.ty, TypeRef::Named(n) if removed.contains(n)));
    Ok((api, schema_types))
}

/// Lowering state: the document, claimed type names and the types defined so far.
struct Lowerer<'a> {
    root: &'a serde_json::Value,
    /// Type-level names of the whole crate (types and builders).
    type_names: Namespace,
    /// Component schema pointer → Rust type name.
    components: BTreeMap<String, String>,
    /// Named types defined so far.
    defs: Vec<TypeDef>,
    /// Non-component `$ref` targets being lowered (cycle guard).
    visiting: Vec<String>,
    /// The type each schema lowered so far became.
    schema_types: SchemaTypes,
    /// The security schemes the runtime can send.
    security_schemes: Vec<crate::ir::SecuritySchemeDef>,
    /// The document's servers (an operation's own server is compared with the first).
    servers: Vec<crate::ir::ServerDef>,
    /// Inline error body schemas lowered so far, by [`schema::shape_key`]: equal ones share a
    /// type.
    inline_errors: BTreeMap<String, Shape>,
}

impl<'a> Lowerer<'a> {
    fn new(root: &'a serde_json::Value) -> Self {
        Lowerer {
            root,
            type_names: Namespace::with_reserved(&[]),
            components: BTreeMap::new(),
            defs: Vec::new(),
            visiting: Vec::new(),
            schema_types: SchemaTypes::new(),
            security_schemes: Vec::new(),
            servers: Vec::new(),
            inline_errors: BTreeMap::new(),
        }
    }

    /// Claims names for all component schemas, in sorted order, before anything else.
    fn register_components(&mut self, root: &Node<'a>) {
        let Some(schemas) = root.get("components").and_then(|c| c.get("schemas")) else {
            return;
        };
        let mut entries = schemas.entries();
        entries.sort_by(|a, b| a.0.cmp(b.0));
        for (name, _) in entries {
            let rust = self.type_names.claim(naming::camel(name));
            self.components.insert(
                format!("#/components/schemas/{}", escape_pointer(name)),
                rust,
            );
        }
    }

    fn lower_components(&mut self, root: &Node<'a>) -> Result<()> {
        let Some(schemas) = root.get("components").and_then(|c| c.get("schemas")) else {
            return Ok(());
        };
        let mut entries = schemas.entries();
        entries.sort_by(|a, b| a.0.cmp(b.0));
        for (_, node) in entries {
            let name = self
                .components
                .get(&node.pointer)
                .cloned()
                .unwrap_or_default();
            self.define_named(name, &node)?;
        }
        Ok(())
    }
}

/// Builds the area list from the tags operations use.
fn areas_for(root: &Node<'_>, tags: &[String]) -> Vec<(String, Area)> {
    let mut modules = Namespace::with_reserved(&[
        SHARED_MODULE,
        "client",
        ERROR_CODES_MODULE,
        WEBHOOKS_MODULE,
        "prelude",
        "security_schemes",
        "servers",
        // Cargo features the generated crate defines besides its areas.
        "rustls",
        "journal",
        "generated",
        "lib",
        "mod",
        "default",
    ]);
    let docs: BTreeMap<String, String> = root
        .get("tags")
        .map(|t| {
            t.items()
                .iter()
                .filter_map(|tag| {
                    Some((
                        tag.str("name")?.to_owned(),
                        tag.str("description")?.to_owned(),
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    tags.iter()
        .map(|tag| {
            let module = modules.claim(naming::snake(tag));
            (
                tag.clone(),
                Area {
                    tag: tag.clone(),
                    module,
                    doc: docs.get(tag).cloned(),
                },
            )
        })
        .collect()
}
