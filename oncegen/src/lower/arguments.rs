//! The structs required values are passed in when there are two or more: a client method's
//! required parameters (`client.op(OpArgs { zone_id, record_id })`) and a request type's
//! required fields (`Body::new(BodyArgs { name, public_key })`). Each value is then named at the
//! call site, so two values of one type cannot be passed crossed, and a reorder of the document
//! changes no call. Whether a call takes the struct is the surface's decision
//! (`surface::call_order`); this names one wherever it may.

use crate::ir::{Operation, TypeDef, TypeKind};
use crate::naming::Namespace;

/// Names `{Builder}Args` (a type of the area module) for every operation with two or more
/// required parameters; claimed after every other type, so no model name moves for it.
pub(super) fn name_structs(operations: &mut [Operation], type_names: &mut Namespace) {
    for op in operations {
        if op.params.iter().filter(|p| p.required).count() >= 2 {
            op.arguments_struct = Some(type_names.claim(format!("{}Args", op.builder_name)));
        }
    }
}

/// Names `{Type}Args` (a type of the same module) for every request struct whose `new` takes
/// two or more required fields (required, without a fixed value); run once the types'
/// directions are known (a read-only field is not required of a request) and after every other
/// name is claimed, so no model name moves for it. `types` are sorted, so the names are
/// deterministic.
pub(super) fn name_constructor_structs(types: &mut [TypeDef], type_names: &mut Namespace) {
    for def in types {
        let TypeKind::Struct { fields, .. } = &def.kind else {
            continue;
        };
        let arguments = fields
            .iter()
            .filter(|f| f.required && f.const_value.is_none())
            .count();
        if def.request && arguments >= 2 {
            def.constructor_struct = Some(type_names.claim(format!("{}Args", def.name)));
        }
    }
}
