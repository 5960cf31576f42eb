//! The names under which the generated tools take each security scheme's credential: an
//! environment variable `<PREFIX>_<NAME>` (CLI and MCP server), a flag `--<name>` (CLI) and a
//! profile entry `<name>` under `credentials` (both).
//!
//! A scheme's name is its `static` in the SDK (`ApiKeyAuth` is `API_KEY_AUTH`: the variable
//! `<PREFIX>_API_KEY_AUTH`, the flag `--api-key-auth`); a basic scheme takes two, `…_USERNAME`
//! and `…_PASSWORD`. A name that a tool has of its own ([`RESERVED_VARIABLES`],
//! [`RESERVED_FLAGS`]) or that an operation's parameter flag has gets `_CREDENTIAL` after it.
//! The scheme the client's signed mode sends (`x-signing`) is left out: the tool signs with
//! `<PREFIX>_KEY` and `<PREFIX>_SECRET`.

use super::Surface;
use super::access::CredentialKind;
use super::command_line::{self, RESERVED_FLAGS};
use heck::ToKebabCase;
use std::collections::BTreeSet;

/// The variables every generated tool reads of its own after its prefix
/// (`oncegen_cli::OWN_VARIABLES`, held equal by `sdk-tests/tests/architecture.rs`).
pub const RESERVED_VARIABLES: [&str; 9] = [
    "BASE_URL",
    "BEARER",
    "JOURNAL",
    "KEY",
    "MCP_TOKEN",
    "PROFILE",
    "READ_TIMEOUT",
    "SECRET",
    "TOTAL_TIMEOUT",
];

/// One scheme's credential as the tools take it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CredentialInput {
    /// The scheme's `static` in the SDK (`security_schemes::…`).
    pub scheme: String,
    /// How its credential travels.
    pub kind: CredentialKind,
    /// Its parts: one (a key or token), or a user name and a password.
    pub parts: Vec<CredentialPart>,
}

/// One value a credential is made of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CredentialPart {
    /// The environment variable after the prefix (`API_KEY_AUTH`).
    pub variable: String,
    /// The flag, without `--` (`api-key-auth`).
    pub flag: String,
}

/// The credential inputs of every scheme the tools can send, in the order of their statics.
pub fn credential_inputs(surface: &Surface) -> Vec<CredentialInput> {
    let taken: BTreeSet<String> = surface
        .operations
        .values()
        .flat_map(|op| command_line::flags(op).into_values())
        .chain(RESERVED_FLAGS.map(str::to_owned))
        .collect();
    surface
        .security_schemes
        .iter()
        .filter(|(_, scheme)| !scheme.signed)
        .map(|(name, scheme)| {
            let plain = parts(name, scheme.kind);
            let clash = plain.iter().any(|p| {
                RESERVED_VARIABLES.contains(&p.variable.as_str()) || taken.contains(&p.flag)
            });
            CredentialInput {
                scheme: name.clone(),
                kind: scheme.kind,
                parts: if clash {
                    parts(&format!("{name}_CREDENTIAL"), scheme.kind)
                } else {
                    plain
                },
            }
        })
        .collect()
}

fn parts(name: &str, kind: CredentialKind) -> Vec<CredentialPart> {
    let part = |variable: String| CredentialPart {
        flag: variable.to_kebab_case(),
        variable,
    };
    match kind {
        CredentialKind::Basic => vec![
            part(format!("{name}_USERNAME")),
            part(format!("{name}_PASSWORD")),
        ],
        CredentialKind::ApiKey | CredentialKind::Bearer => vec![part(name.to_owned())],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surface::SchemeSurface;

    fn scheme(kind: CredentialKind, signed: bool) -> SchemeSurface {
        SchemeSurface {
            name: "scheme".into(),
            kind,
            location: None,
            param: None,
            signed,
            doc: None,
        }
    }

    fn names(inputs: &[CredentialInput]) -> Vec<(&str, &str)> {
        inputs
            .iter()
            .flat_map(|i| i.parts.iter())
            .map(|p| (p.variable.as_str(), p.flag.as_str()))
            .collect()
    }

    #[test]
    fn each_scheme_is_named_after_its_static_and_clashes_get_a_suffix() {
        let mut surface = Surface {
            format: crate::surface::FORMAT,
            contract_revision: "1".into(),
            crate_name: "api".into(),
            crate_version: "0.1.0".into(),
            areas: Default::default(),
            operations: Default::default(),
            types: Default::default(),
            error_codes: Default::default(),
            security_schemes: Default::default(),
            servers: Default::default(),
            default_server: None,
            checks_contract: false,
        };
        for (name, kind, signed) in [
            ("API_KEY_AUTH", CredentialKind::ApiKey, false),
            ("ADMIN", CredentialKind::Basic, false),
            ("BEARER", CredentialKind::Bearer, false),
            ("SIGNED_AUTH", CredentialKind::ApiKey, true),
        ] {
            surface
                .security_schemes
                .insert(name.into(), scheme(kind, signed));
        }
        assert_eq!(
            names(&credential_inputs(&surface)),
            [
                ("ADMIN_USERNAME", "admin-username"),
                ("ADMIN_PASSWORD", "admin-password"),
                ("API_KEY_AUTH", "api-key-auth"),
                ("BEARER_CREDENTIAL", "bearer-credential"),
            ]
        );
    }
}
