//! Bodies and parameters on the wire: how a success body decodes ([`body`]), OpenAPI parameter
//! styles and nested form bodies ([`params`]) and multipart bodies ([`multipart`]). The encoding
//! of generated types themselves is the `oncegen-codec` crate's; a body of bytes with its media
//! type is `binary`'s, the server's message in an error body `error::message`'s.

pub mod body;
pub mod multipart;
pub mod params;
