//! The modules of a generated crate besides its areas, which a caller names
//! (`customer_cloud_sdk::types::…`) and no area may take: lowering places types in them, emit
//! writes them.

/// Module of types shared by several areas (or by none).
pub(crate) const SHARED_MODULE: &str = "types";

/// Module of the generated error codes.
pub(crate) const ERROR_CODES_MODULE: &str = "error_codes";

/// Module of the generated webhooks.
pub(crate) const WEBHOOKS_MODULE: &str = "webhooks";
