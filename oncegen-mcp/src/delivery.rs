//! When a write's outcome counts as delivered: once the response that carries it has been
//! written to the client. [`Delivered`] wraps the stdio transport and closes a write's journal
//! entry after its response was sent; a server without it (HTTP, where rmcp writes the
//! response) closes the entry when the result is handed over.
//!
//! Why after the write: a server killed between closing the entry and writing the response
//! would have lost an outcome whose write the next identical call would make again; killed
//! between writing and closing, the next identical call answers the same outcome again, marked
//! as a replay, and writes nothing.

use rmcp::model::{JsonRpcMessage, RequestId};
use rmcp::service::{RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// The writes whose outcome is on its way to the client, by the request that carries it.
#[derive(Debug, Default)]
pub(crate) struct Outgoing {
    /// A [`Delivered`] transport closes entries after sending.
    tracked: AtomicBool,
    keys: Mutex<HashMap<RequestId, String>>,
}

impl Outgoing {
    /// Closes the entry of `key` after the response to `request` is sent: `true`; or now, when
    /// no transport tells when that is: `false`.
    pub(crate) fn after_response(&self, request: RequestId, key: String) -> bool {
        if !self.tracked.load(Ordering::Relaxed) {
            return false;
        }
        self.keys
            .lock()
            .expect("outgoing lock")
            .insert(request, key);
        true
    }

    /// The key whose outcome the response to `request` carried.
    fn sent(&self, request: &RequestId) -> Option<String> {
        self.keys.lock().expect("outgoing lock").remove(request)
    }
}

/// Closes a journal entry (the server's `acknowledge_write`).
pub(crate) type Acknowledge = std::sync::Arc<
    dyn Fn(String) -> std::pin::Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync,
>;

/// A transport that closes a write's journal entry once the response carrying its outcome has
/// been written.
pub(crate) struct Delivered<T> {
    inner: T,
    outgoing: std::sync::Arc<Outgoing>,
    acknowledge: Acknowledge,
}

impl<T> Delivered<T> {
    /// `inner`, reporting to `outgoing`.
    pub(crate) fn new(
        inner: T,
        outgoing: std::sync::Arc<Outgoing>,
        acknowledge: Acknowledge,
    ) -> Self {
        outgoing.tracked.store(true, Ordering::Relaxed);
        Delivered {
            inner,
            outgoing,
            acknowledge,
        }
    }
}

impl<T: Transport<RoleServer>> Transport<RoleServer> for Delivered<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let key = match &item {
            JsonRpcMessage::Response(r) => self.outgoing.sent(&r.id),
            JsonRpcMessage::Error(e) => e.id.as_ref().and_then(|id| self.outgoing.sent(id)),
            _ => None,
        };
        let sending = self.inner.send(item);
        let acknowledge = self.acknowledge.clone();
        async move {
            sending.await?;
            if let Some(key) = key {
                acknowledge(key).await;
            }
            Ok(())
        }
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleServer>>> + Send {
        self.inner.receive()
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}
