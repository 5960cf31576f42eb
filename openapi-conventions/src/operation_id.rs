//! The operationId of an operation whose document gives none.
//!
//! The rule (written down in `spec/COVERAGE.md`): the lowercase HTTP method, then each path
//! segment in PascalCase (hyphens and underscores split words), a path parameter `{name}`
//! becoming `By` + PascalCase(name); a leading version segment (`v1`, `v2`…) is left out.
//! `GET /v1/version` → `getVersion`, `POST /v1/vps/{serviceId}/reboot` →
//! `postVpsByServiceIdReboot`.

/// The derived operationId of `method` (any case) on `path`.
pub fn derive(method: &str, path: &str) -> String {
    let mut id = method.to_ascii_lowercase();
    let mut segments = path.split('/').filter(|s| !s.is_empty()).peekable();
    if segments.peek().is_some_and(|s| is_version(s)) {
        segments.next();
    }
    for segment in segments {
        match segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            Some(param) => {
                id.push_str("By");
                id.push_str(&pascal(param));
            }
            None => id.push_str(&pascal(segment)),
        }
    }
    id
}

/// `v` followed by digits.
fn is_version(segment: &str) -> bool {
    segment
        .strip_prefix('v')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Words split at anything but letters and digits, each capitalized, joined.
fn pascal(text: &str) -> String {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars
                .next()
                .map(|f| f.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::derive;

    #[test]
    fn the_rule() {
        assert_eq!(derive("GET", "/v2/status"), "getStatus");
        assert_eq!(derive("patch", "/v1/hooks/{id}"), "patchHooksById");
        assert_eq!(
            derive("POST", "/v3/machines/{machineId}/restart"),
            "postMachinesByMachineIdRestart"
        );
        assert_eq!(
            derive("GET", "/v1/machines/{machineId}/boot-options"),
            "getMachinesByMachineIdBootOptions"
        );
        assert_eq!(derive("get", "/pets/{pet_id}"), "getPetsByPetId");
        assert_eq!(
            derive("get", "/vendors"),
            "getVendors",
            "only `v` + digits is a version"
        );
        assert_eq!(derive("get", "/"), "get");
    }
}
