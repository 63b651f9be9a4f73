//! TLS for a server that faces the internet without a proxy in front (`--tls-cert`,
//! `--tls-key`): rustls with ring's crypto. Behind a proxy that speaks TLS, leave it out.

use std::path::Path;
use std::sync::Arc;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// TLS from a certificate chain and its private key, both PEM text.
pub fn acceptor_from_pem(chain: &[u8], key: &[u8]) -> Result<TlsAcceptor, String> {
    let chain = CertificateDer::pem_slice_iter(chain)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("the certificate: {e}"))?;
    if chain.is_empty() {
        return Err("the certificate file holds no certificate".into());
    }
    let key = PrivateKeyDer::from_pem_slice(key).map_err(|e| format!("the private key: {e}"))?;
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(|e| format!("the certificate and key: {e}"))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}

/// TLS from the PEM files at `chain` and `key`.
pub fn acceptor(chain: &Path, key: &Path) -> Result<TlsAcceptor, String> {
    let read = |path: &Path| {
        std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
    };
    acceptor_from_pem(&read(chain)?, &read(key)?)
        .map_err(|e| format!("{} and {}: {e}", chain.display(), key.display()))
}
