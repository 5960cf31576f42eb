//! What a released SDK receives when an operation's success response changes without its Rust
//! type changing: another status, or other media types to ask the body in. The Rust API is
//! the same, so these are no line of the Rust changes; they are behaviour changes for
//! released SDKs, never "docs only".

use super::Wire;
use crate::surface::OperationSurface;

/// The wire changes of the success response from `o` to `n`. A baseline written before the
/// status was recorded (`success_status` absent) says nothing to compare.
pub(super) fn changes(o: &OperationSurface, n: &OperationSurface) -> Vec<(Wire, String)> {
    let Some(old_status) = o.success_status.as_deref() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let new_status = n.success_status.as_deref().unwrap_or("none");
    if old_status != new_status {
        out.push((
            Wire::Behaviour,
            format!(
                "success status `{old_status}` → `{new_status}`: released SDKs still succeed, \
                 and code that checks the status sees another"
            ),
        ));
    }
    let media = |accept: &[String]| match accept {
        [] => "`application/json`".to_owned(),
        types => super::ticks(types),
    };
    if media(&o.accept) != media(&n.accept) {
        out.push((
            Wire::Behaviour,
            format!(
                "success media types {} → {}: released SDKs ask for {}",
                media(&o.accept),
                media(&n.accept),
                media(&o.accept)
            ),
        ));
    }
    out
}
