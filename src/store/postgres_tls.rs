//! TLS to PostgreSQL through rustls, with libpq's meaning of `sslmode` and `sslrootcert`. The
//! driver knows only `sslmode=disable|prefer|require` and no certificate parameters, so the
//! URL's TLS parameters are taken out here and the rest goes to the driver; a rustls verifier
//! per mode then does what libpq does.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use percent_encoding::{AsciiSet, CONTROLS, percent_decode_str, utf8_percent_encode};
use tokio_postgres_rustls::MakeRustlsConnect;
use tokio_rustls::rustls;
use tokio_rustls::rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use tokio_rustls::rustls::client::{WebPkiServerVerifier, verify_server_cert_signed_by_trust_anchor};
use tokio_rustls::rustls::crypto::WebPkiSupportedAlgorithms;
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use tokio_rustls::rustls::server::ParsedCertificate;
use tokio_rustls::rustls::{DigitallySignedStruct, RootCertStore, SignatureScheme};

/// libpq's `sslmode` values (`allow`, "plaintext first", is not worth a mode of its own here).
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum SslMode {
    Disable,
    /// libpq's default: TLS when the server offers it, plaintext when it does not.
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

/// Where trusted CA certificates come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Roots {
    /// The system's store (`sslrootcert=system`, or no `sslrootcert` with a `verify-*` mode).
    System,
    /// A PEM file of CA certificates (`sslrootcert=PATH`).
    File(PathBuf),
}

/// The URL's TLS settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsSettings {
    pub mode: SslMode,
    /// `sslrootcert`, when given.
    pub root_cert: Option<Roots>,
}

/// libpq's certificate parameters the gateway does not support: refused rather than ignored,
/// so nobody believes a client certificate or a revocation list is in use when it is not.
const UNSUPPORTED: &[&str] = &["sslcert", "sslkey", "sslpassword", "sslcrl", "sslcrldir", "sslcertmode", "sslsni"];

/// Characters escaped when a path goes back into a query string.
const QUERY_VALUE: &AsciiSet = &CONTROLS.add(b' ').add(b'%').add(b'&').add(b'#').add(b'+').add(b'=').add(b'?');

/// Splits a `postgres://` URL into the URL the driver gets (without `sslmode` and
/// `sslrootcert`) and the TLS settings. Errors name the parameter and never quote the URL.
pub fn split(url: &str) -> Result<(String, TlsSettings), String> {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, q),
        None => (url, ""),
    };
    let (mut mode, mut root_cert) = (None, None);
    let mut kept = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, raw) = pair.split_once('=').unwrap_or((pair, ""));
        let value =
            || percent_decode_str(raw).decode_utf8().map(|v| v.into_owned()).map_err(|_| format!("{key} is not UTF-8"));
        match key {
            "sslmode" => {
                let v = value()?;
                mode = Some(v.parse::<SslMode>().map_err(|_| {
                    format!("sslmode={v:?} is not one of disable, prefer, require, verify-ca, verify-full")
                })?)
            }
            "sslrootcert" => {
                let v = value()?;
                root_cert = match v.as_str() {
                    "" => return Err("sslrootcert is empty: give a PEM file of CA certificates, or `system`".into()),
                    "system" => Some(Roots::System),
                    _ => Some(Roots::File(PathBuf::from(v))),
                }
            }
            k if UNSUPPORTED.contains(&k) => {
                return Err(format!("{k} is not supported by tdqs-gateway (TLS takes sslmode and sslrootcert)"));
            }
            _ => kept.push(pair),
        }
    }
    let mode = match (mode, &root_cert) {
        // As in libpq 16: the system's roots only make sense with the host name checked.
        (None, Some(Roots::System)) => SslMode::VerifyFull,
        (Some(m), Some(Roots::System)) if m != SslMode::VerifyFull => {
            return Err(format!("sslmode={} cannot be used with sslrootcert=system: use verify-full", <&str>::from(m)));
        }
        (m, _) => m.unwrap_or(SslMode::Prefer),
    };
    let driver_url = if kept.is_empty() { base.to_owned() } else { format!("{base}?{}", kept.join("&")) };
    Ok((driver_url, TlsSettings { mode, root_cert }))
}

/// Checks a URL's TLS parameters and makes a relative `sslrootcert` absolute against `base`
/// (the config file's folder, like every path in the config).
pub fn resolve(url: &str, base: &Path) -> Result<String, String> {
    let (_, settings) = split(url)?;
    let Some(Roots::File(path)) = settings.root_cert else { return Ok(url.to_owned()) };
    if path.is_absolute() || base.as_os_str().is_empty() {
        return Ok(url.to_owned());
    }
    let (head, query) = url.split_once('?').unwrap_or((url, ""));
    let absolute = base.join(path);
    let absolute = utf8_percent_encode(&absolute.to_string_lossy(), QUERY_VALUE).to_string();
    let query: Vec<String> = query
        .split('&')
        .map(|p| if p.starts_with("sslrootcert=") { format!("sslrootcert={absolute}") } else { p.to_owned() })
        .collect();
    Ok(format!("{head}?{}", query.join("&")))
}

impl TlsSettings {
    /// What the driver is told: it only knows whether to ask for TLS and whether to insist.
    pub fn driver_mode(&self) -> postgres::config::SslMode {
        match self.mode {
            SslMode::Disable => postgres::config::SslMode::Disable,
            SslMode::Prefer => postgres::config::SslMode::Prefer,
            SslMode::Require | SslMode::VerifyCa | SslMode::VerifyFull => postgres::config::SslMode::Require,
        }
    }

    /// The TLS connector for the pool. Reads the CA file (or the system's store) now, so a
    /// missing or empty file is a start-up error.
    pub fn connector(&self) -> Result<MakeRustlsConnect, String> {
        let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
        let algorithms = provider.signature_verification_algorithms;
        // libpq verifies the chain whenever a root file is given, even under prefer or require
        // (and ignores the file under disable).
        let roots = match (&self.root_cert, self.mode) {
            (_, SslMode::Disable) => None,
            (Some(r), _) => Some(r.clone()),
            (None, SslMode::VerifyCa | SslMode::VerifyFull) => Some(Roots::System),
            (None, _) => None,
        };
        let verifier: Arc<dyn ServerCertVerifier> = match roots {
            None => Arc::new(WithoutHostName { roots: None, algorithms }),
            Some(roots) => {
                let roots = Arc::new(load_roots(&roots)?);
                if self.mode == SslMode::VerifyFull {
                    WebPkiServerVerifier::builder_with_provider(roots, provider.clone())
                        .build()
                        .map_err(|e| format!("sslrootcert: {e}"))?
                } else {
                    Arc::new(WithoutHostName { roots: Some(roots), algorithms })
                }
            }
        };
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?
            .dangerous()
            .with_custom_certificate_verifier(verifier)
            .with_no_client_auth();
        Ok(MakeRustlsConnect::new(config))
    }
}

/// A hint for a connection error whose cause rustls's name alone does not explain.
pub fn hint(e: &postgres::Error) -> Option<&'static str> {
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        let tls = c.downcast_ref::<std::io::Error>().and_then(|io| io.get_ref()).and_then(|i| i.downcast_ref());
        if let Some(rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer)) = tls {
            return Some(
                "the server's certificate is not signed by a CA in sslrootcert (or, without it, in the system's store)",
            );
        }
        cause = c.source();
    }
    None
}

fn load_roots(roots: &Roots) -> Result<RootCertStore, String> {
    let mut store = RootCertStore::empty();
    match roots {
        Roots::File(path) => {
            let pem = std::fs::read(path).map_err(|e| format!("sslrootcert {}: {e}", path.display()))?;
            let certs = rustls_pemfile::certs(&mut pem.as_slice())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("sslrootcert {}: {e}", path.display()))?;
            let (added, _) = store.add_parsable_certificates(certs);
            if added == 0 {
                return Err(format!("sslrootcert {}: no CA certificate in the file", path.display()));
            }
        }
        Roots::System => {
            // SSL_CERT_FILE / SSL_CERT_DIR are honoured; an image without a CA bundle falls back
            // to the Mozilla roots compiled in.
            store.add_parsable_certificates(rustls_native_certs::load_native_certs().certs);
            if store.is_empty() {
                store.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
            }
        }
    }
    Ok(store)
}

/// Every mode short of `verify-full`: `prefer` and `require` without a root file check no
/// identity (encryption against passive listeners, as libpq does); `verify-ca` (and prefer or
/// require with a root file) need a chain to a trusted CA, without comparing the host name. The
/// handshake's signatures are checked either way.
#[derive(Debug)]
struct WithoutHostName {
    /// The trusted CAs, or `None` to accept any certificate.
    roots: Option<Arc<RootCertStore>>,
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for WithoutHostName {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        if let Some(roots) = &self.roots {
            let cert = ParsedCertificate::try_from(end_entity)?;
            verify_server_cert_signed_by_trust_anchor(&cert, roots, intermediates, now, self.algorithms.all)?;
        }
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_and_roots() {
        let (u, s) = split("postgres://a:pw@db/x").unwrap();
        assert_eq!((u.as_str(), s.mode, s.root_cert), ("postgres://a:pw@db/x", SslMode::Prefer, None));
        let (u, s) =
            split("postgres://db/x?sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem&connect_timeout=5").unwrap();
        assert_eq!(u, "postgres://db/x?connect_timeout=5");
        assert_eq!(s.mode, SslMode::VerifyFull);
        assert_eq!(s.root_cert, Some(Roots::File("/etc/ca.pem".into())));
        assert_eq!(s.driver_mode(), postgres::config::SslMode::Require);
        assert_eq!(split("postgres://db/x?sslmode=verify-ca").unwrap().1.mode, SslMode::VerifyCa);
        assert_eq!(
            split("postgres://db/x?sslmode=disable").unwrap().1.driver_mode(),
            postgres::config::SslMode::Disable
        );
        // sslrootcert=system means verify-full, as in libpq.
        assert_eq!(split("postgres://db/x?sslrootcert=system").unwrap().1.mode, SslMode::VerifyFull);
    }

    #[test]
    fn bad_values_name_the_parameter() {
        let e = split("postgres://a:pw@db/x?sslmode=verify_full").unwrap_err();
        assert!(e.contains("sslmode=\"verify_full\"") && !e.contains("pw"), "{e}");
        let e = split("postgres://db/x?sslmode=require&sslrootcert=system").unwrap_err();
        assert!(e.contains("sslrootcert=system") && e.contains("verify-full"), "{e}");
        assert!(split("postgres://db/x?sslcert=c.pem").unwrap_err().contains("sslcert"));
        assert!(split("postgres://db/x?sslrootcert=").unwrap_err().contains("sslrootcert"));
    }

    #[test]
    fn relative_root_files_resolve_against_the_config_folder() {
        let base = Path::new("/etc/tdqs");
        let url = resolve("postgres://db/x?sslmode=verify-full&sslrootcert=certs/ca%201.pem", base).unwrap();
        assert_eq!(url, "postgres://db/x?sslmode=verify-full&sslrootcert=/etc/tdqs/certs/ca%201.pem");
        assert_eq!(split(&url).unwrap().1.root_cert, Some(Roots::File("/etc/tdqs/certs/ca 1.pem".into())));
        let abs = "postgres://db/x?sslrootcert=/ca.pem";
        assert_eq!(resolve(abs, base).unwrap(), abs);
    }

    #[test]
    fn connectors_build_for_every_mode() {
        for url in ["postgres://db/x?sslmode=require", "postgres://db/x?sslmode=verify-full", "postgres://db/x"] {
            split(url).unwrap().1.connector().unwrap();
        }
        let e = split("postgres://db/x?sslmode=verify-ca&sslrootcert=/nonexistent/ca.pem").unwrap().1.connector();
        assert!(e.err().unwrap().contains("/nonexistent/ca.pem"));
        split("postgres://db/x?sslmode=disable&sslrootcert=/nonexistent/ca.pem").unwrap().1.connector().unwrap();
    }
}
