//! Macros of generated request builders, each one line of generated code: `request!` (a new
//! [`Request`](crate::Request) of the operation) and `error_body!` (the builder's `error_body`).

/// A new [`Request`](crate::Request) of the operation described by method, path template,
/// operation id and [`Idempotency`](crate::Idempotency) variant, with `operation_envelope` last
/// when the operation returns the operation envelope. The
/// [`OperationSpec`](crate::OperationSpec) is a `static`.
///
/// ```
/// let request = oncegen_runtime::request!(Get "/v1/zones/{id}", "getZone", None);
/// let write = oncegen_runtime::request!(Post "/v1/zones", "createZone", Required, operation_envelope);
/// # let _ = (request, write);
/// ```
#[macro_export]
macro_rules! request {
    ($method:ident $path:literal, $id:literal, $idempotency:ident) => {
        $crate::request!(@new $method $path, $id, $idempotency, false)
    };
    ($method:ident $path:literal, $id:literal, $idempotency:ident, operation_envelope) => {
        $crate::request!(@new $method $path, $id, $idempotency, true)
    };
    (@new $method:ident $path:literal, $id:literal, $idempotency:ident, $envelope:literal) => {{
        static SPEC: $crate::OperationSpec = $crate::OperationSpec::new(
            $id,
            $crate::Method::$method,
            $path,
            $crate::Idempotency::$idempotency,
            $envelope,
        );
        $crate::Request::new(&SPEC)
    }};
}

/// The builder method `error_body(&Error) -> Option<T>`: the error body the operation documents
/// for the error's status (one of the statuses listed, all with body type `T`), decoded; `None`
/// when the status is not listed or the body does not decode (`ApiError::body` keeps it).
///
/// ```
/// #[derive(Debug, serde::Deserialize)]
/// pub struct Problem {
///     pub message: String,
/// }
/// pub struct GetZone;
/// impl GetZone {
///     oncegen_runtime::error_body!(Problem, "404", "5XX");
/// }
/// let error = oncegen_runtime::Error::validation("no zone");
/// assert!(GetZone::error_body(&error).is_none());
/// ```
#[macro_export]
macro_rules! error_body {
    ($ty:ty, $first:literal $(, $status:literal)* $(,)?) => {
        #[doc = concat!(
            "The documented error body (`", $first, "`", $(", `", $status, "`",)*
            ") for `error`'s status, decoded; `None` when there is none or it does not decode ",
            "(`ApiError::body` keeps it)."
        )]
        pub fn error_body(error: &$crate::Error) -> ::std::option::Option<$ty> {
            error.documented_body(&[$first $(, $status)*])
        }
    };
}
