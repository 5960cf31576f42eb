//! The `Origin` check of the HTTP transport, against DNS rebinding (MCP 2025-06-18,
//! transports, "Security Warning": servers MUST validate the Origin header): a request whose
//! `Origin` is present and not allowed is refused with 403 before anything else; a request
//! without one (not from a browser) passes. Loopback origins over `http` are allowed, on any
//! port; `--allow-origin` adds others.
//!
//! Written here rather than through rmcp's own check (`allowed_origins`) because that one runs
//! inside the service, after the bearer guard: a foreign page would learn whether its token
//! guess was right.

use axum::extract::Request;
use axum::http::{StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use clap::{Arg, ArgAction, ArgMatches};

/// The hosts of the origins allowed without a flag.
const LOOPBACK: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

/// An origin as RFC 6454 compares it: scheme, host and port (the scheme's when not written).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Tuple {
    scheme: String,
    host: String,
    port: u16,
}

impl Tuple {
    fn parse(origin: &str) -> Option<Tuple> {
        let uri: Uri = origin.parse().ok()?;
        let scheme = uri.scheme_str()?.to_ascii_lowercase();
        let default = match scheme.as_str() {
            "http" => 80,
            "https" => 443,
            _ => return None,
        };
        let path_free = uri.path_and_query().is_none_or(|p| p.as_str() == "/");
        path_free.then_some(())?;
        Some(Tuple {
            host: uri.host()?.to_ascii_lowercase(),
            port: uri.port_u16().unwrap_or(default),
            scheme,
        })
    }
}

/// The origins a browser may send requests from.
#[derive(Debug, Clone, Default)]
pub struct Origins {
    added: Vec<Tuple>,
}

impl Origins {
    /// Loopback, and each `--allow-origin` of `matches`; a value that is not an origin
    /// (`http[s]://host[:port]`) is refused, naming it.
    pub fn from_matches(matches: &ArgMatches) -> Result<Self, String> {
        let added = matches
            .get_many::<String>(ARG)
            .into_iter()
            .flatten()
            .map(|v| {
                Tuple::parse(v).ok_or_else(|| {
                    format!("--{ARG} {v}: not an origin (expected http[s]://HOST[:PORT])")
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(Origins { added })
    }

    /// Whether a request with `Origin: origin` may pass.
    fn allows(&self, origin: &str) -> bool {
        Tuple::parse(origin).is_some_and(|t| {
            (t.scheme == "http" && LOOPBACK.contains(&t.host.as_str())) || self.added.contains(&t)
        })
    }

    /// Passes a request without `Origin` or with an allowed one; answers 403 to any other.
    pub(crate) async fn check(&self, request: Request, next: Next) -> Response {
        let foreign = request
            .headers()
            .get_all(header::ORIGIN)
            .iter()
            .any(|v| v.to_str().map_or(true, |o| !self.allows(o)));
        if foreign {
            let refusal = format!("this Origin is not allowed (the server's --{ARG} adds one)");
            return (StatusCode::FORBIDDEN, refusal).into_response();
        }
        next.run(request).await
    }
}

const ARG: &str = "allow-origin";

/// The `--allow-origin` flag.
pub fn arg() -> Arg {
    Arg::new(ARG)
        .long(ARG)
        .value_name("URL")
        .action(ArgAction::Append)
        .help("Also accept HTTP requests a browser sends from this origin (loopback: always)")
}

#[cfg(test)]
mod tests {
    use super::{Origins, arg};

    fn origins(added: &[&str]) -> Result<Origins, String> {
        let command = clap::Command::new("t").arg(arg());
        let argv = added.iter().flat_map(|a| ["--allow-origin", a]);
        Origins::from_matches(&command.get_matches_from(std::iter::once("t").chain(argv)))
    }

    #[test]
    fn loopback_and_added_origins_pass_and_no_other() {
        let allowed = origins(&["https://app.example.com"]).unwrap();
        for origin in [
            "http://localhost",
            "http://localhost:6274",
            "http://127.0.0.1:8080",
            "http://[::1]:3000",
            "https://app.example.com",
            "https://app.example.com:443",
        ] {
            assert!(allowed.allows(origin), "{origin}");
        }
        for origin in [
            "http://evil.example",
            "http://localhost.evil.example",
            "https://app.example.com:8443",
            "http://app.example.com",
            "null",
            "file://",
        ] {
            assert!(!allowed.allows(origin), "{origin}");
        }
        let wrong = origins(&["app.example.com"]).unwrap_err();
        assert!(wrong.contains("--allow-origin app.example.com"), "{wrong}");
    }
}
