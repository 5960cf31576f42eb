//! One operation as a tool: what the generated table says of it, and the result of its call.

use crate::{Args, Failure, Listing};
use base64::Engine;
use oncegen_runtime::{Binary, Config, Error, Response};
use serde::Serialize;
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;

/// A generated MCP server: its names and every tool.
pub struct App<C: 'static> {
    /// The binary's name (also the server's name in `initialize`).
    pub bin: &'static str,
    /// One line about the server.
    pub about: &'static str,
    /// The version `initialize` reports.
    pub version: &'static str,
    /// The prefix of the SDK's environment variables (`<PREFIX>_BASE_URL`, …).
    pub env_prefix: &'static str,
    /// The credentials of the API's own security schemes, from the environment or the profile
    /// (`oncegen_cli::credentials`).
    pub credentials: &'static [oncegen_cli::Credential],
    /// The API has a scheme the client's signed mode sends (`<PREFIX>_KEY` and
    /// `<PREFIX>_SECRET` sign its requests).
    pub signs: bool,
    /// The tools, one table per area, one tool per operation.
    pub areas: &'static [&'static [Tool<C>]],
    /// The program whose configuration file holds the profiles: the generated CLI's binary,
    /// so that both read one file (`oncegen_cli::profile`).
    pub profiles: &'static str,
    /// Builds the SDK's client.
    pub connect: fn(Config) -> Result<C, Error>,
    /// The runtime client inside the SDK's client (to close journal entries).
    pub runtime: fn(&C) -> &oncegen_runtime::Client,
}

impl<C> App<C> {
    /// Every tool of every area.
    pub fn tools(&self) -> impl Iterator<Item = &'static Tool<C>> + use<C> {
        self.areas.iter().flat_map(|area| area.iter())
    }
}

/// The future of one tool's call.
pub type Run<'a> = Pin<Box<dyn Future<Output = Result<Sent, Failure>> + Send + 'a>>;

/// One operation as a tool.
pub struct Tool<C: 'static> {
    /// Tool name: the operation's Rust method name (`get_dns_zone`).
    pub name: &'static str,
    /// The contract's `operationId`.
    pub operation_id: &'static str,
    /// The area (module) it belongs to.
    pub area: &'static str,
    /// HTTP method.
    pub method: &'static str,
    /// Path template.
    pub path: &'static str,
    /// The summary.
    pub title: &'static str,
    /// The description for the agent: summary, description, constraints, effects.
    pub description: &'static str,
    /// JSON Schema of the arguments (inlined, no `$ref`).
    pub input_schema: &'static str,
    /// JSON Schema of the structured result, when the success body is an object.
    pub output_schema: Option<&'static str>,
    /// What calling it does.
    pub effects: Effects,
    /// Scopes of which a credential needs one (empty: any credential).
    pub scopes: &'static [&'static str],
    /// How a list continues, when it is paginated.
    pub paging: Option<Paging>,
    /// Calls the SDK's client method with the tool's arguments.
    pub run: for<'a> fn(&'a C, &'a Args) -> Run<'a>,
}

impl<C> Tool<C> {
    /// What `tools/list` shows of it.
    pub fn listing(&self) -> Listing<'static> {
        Listing {
            name: self.name,
            description: self.description,
            input_schema: self.input_schema,
            writes: self.effects.writes,
            destructive: self.effects.destructive,
            purchase: self.effects.purchase.is_some(),
            idempotent: !self.effects.writes || self.effects.idempotent,
        }
    }
}

/// What calling a tool does (the surface's `effects`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Effects {
    /// Changes state: needs `--allow-writes`, carries an idempotency key, journaled.
    pub writes: bool,
    /// Deletes or undoes: needs `--allow-destructive`.
    pub destructive: bool,
    /// Charges the account: needs `--allow-purchases` and a spending ceiling (or, without a
    /// ceiling member, `--allow-any-amount`).
    pub purchase: Option<Purchase>,
    /// Grants access (a credential, a password): what it grants; needs `--allow-access-grants`.
    pub grants_access: Option<&'static str>,
    /// Repeating the same request has the effect of sending it once.
    pub idempotent: bool,
    /// Answers with an operation receipt to follow (`wait`).
    pub long_running: bool,
    /// Offers `wait`: polls what it reads until it settles.
    pub waits: bool,
}

/// How a paginated list continues: the argument to pass and the answer's member that holds
/// its next value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    /// The argument (`cursor`, `page`, `offset`).
    pub argument: &'static str,
    /// The answer's member naming the next value (`next_cursor`, `pages`, `next_offset`).
    pub next: &'static str,
}

/// What a purchase charges against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Purchase {
    /// The request body's members that cap the amount charged (any one of them); empty when
    /// the call takes no ceiling and its amount cannot be read before paying.
    pub ceiling: &'static [&'static str],
}

/// What a call answered: its body as JSON and its write's key.
#[derive(Debug, Clone)]
pub struct Sent {
    /// The success body.
    pub value: Value,
    /// The idempotency key of a write.
    pub idempotency_key: Option<String>,
}

/// The result of an SDK call as a tool result.
pub fn respond<T: Serialize>(result: Result<Response<T>, Error>) -> Result<Sent, Failure> {
    let (body, _, meta) = result.map_err(Failure::from)?.into_parts();
    Ok(Sent {
        value: encode(body)?,
        idempotency_key: meta.idempotency_key,
    })
}

/// The result of an SDK call answering bytes of a media type neither JSON nor text (a
/// [`Binary`]): `{"content_type", "text"}` when they are UTF-8, else `{"content_type",
/// "base64"}`.
pub fn respond_bytes(result: Result<Response<Binary>, Error>) -> Result<Sent, Failure> {
    let (body, _, meta) = result.map_err(Failure::from)?.into_parts();
    Ok(Sent {
        value: binary_value(&body),
        idempotency_key: meta.idempotency_key,
    })
}

fn binary_value(body: &Binary) -> Value {
    let content_type = body.content_type.as_deref();
    match body.text() {
        Some(text) => serde_json::json!({"content_type": content_type, "text": text}),
        None => {
            let encoded = base64::engine::general_purpose::STANDARD.encode(body.bytes());
            serde_json::json!({"content_type": content_type, "base64": encoded})
        }
    }
}

/// The result of a builder's `wait` (the settled resource) as a tool result.
pub fn respond_waited<T: Serialize>(result: Result<T, Error>) -> Result<Sent, Failure> {
    Ok(Sent {
        value: encode(result.map_err(Failure::from)?)?,
        idempotency_key: None,
    })
}

fn encode<T: Serialize>(body: T) -> Result<Value, Failure> {
    serde_json::to_value(body)
        .map_err(|e| Failure::internal(format!("the answer does not encode as JSON: {e}")))
}

#[cfg(test)]
mod tests {
    use super::{Binary, binary_value};
    use serde_json::json;

    #[test]
    fn bytes_are_a_result_as_text_when_utf8_else_as_base64() {
        let body = |bytes: &[u8]| Binary {
            content_type: Some("application/sdp".to_owned()),
            bytes: bytes.to_vec().into(),
        };
        assert_eq!(
            binary_value(&body(b"v=0\r\n")),
            json!({"content_type": "application/sdp", "text": "v=0\r\n"})
        );
        assert_eq!(
            binary_value(&body(&[0xff, 0x00, 0x10])),
            json!({"content_type": "application/sdp", "base64": "/wAQ"})
        );
    }
}
