//! Server URLs of a document (`servers`): filling their `{variables}` and resolving a relative
//! one against the URL the document was served from, as OpenAPI says
//! (RFC 3986 reference resolution).

use url::Url;

use crate::error::Error;

/// `template` with each `{name}` replaced by its value (a name not given stays as it is).
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_owned();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// The base URL for `server` (as a document lists it, variables filled): itself when absolute,
/// else resolved against `document_url`, the URL the document was read from
/// (`http://127.0.0.1:8000/openapi.json` with `/api/v1` gives `http://127.0.0.1:8000/api/v1`).
/// A trailing slash is dropped: request paths start with one.
pub fn resolve(document_url: &str, server: &str) -> Result<String, Error> {
    let base = Url::parse(document_url.trim()).map_err(|e| {
        Error::validation(format!(
            "the document URL `{document_url}` is not a URL: {e}"
        ))
    })?;
    let joined = base.join(server.trim()).map_err(|e| {
        Error::validation(format!(
            "the server URL `{server}` does not resolve against `{document_url}`: {e}"
        ))
    })?;
    Ok(joined.as_str().trim_end_matches('/').to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_servers_resolve_against_the_document_url() {
        let doc = "http://127.0.0.1:8000/docs/openapi.json";
        assert_eq!(
            resolve(doc, "/api/v1").unwrap(),
            "http://127.0.0.1:8000/api/v1"
        );
        assert_eq!(
            resolve(doc, "v2/").unwrap(),
            "http://127.0.0.1:8000/docs/v2"
        );
        assert_eq!(resolve(doc, "/").unwrap(), "http://127.0.0.1:8000");
        assert_eq!(
            resolve(doc, "https://api.example.com").unwrap(),
            "https://api.example.com"
        );
        assert!(resolve("not a url", "/api").is_err());
    }

    #[test]
    fn variables_are_filled() {
        let url = fill(
            "https://{region}.example.com:{port}/v1",
            &[("region", "eu"), ("port", "443")],
        );
        assert_eq!(url, "https://eu.example.com:443/v1");
    }
}
