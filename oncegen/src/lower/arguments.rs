//! The struct a client method takes its required parameters in when it has two or more: each
//! value is then named at the call site (`client.op(OpArgs { zone_id, record_id })`), so two
//! values of one type cannot be passed crossed, and a reorder of the document changes no call.

use crate::ir::Operation;
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
