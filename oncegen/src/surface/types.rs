//! A named type as a caller sees it: its shape, fields with their Rust types, and the
//! arguments of a request type's `new`.

use super::conversions::Conversions;
use super::rust_type::{self, BARE};
use super::{call_order, deprecation, is_false, present};
use crate::ir::{self, Constraints, ExclusiveGroup, Field, TypeKind};
use crate::naming;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// Validation constraints kept from a schema (the server's side of a request value), under
/// their OpenAPI names.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(missing_docs)]
pub struct ConstraintsSurface {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maximum: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclusive_minimum: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclusive_maximum: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multiple_of: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_length: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_length: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_items: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_items: Option<u64>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub unique_items: bool,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub default: Option<Value>,
}

impl ConstraintsSurface {
    /// No constraint is set.
    pub fn is_empty(&self) -> bool {
        *self == ConstraintsSurface::default()
    }
}

impl From<&Constraints> for ConstraintsSurface {
    fn from(c: &Constraints) -> Self {
        ConstraintsSurface {
            format: c.format.clone(),
            minimum: c.minimum.clone(),
            maximum: c.maximum.clone(),
            exclusive_minimum: c.exclusive_minimum.clone(),
            exclusive_maximum: c.exclusive_maximum.clone(),
            multiple_of: c.multiple_of.clone(),
            min_length: c.min_length,
            max_length: c.max_length,
            pattern: c.pattern.clone(),
            min_items: c.min_items,
            max_items: c.max_items,
            unique_items: c.unique_items,
            default: c.default.clone(),
        }
    }
}

/// One named type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypeSurface {
    /// Module the type lives in (an area, or `types`).
    pub module: String,
    /// Reachable from a request: structs get `new(required fields)` and setters.
    #[serde(default, skip_serializing_if = "is_false")]
    pub request: bool,
    /// Marked deprecated.
    #[serde(default, skip_serializing_if = "is_false")]
    pub deprecated: bool,
    /// What the spec says to do instead, when deprecated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecation_note: Option<String>,
    /// Documentation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// The types a union or choice enum converts from (`impl From<…>`, `&str` included),
    /// sorted (`surface/conversions.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub converts_from: Vec<String>,
    /// The shape.
    pub shape: Shape,
}

/// Shapes of named types.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Shape {
    /// A `#[non_exhaustive]` struct.
    Struct {
        /// Fields by Rust name (a choice group is one optional field of its choice enum).
        fields: BTreeMap<String, FieldSurface>,
        /// The arguments of `new` in call order (Rust field names), for a request type.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        constructor: Vec<String>,
        /// The struct (a type of the same module) `new` takes them in, one public field each,
        /// when there are two or more: `new(Name { .. })` names every value.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        constructor_struct: Option<String>,
        /// Value type of the catch-all map of an open object.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        additional: Option<String>,
        /// The union tag the struct always sends (no Rust field): property and value.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fixed_tag: Option<FixedTagSurface>,
    },
    /// A string enum with an `Unknown` fallback.
    Enum {
        /// Known wire values, sorted.
        values: Vec<String>,
    },
    /// A `oneOf`/`anyOf` enum.
    Union {
        /// Variant name → payload type.
        variants: BTreeMap<String, String>,
        /// Tagged: unknown tags land in an `Unknown` variant.
        #[serde(default, skip_serializing_if = "is_false")]
        unknown_fallback: bool,
        /// Implements `Display` (usable as a parameter).
        #[serde(default, skip_serializing_if = "is_false")]
        display: bool,
    },
    /// The exhaustive enum of an `x-at-most-one-of` group.
    Choice {
        /// Variant name → payload type.
        variants: BTreeMap<String, String>,
    },
    /// A type alias.
    Alias {
        /// Target type.
        target: String,
    },
}

/// The union tag a struct always sends ([`crate::ir::FixedTag`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FixedTagSurface {
    /// Wire name of the property.
    pub name: String,
    /// Its one value.
    pub value: String,
}

/// One struct field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldSurface {
    /// Wire name.
    pub name: String,
    /// The Rust type of the value, without optionality or box.
    #[serde(rename = "type")]
    pub ty: String,
    /// The field's Rust type as emitted (`T`, `Option<T>`, `Nullable<T>`, boxed where
    /// recursive).
    pub rust_type: String,
    /// Listed in `required`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub required: bool,
    /// May be `null`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub nullable: bool,
    /// Fixed value (`const`): never an argument of `new`.
    #[serde(default, rename = "const", skip_serializing_if = "Option::is_none")]
    pub const_value: Option<String>,
    /// Marked deprecated.
    #[serde(default, skip_serializing_if = "is_false")]
    pub deprecated: bool,
    /// What the spec says to do instead, when deprecated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecation_note: Option<String>,
    /// Validation constraints the server applies.
    #[serde(default, skip_serializing_if = "ConstraintsSurface::is_empty")]
    pub constraints: ConstraintsSurface,
    /// Documentation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// The request type's builder setter of an optional field (a choice group's too); a
    /// required one is an argument of `new`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setter: Option<String>,
    /// The argument of `new` or the setter takes `impl Into<…>` (a field of the `{Type}Args`
    /// struct has the exact type).
    #[serde(default, skip_serializing_if = "is_false")]
    pub into: bool,
}

impl FieldSurface {
    /// Whether the field is an argument of `new` when its struct is a request type.
    pub fn is_constructor_argument(&self) -> bool {
        self.required && self.const_value.is_none()
    }

    /// Whether the field's Rust type is the bare `T` (required and not nullable): decoding
    /// fails when a response leaves it out or sends `null`.
    pub fn is_always_present(&self) -> bool {
        self.required && !self.nullable
    }
}

/// Adds the surface of `def` to `out`, with the choice enums of its `x-at-most-one-of` groups.
pub(super) fn describe(
    def: &ir::TypeDef,
    conversions: &Conversions<'_>,
    out: &mut BTreeMap<String, TypeSurface>,
) {
    let mut converts_from = Vec::new();
    let shape = match &def.kind {
        TypeKind::Struct {
            fields,
            exclusive,
            additional,
            fixed_tag,
        } => {
            let constructor = if def.request {
                call_order::constructor_fields(fields)
                    .into_iter()
                    .map(|f| f.rust_name.clone())
                    .collect()
            } else {
                Vec::new()
            };
            Shape::Struct {
                fields: struct_fields(def, (fields, exclusive), conversions, out),
                constructor,
                constructor_struct: call_order::constructor_struct(def).map(str::to_owned),
                additional: additional.as_ref().map(|a| rust_type::text(&a.value_ty)),
                fixed_tag: fixed_tag.as_ref().map(|t| FixedTagSurface {
                    name: t.name.clone(),
                    value: t.value.clone(),
                }),
            }
        }
        TypeKind::Enum { variants, .. } => {
            let mut values: Vec<String> = variants.iter().map(|v| v.value.clone()).collect();
            values.sort();
            Shape::Enum { values }
        }
        TypeKind::Union {
            tag,
            variants,
            display,
        } => {
            let payloads: Vec<_> = variants.iter().map(|v| (&v.ty, v.boxed)).collect();
            converts_from = conversions.converts_from(&def.name, &payloads, true);
            union_shape(variants, tag.is_some(), *display)
        }
        TypeKind::Alias { target } => Shape::Alias {
            target: rust_type::text(target),
        },
    };
    let described = TypeSurface {
        converts_from,
        ..described(def, shape)
    };
    out.insert(def.name.clone(), described);
}

/// The shape of a union.
fn union_shape(variants: &[ir::UnionVariant], tagged: bool, display: bool) -> Shape {
    Shape::Union {
        variants: variants
            .iter()
            .map(|v| {
                (
                    v.rust_name.clone(),
                    rust_type::payload(&v.ty, v.boxed, &BARE),
                )
            })
            .collect(),
        unknown_fallback: tagged,
        display,
    }
}

/// The surface of `def` with shape `shape`.
fn described(def: &ir::TypeDef, shape: Shape) -> TypeSurface {
    TypeSurface {
        module: def.module.clone(),
        request: def.request,
        deprecated: def.deprecated,
        deprecation_note: deprecation::note(def.deprecated, def.doc.as_deref()),
        doc: def.doc.clone(),
        converts_from: Vec::new(),
        shape,
    }
}

/// A struct's fields, each `x-at-most-one-of` group one optional field of its choice enum
/// (which is added to `out`).
fn struct_fields(
    def: &ir::TypeDef,
    (fields, exclusive): (&[Field], &[ExclusiveGroup]),
    conversions: &Conversions<'_>,
    out: &mut BTreeMap<String, TypeSurface>,
) -> BTreeMap<String, FieldSurface> {
    let mut described_fields: BTreeMap<String, FieldSurface> = fields
        .iter()
        .map(|f| {
            (
                f.rust_name.clone(),
                describe_field(f, def.request, conversions),
            )
        })
        .collect();
    for group in exclusive {
        let payloads: Vec<&ir::TypeRef> = group.members.iter().map(|m| &m.ty).collect();
        let choice = FieldSurface {
            name: group.rust_name.clone(),
            ty: group.type_name.clone(),
            rust_type: format!("Option<{}>", group.type_name),
            required: false,
            nullable: false,
            const_value: None,
            deprecated: false,
            deprecation_note: None,
            constraints: ConstraintsSurface::default(),
            doc: None,
            setter: def.request.then(|| group.rust_name.clone()),
            into: def.request && conversions.choice_converts(&group.type_name, &payloads),
        };
        described_fields.insert(group.rust_name.clone(), choice);
        out.insert(
            group.type_name.clone(),
            choice_type(def, group, conversions),
        );
    }
    described_fields
}

/// The choice enum of the `x-at-most-one-of` group `group` of `def`.
fn choice_type(
    def: &ir::TypeDef,
    group: &ExclusiveGroup,
    conversions: &Conversions<'_>,
) -> TypeSurface {
    let variants = group
        .members
        .iter()
        .map(|m| (m.variant.clone(), rust_type::payload(&m.ty, m.boxed, &BARE)))
        .collect();
    let payloads: Vec<_> = group.members.iter().map(|m| (&m.ty, m.boxed)).collect();
    TypeSurface {
        doc: None,
        deprecated: false,
        deprecation_note: None,
        converts_from: conversions.converts_from(&group.type_name, &payloads, false),
        ..described(def, Shape::Choice { variants })
    }
}

/// A field, typed as the emitter declares it ([`rust_type::field_type`]).
fn describe_field(f: &Field, request: bool, conversions: &Conversions<'_>) -> FieldSurface {
    let setter = (request && !f.required && !f.read_only && f.const_value.is_none())
        .then(|| naming::setter(&f.rust_name));
    let into = if request && f.required && f.const_value.is_none() {
        !f.nullable && conversions.field_argument(&f.ty)
    } else {
        setter.is_some() && (f.nullable || conversions.field_argument(&f.ty))
    };
    FieldSurface {
        name: f.name.clone(),
        ty: rust_type::text(&f.ty),
        rust_type: rust_type::field_type(f, &BARE),
        required: f.required,
        nullable: f.nullable,
        const_value: f.const_value.clone(),
        deprecated: f.deprecated,
        deprecation_note: deprecation::note(f.deprecated, f.doc.as_deref()),
        constraints: (&f.constraints).into(),
        doc: f.doc.clone(),
        setter,
        into,
    }
}
