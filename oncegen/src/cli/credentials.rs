//! The credential table of a generated tool (CLI and MCP server alike): each scheme's parts
//! under the names [`credentials::credential_inputs`] gives, and whether the API signs.

use crate::surface::{Surface, credentials};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// `credentials: &[…], signs: …,` of the tool's `App`, naming the SDK `sdk`'s schemes and the
/// support crate `support` (`oncegen_cli`, or `oncegen_mcp`, which re-exports the types).
pub(crate) fn app_fields(surface: &Surface, sdk: &Ident, support: &str) -> TokenStream {
    let support = format_ident!("{support}");
    let entries = credentials::credential_inputs(surface)
        .into_iter()
        .map(|input| {
            let scheme = format_ident!("{}", input.scheme);
            let parts = input.parts.iter().map(|p| {
                let (variable, flag) = (&p.variable, &p.flag);
                quote!(#support::credentials::Part { variable: #variable, flag: #flag })
            });
            quote! {
                #support::Credential {
                    scheme: &#sdk::security_schemes::#scheme,
                    parts: &[#(#parts),*],
                }
            }
        });
    let signs = surface.security_schemes.values().any(|s| s.signed);
    quote! {
        credentials: &[#(#entries),*],
        signs: #signs,
    }
}
