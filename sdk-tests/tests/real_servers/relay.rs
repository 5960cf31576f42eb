//! A loopback TCP relay in front of a real server that keeps a copy of every request it passes
//! on, so the test can see which headers the SDK sent (the server does not tell).

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;

/// One request as it went over the wire: request line and headers (lower-cased names).
#[derive(Debug, Clone)]
pub struct SeenRequest {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
}

impl SeenRequest {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The client bytes of one connection, as they arrive.
type Record = Arc<Mutex<Vec<u8>>>;

/// The relay; it serves until the test process ends.
pub struct Relay {
    port: u16,
    connections: Arc<Mutex<Vec<Record>>>,
}

impl Relay {
    /// Listens on a free loopback port and forwards each connection to 127.0.0.1:`upstream`.
    pub fn start(upstream: u16) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").expect("relay binds");
        let port = listener.local_addr().expect("relay address").port();
        let connections: Arc<Mutex<Vec<Record>>> = Arc::default();
        let seen = Arc::clone(&connections);
        thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                let Ok(server) = TcpStream::connect(("127.0.0.1", upstream)) else {
                    continue;
                };
                let record: Record = Arc::default();
                seen.lock().expect("relay log").push(Arc::clone(&record));
                let (client_read, server_write) = (client.try_clone(), server.try_clone());
                let (Ok(client_read), Ok(server_write)) = (client_read, server_write) else {
                    continue;
                };
                thread::spawn(move || pipe(client_read, server_write, Some(record)));
                thread::spawn(move || pipe(server, client, None));
            }
        });
        Relay { port, connections }
    }

    pub fn origin(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Every request seen so far, connection by connection, in order.
    pub fn requests(&self) -> Vec<SeenRequest> {
        let connections = self.connections.lock().expect("relay log");
        connections
            .iter()
            .flat_map(|c| parse_requests(&c.lock().expect("relay log")))
            .collect()
    }
}

/// Copies `from` to `to` until either side closes, appending what passed to `record`.
fn pipe(mut from: TcpStream, mut to: TcpStream, record: Option<Record>) {
    let mut buf = [0u8; 16 * 1024];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        if let Some(record) = &record {
            record
                .lock()
                .expect("relay log")
                .extend_from_slice(&buf[..n]);
        }
        if to.write_all(&buf[..n]).is_err() {
            break;
        }
    }
    let _ = to.shutdown(Shutdown::Write);
}

/// Splits a connection's client bytes into HTTP/1.1 requests (bodies by `content-length`).
fn parse_requests(mut bytes: &[u8]) -> Vec<SeenRequest> {
    let mut requests = Vec::new();
    while let Some(end) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
        let head = String::from_utf8_lossy(&bytes[..end]).into_owned();
        let mut lines = head.split("\r\n");
        let mut first = lines.next().unwrap_or_default().split(' ');
        let method = first.next().unwrap_or_default().to_owned();
        let path = first.next().unwrap_or_default().to_owned();
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        let length: usize = headers
            .iter()
            .find(|(n, _)| n == "content-length")
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or(0);
        requests.push(SeenRequest {
            method,
            path,
            headers,
        });
        let next = (end + 4 + length).min(bytes.len());
        bytes = &bytes[next..];
    }
    requests
}
