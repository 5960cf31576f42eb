//! A call's journal entry, and the two journal steps of a call: [`Entry::begin`] records a
//! keyed write before its first attempt, [`Entry::settle`] records its outcome once definite.
//! Without the `journal` feature, or without a journal configured, an entry is nothing and
//! both steps do nothing.

use crate::Client;
use crate::engine::prepare::Prepared;
use crate::error::Error;
use crate::transport::{HttpResponse, TransportError};
#[cfg(feature = "journal")]
use crate::write::journal::WriteJournal;

/// The journal that records a call, when one is configured and the call is a write.
#[derive(Clone, Copy)]
pub(crate) struct Entry<'c> {
    #[cfg(feature = "journal")]
    journal: Option<&'c dyn WriteJournal>,
    #[cfg(not(feature = "journal"))]
    journal: std::marker::PhantomData<&'c ()>,
}

#[cfg(feature = "journal")]
impl<'c> Entry<'c> {
    /// No entry: a reconciliation lookup is a read of its write's call, never journaled.
    pub(crate) fn none() -> Self {
        Entry { journal: None }
    }

    /// The entry of a journaled write that recovery resumes: recorded already.
    pub(crate) fn resumed(client: &'c Client, p: &Prepared) -> Self {
        Entry {
            journal: client
                .inner
                .config
                .journal
                .as_deref()
                .filter(|_| p.is_write()),
        }
    }

    /// Begins a new call's entry: a keyed write is recorded before its first attempt (a write
    /// without a key is not: it cannot be settled). `Err`: the journal could not record it,
    /// and nothing is sent.
    pub(crate) async fn begin(client: &'c Client, p: &Prepared) -> Result<Self, Error> {
        let entry = Self::resumed(client, p);
        if let Some(journal) = entry.journal {
            // Boxed: recording is large and only journaled writes do it; inline, it would
            // grow every call's future.
            Box::pin(crate::engine::journaling::record(journal, p, &client.inner)).await?;
        }
        Ok(entry)
    }

    /// The final answer to keep of a call that ends with an error (a rejection, a redirect),
    /// which settles the entry; only a journal keeps it.
    pub(crate) fn answer(
        &self,
        result: &Result<HttpResponse, TransportError>,
    ) -> Option<HttpResponse> {
        self.journal.and(result.as_ref().ok()).cloned()
    }

    /// Settles the entry with the call's result once its outcome is definite; an unknown
    /// outcome leaves it open (the entry stays until the application acknowledges it).
    pub(crate) async fn settle(
        self,
        p: &Prepared,
        result: Result<&HttpResponse, &Error>,
        answer: Option<&HttpResponse>,
    ) {
        if let Some(journal) = self.journal {
            crate::write::kill_point!("receive");
            crate::engine::journaling::settle(journal, p, result, answer).await;
        }
    }
}

/// Without the `journal` feature: the same steps, doing nothing.
#[cfg(not(feature = "journal"))]
impl<'c> Entry<'c> {
    const NONE: Self = Entry {
        journal: std::marker::PhantomData,
    };

    /// No entry.
    pub(crate) fn none() -> Self {
        Self::NONE
    }

    /// No entry.
    pub(crate) fn resumed(_: &'c Client, _: &Prepared) -> Self {
        Self::NONE
    }

    /// No entry; nothing to record.
    pub(crate) async fn begin(_: &'c Client, _: &Prepared) -> Result<Self, Error> {
        Ok(Self::NONE)
    }

    /// Nothing to keep.
    pub(crate) fn answer(&self, _: &Result<HttpResponse, TransportError>) -> Option<HttpResponse> {
        None
    }

    /// Nothing to settle.
    pub(crate) async fn settle(
        self,
        _: &Prepared,
        _: Result<&HttpResponse, &Error>,
        _: Option<&HttpResponse>,
    ) {
    }
}
