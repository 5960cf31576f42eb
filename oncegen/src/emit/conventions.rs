//! Emits the API's conventions as code and data: the typed error codes, the client's
//! [`ApiProfile`](../../../oncegen_runtime/profile/struct.ApiProfile.html) (retry codes, operation
//! lookup), contract discovery, `wait` on polled reads (`x-poll`) and on operation receipts.

use super::Ctx;
use super::docs::lines_attrs;
use super::operation_spec::operation_spec;
use crate::ir::{
    Api, ErrorCode, Operation, Param, ParamLocation, Poll, RetryCode, Success, TypeRef,
};
use crate::surface::Surface;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::collections::BTreeSet;

/// The `error_codes` module: `ErrorCode` (one variant per code of the spec, plus `Unknown`) and
/// `ErrorCodeExt`, which reads it off the runtime's errors.
pub fn error_codes_module(api: &Api) -> TokenStream {
    let error_code = error_code_enum(api);
    let readers = error_code_readers();
    quote!(#error_code #readers)
}

/// `ErrorCode`: one variant per code of the spec plus `Unknown`, with `ALL`, `parse` and
/// `as_str`.
fn error_code_enum(api: &Api) -> TokenStream {
    let variants = api.error_codes.iter().map(|c| {
        let ident = format_ident!("{}", c.variant);
        let doc = lines_attrs(&error_code_doc(api, c));
        quote!(#doc #ident,)
    });
    let parse = api.error_codes.iter().map(|c| {
        let ident = format_ident!("{}", c.variant);
        let code = &c.code;
        quote!(#code => ErrorCode::#ident,)
    });
    let as_str = api.error_codes.iter().map(|c| {
        let ident = format_ident!("{}", c.variant);
        let code = &c.code;
        quote!(ErrorCode::#ident => #code,)
    });
    let all = api.error_codes.iter().map(|c| &c.code);
    quote! {
        /// An API error code (`error.code`): every code the contract lists (`x-error-codes`), and
        /// [`ErrorCode::Unknown`] for any other, so a code added by a later revision still reads.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum ErrorCode {
            #(#variants)*
            /// A code this version of the SDK does not know (empty when the body had none).
            Unknown(String),
        }

        impl ErrorCode {
            /// Every code the contract lists, sorted.
            pub const ALL: &'static [&'static str] = &[#(#all),*];

            /// Reads a wire code; codes the contract does not list become [`ErrorCode::Unknown`].
            pub fn parse(code: &str) -> Self {
                match code {
                    #(#parse)*
                    other => ErrorCode::Unknown(other.to_owned()),
                }
            }

            /// The wire form.
            pub fn as_str(&self) -> &str {
                match self {
                    #(#as_str)*
                    ErrorCode::Unknown(code) => code,
                }
            }
        }
    }
}

/// How `ErrorCode` is read and written: `Display`, `From<&str>`, and `ErrorCodeExt`, which
/// reads it off the runtime's errors.
fn error_code_readers() -> TokenStream {
    quote! {
        impl ::std::fmt::Display for ErrorCode {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl From<&str> for ErrorCode {
            fn from(code: &str) -> Self {
                ErrorCode::parse(code)
            }
        }

        /// The typed [`ErrorCode`] of a runtime error.
        pub trait ErrorCodeExt {
            /// The error code, when the error is an API error with one.
            fn error_code(&self) -> Option<ErrorCode>;
        }

        impl ErrorCodeExt for ::oncegen_runtime::Error {
            fn error_code(&self) -> Option<ErrorCode> {
                self.code().map(ErrorCode::parse)
            }
        }

        impl ErrorCodeExt for ::oncegen_runtime::ApiError {
            fn error_code(&self) -> Option<ErrorCode> {
                (!self.code.is_empty()).then(|| ErrorCode::parse(&self.code))
            }
        }
    }
}

/// `` `code`: returned by `op` (`409`), … `` and, for retry codes, who resends.
fn error_code_doc(api: &Api, code: &ErrorCode) -> String {
    let ops: BTreeSet<&str> = code
        .returned_by
        .iter()
        .map(|s| s.operation_id.as_str())
        .collect();
    let statuses = |op: &str| {
        code.returned_by
            .iter()
            .filter(|s| s.operation_id == op)
            .map(|s| format!("`{}`", s.status))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let returned = if ops.len() == api.operations.len() && ops.len() > 1 {
        let all: BTreeSet<&str> = code.returned_by.iter().map(|s| s.status.as_str()).collect();
        let all: Vec<String> = all.into_iter().map(|s| format!("`{s}`")).collect();
        format!("every operation ({})", all.join(", "))
    } else {
        ops.iter()
            .map(|op| format!("`{op}` ({})", statuses(op)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let retry = match code.retry {
        Some(RetryCode::Automatic) => {
            "\n\nThe SDK waits (`Retry-After`) and resends the identical request itself."
        }
        Some(RetryCode::Caller) => {
            "\n\nThe identical request (same key, same body) may be resent: `is_retryable` is true."
        }
        None => "",
    };
    format!("`{}`: returned by {returned}.{retry}", code.code)
}

/// The `static PROFILE` handed to the runtime client: retry codes and the operation lookup.
pub fn profile_static(api: &Api, surface: &Surface) -> TokenStream {
    let codes = |kind: RetryCode| {
        let codes = api
            .error_codes
            .iter()
            .filter(|c| c.retry == Some(kind))
            .map(|c| &c.code);
        quote!(&[#(#codes),*])
    };
    let automatic = codes(RetryCode::Automatic);
    let caller = codes(RetryCode::Caller);
    let lookup = operation_lookup(api, surface).unwrap_or_else(|| quote!(None));
    let error_body = error_body_paths(api);
    quote! {
        /// The API's conventions, as the runtime consumes them (from the spec's `x-retry-codes`,
        /// `x-operation-lookup` and `x-error-envelope`).
        pub static PROFILE: ::oncegen_runtime::ApiProfile = ::oncegen_runtime::ApiProfile {
            automatic_retry_codes: #automatic,
            caller_retry_codes: #caller,
            lookup: #lookup,
            error_body: #error_body,
        };
    }
}

/// The profile's `OperationLookup` (`x-operation-lookup`): the operation that finds a write by
/// its idempotency key and how its answers read; `None` when the spec has none.
fn operation_lookup(api: &Api, surface: &Surface) -> Option<TokenStream> {
    let l = api.conventions.lookup.as_ref()?;
    let op = surface.operations.get(&l.operation_id)?;
    let spec = operation_spec(&l.operation_id, op);
    let (key, method, path, found, not_found, ambiguous, expired) = (
        &l.idempotency_key,
        &l.method,
        &l.path,
        &l.found_id,
        &l.not_found,
        &l.ambiguous,
        &l.expired,
    );
    Some(quote! {
        Some(::oncegen_runtime::OperationLookup {
            spec: {
                #spec
                &SPEC
            },
            idempotency_key: #key,
            method: #method,
            path: #path,
            found_id: #found,
            not_found: #not_found,
            ambiguous: #ambiguous,
            expired: #expired,
        })
    })
}

/// The profile's `ErrorBody` (`x-error-envelope`): where an error body holds its code,
/// message, request id, field errors and details.
fn error_body_paths(api: &Api) -> TokenStream {
    let Some(e) = &api.conventions.error_envelope else {
        return quote!(::oncegen_runtime::ErrorBody::NONE);
    };
    let (code, message, request_id, field_errors, details) = (
        &e.code,
        &e.message,
        &e.request_id,
        &e.field_errors,
        &e.details,
    );
    quote! {
        ::oncegen_runtime::ErrorBody {
            code: &[#(#code),*],
            message: &[#(#message),*],
            request_id: &[#(#request_id),*],
            field_errors: &[#(#field_errors),*],
            details: &[#(#details),*],
        }
    }
}

/// The prefix of the environment variables the generated crate's `ConfigExt::from_env` reads:
/// the crate's name without a trailing `-sdk`, in upper snake case, then `_API` (`customer-cloud-sdk`
/// reads `CUSTOMER_CLOUD_API_BASE_URL`, …), so each generated crate reads its own. The runtime names no
/// variable; it is given this prefix.
pub fn env_prefix(crate_name: &str) -> String {
    use heck::ToShoutySnakeCase;
    let name = crate_name.to_ascii_lowercase();
    let stem = name
        .strip_suffix("-sdk")
        .or_else(|| name.strip_suffix("_sdk"))
        .filter(|stem| !stem.is_empty())
        .unwrap_or(&name);
    format!("{}_API", stem.to_shouty_snake_case())
}

/// `ENV_PREFIX` and `ConfigExt`, whose `Config::from_env()` reads the crate's own variables
/// through the runtime's `Config::from_env_with_prefix`.
pub fn config_from_env(crate_name: &str) -> TokenStream {
    let prefix = env_prefix(crate_name);
    let prefix_doc = format!(
        " Prefix of the environment variables [`ConfigExt::from_env`] reads (`{prefix}_BASE_URL`, …)."
    );
    let trait_doc = lines_attrs(&format!(
        "`Config::from_env()` for this API (in the prelude): reads `{prefix}_BASE_URL` (required), then `{prefix}_BEARER` (bearer mode) or `{prefix}_KEY` and `{prefix}_SECRET` (signed mode); with none of them, requests carry no credentials."
    ));
    quote! {
        #[doc = #prefix_doc]
        pub const ENV_PREFIX: &str = #prefix;
        #trait_doc
        pub trait ConfigExt: Sized {
            /// The configuration the environment names (see the trait).
            fn from_env() -> Result<Self, ::oncegen_runtime::Error>;
        }
        impl ConfigExt for ::oncegen_runtime::Config {
            fn from_env() -> Result<Self, ::oncegen_runtime::Error> {
                ::oncegen_runtime::Config::from_env_with_prefix(ENV_PREFIX)
            }
        }
    }
}

/// `Client::check_contract`, when the spec marks a version read (`x-contract-version`).
pub fn check_contract(api: &Api, surface: &Surface) -> TokenStream {
    let Some((id, version)) = api
        .conventions
        .contract_version
        .as_deref()
        .filter(|_| surface.checks_contract)
        .and_then(|id| Some((id, surface.operations.get(id)?)))
    else {
        return quote!();
    };
    let version_fn = format_ident!("{}", version.rust_fn);
    let (capabilities, names, capabilities_area) = capabilities_read(api, surface);
    let cfg = features_cfg(
        std::iter::once(version.area.clone())
            .chain(capabilities_area)
            .collect(),
    );
    let doc = lines_attrs(&format!(
        "Reads `{}`{} and compares the deployed contract revision with [`CONTRACT_REVISION`]. A failing capabilities read is tolerated (its body is then `Null`).",
        id,
        api.conventions
            .capabilities
            .as_ref()
            .map(|c| format!(" and `{}`", c.operation_id))
            .unwrap_or_default()
    ));
    quote! {
        impl Client {
            #doc
            #cfg
            pub async fn check_contract(&self) -> Result<::oncegen_runtime::version::ContractCheck, ::oncegen_runtime::Error> {
                let version = ::serde_json::to_value(self.#version_fn().send().await?.body())
                    .unwrap_or_default();
                #capabilities
                Ok(::oncegen_runtime::version::ContractCheck::new(CONTRACT_REVISION, version, capabilities, #names))
            }
        }
    }
}

/// The capabilities read `check_contract` makes (`x-capabilities`; `Null` when there is none
/// or it fails), the names it reports, and the area of its operation.
fn capabilities_read(api: &Api, surface: &Surface) -> (TokenStream, TokenStream, Option<String>) {
    match api
        .conventions
        .capabilities
        .as_ref()
        .and_then(|c| Some((surface.operations.get(&c.operation_id)?, &c.names)))
    {
        Some((op, names)) => {
            let f = format_ident!("{}", op.rust_fn);
            (
                quote! {
                    let capabilities = match self.#f().send().await {
                        Ok(response) => ::serde_json::to_value(response.body()).unwrap_or_default(),
                        Err(_) => ::serde_json::Value::Null,
                    };
                },
                quote!(&[#(#names),*]),
                Some(op.area.clone()),
            )
        }
        None => (
            quote!(let capabilities = ::serde_json::Value::Null;),
            quote!(&[]),
            None,
        ),
    }
}

/// The `cfg` that needs every area feature of `features` (the areas of the operations called).
fn features_cfg(mut features: Vec<String>) -> TokenStream {
    features.sort();
    features.dedup();
    match features.as_slice() {
        [one] => quote!(#[cfg(feature = #one)]),
        many => quote!(#[cfg(all(#(feature = #many),*))]),
    }
}

/// `wait` and `wait_with` on the builder of a read with `x-poll`.
pub fn poll_methods(cx: &Ctx<'_>, op: &Operation, poll: &Poll) -> TokenStream {
    let subject = cx.ty(&poll.subject_ty);
    let (p_subject, p_status) = (&poll.subject, &poll.status);
    let done = match &poll.done {
        Some(d) => quote!(Some(#d)),
        None => quote!(None),
    };
    let (pending, succeeded, failed, unknown) =
        (&poll.pending, &poll.succeeded, &poll.failed, &poll.unknown);
    let target = &op.operation_id;
    let wait_doc = lines_attrs(&format!(
        "Reads again (backing off per the client's wait policy) until `{}` settles, and returns it.\n\n{}",
        if poll.subject.is_empty() {
            "the body"
        } else {
            &poll.subject
        },
        poll_rule(poll)
    ));
    quote! {
        #wait_doc
        pub async fn wait(self) -> Result<#subject, ::oncegen_runtime::Error> {
            let policy = *self.call.client().config().get_wait_policy();
            self.wait_with(&policy).await
        }
        /// Like `wait`, with this wait policy.
        pub async fn wait_with(self, policy: &::oncegen_runtime::WaitPolicy) -> Result<#subject, ::oncegen_runtime::Error> {
            static POLL: ::oncegen_runtime::PollSpec = ::oncegen_runtime::PollSpec {
                subject: #p_subject,
                status: #p_status,
                done: #done,
                pending: &[#(#pending),*],
                succeeded: &[#(#succeeded),*],
                failed: &[#(#failed),*],
                unknown: &[#(#unknown),*],
            };
            ::oncegen_runtime::poll::wait(&POLL, policy, #target, || self.clone().send()).await
        }
    }
}

/// The rule `wait` follows, in words.
fn poll_rule(poll: &Poll) -> String {
    let list = |v: &[String]| {
        v.iter()
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = match &poll.done {
        Some(done) => format!("Final once `{done}` is true."),
        None => format!(
            "Final once `{}` is none of {}.",
            poll.status,
            list(&poll.pending)
        ),
    };
    if !poll.succeeded.is_empty() {
        out.push_str(&format!(" Success: {}.", list(&poll.succeeded)));
    }
    if !poll.failed.is_empty() {
        out.push_str(&format!(
            " {} end in `Error::OperationFailed`.",
            list(&poll.failed)
        ));
    }
    if !poll.unknown.is_empty() {
        out.push_str(&format!(
            " {} lasting longer than the policy's `unknown_patience` ends in `Error::OperationOutcomeUnknown`: reconcile, never submit a new write.",
            list(&poll.unknown)
        ));
    }
    out
}

/// `operation_id` and `wait` on each receipt type emitted in the current module: the success
/// types of operations that return receipts, waited on through the read whose `x-poll` has a
/// `receipt-id`.
pub fn receipt_impls(cx: &Ctx<'_>, api: &Api) -> TokenStream {
    let Some((poller, poll)) = api.operations.iter().find_map(|o| {
        o.poll
            .as_ref()
            .filter(|p| !p.receipt_id.is_empty())
            .map(|p| (o, p))
    }) else {
        return quote!();
    };
    let receipts = receipt_types(cx, api);
    let Some(id_param) = poller
        .params
        .iter()
        .find(|p| p.location == ParamLocation::Path)
    else {
        return quote!();
    };
    let ids = &poll.receipt_id;
    let subject = cx.ty(&poll.subject_ty);
    let poller_surface = cx.operation(poller);
    let poll_fn = format_ident!("{}", poller_surface.rust_fn);
    let feature = &poller_surface.area;
    let id_arg = receipt_id_arg(cx, id_param);
    let id_doc = lines_attrs(&format!(
        "The id to wait on: the first of {} that the receipt carries.",
        ids.iter()
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let wait_doc = lines_attrs(&format!(
        "Waits for the operation this receipt names: `{}` with its id, then `wait` (see there).",
        poller.operation_id
    ));
    let impls = receipts.into_iter().map(|name| {
        let ty = format_ident!("{}", name);
        quote! {
            impl #ty {
                #id_doc
                pub fn operation_id(&self) -> Option<String> {
                    ::oncegen_runtime::poll::find_id(self, &[#(#ids),*])
                }
                #wait_doc
                #[cfg(feature = #feature)]
                pub async fn wait(&self, client: &crate::Client) -> Result<#subject, ::oncegen_runtime::Error> {
                    let id = self.operation_id().ok_or_else(|| {
                        ::oncegen_runtime::Error::validation("the receipt carries no operation id")
                    })?;
                    client.#poll_fn(#id_arg).wait().await
                }
            }
        }
    });
    quote!(#(#impls)*)
}

/// The receipt types emitted in the current module: the success types of operations that
/// return receipts.
fn receipt_types<'a>(cx: &Ctx<'_>, api: &'a Api) -> BTreeSet<&'a str> {
    api.operations
        .iter()
        .filter(|o| o.receipt)
        .filter_map(|o| match &o.success {
            Success::Json(TypeRef::Named(name)) => Some(name.as_str()),
            _ => None,
        })
        .filter(|name| cx.module_of(name) == Some(cx.current.as_str()))
        .collect()
}

/// The receipt's id (`id`) as the poller's path parameter takes it: as it is, or parsed.
fn receipt_id_arg(cx: &Ctx<'_>, id_param: &Param) -> TokenStream {
    if cx.resolves_to(&id_param.ty, &TypeRef::String) {
        quote!(id)
    } else {
        quote!(
            id.parse()
                .map_err(|_| ::oncegen_runtime::Error::validation(format!(
                    "operation id `{id}` is not valid"
                )))?
        )
    }
}

#[cfg(test)]
mod tests {
    use super::env_prefix;

    #[test]
    fn each_crate_reads_its_own_environment_variables() {
        assert_eq!(env_prefix("customer-cloud-sdk"), "CUSTOMER_CLOUD_API");
        assert_eq!(env_prefix("nexus_sdk"), "NEXUS_API");
        assert_eq!(env_prefix("petstore"), "PETSTORE_API");
        assert_eq!(env_prefix("my-Store-sdk"), "MY_STORE_API");
        assert_eq!(env_prefix("sdk"), "SDK_API");
    }
}
