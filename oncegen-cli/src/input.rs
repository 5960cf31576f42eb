//! A command's arguments, decoded into the types the SDK's client method and setters take.
//!
//! A value is decoded with serde into whatever type the generated call needs (inferred from
//! the client method), first as a JSON string (`active`, a UUID, a date, a name), then as JSON
//! text (`5`, `true`): so one rule covers every scalar and enum without generated parsing code.

use crate::output::Rows;
use crate::wait::Wait;
use crate::{Failure, Sent, exit};
use clap::ArgMatches;
use futures::{Stream, StreamExt};
use oncegen_runtime::{CallBuilder, Error};
use oncegen_runtime::{dropped_members, located, refusing_unknown};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::io::Read;

/// The arguments of one command line.
pub struct Input<'m> {
    matches: &'m ArgMatches,
    /// The `--json` text, read once (standard input cannot be read twice).
    body: Option<String>,
    idempotency_key: Option<String>,
    intent: Option<String>,
    /// Where `--all` prints items as they arrive.
    rows: Option<RefCell<Rows>>,
    /// `--wait` and its `--timeout`.
    wait: Option<Wait>,
    /// `--allow-unknown-members`, and whether the body is sent as given because of it.
    unknown: Unknown,
}

/// What `--allow-unknown-members` asked and did.
#[derive(Default)]
struct Unknown {
    /// The flag was given.
    allowed: bool,
    /// The body holds members its type drops: it is sent as given.
    sending: Cell<bool>,
}

/// The id of the `--allow-unknown-members` flag.
pub(crate) const ALLOW_UNKNOWN: &str = "allow-unknown-members";

/// The id of the `--json` argument.
pub(crate) const BODY: &str = "json";

impl<'m> Input<'m> {
    /// The arguments in `matches`; reads the `--json` body from its source.
    pub(crate) fn new(matches: &'m ArgMatches) -> Result<Self, Failure> {
        let body = match matches.try_get_one::<String>(BODY) {
            Ok(Some(raw)) => Some(read_source(raw)?),
            _ => None,
        };
        let allowed = matches!(matches.try_get_one::<bool>(ALLOW_UNKNOWN), Ok(Some(true)));
        Ok(Input {
            matches,
            body,
            idempotency_key: None,
            intent: None,
            rows: None,
            wait: None,
            unknown: Unknown {
                allowed,
                sending: Cell::new(false),
            },
        })
    }

    /// Follows the call to its end (`--wait`).
    pub(crate) fn with_wait(mut self, wait: Option<Wait>) -> Self {
        self.wait = wait;
        self
    }

    /// Whether `--wait` asks to follow the call to its end.
    pub fn waiting(&self) -> bool {
        self.wait.is_some()
    }

    /// Runs `work` (a receipt's or a builder's `wait`) under `--wait`'s spinner and timeout.
    pub async fn follow<T>(&self, what: &str, work: impl Future<Output = T>) -> Option<T> {
        let wait = self.wait.expect("follow only with --wait");
        crate::wait::follow(wait, what, work).await
    }

    /// Streams every page's items to `rows` instead of answering one page (`--all`).
    pub(crate) fn with_rows(mut self, rows: Option<Rows>) -> Self {
        self.rows = rows.map(RefCell::new);
        self
    }

    /// Whether `--all` asks for every page.
    pub fn all(&self) -> bool {
        self.rows.is_some()
    }

    /// Prints every item of `items` as it arrives (one page in memory at a time); the answer
    /// is then already printed.
    pub async fn print_all<T: Serialize>(
        &self,
        items: impl Stream<Item = Result<T, Error>>,
    ) -> Result<Sent, Failure> {
        let rows = self.rows.as_ref().expect("print_all only with --all");
        let mut items = std::pin::pin!(items);
        while let Some(item) = items.next().await {
            let value = serde_json::to_value(item?).map_err(|e| Failure {
                code: exit::OTHER,
                message: format!("an item does not encode as JSON: {e}"),
                settled_key: None,
            })?;
            rows.borrow_mut().print(&value).map_err(|e| Failure {
                code: exit::OTHER,
                message: format!("writing the output: {e}"),
                settled_key: None,
            })?;
        }
        Ok(Sent {
            value: Value::Null,
            idempotency_key: None,
            printed: true,
        })
    }

    /// Sends the write under `key` (`--idempotency-key`, or an earlier run's).
    pub(crate) fn with_key(mut self, key: Option<String>) -> Self {
        self.idempotency_key = key;
        self
    }

    /// Journals the write with `intent` (see [`crate::rerun`]).
    pub(crate) fn with_intent(mut self, intent: Option<String>) -> Self {
        self.intent = intent;
        self
    }

    /// The `--json` text as given, if any.
    pub(crate) fn body_text(&self) -> Option<&str> {
        self.body.as_deref()
    }

    /// Puts the spending ceiling `amount` (`--max-total`) into the body as its ceiling member:
    /// the first of `members` the body has, else the first of them. A body that already
    /// holds a different ceiling is refused.
    pub(crate) fn set_ceiling(&mut self, members: &[&str], amount: &str) -> Result<(), Failure> {
        let decimal = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit());
        let valid = match amount.split_once('.') {
            Some((whole, fraction)) => decimal(whole) && decimal(fraction),
            None => decimal(amount),
        };
        if !valid {
            return Err(Failure::usage(format!(
                "--max-total: `{amount}` is not a decimal amount (like 25 or 25.50)"
            )));
        }
        let mut body = match &self.body {
            None => serde_json::Map::new(),
            Some(text) => match serde_json::from_str::<Value>(text) {
                Ok(Value::Object(map)) => map,
                _ => return Err(Failure::usage("--json: the body must be a JSON object")),
            },
        };
        match members.iter().find(|m| body.contains_key(**m)) {
            Some(member) => {
                let given = &body[*member];
                let number = given.as_number().map(ToString::to_string);
                if given.as_str() != Some(amount) && number.as_deref() != Some(amount) {
                    return Err(Failure::usage(format!(
                        "--json: the body's `{member}` ({given}) differs from --max-total {amount}"
                    )));
                }
            }
            None => {
                let member = members.first().copied().unwrap_or("max_total");
                body.insert(member.to_owned(), Value::String(amount.to_owned()));
            }
        }
        self.body = Some(Value::Object(body).to_string());
        Ok(())
    }

    /// The parsed matches.
    pub(crate) fn matches(&self) -> &ArgMatches {
        self.matches
    }

    /// The required argument `id`.
    pub fn arg<T: DeserializeOwned>(&self, id: &str) -> Result<T, Failure> {
        self.opt(id)?
            .ok_or_else(|| Failure::usage(format!("`{id}` is required")))
    }

    /// The optional argument `id`.
    pub fn opt<T: DeserializeOwned>(&self, id: &str) -> Result<Option<T>, Failure> {
        match self.matches.get_one::<String>(id) {
            None => Ok(None),
            Some(raw) => scalar(id, raw).map(Some),
        }
    }

    /// The optional repeatable argument `id`, as a list.
    pub fn list<T: DeserializeOwned>(&self, id: &str) -> Result<Option<Vec<T>>, Failure> {
        let Some(values) = self.matches.get_many::<String>(id) else {
            return Ok(None);
        };
        values
            .map(|raw| scalar(id, raw))
            .collect::<Result<_, _>>()
            .map(Some)
    }

    /// `call` with the optional argument `id` passed to `set` when it was given.
    pub fn set<B, T: DeserializeOwned>(
        &self,
        call: B,
        id: &str,
        set: impl FnOnce(B, T) -> B,
    ) -> Result<B, Failure> {
        Ok(match self.opt(id)? {
            Some(value) => set(call, value),
            None => call,
        })
    }

    /// `call` with the repeatable argument `id` passed to `set` as a list when it was given.
    pub fn set_list<B, T: DeserializeOwned>(
        &self,
        call: B,
        id: &str,
        set: impl FnOnce(B, Vec<T>) -> B,
    ) -> Result<B, Failure> {
        Ok(match self.list(id)? {
            Some(values) => set(call, values),
            None => call,
        })
    }

    /// `call` with the optional `--json` body passed to `set` when it was given.
    pub fn set_body<B, T: DeserializeOwned + Serialize>(
        &self,
        call: B,
        set: impl FnOnce(B, T) -> B,
    ) -> Result<B, Failure> {
        Ok(match self.opt_body()? {
            Some(body) => set(call, body),
            None => call,
        })
    }

    /// `call` with the write's `--idempotency-key` passed to `set` when there is one.
    pub fn set_key<B>(&self, call: B, set: impl FnOnce(B, String) -> B) -> B {
        match &self.idempotency_key {
            Some(key) => set(call, key.clone()),
            None => call,
        }
    }

    /// `call` tied to the command's intent (journaled, never sent), when it writes.
    pub fn tag<B: CallBuilder>(&self, call: B) -> B {
        match &self.intent {
            Some(intent) => call.intent(intent.clone()),
            None => call,
        }
    }

    /// The required `--json` body.
    pub fn body<T: DeserializeOwned + Serialize>(&self) -> Result<T, Failure> {
        self.opt_body()?.ok_or_else(|| {
            Failure::usage("the request body is required: --json <JSON | @FILE | ->")
        })
    }

    /// The optional `--json` body, decoded into its type before anything is sent; an error
    /// names the field (`items[0].name`), and a member the type does not define is one,
    /// unless `--allow-unknown-members` lets it through (see [`Input::as_given`]).
    pub fn opt_body<T: DeserializeOwned + Serialize>(&self) -> Result<Option<T>, Failure> {
        let Some(text) = &self.body else {
            return Ok(None);
        };
        let invalid = |e: located::Located| {
            let at = match e.path.as_str() {
                "" => String::new(),
                path => format!(" at `{path}`"),
            };
            Failure::usage(format!("--json: invalid body{at}: {}", e.message))
        };
        if !self.unknown.allowed {
            return refusing_unknown(|| located::from_str(text))
                .map(Some)
                .map_err(invalid);
        }
        let value: T = located::from_str(text).map_err(invalid)?;
        let given: Value = serde_json::from_str(text).map_err(|e| Failure::usage(e.to_string()))?;
        let typed = serde_json::to_value(&value).map_err(|e| Failure {
            code: exit::OTHER,
            message: format!("the body does not encode as JSON: {e}"),
            settled_key: None,
        })?;
        let unknown = dropped_members(&given, &typed);
        if !unknown.is_empty() {
            eprintln!(
                "warning: --allow-unknown-members: sending members the API document does not \
                 define, as given: {}",
                unknown.join(", ")
            );
            self.unknown.sending.set(true);
        }
        Ok(Some(value))
    }

    /// `call` sending the `--json` text as given, when `--allow-unknown-members` let members
    /// through that the typed body would drop.
    pub fn as_given<B: CallBuilder>(&self, call: B) -> B {
        match (&self.body, self.unknown.sending.get()) {
            (Some(text), true) => call.raw_json_body(text.clone()),
            _ => call,
        }
    }
}

/// `raw` decoded as `T`: as a JSON string, else as JSON text.
fn scalar<T: DeserializeOwned>(id: &str, raw: &str) -> Result<T, Failure> {
    serde_json::from_value(Value::String(raw.to_owned()))
        .or_else(|as_string| serde_json::from_str(raw).map_err(|_| as_string))
        .map_err(|e| Failure::usage(format!("invalid value `{raw}` for `{id}`: {e}")))
}

/// The text of `--json`'s value: itself, a file (`@path`) or standard input (`-`).
fn read_source(raw: &str) -> Result<String, Failure> {
    if raw == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| Failure::usage(format!("--json -: reading standard input: {e}")))?;
        Ok(text)
    } else if let Some(path) = raw.strip_prefix('@') {
        std::fs::read_to_string(path).map_err(|e| Failure::usage(format!("--json @{path}: {e}")))
    } else {
        Ok(raw.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::{Input, scalar};

    fn ceiling(body: Option<&str>, amount: &str) -> Result<String, String> {
        let matches = clap::ArgMatches::default();
        let mut input = Input {
            matches: &matches,
            body: body.map(str::to_owned),
            idempotency_key: None,
            intent: None,
            rows: None,
            wait: None,
            unknown: super::Unknown::default(),
        };
        input
            .set_ceiling(&["max_total", "maxTotal"], amount)
            .map(|()| input.body.unwrap())
            .map_err(|e| e.message)
    }

    #[test]
    fn the_ceiling_goes_into_the_body_and_never_contradicts_it() {
        assert_eq!(ceiling(None, "25").unwrap(), r#"{"max_total":"25"}"#);
        assert_eq!(
            ceiling(Some(r#"{"hostname":"h"}"#), "25.50").unwrap(),
            r#"{"hostname":"h","max_total":"25.50"}"#
        );
        assert_eq!(
            ceiling(Some(r#"{"maxTotal":"25"}"#), "25").unwrap(),
            r#"{"maxTotal":"25"}"#
        );
        let differs = ceiling(Some(r#"{"max_total":"30"}"#), "25").unwrap_err();
        assert!(differs.contains("`max_total`"), "{differs}");
        for bad in ["", "1e3", "-5", "5.", "abc"] {
            assert!(ceiling(None, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn scalars_decode_as_strings_then_as_json() {
        assert_eq!(scalar::<String>("q", "42").unwrap(), "42");
        assert_eq!(scalar::<u8>("limit", "42").unwrap(), 42);
        assert!(scalar::<bool>("b", "true").unwrap());
        let err = scalar::<u8>("limit", "300").unwrap_err();
        assert!(err.message.contains("`limit`"), "{}", err.message);
    }
}
