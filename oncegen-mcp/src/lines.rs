//! Newline-delimited JSON-RPC over a reader and a writer, every line answered: a message that
//! is not JSON gets a parse error (-32700), JSON that is not one request, notification or
//! response an invalid request (-32600), both with the id when one can be read, else null.
//!
//! Hand-written in place of rmcp's `AsyncRwTransport`, which skips a line serde_json cannot
//! parse without a word (rmcp 3.11, `transport/async_rw.rs`, `receive`: `Category::Syntax` and
//! `Category::Eof`). That includes valid JSON nested deeper than serde_json's recursion limit,
//! invalid UTF-8 and a truncated line: the client would wait forever for the answer.

use rmcp::model::{ErrorData, RequestId};
use rmcp::service::{RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use serde_json::error::Category;
use std::io;
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

/// serde_json's recursion limit: the deepest nesting of arrays and objects it reads.
const NESTING: usize = 128;

/// The server's side of a line-delimited JSON-RPC session.
pub(crate) struct Lines<R, W> {
    read: BufReader<R>,
    /// The line being read: a read cancelled by the service loop leaves its bytes here and the
    /// next one goes on (`read_until` appends).
    line: Vec<u8>,
    write: Arc<Mutex<W>>,
}

impl<R: AsyncRead, W> Lines<R, W> {
    pub(crate) fn new(read: R, write: W) -> Self {
        Lines {
            read: BufReader::new(read),
            line: Vec::new(),
            write: Arc::new(Mutex::new(write)),
        }
    }
}

/// One message written as a line, flushed.
async fn write_line<W: AsyncWrite + Unpin>(
    write: &Mutex<W>,
    message: &TxJsonRpcMessage<RoleServer>,
) -> io::Result<()> {
    let mut line = serde_json::to_vec(message)?;
    line.push(b'\n');
    let mut write = write.lock().await;
    write.write_all(&line).await?;
    write.flush().await
}

impl<R, W> Transport<RoleServer> for Lines<R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = io::Result<()>> + Send + 'static {
        let write = self.write.clone();
        async move { write_line(&write, &item).await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            match self.read.read_until(b'\n', &mut self.line).await {
                Ok(0) if self.line.is_empty() => return None,
                Ok(_) => {}
                Err(_) => return None,
            }
            let answer = match decode(&self.line) {
                Decoded::Message(message) => {
                    self.line.clear();
                    return Some(*message);
                }
                Decoded::Skip => None,
                Decoded::Refused(error, id) => {
                    Some(TxJsonRpcMessage::<RoleServer>::error(error, id))
                }
            };
            self.line.clear();
            if let Some(answer) = answer
                && write_line(&self.write, &answer).await.is_err()
            {
                return None;
            }
        }
    }

    async fn close(&mut self) -> io::Result<()> {
        self.write.lock().await.shutdown().await
    }
}

/// What one line holds.
enum Decoded {
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// Blank, or a notification the server does not know: nothing to answer.
    Skip,
    /// Answered with this error, to this id (null when none can be read).
    Refused(ErrorData, Option<RequestId>),
}

fn decode(line: &[u8]) -> Decoded {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    // RFC 8259 §8.1 lets a parser ignore a byte order mark.
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Decoded::Skip;
    }
    let error = match serde_json::from_slice(line) {
        Ok(message) => return Decoded::Message(Box::new(message)),
        Err(error) => error,
    };
    match error.classify() {
        Category::Syntax | Category::Eof | Category::Io => {
            Decoded::Refused(ErrorData::parse_error(parse_error(&error), None), None)
        }
        Category::Data => invalid(line, &error),
    }
}

/// The parse error's message: serde_json's, its recursion limit said in the protocol's terms.
fn parse_error(error: &serde_json::Error) -> String {
    if error.to_string().starts_with("recursion limit exceeded") {
        format!("Parse error: nesting deeper than {NESTING} levels")
    } else {
        format!("Parse error: {error}")
    }
}

/// JSON that is not a message: a batch, a value that is not an object, an object that is not a
/// request, notification or response. A notification is never answered (JSON-RPC 2.0 §4.1),
/// which also skips the notifications of other protocols, as rmcp does.
fn invalid(line: &[u8], error: &serde_json::Error) -> Decoded {
    let value: Value = match serde_json::from_slice(line) {
        Ok(value) => value,
        Err(error) => {
            return Decoded::Refused(ErrorData::parse_error(parse_error(&error), None), None);
        }
    };
    let message = match &value {
        Value::Array(_) => "Invalid request: a batch (MCP messages are sent one per line)".into(),
        Value::Object(fields) if fields.get("method").is_some_and(Value::is_string) => {
            if !fields.contains_key("id") {
                return Decoded::Skip;
            }
            format!("Invalid request: {error}")
        }
        Value::Object(_) => format!("Invalid request: {error}"),
        _ => "Invalid request: a message is a JSON object".into(),
    };
    let id = value
        .get("id")
        .and_then(|id| serde_json::from_value(id.clone()).ok());
    Decoded::Refused(ErrorData::invalid_request(message, None), id)
}

#[cfg(test)]
mod tests {
    use super::{Decoded, decode};

    fn refused(line: &[u8]) -> (i32, String, Option<String>) {
        match decode(line) {
            Decoded::Refused(error, id) => (
                error.code.0,
                error.message.into(),
                id.map(|i| i.to_string()),
            ),
            Decoded::Message(_) => panic!("decoded a message"),
            Decoded::Skip => panic!("skipped"),
        }
    }

    #[test]
    fn every_line_is_a_message_or_an_answer() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let (code, message, id) = refused(deep.as_bytes());
        assert_eq!((code, id), (-32700, None));
        assert!(
            message.contains("nesting deeper than 128 levels"),
            "{message}"
        );
        assert_eq!(refused(b"{\"jsonrpc\":\"2.0\",\"id\":1,").0, -32700);
        assert_eq!(refused(b"\xff\xfe\n").0, -32700);
        assert_eq!(refused(b"[1,2]").0, -32600);
        assert_eq!(refused(b"5").0, -32600);
        let (code, _, id) = refused(br#"{"jsonrpc":"2.0","id":7,"method":5}"#);
        assert_eq!((code, id.as_deref()), (-32600, Some("7")));
        assert!(matches!(decode(b" \r\n"), Decoded::Skip));
        assert!(matches!(
            decode(br#"{"jsonrpc":"2.0","method":"x/y","params":5}"#),
            Decoded::Skip
        ));
        assert!(matches!(
            decode(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#),
            Decoded::Message(_)
        ));
    }
}
