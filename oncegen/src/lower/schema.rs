//! Lowering schemas into type references and named types.

use super::Lowerer;
use crate::error::Result;
use crate::ir::{
    AdditionalProperties, Constraints, EnumVariant, ExclusiveGroup, ExclusiveMember, Field,
    IntType, TypeDef, TypeKind, TypeRef, UnionVariant,
};
use crate::naming::{self, Namespace};
use crate::read::Node;
use serde_json::Value;

/// How deep schemas may nest (inline and through local `$ref`s) before lowering refuses them.
const MAX_DEPTH: usize = 128;

/// How deep union members are followed to find one that admits `null`.
const MAX_NULLABLE_DEPTH: usize = 8;

/// How deep `allOf` parts may nest (through `$ref`s too).
const MAX_ALL_OF_DEPTH: usize = 32;

/// A lowered schema use: the type and whether `null` is allowed.
#[derive(Debug, Clone, PartialEq)]
pub struct Shape {
    /// The Rust type the schema became.
    pub ty: TypeRef,
    /// The schema admits `null` (a use of it is an `Option`).
    pub nullable: bool,
}

/// How a schema is shaped, decided before any name is claimed.
enum Plan<'a> {
    /// A `$ref` (possibly with sibling keywords).
    Ref(&'a str),
    /// A union that collapses to one non-null member.
    Single(Node<'a>),
    /// A string enum (from `enum`, or a union of string constants).
    StringEnum(Vec<String>),
    /// A `oneOf`/`anyOf` with several members.
    Union(Vec<Node<'a>>),
    /// A base schema whose `discriminator.mapping` names its subtypes (components that extend it
    /// with `allOf`): a union of them, by tag value and component pointer.
    Subtypes(Vec<(String, String)>),
    /// A struct: an object with properties, or a merged `allOf`.
    Struct,
    /// Anything else (scalars, arrays, maps, free-form).
    Scalar,
}

impl<'a> Lowerer<'a> {
    /// Lowers the schema at `node`; inline composite schemas become named types called `hint`.
    pub(super) fn lower_schema(&mut self, node: &Node<'a>, hint: &str) -> Result<Shape> {
        self.schema_at(node, hint, 0)
    }

    /// [`Self::lower_schema`] for a schema nested `depth` levels below the one lowering began at;
    /// records the shape under the schema's pointer ([`super::SchemaTypes`]).
    fn schema_at(&mut self, node: &Node<'a>, hint: &str, depth: usize) -> Result<Shape> {
        let shape = self.shape_at(node, hint, depth)?;
        self.schema_types
            .insert(node.pointer.clone(), shape.clone());
        Ok(shape)
    }

    fn shape_at(&mut self, node: &Node<'a>, hint: &str, depth: usize) -> Result<Shape> {
        if depth > MAX_DEPTH {
            return Err(node.error(format!(
                "unsupported construct: schema nested deeper than {MAX_DEPTH} levels"
            )));
        }
        let depth = depth + 1;
        let plan = self.plan(node)?;
        let nullable = self.nullable(node);
        let ty = match plan {
            Plan::Ref(target) => return self.lower_ref(node, target, hint, depth),
            Plan::Single(inner) => {
                let shape = self.schema_at(&inner, hint, depth)?;
                return Ok(Shape {
                    ty: shape.ty,
                    nullable: nullable || shape.nullable,
                });
            }
            Plan::Scalar => self.scalar(node, hint, depth)?,
            Plan::StringEnum(_) => TypeRef::Named(self.inline_enum(node, hint, depth)?),
            Plan::Union(_) | Plan::Subtypes(_) | Plan::Struct => {
                let name = self.inline_type_name(hint, &node.pointer);
                self.define_at(name.clone(), node, depth)?;
                TypeRef::Named(name)
            }
        };
        Ok(Shape { ty, nullable })
    }

    /// The type of an inline string enum: its own, called `hint` (the words of its place).
    ///
    /// Identical enums at several places are not merged. A merged type would be named after
    /// one of its places, the first lowering meets, so a revision of one schema (a value added
    /// to one of the enums, a property or operation met earlier) would rename the type every
    /// other place uses: a breaking change where nothing changed. Each place owning its type
    /// keeps every name a function of its own place only; the cost is some repeated code.
    fn inline_enum(&mut self, node: &Node<'a>, hint: &str, depth: usize) -> Result<String> {
        let name = self.inline_type_name(hint, &node.pointer);
        self.define_at(name.clone(), node, depth)?;
        Ok(name)
    }

    /// The name of an inline type: `hint`, or, when a component (or an earlier inline type)
    /// already has it, the words of its place in the spec
    /// (`#/components/schemas/TcpProxy/properties/countryPolicy` → `TcpProxyPropertiesCountryPolicy`).
    fn inline_type_name(&mut self, hint: &str, pointer: &str) -> String {
        let name = naming::camel(hint);
        if !self.type_names.contains(&name) {
            return self.type_names.claim(name);
        }
        let place = pointer
            .trim_start_matches("#/components/schemas/")
            .trim_start_matches("#/")
            .replace('/', " ");
        self.type_names.claim(naming::camel(&place))
    }

    fn lower_ref(
        &mut self,
        node: &Node<'a>,
        target: &str,
        hint: &str,
        depth: usize,
    ) -> Result<Shape> {
        if let Some(name) = self.components.get(target).cloned() {
            let nullable = self.nullable(node)
                || node
                    .resolve(self.root)
                    .ok()
                    .is_some_and(|t| self.nullable(&t));
            return Ok(Shape {
                ty: TypeRef::Named(name),
                nullable,
            });
        }
        let resolved = node.resolve(self.root)?;
        if self.visiting.contains(&resolved.pointer) {
            return Err(node.error(format!(
                "unsupported construct: recursive `$ref` to `{target}` outside #/components/schemas"
            )));
        }
        self.visiting.push(resolved.pointer.clone());
        let shape = self.schema_at(&resolved, hint, depth);
        self.visiting.pop();
        let mut shape = shape?;
        shape.nullable |= self.nullable(node);
        Ok(shape)
    }

    /// Defines a named type `name` for the schema at `node`.
    pub(super) fn define_named(&mut self, name: String, node: &Node<'a>) -> Result<()> {
        let shape = Shape {
            ty: TypeRef::Named(name.clone()),
            nullable: self.nullable(node),
        };
        self.define_at(name, node, 0)?;
        // After `define_at`: an alias's own schema was recorded as its target.
        self.schema_types.insert(node.pointer.clone(), shape);
        Ok(())
    }

    /// [`Self::define_named`] for a schema nested `depth` levels deep.
    fn define_at(&mut self, name: String, node: &Node<'a>, depth: usize) -> Result<()> {
        let plan = self.plan(node)?;
        // A schema that only wraps an inline one (`allOf` of one, `oneOf` with `null`) is that
        // type under its own name, not an alias of a `…Inner` whose `new` a caller must find.
        if let Plan::Single(inner) = &plan
            && inner.reference().is_none()
            && matches!(
                self.plan(inner)?,
                Plan::Struct | Plan::Union(_) | Plan::StringEnum(_) | Plan::Subtypes(_)
            )
        {
            let shape = Shape {
                ty: TypeRef::Named(name.clone()),
                nullable: false,
            };
            self.schema_types.insert(inner.pointer.clone(), shape);
            let doc = doc_of(node);
            let deprecated = node.flag("deprecated");
            self.define_at(name, inner, depth)?;
            if let Some(def) = self.defs.last_mut() {
                def.pointer = node.pointer.clone();
                def.doc = def.doc.take().or(doc);
                def.deprecated |= deprecated;
            }
            return Ok(());
        }
        let kind = match plan {
            Plan::StringEnum(values) => enum_kind(&values),
            Plan::Union(members) => self.union_kind(node, &name, &members, depth)?,
            Plan::Subtypes(subtypes) => self.subtypes_kind(node, &subtypes),
            Plan::Struct => self.struct_kind(node, &name, depth)?,
            Plan::Ref(_) | Plan::Single(_) | Plan::Scalar => TypeKind::Alias {
                target: self.schema_at(node, &format!("{name}Inner"), depth)?.ty,
            },
        };
        self.defs.push(TypeDef {
            name,
            module: String::new(),
            pointer: node.pointer.clone(),
            doc: doc_of(node),
            deprecated: node.flag("deprecated"),
            request: false,
            constructor_struct: None,
            kind,
        });
        Ok(())
    }

    fn plan(&self, node: &Node<'a>) -> Result<Plan<'a>> {
        self.plan_with(node, true)
    }

    /// [`Self::plan`]; `subtypes: false` does not look for a base schema's subtypes (which asks
    /// for the plan of each, so a base is never planned twice on one path).
    fn plan_with(&self, node: &Node<'a>, subtypes: bool) -> Result<Plan<'a>> {
        let value = node.value;
        if value.is_boolean() {
            return Ok(Plan::Scalar);
        }
        if !value.is_object() {
            return Err(node.error("a schema must be an object or a boolean"));
        }
        if let Some(target) = node.reference() {
            return Ok(Plan::Ref(target));
        }
        if subtypes && let Some(subtypes) = self.subtypes(node) {
            return Ok(Plan::Subtypes(subtypes));
        }
        if let Some(list) = node.get("oneOf").or_else(|| node.get("anyOf")) {
            return Ok(self.union_plan(node, &list));
        }
        if let Some(all) = node.get("allOf") {
            return Ok(all_of_plan(node, &all));
        }
        if let Some(values) = self.string_literals(node)
            && node.get("enum").is_some()
        {
            return Ok(Plan::StringEnum(values));
        }
        let has_props = node
            .get("properties")
            .is_some_and(|p| !p.entries().is_empty());
        let types = type_list(node);
        let object_like = types.0.is_empty() || types.0.iter().any(|t| t == "object");
        if has_props && object_like {
            return Ok(Plan::Struct);
        }
        Ok(Plan::Scalar)
    }

    /// The plan of a schema with `oneOf`/`anyOf` (`list`): its non-null members as a union,
    /// one member alone, an enum when every member is string constants; with properties
    /// beside the members, a union only when a discriminator chooses among several, else a
    /// struct of the common properties.
    fn union_plan(&self, node: &Node<'a>, list: &Node<'a>) -> Plan<'a> {
        let members: Vec<Node<'a>> = list
            .items()
            .into_iter()
            .filter(|m| !self.is_null_schema(m))
            .collect();
        if members.is_empty() {
            return Plan::Scalar;
        }
        if node.get("properties").is_none() {
            if let [only] = members.as_slice() {
                return Plan::Single(only.clone());
            }
            let mut values = Vec::new();
            for m in &members {
                match self.string_literals(m) {
                    Some(v) => values.extend(v),
                    None => return Plan::Union(members),
                }
            }
            return Plan::StringEnum(values);
        }
        // Properties beside a union with a discriminator: its members, chosen by the tag,
        // carry what the value holds (the common properties are theirs too).
        if node.get("discriminator").is_some() && members.len() > 1 {
            return Plan::Union(members);
        }
        Plan::Struct
    }

    /// `Some(values)` when the schema only admits string constants (`enum` or `const`).
    fn string_literals(&self, node: &Node<'a>) -> Option<Vec<String>> {
        let resolved = node.resolve(self.root).ok()?;
        let (types, _) = type_list(&resolved);
        if !(types.is_empty() || types == ["string"]) {
            return None;
        }
        if let Some(Value::String(c)) = resolved.value.get("const") {
            return Some(vec![c.clone()]);
        }
        let values = resolved.value.get("enum")?.as_array()?;
        let strings: Vec<String> = values
            .iter()
            .filter(|v| !v.is_null())
            .map(|v| v.as_str().map(str::to_owned))
            .collect::<Option<_>>()?;
        (!strings.is_empty()).then_some(strings)
    }

    fn is_null_schema(&self, node: &Node<'a>) -> bool {
        let Ok(node) = node.resolve(self.root) else {
            return false;
        };
        let (types, null) = type_list(&node);
        (types.is_empty() && null)
            || node
                .value
                .get("enum")
                .and_then(Value::as_array)
                .is_some_and(|v| v.iter().all(Value::is_null))
            || node.value.get("const") == Some(&Value::Null)
    }

    /// Whether the schema admits `null`: 3.0's `nullable: true` (read as a type array), a type
    /// array with `null`, a null enum value, or a `oneOf`/`anyOf` member that is `null` or
    /// admits it (`anyOf: [{type: [string, "null"]}, {type: integer}]`, or a `$ref` to a
    /// nullable schema).
    pub(super) fn nullable(&self, node: &Node<'a>) -> bool {
        self.nullable_at(node, 0)
    }

    fn nullable_at(&self, node: &Node<'a>, depth: usize) -> bool {
        type_list(node).1
            || node
                .value
                .get("enum")
                .and_then(Value::as_array)
                .is_some_and(|v| v.contains(&Value::Null))
            || ["oneOf", "anyOf"].iter().any(|k| {
                node.get(k).is_some_and(|l| {
                    l.items().iter().any(|m| {
                        self.is_null_schema(m)
                            || (depth < MAX_NULLABLE_DEPTH
                                && m.resolve(self.root)
                                    .is_ok_and(|m| self.nullable_at(&m, depth + 1)))
                    })
                })
            })
    }

    fn scalar(&mut self, node: &Node<'a>, hint: &str, depth: usize) -> Result<TypeRef> {
        if node.value.is_boolean() {
            return Ok(TypeRef::Json);
        }
        let (types, _) = type_list(node);
        let single = match types.as_slice() {
            [] => None,
            [one] => Some(one.as_str()),
            _ => return Ok(TypeRef::Json),
        };
        let format = node.str("format").unwrap_or("");
        Ok(match single {
            Some("string") => match format {
                "uuid" => TypeRef::Uuid,
                "date-time" => TypeRef::DateTime,
                "date" => TypeRef::Date,
                "decimal" => TypeRef::Decimal,
                "password" => TypeRef::Secret,
                "binary" => TypeRef::File,
                _ if node.get("contentMediaType").is_some()
                    && node.get("contentEncoding").is_none() =>
                {
                    TypeRef::File
                }
                _ => TypeRef::String,
            },
            Some("integer") => TypeRef::Int(int_type(node)),
            Some("number") => TypeRef::Float,
            Some("boolean") => TypeRef::Bool,
            Some("array") => self.array(node, hint, depth)?,
            Some("object") => self.map(node, hint, depth)?,
            Some("null") => TypeRef::Json,
            Some(other) => {
                return Err(node.error(format!("unsupported construct: `type: {other}`")));
            }
            None if node.get("items").is_some() => self.array_or_value(node, hint, depth)?,
            None if node.get("additionalProperties").is_some() => self.map(node, hint, depth)?,
            None if matches!(node.value.get("const"), Some(Value::String(_))) => TypeRef::String,
            // A typeless secret (any JSON value): held redacted, as its text.
            None if format == "password" => TypeRef::Secret,
            None => TypeRef::Json,
        })
    }

    fn array(&mut self, node: &Node<'a>, hint: &str, depth: usize) -> Result<TypeRef> {
        let item = match node.get("items") {
            Some(items) => {
                let item = self.schema_at(&items, &format!("{hint}Item"), depth)?;
                TypeRef::maybe_null(item.ty, item.nullable)
            }
            None => TypeRef::Json,
        };
        Ok(TypeRef::Array(Box::new(item)))
    }

    /// A schema with `items` but no `type`: JSON Schema applies `items` to arrays only and
    /// admits any other value, so this is an untagged union of the typed list (tried first, so
    /// an array decodes typed) and any other value (`Other`).
    fn array_or_value(&mut self, node: &Node<'a>, hint: &str, depth: usize) -> Result<TypeRef> {
        let name = self.inline_type_name(hint, &node.pointer);
        let list = self.array(node, &name, depth)?;
        let list_name = self
            .shape_word(node, 0)
            .filter(|word| word != "Other")
            .unwrap_or_else(|| "List".to_owned());
        self.defs.push(TypeDef {
            name: name.clone(),
            module: String::new(),
            pointer: node.pointer.clone(),
            doc: doc_of(node),
            deprecated: node.flag("deprecated"),
            request: false,
            constructor_struct: None,
            kind: TypeKind::Union {
                tag: None,
                variants: vec![
                    UnionVariant {
                        rust_name: list_name,
                        ty: list,
                        boxed: false,
                        tag_value: None,
                    },
                    UnionVariant {
                        rust_name: "Other".to_owned(),
                        ty: TypeRef::Json,
                        boxed: false,
                        tag_value: None,
                    },
                ],
                display: false,
            },
        });
        Ok(TypeRef::Named(name))
    }

    fn map(&mut self, node: &Node<'a>, hint: &str, depth: usize) -> Result<TypeRef> {
        match node.get("additionalProperties") {
            Some(ap) if ap.value.as_object().is_some_and(|o| !o.is_empty()) => {
                let value = self.schema_at(&ap, &format!("{hint}Value"), depth)?;
                Ok(TypeRef::Map(Box::new(TypeRef::maybe_null(
                    value.ty,
                    value.nullable,
                ))))
            }
            _ => Ok(TypeRef::JsonObject),
        }
    }

    fn struct_kind(&mut self, node: &Node<'a>, name: &str, depth: usize) -> Result<TypeKind> {
        self.struct_of(&[node], node, name, depth)
    }

    /// The struct of the properties of `parts` (the first declaration of a property wins);
    /// `x-at-most-one-of` groups and `additionalProperties` come from `node`.
    fn struct_of(
        &mut self,
        parts: &[&Node<'a>],
        node: &Node<'a>,
        name: &str,
        depth: usize,
    ) -> Result<TypeKind> {
        let mut props: Vec<(String, Node<'a>)> = Vec::new();
        let mut required: Vec<String> = Vec::new();
        for part in parts {
            self.collect_properties(part, &mut props, &mut required)?;
        }
        let mut field_names = Namespace::default();
        let mut fields = Vec::new();
        for (wire, prop) in &props {
            let hint = format!("{name}{}", naming::camel(wire));
            let shape = self.schema_at(prop, &hint, depth)?;
            let const_value = match prop.value.get("const") {
                Some(Value::String(c)) => Some(c.clone()),
                _ => None,
            };
            fields.push(Field {
                name: wire.clone(),
                rust_name: field_names.claim_spelled(naming::snake(wire), wire),
                ty: if const_value.is_some() {
                    TypeRef::String
                } else {
                    shape.ty
                },
                required: required.contains(wire),
                nullable: shape.nullable,
                boxed: false,
                const_value,
                doc: doc_of(prop),
                deprecated: prop.flag("deprecated"),
                read_only: prop.flag("readOnly"),
                write_only: prop.flag("writeOnly"),
                constraints: constraints(&prop.resolve(self.root).unwrap_or_else(|_| prop.clone())),
            });
        }
        let exclusive = self.exclusive_groups(node, name, &mut fields, &mut field_names)?;
        let additional = self.additional_properties(node, name, &mut field_names, depth)?;
        Ok(TypeKind::Struct {
            fields,
            exclusive,
            additional,
            fixed_tag: None,
        })
    }

    /// The catch-all of an open object: `additionalProperties: true` (or `{}`) keeps any JSON
    /// value, a schema keeps values of that type; `false` or absent keeps the struct closed.
    fn additional_properties(
        &mut self,
        node: &Node<'a>,
        name: &str,
        field_names: &mut Namespace,
        depth: usize,
    ) -> Result<Option<AdditionalProperties>> {
        let node = node.resolve(self.root)?;
        let Some(ap) = node.get("additionalProperties") else {
            return Ok(None);
        };
        let value_ty = match ap.value {
            Value::Bool(true) => TypeRef::Json,
            Value::Object(o) if o.is_empty() => TypeRef::Json,
            Value::Object(_) => {
                let value = self.schema_at(&ap, &format!("{name}Value"), depth)?;
                TypeRef::maybe_null(value.ty, value.nullable)
            }
            _ => return Ok(None),
        };
        Ok(Some(AdditionalProperties {
            rust_name: field_names.claim("additional_properties".to_owned()),
            value_ty,
        }))
    }

    /// Gathers properties and `required` from the schema and its `allOf` parts.
    fn collect_properties(
        &self,
        node: &Node<'a>,
        props: &mut Vec<(String, Node<'a>)>,
        required: &mut Vec<String>,
    ) -> Result<()> {
        self.collect_parts(node, props, required, &mut Vec::new(), 0)
    }

    /// [`Self::collect_properties`] for a part `depth` levels down. `seen` holds the pointers
    /// of the parts gathered so far: a part met again (a `$ref` cycle through `allOf`, or one
    /// part reached twice) adds nothing new and is passed over.
    fn collect_parts(
        &self,
        node: &Node<'a>,
        props: &mut Vec<(String, Node<'a>)>,
        required: &mut Vec<String>,
        seen: &mut Vec<String>,
        depth: usize,
    ) -> Result<()> {
        if depth > MAX_ALL_OF_DEPTH {
            return Err(node.error(format!(
                "unsupported construct: `allOf` nested deeper than {MAX_ALL_OF_DEPTH} levels"
            )));
        }
        let node = node.resolve(self.root)?;
        if seen.contains(&node.pointer) {
            return Ok(());
        }
        seen.push(node.pointer.clone());
        if let Some(parts) = node.get("allOf") {
            for part in parts.items() {
                self.collect_parts(&part, props, required, seen, depth + 1)?;
            }
        }
        if let Some(p) = node.get("properties") {
            for (key, prop) in p.entries() {
                if !props.iter().any(|(k, _)| k == key) {
                    props.push((key.to_owned(), prop));
                }
            }
        }
        for r in node.strings("required") {
            if !required.contains(&r) {
                required.push(r);
            }
        }
        Ok(())
    }

    /// The `x-at-most-one-of` groups: each takes its members out of `fields` and becomes one
    /// optional field of an enum type (`{name}{Group}`).
    fn exclusive_groups(
        &mut self,
        node: &Node<'a>,
        name: &str,
        fields: &mut Vec<Field>,
        field_names: &mut Namespace,
    ) -> Result<Vec<ExclusiveGroup>> {
        let Some(groups) = node.get("x-at-most-one-of") else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for group in groups.items() {
            let (group_name, names) = exclusive_group_spec(&group)?;
            let members = exclusive_members(&group, &names, fields)?;
            let group_name = group_name.unwrap_or_else(|| names.join("_or_"));
            out.push(ExclusiveGroup {
                rust_name: field_names.claim(naming::snake(&group_name)),
                type_name: self
                    .type_names
                    .claim(format!("{name}{}", naming::camel(&group_name))),
                members,
            });
        }
        Ok(out)
    }

    fn union_kind(
        &mut self,
        node: &Node<'a>,
        name: &str,
        members: &[Node<'a>],
        depth: usize,
    ) -> Result<TypeKind> {
        let tag = self.union_tag(node, members);
        let mapping = discriminator_mapping(node);
        let mut names = Namespace::with_reserved(&["Unknown"]);
        let mut variants = Vec::new();
        for (i, member) in members.iter().enumerate() {
            let base = self.variant_base(member, i, tag.as_deref(), members);
            let rust_name = names.claim(base);
            let hint = format!("{name}{rust_name}");
            let shape = self.variant_shape(node, member, hint, depth)?;
            let tag_value = tag
                .as_ref()
                .and_then(|t| self.tag_value(member, t, &mapping));
            variants.push(UnionVariant {
                rust_name,
                ty: shape.ty,
                boxed: false,
                tag_value,
            });
        }
        let tag = tag.filter(|_| distinct_tags(&variants));
        if tag.is_none() {
            variants.iter_mut().for_each(|v| v.tag_value = None);
        }
        Ok(TypeKind::Union {
            tag,
            variants,
            display: false,
        })
    }

    /// A union member's type (`hint` names it when inline): merged with the properties its
    /// union declares beside the members when it lacks one of them.
    fn variant_shape(
        &mut self,
        union: &Node<'a>,
        member: &Node<'a>,
        hint: String,
        depth: usize,
    ) -> Result<Shape> {
        if !self.with_common_properties(union, member)? {
            return self.schema_at(member, &hint, depth);
        }
        let merged = self.type_names.claim(hint);
        self.define_merged(merged.clone(), member, union, depth)?;
        Ok(Shape {
            ty: TypeRef::Named(merged),
            nullable: false,
        })
    }

    /// The value of `tag` that selects a union member: its key in the discriminator's
    /// `mapping`, else the constant the member fixes for the tag property, else the last
    /// segment of its `$ref`.
    fn tag_value(
        &self,
        member: &Node<'a>,
        tag: &str,
        mapping: &[(String, String)],
    ) -> Option<String> {
        let target = member.reference();
        mapping
            .iter()
            .find(|(_, r)| Some(r.as_str()) == target)
            .map(|(k, _)| k.clone())
            .or_else(|| self.const_property(member, tag))
            .or_else(|| target.and_then(|r| r.rsplit('/').next()).map(str::to_owned))
    }

    /// Whether a union `member` must be merged with the properties its union declares beside
    /// `oneOf`/`anyOf` (a struct member lacking one of them); otherwise decoding the member would
    /// drop them.
    fn with_common_properties(&self, union: &Node<'a>, member: &Node<'a>) -> Result<bool> {
        let Some(common) = union.get("properties") else {
            return Ok(false);
        };
        let resolved = member.resolve(self.root)?;
        if !matches!(self.plan_with(&resolved, false)?, Plan::Struct) {
            return Ok(false);
        }
        let mut own = Vec::new();
        self.collect_properties(&resolved, &mut own, &mut Vec::new())?;
        Ok(common
            .entries()
            .iter()
            .any(|(key, _)| !own.iter().any(|(k, _)| k == key)))
    }

    /// Defines `name` as the struct of a union `member` merged with the properties the `union`
    /// declares beside its members (the member's own definition wins where both declare one).
    fn define_merged(
        &mut self,
        name: String,
        member: &Node<'a>,
        union: &Node<'a>,
        depth: usize,
    ) -> Result<()> {
        let resolved = member.resolve(self.root)?;
        let kind = self.struct_of(&[&resolved, union], &resolved, &name, depth)?;
        self.defs.push(TypeDef {
            name,
            module: String::new(),
            pointer: member.pointer.clone(),
            doc: Some(merged_doc(
                doc_of(&resolved),
                &resolved.pointer,
                &union.pointer,
            )),
            deprecated: resolved.flag("deprecated"),
            request: false,
            constructor_struct: None,
            kind,
        });
        Ok(())
    }

    /// The subtypes a base schema's `discriminator` maps its tag values to: tag value and pointer
    /// of each component the mapping names, first value per component, leaving out the schema
    /// itself and components that are not structs (an alias of the base would contain itself).
    /// `None` beside `oneOf`/`anyOf` (a union already) or without a mapping.
    fn subtypes(&self, node: &Node<'a>) -> Option<Vec<(String, String)>> {
        if node.get("oneOf").is_some() || node.get("anyOf").is_some() {
            return None;
        }
        let discriminator = node.get("discriminator")?;
        discriminator.str("propertyName")?;
        let mut out: Vec<(String, String)> = Vec::new();
        for (value, target) in discriminator.get("mapping")?.entries() {
            let Some(target) = target.value.as_str() else {
                continue;
            };
            let Ok(subtype) = crate::read::lookup(self.root, target, &node.pointer) else {
                continue;
            };
            let is_struct = matches!(self.plan_with(&subtype, false), Ok(Plan::Struct));
            if self.components.contains_key(target)
                && subtype.pointer != node.pointer
                && is_struct
                && !out.iter().any(|(_, t)| t == target)
            {
                out.push((value.to_owned(), target.to_owned()));
            }
        }
        (!out.is_empty()).then_some(out)
    }

    /// The union of a base schema's subtypes, tagged by its discriminator property; a value with
    /// another tag (the base itself, or a subtype this SDK does not know) is kept as received.
    fn subtypes_kind(&self, node: &Node<'a>, subtypes: &[(String, String)]) -> TypeKind {
        let mut names = Namespace::with_reserved(&["Unknown"]);
        let variants = subtypes
            .iter()
            .map(|(value, target)| {
                let name = self.components.get(target).cloned().unwrap_or_default();
                UnionVariant {
                    rust_name: names.claim(name.clone()),
                    ty: TypeRef::Named(name),
                    boxed: false,
                    tag_value: Some(value.clone()),
                }
            })
            .collect();
        TypeKind::Union {
            tag: node
                .get("discriminator")
                .and_then(|d| d.str("propertyName"))
                .map(str::to_owned),
            variants,
            display: false,
        }
    }

    /// The discriminating property: `discriminator.propertyName`, or a property every member
    /// fixes with `const` (or a one-value `enum`).
    fn union_tag(&self, node: &Node<'a>, members: &[Node<'a>]) -> Option<String> {
        if let Some(p) = node
            .get("discriminator")
            .and_then(|d| d.str("propertyName"))
        {
            return Some(p.to_owned());
        }
        let first = members.first()?.resolve(self.root).ok()?;
        let candidates: Vec<String> = first
            .get("properties")?
            .entries()
            .into_iter()
            .map(|(k, _)| k.to_owned())
            .collect();
        candidates.into_iter().find(|p| {
            let values: Vec<Option<String>> =
                members.iter().map(|m| self.const_property(m, p)).collect();
            values.iter().all(Option::is_some)
                && values
                    .iter()
                    .enumerate()
                    .all(|(i, v)| !values.iter().take(i).any(|w| w == v))
        })
    }

    fn const_property(&self, member: &Node<'a>, prop: &str) -> Option<String> {
        let member = member.resolve(self.root).ok()?;
        let mut props = Vec::new();
        let mut required = Vec::new();
        self.collect_properties(&member, &mut props, &mut required)
            .ok()?;
        let (_, p) = props.into_iter().find(|(k, _)| k == prop)?;
        match self.string_literals(&p)?.as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        }
    }

    /// A union member's variant name: its component's name, its title, the value it fixes for
    /// the union's tag, what it holds (`Uuid`, `TagList`), or for an inline object the first
    /// property no other member has; `Variant{index}` only when none of these says anything.
    fn variant_base(
        &self,
        member: &Node<'a>,
        index: usize,
        tag: Option<&str>,
        members: &[Node<'a>],
    ) -> String {
        if let Some(name) = member.reference().and_then(|r| self.components.get(r)) {
            return name.clone();
        }
        if let Some(title) = member.str("title") {
            return naming::variant(title);
        }
        if let Some(value) = tag.and_then(|t| self.const_property(member, t)) {
            return naming::variant(&value);
        }
        let resolved = member.resolve(self.root).unwrap_or_else(|_| member.clone());
        match self.shape_word(&resolved, 0) {
            Some(word) if word != "Object" => word,
            word => self
                .own_property(index, members)
                .map(|p| naming::variant(&p))
                .or(word)
                .unwrap_or_else(|| format!("Variant{index}")),
        }
    }

    /// The first property (in document order) of member `index` that no other member has.
    fn own_property(&self, index: usize, members: &[Node<'a>]) -> Option<String> {
        let names = |member: &Node<'a>| -> Vec<String> {
            let Ok(member) = member.resolve(self.root) else {
                return Vec::new();
            };
            let mut props = Vec::new();
            let mut required = Vec::new();
            if self
                .collect_properties(&member, &mut props, &mut required)
                .is_err()
            {
                return Vec::new();
            }
            props.into_iter().map(|(k, _)| k).collect()
        };
        let others: Vec<String> = members
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != index)
            .flat_map(|(_, m)| names(m))
            .collect();
        names(&members[index])
            .into_iter()
            .find(|p| !others.contains(p))
    }

    /// A word for what a member holds, from its type: a component's name, a string's format
    /// (`DateTime`, `Uuid`), or a list of either (`TagList`, `StringList`).
    fn shape_word(&self, node: &Node<'a>, depth: usize) -> Option<String> {
        if let Some(name) = node.reference().and_then(|r| self.components.get(r)) {
            return Some(name.clone());
        }
        let node = node.resolve(self.root).ok()?;
        let types = type_list(&node).0;
        let t = match types.as_slice() {
            [t] => t.as_str(),
            [] if node.get("items").is_some() => "array",
            _ => return None,
        };
        Some(match t {
            "array" if depth < 4 => {
                let item = node
                    .get("items")
                    .and_then(|i| self.shape_word(&i, depth + 1))
                    .unwrap_or_default();
                format!("{item}List")
            }
            "string" => match node.str("format").filter(|f| !f.is_empty()) {
                Some(format) => naming::variant(format),
                None => "String".to_owned(),
            },
            other => naming::variant(other),
        })
    }
}

/// The doc of a union member merged with its union's properties: the member's own, then where
/// the fields come from.
fn merged_doc(own: Option<String>, member: &str, union: &str) -> String {
    let origin =
        format!("The properties of `{member}` and those `{union}` declares beside its members.");
    match own {
        Some(doc) => format!("{doc}\n\n{origin}"),
        None => origin,
    }
}

/// A string enum's kind, with variant names claimed in one namespace.
///
/// The catch-all for values the spec does not list is `Unknown`, unless a listed value is
/// itself called that (`unknown`); then the value keeps the name and the catch-all is `Other`.
fn enum_kind(values: &[String]) -> TypeKind {
    let unknown_listed = values.iter().any(|v| naming::variant(v) == "Unknown");
    let fallback = if unknown_listed { "Other" } else { "Unknown" };
    let mut names = Namespace::with_reserved(&[fallback]);
    let mut variants: Vec<EnumVariant> = Vec::new();
    for value in values {
        if variants.iter().any(|v| &v.value == value) {
            continue;
        }
        variants.push(EnumVariant {
            value: value.clone(),
            rust_name: names.claim_spelled(naming::variant(value), value),
        });
    }
    TypeKind::Enum {
        variants,
        fallback: fallback.to_owned(),
    }
}

/// Keywords that describe a schema without constraining its values.
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "example",
    "examples",
    "default",
    "readOnly",
    "writeOnly",
    "deprecated",
    "externalDocs",
    "$comment",
];

/// What a schema says about its values, as text: its JSON without annotations (descriptions,
/// examples…) and extensions at any schema level, keys sorted (`serde_json`'s map is ordered
/// here only by insertion, so the key is built from a `BTreeMap`); two schemas with the same
/// key shape the same type.
pub(super) fn shape_key(schema: &Value) -> String {
    /// Keywords whose value maps names (not keywords) to schemas.
    const SCHEMA_MAPS: &[&str] = &["properties", "patternProperties", "$defs", "definitions"];
    fn strip(v: &Value) -> Value {
        match v {
            Value::Object(o) => sorted(o.iter().filter_map(|(k, v)| {
                if ANNOTATIONS.contains(&k.as_str()) || k.starts_with("x-") {
                    None
                } else if SCHEMA_MAPS.contains(&k.as_str()) {
                    let map = match v {
                        Value::Object(m) => sorted(m.iter().map(|(n, s)| (n.clone(), strip(s)))),
                        other => other.clone(),
                    };
                    Some((k.clone(), map))
                } else {
                    Some((k.clone(), strip(v)))
                }
            })),
            Value::Array(a) => Value::Array(a.iter().map(strip).collect()),
            other => other.clone(),
        }
    }
    fn sorted(entries: impl Iterator<Item = (String, Value)>) -> Value {
        let map: std::collections::BTreeMap<String, Value> = entries.collect();
        Value::Object(map.into_iter().collect())
    }
    strip(schema).to_string()
}

/// An `x-at-most-one-of` group, `[a, b]` or `{name: n, members: [a, b]}`: its name when it
/// gives one, and its members' property names.
fn exclusive_group_spec(group: &Node<'_>) -> Result<(Option<String>, Vec<String>)> {
    let (group_name, list) =
        if group.value.is_object() {
            let Some(list) = group.get("members") else {
                return Err(group.error("`x-at-most-one-of` group object needs `members`"));
            };
            let name =
                match group.get("name") {
                    Some(n) => Some(n.value.as_str().map(str::to_owned).ok_or_else(|| {
                        n.error("`x-at-most-one-of` group `name` must be a string")
                    })?),
                    None => None,
                };
            (name, list)
        } else {
            (None, group.clone())
        };
    if !list.value.is_array() {
        return Err(list.error(
            "`x-at-most-one-of` groups are arrays of property names or `{name, members}` objects",
        ));
    }
    let names = list
        .items()
        .iter()
        .map(|m| {
            m.value
                .as_str()
                .map(str::to_owned)
                .ok_or_else(|| m.error("`x-at-most-one-of` members must be property names"))
        })
        .collect::<Result<_>>()?;
    Ok((group_name, names))
}

/// Takes an `x-at-most-one-of` group's members out of `fields`: each must be a known, optional
/// property.
fn exclusive_members(
    group: &Node<'_>,
    names: &[String],
    fields: &mut Vec<Field>,
) -> Result<Vec<ExclusiveMember>> {
    let mut members = Vec::new();
    let mut variants = Namespace::default();
    for member in names {
        let Some(pos) = fields.iter().position(|f| &f.name == member) else {
            return Err(group.error(format!(
                "`x-at-most-one-of` names unknown property `{member}`"
            )));
        };
        let field = fields.remove(pos);
        if field.required {
            return Err(group.error(format!(
                "`x-at-most-one-of` member `{member}` is required, so the group can never be empty"
            )));
        }
        members.push(ExclusiveMember {
            variant: variants.claim(naming::variant(member)),
            name: field.name,
            ty: field.ty,
            boxed: false,
            doc: field.doc,
        });
    }
    Ok(members)
}

/// A union's discriminator `mapping`: tag value to `$ref`.
fn discriminator_mapping(node: &Node<'_>) -> Vec<(String, String)> {
    node.get("discriminator")
        .and_then(|d| d.get("mapping"))
        .map(|m| {
            m.entries()
                .into_iter()
                .filter_map(|(k, v)| Some((k.to_owned(), v.value.as_str()?.to_owned())))
                .collect()
        })
        .unwrap_or_default()
}

/// A tag selects a variant only when every variant has its own value: two members fixing the
/// same value (a spec flaw seen in public documents) make the union untagged, so both stay
/// decodable.
fn distinct_tags(variants: &[UnionVariant]) -> bool {
    let mut seen = std::collections::BTreeSet::new();
    variants
        .iter()
        .all(|v| v.tag_value.as_ref().is_some_and(|t| seen.insert(t.clone())))
}

/// The plan of a schema with `allOf` (`all`): one shaping part and no own properties is that
/// part, none is a scalar, anything more a struct. A part that only annotates
/// (`allOf: [$ref, {description}]`) shapes nothing.
fn all_of_plan<'a>(node: &Node<'a>, all: &Node<'a>) -> Plan<'a> {
    let parts: Vec<Node<'a>> = all
        .items()
        .into_iter()
        .filter(|p| !annotation_only(p))
        .collect();
    let own = node
        .get("properties")
        .is_some_and(|p| !p.entries().is_empty());
    match parts.as_slice() {
        [only] if !own => Plan::Single(only.clone()),
        [] if !own => Plan::Scalar,
        _ => Plan::Struct,
    }
}

/// Whether a schema only annotates: every keyword is an annotation or an extension.
fn annotation_only(node: &Node<'_>) -> bool {
    node.value.as_object().is_some_and(|o| {
        o.keys()
            .all(|k| ANNOTATIONS.contains(&k.as_str()) || k.starts_with("x-"))
    })
}

/// The non-null types of `type` (string or array) and whether `null` is among them.
fn type_list(node: &Node<'_>) -> (Vec<String>, bool) {
    match node.value.get("type") {
        Some(Value::String(t)) if t == "null" => (Vec::new(), true),
        Some(Value::String(t)) => (vec![t.clone()], false),
        Some(Value::Array(list)) => {
            let null = list.iter().any(|t| t == "null");
            let types = list
                .iter()
                .filter_map(Value::as_str)
                .filter(|t| *t != "null")
                .map(str::to_owned)
                .collect();
            (types, null)
        }
        _ => (Vec::new(), false),
    }
}

/// The fitting integer type for an integer schema's format and range.
fn int_type(node: &Node<'_>) -> IntType {
    let bound = |key: &str, exclusive: &str, delta: f64| {
        node.value.get(key).and_then(Value::as_f64).or_else(|| {
            node.value
                .get(exclusive)
                .and_then(Value::as_f64)
                .map(|v| v + delta)
        })
    };
    let min = bound("minimum", "exclusiveMinimum", 1.0);
    let max = bound("maximum", "exclusiveMaximum", -1.0);
    match node.str("format").unwrap_or("") {
        "int8" => return IntType::I8,
        "int16" => return IntType::I16,
        "uint8" => return IntType::U8,
        "uint16" => return IntType::U16,
        "uint32" => return IntType::U32,
        "uint64" | "uint" => return IntType::U64,
        _ => {}
    }
    let int32 = node.str("format") == Some("int32");
    match (min, max) {
        (Some(lo), hi) if lo >= 0.0 => match hi {
            Some(h) if h <= f64::from(u8::MAX) => IntType::U8,
            Some(h) if h <= f64::from(u16::MAX) => IntType::U16,
            Some(h) if h <= f64::from(u32::MAX) => IntType::U32,
            None if int32 => IntType::U32,
            _ => IntType::U64,
        },
        (Some(lo), Some(hi)) if lo >= f64::from(i32::MIN) && hi <= f64::from(i32::MAX) => {
            IntType::I32
        }
        _ if int32 => IntType::I32,
        _ => IntType::I64,
    }
}

/// Documentation of a schema use: its description, else its title.
pub(super) fn doc_of(node: &Node<'_>) -> Option<String> {
    node.str("description")
        .or_else(|| node.str("title"))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

/// The validation keywords of a schema.
pub(super) fn constraints(node: &Node<'_>) -> Constraints {
    let v = node.value;
    let num = |k: &str| v.get(k).filter(|x| x.is_number()).cloned();
    let uint = |k: &str| v.get(k).and_then(Value::as_u64);
    Constraints {
        format: node.str("format").map(str::to_owned),
        minimum: num("minimum"),
        maximum: num("maximum"),
        exclusive_minimum: num("exclusiveMinimum"),
        exclusive_maximum: num("exclusiveMaximum"),
        multiple_of: num("multipleOf"),
        min_length: uint("minLength"),
        max_length: uint("maxLength"),
        pattern: node.str("pattern").map(str::to_owned),
        min_items: uint("minItems"),
        max_items: uint("maxItems"),
        unique_items: node.flag("uniqueItems"),
        default: v.get("default").cloned(),
    }
}
