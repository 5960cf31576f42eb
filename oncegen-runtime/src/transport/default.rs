//! Which transport a client builds when the configuration names none.

use std::sync::Arc;
use std::time::Duration;

use super::hyper_transport::HyperTransport;
use super::{Transport, TransportError};

/// The variables reqwest reads a proxy from.
const PROXY_VARIABLES: [&str; 6] = [
    "HTTPS_PROXY",
    "https_proxy",
    "HTTP_PROXY",
    "http_proxy",
    "ALL_PROXY",
    "all_proxy",
];

/// The transport a client builds when none is configured: [`HyperTransport`], unless a proxy
/// variable in `env` is set and the `reqwest` feature is on, then `ReqwestTransport`, which
/// honours it. Without the feature the proxy is not used, and a warning says so.
pub(crate) fn default_transport(
    connect_timeout: Option<Duration>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Arc<dyn Transport>, TransportError> {
    let proxy = PROXY_VARIABLES
        .iter()
        .find(|name| env(name).is_some_and(|v| !v.trim().is_empty()));
    match proxy {
        #[cfg(feature = "reqwest")]
        Some(_) => Ok(Arc::new(crate::ReqwestTransport::new(connect_timeout)?)),
        #[cfg(not(feature = "reqwest"))]
        Some(name) => {
            tracing::warn!(
                variable = name,
                "a proxy variable is set but not honoured: build the SDK with its `reqwest` feature to call through the proxy"
            );
            Ok(Arc::new(HyperTransport::new(connect_timeout)?))
        }
        None => Ok(Arc::new(HyperTransport::new(connect_timeout)?)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn built(vars: &[(&str, &str)]) -> String {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        let transport = default_transport(None, |name| {
            vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
        })
        .unwrap();
        format!("{transport:?}")
    }

    #[tokio::test]
    async fn hyper_carries_the_calls_when_the_environment_names_no_proxy() {
        assert!(built(&[]).starts_with("HyperTransport"));
        assert!(
            built(&[("NO_PROXY", "localhost"), ("HTTP_PROXY", " ")]).starts_with("HyperTransport")
        );
    }

    /// With the `reqwest` feature (on in the crate's own tests), every proxy variable switches
    /// the calls to reqwest; without it they stay on hyper.
    #[tokio::test]
    async fn a_proxy_variable_picks_reqwest_when_it_is_compiled_in() {
        let expected = if cfg!(feature = "reqwest") {
            "ReqwestTransport"
        } else {
            "HyperTransport"
        };
        for name in PROXY_VARIABLES {
            assert!(
                built(&[(name, "http://proxy.internal:3128")]).starts_with(expected),
                "{name}"
            );
        }
    }
}
