//! The tables a generated tool is made of: its names, its areas, each operation as a command
//! and each parameter; what `main.rs` and the area modules of a generated tool fill in.

use crate::{Credential, Failure, Input, Sent};
use oncegen_runtime::version::ContractCheck;
use oncegen_runtime::{Config, Error};
use std::future::Future;
use std::pin::Pin;

/// The future of the SDK's `Client::check_contract` ([`App::check_contract`]).
pub type ContractFuture<'a> = Pin<Box<dyn Future<Output = Result<ContractCheck, Error>> + 'a>>;

/// A generated command-line tool: its names and its areas.
pub struct App<C: 'static> {
    /// The binary's name.
    pub bin: &'static str,
    /// One line about the tool.
    pub about: &'static str,
    /// The version `--version` prints.
    pub version: &'static str,
    /// The prefix of the SDK's environment variables (`<PREFIX>_BASE_URL`, …).
    pub env_prefix: &'static str,
    /// The areas, each a command.
    pub areas: &'static [Area<C>],
    /// The credentials of the API's own security schemes ([`crate::credentials`]).
    pub credentials: &'static [Credential],
    /// The API has a scheme the client's signed mode sends (`<PREFIX>_KEY` and
    /// `<PREFIX>_SECRET` sign its requests).
    pub signs: bool,
    /// Builds the SDK's client.
    pub connect: fn(Config) -> Result<C, Error>,
    /// The runtime client inside the SDK's client (to close journal entries).
    pub runtime: fn(&C) -> &oncegen_runtime::Client,
    /// The SDK's `Client::check_contract`, when the contract declares a version operation
    /// (`doctor` compares the server's revision and capabilities with it).
    pub check_contract: Option<for<'a> fn(&'a C) -> ContractFuture<'a>>,
}

/// An area of the API: a command holding its operations.
pub struct Area<C: 'static> {
    /// Command name.
    pub name: &'static str,
    /// Help text.
    pub about: &'static str,
    /// Its operations.
    pub commands: &'static [Command<C>],
}

/// The future of one operation's call.
pub type Run<'a> = Pin<Box<dyn Future<Output = Result<Sent, Failure>> + 'a>>;

/// One operation as a command.
pub struct Command<C: 'static> {
    /// Command name.
    pub name: &'static str,
    /// Former names that still call it (hidden from help).
    pub aliases: &'static [&'static str],
    /// Help line (the summary).
    pub about: &'static str,
    /// Longer help (the description), empty when there is none.
    pub long_about: &'static str,
    /// What `--help` (not `-h`) shows after the flags: the JSON body's members and an example;
    /// empty when there is none.
    pub after_help: &'static str,
    /// Positional arguments and flags, positional ones in call order.
    pub params: &'static [Param],
    /// Paginated: takes `--all`, which prints every item of every page.
    pub pages: bool,
    /// Takes `--wait` (and `--timeout`): a long-running write or a pollable read.
    pub waits: bool,
    /// `Some(required)` when it takes a `--json` body.
    pub body: Option<bool>,
    /// Changes state on the server: journaled.
    pub writes: bool,
    /// Deletes or overwrites: asks for confirmation on a terminal, needs `--yes` without one.
    pub destructive: bool,
    /// Charges the account: `Some(members)` with the body members that cap the amount
    /// (`--max-total` sets them and is required); `Some(&[])` when it takes no ceiling and its
    /// amount cannot be read before paying (then it needs `--accept-any-amount`, and
    /// `--max-total` refuses it). Confirmed like a destructive one.
    pub purchase: Option<&'static [&'static str]>,
    /// Grants access (a credential, a password): what it grants. Confirmed like a destructive
    /// one, the question naming it.
    pub grants_access: Option<&'static str>,
    /// Calls the SDK's client method with the command's arguments.
    pub run: for<'a> fn(&'a C, &'a Input<'a>) -> Run<'a>,
}

/// One parameter of an operation.
pub struct Param {
    /// Its id (the SDK's Rust name).
    pub id: &'static str,
    /// Its flag without `--`; `None` for a positional argument.
    pub flag: Option<&'static str>,
    /// Help text.
    pub help: &'static str,
    /// Must be given.
    pub required: bool,
    /// Repeatable (a list).
    pub repeated: bool,
    /// The values it accepts, when it is an enum.
    pub values: &'static [&'static str],
    /// The smallest number it accepts (the schema's `minimum`), when it says one.
    pub minimum: Option<f64>,
    /// The largest number it accepts (the schema's `maximum`), when it says one.
    pub maximum: Option<f64>,
}
