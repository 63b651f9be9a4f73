//! TLS for `wss://` servers on the desktop and in the terminal (the browser has its own):
//! rustls with the Mozilla roots built in, so a fresh machine needs no system store, and
//! the certificates in the file `TABULA_CA_FILE` names trusted too (a server with a
//! certificate of its own making, on a home network or in a test).

use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use rustls::{ClientConfig, RootCertStore};
use std::sync::Arc;

/// The environment variable naming extra root certificates (PEM) to trust.
pub const CA_FILE_VARIABLE: &str = "TABULA_CA_FILE";

/// The client's TLS settings, made for each connection so that a changed
/// `TABULA_CA_FILE` counts (a connection is made once in a long while).
pub fn client_config() -> Result<Arc<ClientConfig>, String> {
    let mut roots = RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    if let Some(path) = std::env::var_os(CA_FILE_VARIABLE) {
        let shown = format!("{CA_FILE_VARIABLE}={}", path.to_string_lossy());
        let certificates = CertificateDer::pem_file_iter(&path)
            .map_err(|e| format!("{shown}: {e}"))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("{shown}: {e}"))?;
        if certificates.is_empty() {
            return Err(format!("{shown}: no certificate in it"));
        }
        for certificate in certificates {
            roots
                .add(certificate)
                .map_err(|e| format!("{shown}: {e}"))?;
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}
