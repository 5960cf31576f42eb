//! The connection a request arrived on, as the request path sees it: the client's address and
//! the kill switch the drop-after-commit fault pulls. The accept loop (`server`) makes one per
//! connection; the pipeline never reaches back into the server.

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::sync::Notify;

/// The connection a request arrived on.
#[derive(Clone, Debug)]
pub(crate) struct Conn {
    /// The client's address.
    pub peer: SocketAddr,
    kill: Arc<Notify>,
}

impl Conn {
    /// A connection from `peer` with a fresh kill switch.
    pub fn new(peer: SocketAddr) -> Self {
        Self {
            peer,
            kill: Arc::new(Notify::new()),
        }
    }

    /// What the connection's server waits on to close it.
    pub fn kill_switch(&self) -> Arc<Notify> {
        self.kill.clone()
    }

    /// Closes the connection without answering.
    pub fn drop_connection(&self) {
        self.kill.notify_one();
    }
}
