//! A reader of newline-delimited messages that refuses a line longer than a limit: the read
//! that would pass the limit fails, saying so, and the flag it shares records why the input
//! ended.
//!
//! Hand-written because rmcp's line reader drops an oversized line and reads on: the client
//! would wait forever for the answer to the request it lost. Failing the read ends the session
//! instead, and the server says why (`transport::stdio`).

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, ready};
use tokio::io::{AsyncRead, ReadBuf};

/// `inner`, failing once a line runs past `limit` bytes (its newline not counted).
pub(crate) struct Bounded<R> {
    inner: R,
    limit: usize,
    /// Bytes read since the last newline.
    run: usize,
    exceeded: Arc<AtomicBool>,
}

impl<R> Bounded<R> {
    /// The reader, and the flag it sets when a line passed `limit`.
    pub(crate) fn new(inner: R, limit: usize) -> (Self, Arc<AtomicBool>) {
        let exceeded = Arc::new(AtomicBool::new(false));
        let reader = Bounded {
            inner,
            limit,
            run: 0,
            exceeded: exceeded.clone(),
        };
        (reader, exceeded)
    }

    fn too_long(&self) -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "a message longer than {} bytes (one JSON-RPC message per line)",
                self.limit
            ),
        )
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for Bounded<R> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.exceeded.load(Ordering::Relaxed) {
            return Poll::Ready(Err(this.too_long()));
        }
        let before = buf.filled().len();
        ready!(Pin::new(&mut this.inner).poll_read(cx, buf))?;
        let mut longest = 0;
        for (i, piece) in buf.filled()[before..].split(|b| *b == b'\n').enumerate() {
            this.run = if i == 0 {
                this.run + piece.len()
            } else {
                piece.len()
            };
            longest = longest.max(this.run);
        }
        if longest > this.limit {
            this.exceeded.store(true, Ordering::Relaxed);
            return Poll::Ready(Err(this.too_long()));
        }
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::Bounded;
    use std::sync::atomic::Ordering;
    use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, DuplexStream};

    /// `input` as a stream that hands out at most `size` bytes per read.
    fn chunked(input: &'static [u8], size: usize) -> DuplexStream {
        let (mut writer, reader) = tokio::io::duplex(size);
        tokio::spawn(async move { writer.write_all(input).await });
        reader
    }

    #[tokio::test]
    async fn lines_up_to_the_limit_pass_in_any_chunking() {
        let input: &[u8] = b"abcd\nefgh\n\nij\n";
        for size in [1, 3, 5, input.len()] {
            let (bounded, exceeded) = Bounded::new(chunked(input, size), 4);
            let mut lines = BufReader::new(bounded).lines();
            for expected in ["abcd", "efgh", "", "ij"] {
                assert_eq!(lines.next_line().await.unwrap().as_deref(), Some(expected));
            }
            assert_eq!(lines.next_line().await.unwrap(), None);
            assert!(!exceeded.load(Ordering::Relaxed));
        }
    }

    #[tokio::test]
    async fn a_longer_line_fails_the_read_and_every_later_one() {
        // The second line has 5 bytes: over the limit whether or not its newline comes.
        for input in [&b"abcd\nefghi\nxy\n"[..], b"abcd\nefghi"] {
            for size in [1, 4, input.len()] {
                let (bounded, exceeded) = Bounded::new(chunked(input, size), 4);
                let mut reader = BufReader::new(bounded);
                let mut read = Vec::new();
                let error = reader.read_to_end(&mut read).await.unwrap_err();
                assert_eq!(error.kind(), std::io::ErrorKind::InvalidData);
                assert!(error.to_string().contains("longer than 4 bytes"), "{error}");
                assert!(exceeded.load(Ordering::Relaxed));
                let again = reader.read_to_end(&mut read).await.unwrap_err();
                assert_eq!(again.kind(), std::io::ErrorKind::InvalidData);
            }
        }
    }
}
