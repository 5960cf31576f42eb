//! The one spelling of a model type as Rust text. Three writers use it with their own
//! [`Spelling`]: the surface ([`BARE`]: bare names, what `api.json` and the change report
//! show), the emitter (full paths from the module it writes into) and the example harness
//! (paths from outside the generated crate).

use crate::ir::{Field, IntType, Success, TypeRef};

/// How a spelling names what is not in the prelude.
pub struct Spelling<'a> {
    /// Writes the named types of the generated crate.
    pub named: &'a dyn NamedPaths,
    /// The prefix of the runtime's items (`Secret`, `FilePart`, `Nullable`): `::oncegen_runtime::`,
    /// or empty for bare names.
    pub runtime: &'a str,
    /// Whether other crates' types are written with their full paths (`::uuid::Uuid`) rather
    /// than their bare names (`Uuid`).
    pub qualified: bool,
}

/// Bare names: named types by their name, other crates' types without their paths
/// (`DateTime<Utc>`), `serde_json` with its prefix.
pub const BARE: Spelling<'static> = Spelling {
    named: &BareNames,
    runtime: "",
    qualified: false,
};

/// Writes a named type of the generated crate, from wherever the spelling is read.
pub trait NamedPaths {
    /// The path of the type called `name`.
    fn path(&self, name: &str) -> String;
}

/// Named types by their bare names.
struct BareNames;

impl NamedPaths for BareNames {
    fn path(&self, name: &str) -> String {
        name.to_owned()
    }
}

/// `ty` in `spelling`.
pub fn spell(ty: &TypeRef, spelling: &Spelling<'_>) -> String {
    let path = |full: &str, bare: &str| {
        if spelling.qualified {
            full.to_owned()
        } else {
            bare.to_owned()
        }
    };
    match ty {
        TypeRef::Named(name) => spelling.named.path(name),
        TypeRef::String => "String".to_owned(),
        TypeRef::Bool => "bool".to_owned(),
        TypeRef::Int(width) => int_name(*width).to_owned(),
        TypeRef::Float => "f64".to_owned(),
        TypeRef::Uuid => path("::uuid::Uuid", "Uuid"),
        TypeRef::DateTime => path("::chrono::DateTime<::chrono::Utc>", "DateTime<Utc>"),
        TypeRef::Date => path("::chrono::NaiveDate", "NaiveDate"),
        TypeRef::Decimal => path("::rust_decimal::Decimal", "Decimal"),
        TypeRef::Secret => format!("{}Secret", spelling.runtime),
        TypeRef::Json => path("::serde_json::Value", "serde_json::Value"),
        TypeRef::JsonObject => path(
            "::serde_json::Map<String, ::serde_json::Value>",
            "serde_json::Map<String, serde_json::Value>",
        ),
        TypeRef::Bytes => path("::bytes::Bytes", "Bytes"),
        TypeRef::File => format!("{}FilePart", spelling.runtime),
        TypeRef::Array(item) => format!("Vec<{}>", spell(item, spelling)),
        TypeRef::Map(value) => format!(
            "{}<String, {}>",
            path("::std::collections::BTreeMap", "BTreeMap"),
            spell(value, spelling)
        ),
        TypeRef::Nullable(inner) => format!("Option<{}>", spell(inner, spelling)),
    }
}

/// `ty` with bare names ([`BARE`]).
pub fn text(ty: &TypeRef) -> String {
    spell(ty, &BARE)
}

/// The Rust name of an integer width.
pub fn int_name(width: IntType) -> &'static str {
    match width {
        IntType::U8 => "u8",
        IntType::U16 => "u16",
        IntType::U32 => "u32",
        IntType::U64 => "u64",
        IntType::I8 => "i8",
        IntType::I16 => "i16",
        IntType::I32 => "i32",
        IntType::I64 => "i64",
    }
}

/// The JSON type of a type spelled in [`BARE`] that is neither a named type of the crate nor a
/// list: `string`, `string (uuid)` (a string of a format the Rust type implies), `integer`,
/// `number`, `boolean`, `object`, `any JSON value`; `None` for a named type or a `Vec`.
pub fn json_type(text: &str) -> Option<&'static str> {
    Some(match text {
        "String" | "Secret" => "string",
        "Uuid" => "string (uuid)",
        "DateTime<Utc>" => "string (date-time)",
        "NaiveDate" => "string (date)",
        "Decimal" => "string (decimal)",
        "Bytes" | "FilePart" => "string (binary)",
        "bool" => "boolean",
        "f64" => "number",
        "u8" | "u16" | "u32" | "u64" | "i8" | "i16" | "i32" | "i64" => "integer",
        "serde_json::Value" => "any JSON value",
        t if t.starts_with("BTreeMap<") || t.starts_with("serde_json::Map<") => "object",
        _ => return None,
    })
}

/// A union member's or field's payload: `ty`, boxed where the model breaks a recursion.
pub fn payload(ty: &TypeRef, boxed: bool, spelling: &Spelling<'_>) -> String {
    if boxed {
        format!("Box<{}>", spell(ty, spelling))
    } else {
        spell(ty, spelling)
    }
}

/// How a struct field holds its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// Required and not nullable: `T` (decoding fails without it).
    Always,
    /// Optional, or required and nullable: `Option<T>`.
    Optional,
    /// Optional and nullable: `Nullable<T>`, so that absent and `null` stay apart when a value
    /// is decoded and encoded again.
    Nullable,
}

/// How `field` holds its value.
pub fn presence(field: &Field) -> Presence {
    match (field.required, field.nullable) {
        (true, false) => Presence::Always,
        (false, true) => Presence::Nullable,
        _ => Presence::Optional,
    }
}

/// The Rust type of a struct field: its payload as [`presence`] holds it.
pub fn field_type(field: &Field, spelling: &Spelling<'_>) -> String {
    let inner = payload(&field.ty, field.boxed, spelling);
    match presence(field) {
        Presence::Always => inner,
        Presence::Optional => format!("Option<{inner}>"),
        Presence::Nullable => format!("{}Nullable<{inner}>", spelling.runtime),
    }
}

/// The type a sending method resolves to.
pub fn success(success: &Success, spelling: &Spelling<'_>) -> String {
    match success {
        Success::Json(ty) => spell(ty, spelling),
        Success::Untyped => spell(&TypeRef::Json, spelling),
        Success::Text => "String".to_owned(),
        Success::Binary => format!("{}Binary", spelling.runtime),
        Success::Empty => "()".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_and_qualified_spellings_differ_only_in_paths() {
        let ty = TypeRef::Map(Box::new(TypeRef::Array(Box::new(TypeRef::DateTime))));
        assert_eq!(text(&ty), "BTreeMap<String, Vec<DateTime<Utc>>>");
        struct Parent;
        impl NamedPaths for Parent {
            fn path(&self, name: &str) -> String {
                format!("super::{name}")
            }
        }
        let qualified = Spelling {
            named: &Parent,
            runtime: "::oncegen_runtime::",
            qualified: true,
        };
        assert_eq!(
            spell(&ty, &qualified),
            "::std::collections::BTreeMap<String, Vec<::chrono::DateTime<::chrono::Utc>>>"
        );
        assert_eq!(
            spell(&TypeRef::Named("Zone".into()), &qualified),
            "super::Zone"
        );
        assert_eq!(
            spell(&TypeRef::Secret, &qualified),
            "::oncegen_runtime::Secret"
        );
    }
}
