//! The connection string as PostgreSQL users write it: a `postgresql://` URL or `key=value`
//! pairs, completed by the `PG*` environment variables for what it leaves out. tokio-postgres
//! parses it but for the TLS keys ([`tls::KEYS`]), which are taken out here first: tokio-postgres
//! knows only three `sslmode`s and none of the files.

use std::io;

use percent_encoding::percent_decode_str;

use super::tls::{self, Tls};

/// A parsed connection string.
pub(super) struct Settings {
    pub(super) config: tokio_postgres::Config,
    pub(super) tls: Tls,
}

/// Parses `text`, taking what it leaves out from `env` (`PGHOST`, `PGPORT`, `PGUSER`,
/// `PGPASSWORD`, `PGDATABASE`, `PGSSLMODE`, `PGSSLROOTCERT`, `PGSSLCERT`, `PGSSLKEY`). Errors
/// never repeat the string: it may hold a password.
pub(super) fn parse(text: &str, env: impl Fn(&str) -> Option<String>) -> io::Result<Settings> {
    let is_url = text.starts_with("postgres://") || text.starts_with("postgresql://");
    let (rest, ssl) = if is_url {
        split_url(text)
    } else {
        split_pairs(text)?
    };
    let mut config: tokio_postgres::Config = rest.parse().map_err(|_| {
        invalid("the write journal's connection string is not a valid PostgreSQL URL or key=value string")
    })?;
    let from_env = |key: &str| env(&format!("PG{}", key.to_ascii_uppercase()));
    let tls = Tls::from_options(|key| {
        let given = ssl.iter().rev().find(|(k, _)| k == key);
        given.map(|(_, v)| v.clone()).or_else(|| from_env(key))
    })?;
    defaults(&mut config, &env)?;
    config.ssl_mode(tls.driver_mode());
    Ok(Settings { config, tls })
}

/// Fills what `config` leaves out from the environment (host `localhost` when no `PGHOST`).
fn defaults(
    config: &mut tokio_postgres::Config,
    env: &impl Fn(&str) -> Option<String>,
) -> io::Result<()> {
    if config.get_hosts().is_empty() {
        let hosts = env("PGHOST").unwrap_or_else(|| "localhost".to_owned());
        for host in hosts.split(',') {
            config.host(host);
        }
    }
    if config.get_ports().is_empty()
        && let Some(port) = env("PGPORT")
    {
        let port = port
            .parse()
            .map_err(|_| invalid("PGPORT is not a port number"))?;
        config.port(port);
    }
    if config.get_user().is_none()
        && let Some(user) = env("PGUSER")
    {
        config.user(user);
    }
    if config.get_password().is_none()
        && let Some(password) = env("PGPASSWORD")
    {
        config.password(password);
    }
    if config.get_dbname().is_none()
        && let Some(database) = env("PGDATABASE")
    {
        config.dbname(database);
    }
    Ok(())
}

/// A URL without its TLS query parameters, and those parameters (decoded).
fn split_url(url: &str) -> (String, Vec<(String, String)>) {
    let Some((base, query)) = url.split_once('?') else {
        return (url.to_owned(), Vec::new());
    };
    let mut ssl = Vec::new();
    let mut kept = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let key = percent_decode_str(key).decode_utf8_lossy();
        if tls::KEYS.contains(&key.as_ref()) {
            let value = percent_decode_str(value).decode_utf8_lossy();
            ssl.push((key.into_owned(), value.into_owned()));
        } else {
            kept.push(pair);
        }
    }
    match kept.is_empty() {
        true => (base.to_owned(), ssl),
        false => (format!("{base}?{}", kept.join("&")), ssl),
    }
}

/// `key=value` pairs without the TLS ones, and those (unquoted). Values are bare or in single
/// quotes, with `\` escaping the next character.
fn split_pairs(text: &str) -> io::Result<(String, Vec<(String, String)>)> {
    let malformed =
        || invalid("the write journal's connection string has a malformed key=value pair");
    let mut chars = text.char_indices().peekable();
    let mut kept = String::new();
    let mut ssl = Vec::new();
    loop {
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        let Some(&(start, _)) = chars.peek() else {
            return Ok((kept, ssl));
        };
        let mut key = String::new();
        while let Some((_, c)) = chars.next_if(|(_, c)| *c != '=' && !c.is_whitespace()) {
            key.push(c);
        }
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        chars.next_if(|(_, c)| *c == '=').ok_or_else(malformed)?;
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        let quoted = chars.next_if(|(_, c)| *c == '\'').is_some();
        let mut value = String::new();
        loop {
            match chars.next() {
                Some((_, '\\')) => value.push(chars.next().ok_or_else(malformed)?.1),
                Some((_, '\'')) if quoted => break,
                Some((_, c)) if quoted || !c.is_whitespace() => value.push(c),
                None if quoted => return Err(malformed()),
                _ => break,
            }
        }
        let end = chars.peek().map_or(text.len(), |&(i, _)| i);
        if tls::KEYS.contains(&key.as_str()) {
            ssl.push((key, value));
        } else {
            kept.push_str(&text[start..end]);
            kept.push(' ');
        }
    }
}

fn invalid(message: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tls::SslMode;

    fn no_env(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn a_url_keeps_its_own_parameters_and_gives_up_the_tls_ones() {
        let s = parse(
            "postgresql://u:p%40ss@db.example:6432/app?sslmode=verify-full&application_name=x&sslrootcert=%2Fca.pem",
            no_env,
        )
        .unwrap();
        assert_eq!(s.tls.mode, SslMode::VerifyFull);
        assert_eq!(s.config.get_password(), Some(&b"p@ss"[..]));
        assert_eq!(s.config.get_dbname(), Some("app"));
        assert_eq!(s.config.get_application_name(), Some("x"));
        assert_eq!(
            Tls::from_options(|k| match k {
                "sslmode" => Some("verify-full".into()),
                "sslrootcert" => Some("/ca.pem".into()),
                _ => None,
            })
            .unwrap(),
            s.tls
        );
    }

    #[test]
    fn key_value_pairs_with_quotes_and_escapes() {
        let s = parse(
            "host=db port = 5433 password='it''s' sslmode = 'verify-ca' sslrootcert=/a\\ b user=me",
            no_env,
        );
        assert!(s.is_err(), "'' is not an escape: the quote closes");
        let s = parse(
            "host=db port = 5433 password='it\\'s x' sslmode = 'verify-ca' sslrootcert=/a\\ b user=me",
            no_env,
        )
        .unwrap();
        assert_eq!(s.tls.mode, SslMode::VerifyCa);
        assert_eq!(s.config.get_password(), Some(&b"it's x"[..]));
        assert_eq!(s.config.get_user(), Some("me"));
        assert_eq!(s.config.get_ports(), [5433]);
    }

    #[test]
    fn the_environment_fills_what_the_string_leaves_out() {
        let env = |k: &str| {
            let v = match k {
                "PGHOST" => "h1",
                "PGPORT" => "7000",
                "PGUSER" => "envuser",
                "PGPASSWORD" => "envpass",
                "PGDATABASE" => "envdb",
                "PGSSLMODE" => "require",
                _ => return None,
            };
            Some(v.to_owned())
        };
        let s = parse("user=me sslmode=disable", env).unwrap();
        assert_eq!(s.config.get_user(), Some("me"), "the string wins");
        assert_eq!(s.tls.mode, SslMode::Disable, "the string wins");
        assert_eq!(s.config.get_password(), Some(&b"envpass"[..]));
        assert_eq!(s.config.get_dbname(), Some("envdb"));
        assert_eq!(s.config.get_ports(), [7000]);
        let s = parse("postgresql://", env).unwrap();
        assert_eq!(s.tls.mode, SslMode::Require);
        assert_eq!(s.config.get_user(), Some("envuser"));
    }

    #[test]
    fn errors_never_repeat_the_password() {
        for text in [
            "postgresql://u:secret-pw@h/db?sslmode=sometimes",
            "host=h password=secret-pw sslmode=sometimes",
            "host=h password='secret-pw",
            "host=h password=secret-pw bogus=1",
        ] {
            let e = parse(text, no_env).err().expect(text).to_string();
            assert!(!e.contains("secret-pw"), "{e}");
        }
    }
}
