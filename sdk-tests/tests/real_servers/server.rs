//! A real server started on loopback: spawned in its own process group, polled until it answers,
//! and stopped (the whole group) when dropped.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running server process; dropping it stops it.
pub struct Server {
    name: &'static str,
    child: Child,
    port: u16,
    log: PathBuf,
}

/// A free TCP port on 127.0.0.1 (bound and released; the server binds it right after).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

impl Server {
    /// Spawns `command` (which must listen on 127.0.0.1:`port`), its output into `log`.
    pub fn spawn(name: &'static str, mut command: Command, port: u16, log: &Path) -> Server {
        let out = std::fs::File::create(log).expect("server log file");
        let err = out.try_clone().expect("server log file");
        command
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .process_group(0);
        let child = command
            .spawn()
            .unwrap_or_else(|e| panic!("{name}: cannot start {command:?}: {e}"));
        Server {
            name,
            child,
            port,
            log: log.to_owned(),
        }
    }

    /// `http://127.0.0.1:<port>`.
    pub fn origin(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Polls `GET path` until it answers 200, the process exits, or `timeout` passes.
    pub fn wait_ready(&mut self, path: &str, timeout: Duration) -> Duration {
        let started = Instant::now();
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!(
                    "{}: exited with {status} before it was ready; log:\n{}",
                    self.name,
                    self.log_tail()
                );
            }
            if let Ok((200, _)) = get(self.port, path) {
                return started.elapsed();
            }
            if started.elapsed() > timeout {
                panic!(
                    "{}: GET {path} did not answer 200 within {timeout:?}; log:\n{}",
                    self.name,
                    self.log_tail()
                );
            }
            std::thread::sleep(Duration::from_millis(250));
        }
    }

    /// The last 4 KiB of the server's output.
    pub fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let start = text.len().saturating_sub(4096);
        let start = (start..text.len())
            .find(|i| text.is_char_boundary(*i))
            .unwrap_or(text.len());
        text[start..].to_owned()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // The server's process group and every process it started (a server may start workers
        // in groups of their own), by id: TERM, then KILL what is left after 10 s.
        let mut targets = vec![format!("-{}", self.child.id())];
        targets.extend(descendants(self.child.id()).iter().map(u32::to_string));
        signal("TERM", &targets);
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline && matches!(self.child.try_wait(), Ok(None)) {
            std::thread::sleep(Duration::from_millis(100));
        }
        signal("KILL", &targets);
        let _ = self.child.wait();
    }
}

/// Sends `SIGNAL` to each of `targets` (pids, or `-pgid` for a group).
fn signal(name: &str, targets: &[String]) {
    let _ = Command::new("kill")
        .arg("-s")
        .arg(name)
        .arg("--")
        .args(targets)
        .stderr(Stdio::null())
        .status();
}

/// The processes below `pid`, from the parent ids in `/proc/*/stat`.
fn descendants(pid: u32) -> Vec<u32> {
    let mut parents: Vec<(u32, u32)> = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(id) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        // `pid (comm) state ppid ...`; comm may hold spaces and parentheses.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse().ok());
        if let Some(ppid) = ppid {
            parents.push((id, ppid));
        }
    }
    let mut found = vec![pid];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(
            parents
                .iter()
                .filter(|(_, p)| *p == parent)
                .map(|(c, _)| *c),
        );
        i += 1;
    }
    found.remove(0);
    found
}

/// `GET path` over HTTP/1.0 (so the answer is neither chunked nor kept alive): status and body.
pub fn get(port: u16, path: &str) -> std::io::Result<(u16, Vec<u8>)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    write!(
        stream,
        "GET {path} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\nAccept: application/json\r\n\r\n"
    )?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response)?;
    let head_end = response
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| std::io::Error::other("no end of headers"))?;
    let status = std::str::from_utf8(&response[..head_end])
        .ok()
        .and_then(|head| head.split(' ').nth(1)?.parse().ok())
        .ok_or_else(|| std::io::Error::other("no status line"))?;
    Ok((status, response[head_end + 4..].to_vec()))
}
