//! Each TCP connection, served by hand rather than through `axum::serve`, which has no time
//! limit for a request's head: here it must come whole within [`HEAD_SECONDS`] (a socket
//! that sends nothing, half a request, or a byte a second is closed, as is one left idle
//! after a request and never upgraded). Replies go out at once (`TCP_NODELAY`: a move's
//! small frame is not held back waiting for an acknowledgement). At shutdown the requests
//! under way finish, for up to [`DRAIN_SECONDS`], as under `axum::serve`'s graceful
//! shutdown; an upgraded WebSocket is no longer an HTTP request and ends with the runtime.

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio_rustls::TlsAcceptor;
use tower::Service;

/// How long a client has to send a request's head, from when it connects or its last
/// request was answered. A WebSocket, once upgraded, has its own pings instead.
pub const HEAD_SECONDS: u64 = 10;

/// How long the requests under way at shutdown may take to finish.
pub const DRAIN_SECONDS: u64 = 10;

/// Serves `router` on `listener` (through `tls`, if given) until `shutdown` completes,
/// then lets the requests under way finish.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    tls: Option<TlsAcceptor>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let mut shutdown = std::pin::pin!(shutdown);
    // Told to each connection at shutdown, and held by each until it ends: once every
    // receiver is gone, every connection is.
    let (stopping, stop_heard) = watch::channel(());
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of descriptors, say: the listener itself is fine, so wait and go on.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let (router, stop) = (router.clone(), stop_heard.clone());
        match &tls {
            None => {
                tokio::spawn(serve_connection(stream, peer, router, stop));
            }
            Some(tls) => {
                let tls = tls.clone();
                tokio::spawn(async move {
                    // The TLS handshake counts against the time for a request's head.
                    let head = Duration::from_secs(HEAD_SECONDS);
                    if let Ok(Ok(stream)) = tokio::time::timeout(head, tls.accept(stream)).await {
                        serve_connection(stream, peer, router, stop).await;
                    }
                });
            }
        }
    }
    drop(listener);
    drop(stop_heard);
    let _ = stopping.send(());
    let _ = tokio::time::timeout(Duration::from_secs(DRAIN_SECONDS), stopping.closed()).await;
    Ok(())
}

async fn serve_connection(
    stream: impl AsyncRead + AsyncWrite + Unpin + Send + 'static,
    peer: SocketAddr,
    router: Router,
    mut stop: watch::Receiver<()>,
) {
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer));
        router.clone().call(request)
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs(HEAD_SECONDS));
    let mut connection = std::pin::pin!(
        builder
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades()
    );
    // A failed connection (a timeout, a reset, a malformed request) concerns that client
    // alone.
    tokio::select! {
        _ = connection.as_mut() => return,
        _ = stop.changed() => connection.as_mut().graceful_shutdown(),
    }
    let _ = connection.await;
}
