//! The accept loop: one hyper HTTP/1 connection per client, each with a kill switch the
//! drop-after-commit fault pulls, every request handed to the [`pipeline`](crate::pipeline).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use http::Request;
use hyper_util::rt::TokioIo;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;

use crate::pipeline::Conn;
use crate::shared::Shared;

/// Accepts connections until `shutdown` is notified.
pub(crate) async fn serve(listener: TcpListener, shared: Arc<Shared>, shutdown: Arc<Notify>) {
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted { Ok(x) => x, Err(_) => continue },
            () = shutdown.notified() => return,
        };
        tokio::spawn(connection(stream, peer, shared.clone(), shutdown.clone()));
    }
}

/// Serves one connection until the client closes it, a fault kills it, or the sandbox stops.
async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    shared: Arc<Shared>,
    shutdown: Arc<Notify>,
) {
    let conn = Conn::new(peer);
    let kill = conn.kill_switch();
    let service = hyper::service::service_fn(move |req: Request<hyper::body::Incoming>| {
        let response = crate::pipeline::respond(shared.clone(), conn.clone(), req.map(Body::new));
        async move { Ok::<_, std::convert::Infallible>(response.await) }
    });
    let http =
        hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), service);
    tokio::select! {
        _ = http => {}
        () = kill.notified() => {}
        () = shutdown.notified() => {}
    }
}
