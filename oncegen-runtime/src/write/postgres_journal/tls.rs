//! TLS to the journal's database through rustls, as `sslmode` asks (libpq's meanings):
//!
//! * `disable`: never; `prefer` (the default): TLS when the server offers it, unverified;
//!   `require`: TLS or no connection, unverified — unless `sslrootcert` is given, then its
//!   chain is verified as with `verify-ca` (as libpq does);
//! * `verify-ca`: the server's chain must lead to a trusted CA, whatever its host name;
//! * `verify-full`: and the certificate must name the host connected to.
//!
//! Trusted CAs: those of the `sslrootcert` PEM file only; without one (or with
//! `sslrootcert=system`), the platform's. A client certificate is `sslcert` with its key
//! `sslkey` (PEM files).

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, RootCertStore, SignatureScheme};
use tokio_postgres::config::SslMode as DriverMode;
use tokio_postgres_rustls::MakeRustlsConnect;

/// `sslmode`, as libpq spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) enum SslMode {
    Disable,
    #[default]
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

impl SslMode {
    fn parse(value: &str) -> io::Result<Self> {
        Ok(match value {
            "disable" => Self::Disable,
            "prefer" => Self::Prefer,
            "require" => Self::Require,
            "verify-ca" => Self::VerifyCa,
            "verify-full" => Self::VerifyFull,
            other => {
                return Err(invalid(format!(
                    "sslmode `{other}` is not supported by the write journal (disable, prefer, \
                     require, verify-ca or verify-full)"
                )));
            }
        })
    }
}

/// The TLS options of a connection string (`sslmode`, `sslrootcert`, `sslcert`, `sslkey`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Tls {
    pub(super) mode: SslMode,
    root_cert: Option<PathBuf>,
    cert: Option<PathBuf>,
    key: Option<PathBuf>,
}

/// The connection-string keys of [`Tls`] (tokio-postgres parses none of them but `sslmode`'s
/// first three values).
pub(super) const KEYS: [&str; 4] = ["sslmode", "sslrootcert", "sslcert", "sslkey"];

impl Tls {
    /// The options `value` gives for each of [`KEYS`].
    pub(super) fn from_options(value: impl Fn(&str) -> Option<String>) -> io::Result<Self> {
        let mode = value("sslmode").map_or(Ok(SslMode::default()), |m| SslMode::parse(&m))?;
        let tls = Tls {
            mode,
            root_cert: value("sslrootcert").map(PathBuf::from),
            cert: value("sslcert").map(PathBuf::from),
            key: value("sslkey").map(PathBuf::from),
        };
        if tls.cert.is_some() != tls.key.is_some() {
            return Err(invalid(
                "sslcert and sslkey go together: a client certificate needs its key".to_owned(),
            ));
        }
        Ok(tls)
    }

    /// What tokio-postgres negotiates: whether TLS is tried, and whether it is required.
    pub(super) fn driver_mode(&self) -> DriverMode {
        match self.mode {
            SslMode::Disable => DriverMode::Disable,
            SslMode::Prefer => DriverMode::Prefer,
            _ => DriverMode::Require,
        }
    }

    /// The connector of every connection (files read once, here).
    pub(super) fn connector(&self) -> io::Result<MakeRustlsConnect> {
        let provider = CryptoProvider::get_default()
            .cloned()
            .unwrap_or_else(|| Arc::new(rustls::crypto::aws_lc_rs::default_provider()));
        let verifier = self.verifier(&provider)?;
        let builder = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(tls_failed)?
            .dangerous()
            .with_custom_certificate_verifier(verifier);
        let config = match (&self.cert, &self.key) {
            (Some(cert), Some(key)) => builder
                .with_client_auth_cert(certificates(cert)?, private_key(key)?)
                .map_err(tls_failed)?,
            _ => builder.with_no_client_auth(),
        };
        Ok(MakeRustlsConnect::new(config))
    }

    fn verifier(&self, provider: &Arc<CryptoProvider>) -> io::Result<Arc<dyn ServerCertVerifier>> {
        let file = self
            .root_cert
            .as_deref()
            .filter(|f| *f != Path::new("system"));
        let verify = match self.mode {
            SslMode::Disable | SslMode::Prefer => None,
            SslMode::Require => file.map(|_| Check::Chain),
            SslMode::VerifyCa => Some(Check::Chain),
            SslMode::VerifyFull => Some(Check::Full),
        };
        let Some(check) = verify else {
            return Ok(Arc::new(Unverified(provider.clone())));
        };
        let full: Arc<dyn ServerCertVerifier> = match file {
            Some(file) => roots(file, provider)?,
            None => Arc::new(
                rustls_platform_verifier::Verifier::new(provider.clone()).map_err(tls_failed)?,
            ),
        };
        Ok(match check {
            Check::Full => full,
            Check::Chain => Arc::new(ChainOnly(full)),
        })
    }
}

enum Check {
    Chain,
    Full,
}

/// A verifier trusting the CAs of the PEM file `file` only.
fn roots(file: &Path, provider: &Arc<CryptoProvider>) -> io::Result<Arc<dyn ServerCertVerifier>> {
    let mut store = RootCertStore::empty();
    for cert in certificates(file)? {
        store.add(cert).map_err(tls_failed)?;
    }
    let verifier = WebPkiServerVerifier::builder_with_provider(Arc::new(store), provider.clone())
        .build()
        .map_err(tls_failed)?;
    Ok(verifier)
}

fn certificates(file: &Path) -> io::Result<Vec<CertificateDer<'static>>> {
    let certs = CertificateDer::pem_file_iter(file)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|e| unreadable(file, e))?;
    if certs.is_empty() {
        return Err(unreadable(file, "no PEM certificate in it"));
    }
    Ok(certs)
}

fn private_key(file: &Path) -> io::Result<PrivateKeyDer<'static>> {
    PrivateKeyDer::from_pem_file(file).map_err(|e| unreadable(file, e))
}

fn unreadable(file: &Path, e: impl std::fmt::Display) -> io::Error {
    invalid(format!(
        "the write journal's TLS file {} cannot be used: {e}",
        file.display()
    ))
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

fn tls_failed(e: impl std::fmt::Display) -> io::Error {
    io::Error::other(format!(
        "cannot set up TLS to the write journal's database: {e}"
    ))
}

/// `prefer` and `require` without a CA: encrypted, the server's certificate unchecked (its
/// handshake signatures still are).
#[derive(Debug)]
struct Unverified(Arc<CryptoProvider>);

impl ServerCertVerifier for Unverified {
    fn verify_server_cert(
        &self,
        _: &CertificateDer<'_>,
        _: &[CertificateDer<'_>],
        _: &ServerName<'_>,
        _: &[u8],
        _: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        let algorithms = &self.0.signature_verification_algorithms;
        rustls::crypto::verify_tls12_signature(message, cert, dss, algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        let algorithms = &self.0.signature_verification_algorithms;
        rustls::crypto::verify_tls13_signature(message, cert, dss, algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// `verify-ca`: the full verification, except that the certificate need not name the host.
#[derive(Debug)]
struct ChainOnly(Arc<dyn ServerCertVerifier>);

impl ServerCertVerifier for ChainOnly {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let verified = self
            .0
            .verify_server_cert(end_entity, intermediates, server_name, ocsp, now);
        match verified {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}
