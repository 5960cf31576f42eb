//! Bodies and parameters on the wire: how a success body decodes ([`body`]), OpenAPI parameter
//! styles and nested form bodies ([`params`]), multipart bodies ([`multipart`]), and the
//! server's message in an error body no `x-error-envelope` describes (`error_message`). The
//! encoding of generated types themselves is the `oncegen-codec` crate's.

pub mod body;
pub(crate) mod error_message;
pub mod multipart;
pub mod params;
