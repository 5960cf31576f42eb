//! The order of positional arguments: the emitter writes calls in it, the surface records it.
//!
//! The order never follows the spec's order of properties or parameters: a spec that only
//! reorders them would otherwise swap two arguments of the same type, and every existing
//! caller would still compile while sending the values crossed. A fixed order alone still lets
//! a caller cross two values of one type, so a client method with two or more required
//! parameters takes them named, in one struct ([`arguments_struct`]), and so does a request
//! type's `new` with two or more required fields ([`constructor_struct`]).

use crate::ir::{Field, Operation, Param, ParamLocation, TypeDef, TypeKind};

/// The required parameters a client method takes, in call order: path parameters in the
/// order the path template names them, then the other required parameters sorted by Rust
/// name. A required body follows them as the last argument, `body`.
pub fn method_params(op: &Operation) -> Vec<&Param> {
    let template_position = |p: &Param| op.path.find(&format!("{{{}}}", p.name));
    let mut path: Vec<&Param> = op
        .params
        .iter()
        .filter(|p| p.required && p.location == ParamLocation::Path)
        .collect();
    path.sort_by(|a, b| {
        (template_position(a), &a.rust_name).cmp(&(template_position(b), &b.rust_name))
    });
    let mut others: Vec<&Param> = op
        .params
        .iter()
        .filter(|p| p.required && p.location != ParamLocation::Path)
        .collect();
    others.sort_by(|a, b| a.rust_name.cmp(&b.rust_name));
    path.extend(others);
    path
}

/// The struct a client method takes its required parameters in, one public field each, when
/// it has two or more: a struct literal names every value and compiles with none missing, in
/// any order, so two values of one type cannot be crossed and a reorder of the document
/// changes no call. Lowering names one for every such operation.
pub fn arguments_struct(op: &Operation) -> Option<&str> {
    op.arguments_struct
        .as_deref()
        .filter(|_| method_params(op).len() >= 2)
}

/// The fields `new` takes, in call order: required fields without a fixed value, sorted by
/// Rust name.
pub fn constructor_fields(fields: &[Field]) -> Vec<&Field> {
    let mut args: Vec<&Field> = fields
        .iter()
        .filter(|f| f.required && f.const_value.is_none())
        .collect();
    args.sort_by(|a, b| a.rust_name.cmp(&b.rust_name));
    args
}

/// The struct `new` of a request struct takes its required fields in, one public field each
/// named like the type's, when it takes two or more: as with [`arguments_struct`], a struct
/// literal names every value and compiles with none missing, in any order. One required field
/// stays a positional argument (nothing to cross). Lowering names one for every such type.
pub fn constructor_struct(def: &TypeDef) -> Option<&str> {
    let TypeKind::Struct { fields, .. } = &def.kind else {
        return None;
    };
    def.constructor_struct
        .as_deref()
        .filter(|_| def.request && constructor_fields(fields).len() >= 2)
}
