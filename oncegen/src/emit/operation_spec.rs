//! The runtime's description of an operation: its `OperationSpec` static and the `Method` and
//! `Idempotency` variants a request names, read from the operation's surface.

use crate::surface::{Idempotency, Method, OperationSurface};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// `static SPEC: OperationSpec = …;`: the runtime's description of operation `operation_id`.
pub(super) fn operation_spec(operation_id: &str, op: &OperationSurface) -> TokenStream {
    let (method, idempotency) = spec_idents(op);
    let path = &op.path;
    let envelope = op.operation_envelope;
    quote! {
        static SPEC: ::oncegen_runtime::OperationSpec = ::oncegen_runtime::OperationSpec::new(
            #operation_id,
            ::oncegen_runtime::Method::#method,
            #path,
            ::oncegen_runtime::Idempotency::#idempotency,
            #envelope,
        );
    }
}

/// The runtime's `Method` and `Idempotency` variants of the operation.
pub(super) fn spec_idents(op: &OperationSurface) -> (proc_macro2::Ident, proc_macro2::Ident) {
    let method = format_ident!(
        "{}",
        match op.method {
            Method::Get => "Get",
            Method::Put => "Put",
            Method::Post => "Post",
            Method::Delete => "Delete",
            Method::Options => "Options",
            Method::Head => "Head",
            Method::Patch => "Patch",
            Method::Trace => "Trace",
        }
    );
    let idempotency = format_ident!(
        "{}",
        match op.idempotency {
            Idempotency::None => "None",
            Idempotency::Required => "Required",
            Idempotency::Optional => "Optional",
            Idempotency::NotShown => "NotShown",
        }
    );
    (method, idempotency)
}
