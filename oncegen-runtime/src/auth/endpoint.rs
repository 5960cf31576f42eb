//! Where requests go: the parsed base URL, and the rule that keeps credentials off cleartext
//! links to other machines.

use std::net::IpAddr;

use url::Url;

use crate::config::{Config, Credentials};
use crate::error::Error;

/// The base URL, split the way the client uses it.
#[derive(Clone, Debug)]
pub(crate) struct Endpoint {
    /// Base URL without trailing slash: request URLs are `base + path + query`.
    pub base: String,
    /// Path prefix of the base URL (e.g. `/api`), empty when none: it is part of what is signed.
    pub base_path: String,
    /// Host name or address (the span's `server.address`).
    pub host: String,
    /// Port, explicit or the scheme's default (the span's `server.port`).
    pub port: u16,
}

impl Endpoint {
    /// Parses `config`'s base URL: `http(s)` without a query or fragment (so `base` ends with
    /// `base_path`). Credentials over `http://` to a
    /// host that is not loopback are refused unless [`Config::allow_insecure_http`] is set; an
    /// `https://` URL needs a TLS feature.
    pub fn new(config: &Config) -> Result<Self, Error> {
        Self::parse(&config.base_url, config)
    }

    /// Where the requests of an operation with its own server (`servers` on the operation or
    /// its path) go: that URL, or the one [`Config::route_server`] gives for it, under the
    /// same rules as the base URL. A server that is a path (`/uploads`) is on the base URL's
    /// host.
    pub fn for_server(server: &str, config: &Config) -> Result<Self, Error> {
        let routed = config
            .server_routes
            .iter()
            .find(|(from, _)| same_server(from, server))
            .map_or(server, |(_, to)| to.as_str());
        if routed.starts_with('/') {
            let on_base_host = Url::parse(config.base_url.trim())
                .and_then(|base| base.join(routed))
                .map_err(|e| Error::config(format!("invalid server `{routed}`: {e}")))?;
            return Self::parse(on_base_host.as_str(), config);
        }
        Self::parse(routed, config)
    }

    fn parse(base_url: &str, config: &Config) -> Result<Self, Error> {
        let url = Url::parse(base_url.trim())
            .map_err(|e| Error::config(format!("invalid base URL `{base_url}`: {e}")))?;
        if !matches!(url.scheme(), "http" | "https")
            || url.query().is_some()
            || url.fragment().is_some()
        {
            return Err(Error::config(
                "base URL must be http(s) without a query or fragment",
            ));
        }
        let host = url.host_str().unwrap_or_default().to_owned();
        let sends_credentials =
            !matches!(config.credentials, Credentials::None) || !config.schemes.is_empty();
        if url.scheme() == "http"
            && sends_credentials
            && !config.allow_insecure_http
            && !is_loopback(&url)
        {
            return Err(Error::config(format!(
                "refusing to send credentials over cleartext http:// to {host}, which is not a loopback host: \
                 use https://, or opt in with Config::allow_insecure_http(true)"
            )));
        }
        if url.scheme() == "https" && !cfg!(any(feature = "rustls", feature = "native-tls")) {
            return Err(Error::config(
                "an https:// base URL needs a TLS feature of oncegen-runtime (`rustls` or `native-tls`)",
            ));
        }
        Ok(Self {
            base: url.as_str().trim_end_matches('/').to_owned(),
            base_path: url.path().trim_end_matches('/').to_owned(),
            port: url.port_or_known_default().unwrap_or_default(),
            host,
        })
    }
}

/// Whether two server URLs name the same server (a trailing slash aside).
fn same_server(a: &str, b: &str) -> bool {
    a.trim().trim_end_matches('/') == b.trim().trim_end_matches('/')
}

/// Whether the URL's host is this machine: `localhost`, `127.0.0.0/8` or `::1`.
fn is_loopback(url: &Url) -> bool {
    let host = url.host_str().unwrap_or_default();
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    match bare.parse::<IpAddr>() {
        Ok(ip) => ip.is_loopback(),
        Err(_) => host.eq_ignore_ascii_case("localhost"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn endpoint(url: &str, credentials: bool, allow: bool) -> Result<Endpoint, Error> {
        let mut config = Config::new(url).allow_insecure_http(allow);
        if credentials {
            config = config.bearer("prefix.secret");
        }
        Endpoint::new(&config)
    }

    #[test]
    fn splits_the_base_url() {
        let e = endpoint("https://api.example.com/api/", true, false).unwrap();
        assert_eq!(e.base, "https://api.example.com/api");
        assert_eq!(e.base_path, "/api");
        assert_eq!((e.host.as_str(), e.port), ("api.example.com", 443));
        assert!(endpoint("ftp://x", false, false).is_err());
        assert!(endpoint("https://x/?q=1", false, false).is_err());
        assert!(endpoint("https://x/api#top", false, false).is_err());
        let e = endpoint("http://u:p@127.0.0.1:9/a%20b/", false, false).unwrap();
        assert!(e.base.ends_with(&e.base_path), "{e:?}");
    }

    #[test]
    fn credentials_over_cleartext_need_loopback_or_an_opt_in() {
        let refused = endpoint("http://api.example.com", true, false).unwrap_err();
        let message = refused.to_string();
        assert!(message.contains("cleartext http://"), "{message}");
        assert!(message.contains("allow_insecure_http"), "{message}");
        assert!(endpoint("http://api.example.com", true, true).is_ok());
        assert!(endpoint("http://api.example.com", false, false).is_ok());
        for local in [
            "http://127.0.0.1:8080",
            "http://127.1.2.3",
            "http://[::1]:9",
            "http://localhost:3000",
        ] {
            assert!(endpoint(local, true, false).is_ok(), "{local}");
        }
        assert!(endpoint("http://10.0.0.1", true, false).is_err());
        let mut signed = Config::new("http://192.0.2.1").signed("key", "secret");
        assert!(Endpoint::new(&signed).is_err());
        signed = signed.allow_insecure_http(true);
        assert!(Endpoint::new(&signed).is_ok());
    }
}
