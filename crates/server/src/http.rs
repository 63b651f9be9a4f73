//! Each TCP connection, served by hand rather than through `axum::serve`, for what that
//! cannot set: a request's head must come whole within [`HEAD_SECONDS`] (a socket that
//! sends nothing, half a request, or a byte a second is closed, as is one left idle after
//! a request and never upgraded), and replies go out at once (`TCP_NODELAY`: a move's
//! small frame is not held back waiting for an acknowledgement).

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::TcpListener;
use tower::Service;

/// How long a client has to send a request's head, from when it connects or its last
/// request was answered. A WebSocket, once upgraded, has its own pings instead.
pub const HEAD_SECONDS: u64 = 10;

/// Serves `router` on `listener` until `shutdown` completes; connections still open then
/// end with the runtime.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let mut shutdown = std::pin::pin!(shutdown);
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
            () = &mut shutdown => return Ok(()),
        };
        let _ = stream.set_nodelay(true);
        tokio::spawn(serve_connection(stream, peer, router.clone()));
    }
}

async fn serve_connection(stream: tokio::net::TcpStream, peer: SocketAddr, router: Router) {
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer));
        router.clone().call(request)
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs(HEAD_SECONDS));
    // A failed connection (a timeout, a reset, a malformed request) concerns that client
    // alone.
    let _ = builder
        .serve_connection(TokioIo::new(stream), service)
        .with_upgrades()
        .await;
}
