//! The rmcp server handler: `tools/list` from the generated table as selected at start-up (or
//! the dynamic mode's tools), `tools/call`, and invalid params of either refused as such.

use crate::dynamic;
use crate::server::{Mode, Server};
use oncegen_runtime::idempotency::{
    IDEMPOTENCY_KEY_MAX_LEN as MAX_KEY, IDEMPOTENCY_KEY_MIN_LEN as MIN_KEY,
};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CustomRequest, CustomResult, ErrorCode,
    Implementation, InitializeRequestParams, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};
use serde::de::DeserializeOwned;

impl<C: Send + Sync + 'static> Server<C> {
    /// The tools `tools/list` answers.
    pub fn listed(&self) -> Vec<rmcp::model::Tool> {
        match self.state.mode {
            Mode::PerOperation => self.state.per_operation.clone(),
            Mode::Dynamic => dynamic::tools(dynamic::Reach::of(self)),
        }
    }
}

impl<C: Send + Sync + 'static> ServerHandler for Server<C> {
    fn get_info(&self) -> ServerConfig {
        let app = self.state.app;
        let mut instructions = format!(
            "{}. Writes are exactly-once: a write tool takes an optional `idempotency_key` \
             ({MIN_KEY} to {MAX_KEY} letters, digits, `.`, `_`, `:` or `-`) and returns the key it \
             used. A call identical to one whose outcome you did not get is a retry: it answers \
             that outcome (`replayed`) and sends nothing; a repeat after you got it is a new \
             write; a key names one write. A read takes `jq`, a jq filter: only what it selects \
             from the answer is returned.",
            app.about
        );
        if self.state.mode == Mode::Dynamic {
            instructions.push_str(&format!(
                " Find operations with `{}`, read one with `{}`, run it with `{}`.",
                dynamic::SEARCH,
                dynamic::DESCRIBE,
                dynamic::CALL
            ));
            if dynamic::Reach::of(self).writes {
                instructions.push_str(&format!(
                    " A read also runs with `{}`, which a host need not confirm.",
                    dynamic::CALL_READ
                ));
            }
        }
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(app.bin, app.version))
            .with_instructions(instructions)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.listed()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.unwrap_or_default();
        let result = match self.state.mode {
            Mode::PerOperation => {
                self.call(&request.name, arguments, context.id.clone(), &context.peer)
                    .await?
            }
            Mode::Dynamic => {
                dynamic::call(
                    self,
                    &request.name,
                    arguments,
                    context.id.clone(),
                    &context.peer,
                )
                .await?
            }
        };
        Ok(result.into())
    }

    /// rmcp reads a request of a known method whose params do not fit as a custom request:
    /// that is invalid params (-32602), saying what does not fit; any other method is unknown.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let params = request.params.unwrap_or_default();
        let unfit = match request.method.as_str() {
            "tools/call" => unfit::<CallToolRequestParams>(params),
            "tools/list" => unfit::<PaginatedRequestParams>(params),
            "initialize" => unfit::<InitializeRequestParams>(params),
            _ => None,
        };
        Err(match unfit {
            Some(why) => ErrorData::invalid_params(format!("{}: {why}", request.method), None),
            None => ErrorData::new(ErrorCode::METHOD_NOT_FOUND, request.method, None),
        })
    }
}

/// Why `params` is not a `P`, if it is not.
fn unfit<P: DeserializeOwned>(params: serde_json::Value) -> Option<String> {
    serde_json::from_value::<P>(params)
        .err()
        .map(|e| e.to_string())
}
