//! The transports: stdio, and streamable HTTP at `/mcp` behind a bearer token of the server's
//! own (`<PREFIX>_MCP_TOKEN`), on loopback unless the operator allows another address, to
//! browsers only from the origins allowed ([`Origins`]).

use crate::Server;
use crate::bounded::Bounded;
use crate::lines::Lines;
pub use crate::origin::Origins;
use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use rmcp::ServiceExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use sha2::{Digest, Sha256};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// The address `--http` without a value binds.
pub const DEFAULT_HTTP: &str = "127.0.0.1:8765";

/// The shortest token accepted.
const MIN_TOKEN: usize = 16;

/// The longest message read on standard input, in bytes: rmcp's limit for one line (the same
/// as for a server-sent event over HTTP).
pub const MAX_MESSAGE: usize = rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;

/// Serves `server` on standard input and output until the client closes them.
///
/// Pipes, the way MCP hosts start a server, are read and written without blocking on the
/// runtime's IO driver (rmcp's `stdio_pipes`); anything else (a file, a terminal) through
/// tokio's standard streams, which block on its thread pool. Every line is answered, a line
/// that is not a message with a JSON-RPC error (`Lines`); a message longer than
/// [`MAX_MESSAGE`] ends the session with an error saying so.
pub async fn stdio<C: Send + Sync + 'static>(server: Server<C>) -> Result<(), String> {
    let (read, write) = rmcp::transport::stdio_pipes();
    let (read, too_long) = Bounded::new(read, MAX_MESSAGE);
    let transport = server.delivered(Lines::new(read, write));
    let ended = match server.serve(transport).await {
        Ok(running) => running
            .waiting()
            .await
            .map(|_| ())
            .map_err(|e| format!("the stdio transport: {e}")),
        Err(e) => Err(format!("starting the stdio transport: {e}")),
    };
    if too_long.load(Ordering::Relaxed) {
        return Err(format!(
            "standard input: a message longer than {MAX_MESSAGE} bytes (one JSON-RPC message \
             per line): the session ends"
        ));
    }
    ended
}

/// Where and with which token streamable HTTP is served.
pub struct Http {
    addr: SocketAddr,
    token: Arc<[u8; 32]>,
    origins: Arc<Origins>,
}

impl Http {
    /// `addr` guarded by `token`; a missing or short token, or an address off loopback without
    /// `allow_remote`, is refused.
    pub fn new(
        addr: SocketAddr,
        token: Option<String>,
        allow_remote: bool,
        prefix: &str,
    ) -> Result<Self, String> {
        let token = token.filter(|t| t.len() >= MIN_TOKEN).ok_or_else(|| {
            format!(
                "serving HTTP needs a bearer token of at least {MIN_TOKEN} characters in \
                 {prefix}_MCP_TOKEN (clients send `Authorization: Bearer <token>`)"
            )
        })?;
        if !addr.ip().is_loopback() && !allow_remote {
            return Err(format!(
                "--http {addr} is not a loopback address: pass --allow-remote to serve it"
            ));
        }
        Ok(Http {
            addr,
            token: Arc::new(Sha256::digest(token.as_bytes()).into()),
            origins: Arc::default(),
        })
    }

    /// The same, accepting browsers' requests from `origins`.
    pub fn with_origins(self, origins: Origins) -> Self {
        Http {
            origins: Arc::new(origins),
            ..self
        }
    }
}

/// Serves `server` over streamable HTTP at `http`'s address, path `/mcp`, to requests from an
/// allowed origin or none, carrying the token.
pub async fn http<C: Send + Sync + 'static>(server: Server<C>, http: Http) -> Result<(), String> {
    let mut config = StreamableHttpServerConfig::default();
    if !http.addr.ip().is_loopback() {
        config = config.disable_allowed_hosts();
    }
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let token = http.token.clone();
    let origins = http.origins.clone();
    // The last layer runs first: a foreign origin is refused before the token is looked at.
    let router = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(middleware::from_fn(move |request: Request, next: Next| {
            let token = token.clone();
            async move { bearer(&token, request, next).await }
        }))
        .layer(middleware::from_fn(move |request: Request, next: Next| {
            let origins = origins.clone();
            async move { origins.check(request, next).await }
        }));
    let listener = tokio::net::TcpListener::bind(http.addr)
        .await
        .map_err(|e| format!("binding {}: {e}", http.addr))?;
    let bound = listener
        .local_addr()
        .map_err(|e| format!("binding {}: {e}", http.addr))?;
    eprintln!("serving MCP over streamable HTTP at http://{bound}/mcp");
    axum::serve(listener, router)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| format!("serving HTTP: {e}"))
}

/// Passes a request carrying the server's token; answers 401 to any other.
async fn bearer(token: &[u8; 32], request: Request, next: Next) -> Response {
    let given = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    // Digests compared: the comparison's time says nothing about the token.
    let matches =
        given.is_some_and(|g| Sha256::digest(g.as_bytes()).as_slice() == token.as_slice());
    if matches {
        next.run(request).await
    } else {
        (
            StatusCode::UNAUTHORIZED,
            [(header::WWW_AUTHENTICATE, "Bearer")],
            "a bearer token is required (the server's own token, not an API credential)",
        )
            .into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::Http;

    #[test]
    fn http_needs_a_long_token_and_loopback_unless_allowed() {
        let local = "127.0.0.1:0".parse().unwrap();
        let remote = "0.0.0.0:0".parse().unwrap();
        let token = Some("0123456789abcdef".to_owned());
        let missing = Http::new(local, None, false, "API").err().unwrap();
        assert!(missing.contains("API_MCP_TOKEN"), "{missing}");
        assert!(Http::new(local, Some("short".into()), false, "API").is_err());
        assert!(Http::new(local, token.clone(), false, "API").is_ok());
        let off = Http::new(remote, token.clone(), false, "API")
            .err()
            .unwrap();
        assert!(off.contains("--allow-remote"), "{off}");
        assert!(Http::new(remote, token, true, "API").is_ok());
    }
}
