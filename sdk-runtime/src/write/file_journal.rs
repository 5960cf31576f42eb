//! The embedded [`WriteJournal`]: an append-only file with `fsync`.
//!
//! Why a plain file and not SQLite: the journal only ever appends a record, forces it to disk,
//! and reads everything back once at start-up — the access pattern of a log. An append plus
//! `fdatasync` is the whole durability story, needs no new dependency (no bundled C library to
//! compile or cross-compile), and its format can be read with a text editor when something
//! goes wrong. SQLite would add a C build and a second durability model for the same guarantee.
//!
//! Format: one record per line, `<checksum> <json>\n`, where the checksum is the first 8 bytes of
//! the SHA-256 of the JSON text, in hex. A record is either an `open` (the write: key,
//! operation, method, path and query, content type, body in Base64, client request id, other
//! headers) or a
//! `settle` (the key and how it ended).
//!
//! * `record` appends the `open` line and calls `sync_data` before returning, so a write is on
//!   disk before its first attempt. A record is written with one `write` call; a failed write is
//!   followed by a newline, so the next record starts on a line of its own.
//! * `settle` appends without `fsync`: a lost settlement only means recovery settles that write
//!   again with the same key, which the server deduplicates.
//! * On [`FileJournal::open`] the file is read back. A line without its newline (torn by a
//!   crash), with a wrong checksum or unreadable JSON is a [`DamagedRecord`]: reported, copied to
//!   `<file>.damaged` for inspection, and never resent. The file is then compacted to its open
//!   entries (written to `<file>.tmp`, synced, renamed over the journal, directory synced); it is
//!   compacted the same way while running once settled lines dominate it.
//!
//! One process at a time may use a journal file. Files are created with mode 0600 on Unix:
//! request bodies are in them.

use std::collections::HashMap;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::spec::Method;
use crate::write::journal::{DamagedRecord, JournaledWrite, Pending, Settlement, WriteJournal};

/// Settled lines tolerated beyond the open entries before the file is compacted while running.
const COMPACT_SLACK: usize = 1024;

/// The append-only file journal (see the [module docs](self)).
#[derive(Clone)]
pub struct FileJournal {
    shared: Arc<Shared>,
}

struct Shared {
    path: PathBuf,
    damaged: Vec<DamagedRecord>,
    state: Mutex<State>,
}

struct State {
    file: File,
    /// Open entries by key.
    open: HashMap<String, Entry>,
    next_seq: u64,
    /// Lines in the file.
    lines: usize,
    /// The last append failed part-way: start the next one on a new line.
    torn: bool,
}

struct Entry {
    seq: u64,
    line: Vec<u8>,
    write: JournaledWrite,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Record {
    Open(OpenRecord),
    Settle(SettleRecord),
}

#[derive(Serialize, Deserialize)]
struct OpenRecord {
    key: String,
    operation_id: String,
    method: String,
    target: String,
    content_type: Option<String>,
    body: String,
    client_request_id: Option<String>,
    #[serde(default)]
    headers: Vec<(String, String)>,
}

#[derive(Serialize, Deserialize)]
struct SettleRecord {
    key: String,
    applied: bool,
    status: Option<u16>,
}

impl fmt::Debug for FileJournal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FileJournal")
            .field("path", &self.shared.path)
            .finish_non_exhaustive()
    }
}

impl FileJournal {
    /// Opens (or creates) the journal at `path`, reads back what an earlier process left open,
    /// and compacts the file.
    pub fn open(path: impl AsRef<Path>) -> io::Result<Self> {
        let path = path.as_ref().to_owned();
        let existing = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(e),
        };
        let scan = scan(&existing);
        if !scan.damaged_bytes.is_empty() {
            let mut copy = options().append(true).open(sidecar(&path, "damaged"))?;
            copy.write_all(&scan.damaged_bytes)?;
            copy.sync_data()?;
        }
        let mut state = State {
            file: options().append(true).open(&path)?,
            open: scan.open,
            next_seq: scan.next_seq,
            lines: scan.lines,
            torn: false,
        };
        if scan.lines > state.open.len() || !scan.damaged.is_empty() {
            compact(&path, &mut state)?;
        } else if existing.is_empty() {
            sync_parent(&path)?;
        }
        Ok(Self {
            shared: Arc::new(Shared {
                path,
                damaged: scan.damaged,
                state: Mutex::new(state),
            }),
        })
    }

    /// The journal's path.
    pub fn path(&self) -> &Path {
        &self.shared.path
    }

    /// Runs `job` on the state in a blocking thread.
    fn blocking<T: Send + 'static>(
        &self,
        job: impl FnOnce(&Path, &mut State) -> io::Result<T> + Send + 'static,
    ) -> BoxFuture<'static, io::Result<T>> {
        let shared = self.shared.clone();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || job(&shared.path, &mut shared.lock()))
                .await
                .map_err(io::Error::other)?
        })
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl State {
    /// Appends one line (with a leading newline after a failed append).
    fn append(&mut self, line: &[u8]) -> io::Result<()> {
        let mut buf = Vec::with_capacity(line.len() + 2);
        if self.torn {
            buf.push(b'\n');
        }
        buf.extend_from_slice(line);
        buf.push(b'\n');
        let written = self.file.write_all(&buf);
        self.torn = written.is_err();
        written?;
        self.lines += 1;
        Ok(())
    }
}

impl WriteJournal for FileJournal {
    fn record<'a>(&'a self, write: &'a JournaledWrite) -> BoxFuture<'a, io::Result<()>> {
        let write = write.clone();
        self.blocking(move |_, state| {
            let line = encode(&Record::Open(OpenRecord {
                key: write.key.clone(),
                operation_id: write.operation_id.clone(),
                method: write.method.as_str().to_owned(),
                target: write.target.clone(),
                content_type: write.content_type.clone(),
                body: STANDARD.encode(&write.body),
                client_request_id: write.client_request_id.clone(),
                headers: write.headers.clone(),
            }))?;
            state.append(&line)?;
            state.file.sync_data()?;
            let seq = state.next_seq;
            state.next_seq += 1;
            state
                .open
                .insert(write.key.clone(), Entry { seq, line, write });
            Ok(())
        })
    }

    fn settle<'a>(&'a self, key: &'a str, settlement: Settlement) -> BoxFuture<'a, io::Result<()>> {
        let key = key.to_owned();
        self.blocking(move |path, state| {
            let (applied, status) = match settlement {
                Settlement::Applied { status } => (true, Some(status)),
                Settlement::NotApplied => (false, None),
            };
            let line = encode(&Record::Settle(SettleRecord {
                key: key.clone(),
                applied,
                status,
            }))?;
            state.append(&line)?;
            state.open.remove(&key);
            if state.lines > 2 * state.open.len() + COMPACT_SLACK {
                compact(path, state)?;
            }
            Ok(())
        })
    }

    fn pending(&self) -> BoxFuture<'_, io::Result<Pending>> {
        let damaged = self.shared.damaged.clone();
        self.blocking(move |_, state| {
            let mut entries: Vec<&Entry> = state.open.values().collect();
            entries.sort_by_key(|e| e.seq);
            Ok(Pending {
                writes: entries.into_iter().map(|e| e.write.clone()).collect(),
                damaged,
            })
        })
    }
}

/// What reading a journal file back found.
struct Scan {
    open: HashMap<String, Entry>,
    next_seq: u64,
    lines: usize,
    damaged: Vec<DamagedRecord>,
    damaged_bytes: Vec<u8>,
}

fn scan(bytes: &[u8]) -> Scan {
    let mut out = Scan {
        open: HashMap::new(),
        next_seq: 0,
        lines: 0,
        damaged: Vec::new(),
        damaged_bytes: Vec::new(),
    };
    let mut offset = 0;
    while offset < bytes.len() {
        let rest = &bytes[offset..];
        let (line, parsed, next) = match rest.iter().position(|b| *b == b'\n') {
            Some(end) => (&rest[..end], decode(&rest[..end]), offset + end + 1),
            None => (
                rest,
                Err("incomplete last record (torn by a crash)".to_owned()),
                bytes.len(),
            ),
        };
        match parsed {
            _ if line.is_empty() => {}
            Ok(Parsed::Open(write)) => {
                out.lines += 1;
                let entry = Entry {
                    seq: out.next_seq,
                    line: line.to_vec(),
                    write,
                };
                out.next_seq += 1;
                out.open.insert(entry.write.key.clone(), entry);
            }
            Ok(Parsed::Settle(key)) => {
                out.lines += 1;
                out.open.remove(&key);
            }
            Err(reason) => {
                out.damaged.push(DamagedRecord {
                    offset: offset as u64,
                    length: line.len(),
                    reason,
                });
                out.damaged_bytes.extend_from_slice(line);
                out.damaged_bytes.push(b'\n');
            }
        }
        offset = next;
    }
    out
}

/// A record read back.
enum Parsed {
    Open(JournaledWrite),
    Settle(String),
}

fn into_write(open: OpenRecord) -> Option<JournaledWrite> {
    Some(JournaledWrite {
        method: method(&open.method)?,
        body: Bytes::from(STANDARD.decode(&open.body).ok()?),
        key: open.key,
        operation_id: open.operation_id,
        target: open.target,
        content_type: open.content_type,
        client_request_id: open.client_request_id,
        headers: open.headers,
    })
}

fn method(name: &str) -> Option<Method> {
    [
        Method::Get,
        Method::Post,
        Method::Put,
        Method::Patch,
        Method::Delete,
        Method::Head,
        Method::Options,
        Method::Trace,
    ]
    .into_iter()
    .find(|m| m.as_str() == name)
}

fn checksum(json: &[u8]) -> String {
    Sha256::digest(json)[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn encode(record: &Record) -> io::Result<Vec<u8>> {
    let json = serde_json::to_vec(record).map_err(io::Error::other)?;
    let mut line = checksum(&json).into_bytes();
    line.push(b' ');
    line.extend_from_slice(&json);
    Ok(line)
}

/// Parses one line, checking its checksum; an `open` that cannot be turned back into a write
/// (unknown method, bad Base64) is damaged too.
fn decode(line: &[u8]) -> Result<Parsed, String> {
    let space = line.iter().position(|b| *b == b' ').ok_or("no checksum")?;
    let (sum, json) = (&line[..space], &line[space + 1..]);
    if sum != checksum(json).as_bytes() {
        return Err("checksum mismatch".into());
    }
    match serde_json::from_slice(json).map_err(|e| format!("unreadable record: {e}"))? {
        Record::Open(open) => into_write(open)
            .map(Parsed::Open)
            .ok_or_else(|| "unreadable write".into()),
        Record::Settle(settle) => Ok(Parsed::Settle(settle.key)),
    }
}

/// Rewrites the file with only the open entries, durably, and reopens it for appending.
fn compact(path: &Path, state: &mut State) -> io::Result<()> {
    let mut entries: Vec<&Entry> = state.open.values().collect();
    entries.sort_by_key(|e| e.seq);
    let tmp = sidecar(path, "tmp");
    let mut file = options().write(true).truncate(true).open(&tmp)?;
    for entry in &entries {
        file.write_all(&entry.line)?;
        file.write_all(b"\n")?;
    }
    file.sync_all()?;
    drop(file);
    fs::rename(&tmp, path)?;
    sync_parent(path)?;
    state.file = options().append(true).open(path)?;
    state.lines = entries.len();
    state.torn = false;
    Ok(())
}

/// `<path>.<suffix>`.
fn sidecar(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".");
    name.push(suffix);
    PathBuf::from(name)
}

/// Create-if-missing options, mode 0600 on Unix.
fn options() -> OpenOptions {
    let mut options = OpenOptions::new();
    options.create(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options
}

/// Makes a rename or creation in `path`'s directory durable.
fn sync_parent(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        File::open(dir)?.sync_all()?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(key: &str) -> JournaledWrite {
        JournaledWrite {
            key: key.into(),
            operation_id: "createThing".into(),
            method: Method::Post,
            target: "/things?dry=false".into(),
            content_type: Some("application/json".into()),
            body: Bytes::from_static(b"{\"secret\":\"s3\"}"),
            client_request_id: None,
            headers: vec![("x-tenant".into(), "blue".into())],
        }
    }

    /// A journal path in a fresh directory, removed when dropped.
    struct Temp(PathBuf);

    impl Temp {
        fn new(name: &str) -> Self {
            let dir = std::env::temp_dir().join(format!(
                "sdk-runtime-journal-{name}-{}",
                uuid::Uuid::new_v4()
            ));
            fs::create_dir_all(&dir).unwrap();
            Self(dir)
        }

        fn path(&self) -> PathBuf {
            self.0.join("writes.journal")
        }
    }

    impl Drop for Temp {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn keys(p: &Pending) -> Vec<&str> {
        p.writes.iter().map(|w| w.key.as_str()).collect()
    }

    #[tokio::test]
    async fn open_entries_survive_a_reopen_and_settled_ones_do_not() {
        let dir = Temp::new("reopen");
        let path = dir.path();
        let j = FileJournal::open(&path).unwrap();
        for k in ["key-a", "key-b", "key-c"] {
            j.record(&write(k)).await.unwrap();
        }
        j.settle("key-b", Settlement::Applied { status: 201 })
            .await
            .unwrap();
        drop(j);
        let j = FileJournal::open(&path).unwrap();
        let pending = j.pending().await.unwrap();
        assert_eq!(keys(&pending), ["key-a", "key-c"]);
        assert_eq!(pending.writes[0], write("key-a"));
        assert!(pending.damaged.is_empty());
        // Compacted to the two open entries.
        assert_eq!(fs::read_to_string(&path).unwrap().lines().count(), 2);
        assert!(
            !format!("{:?}", pending.writes[0]).contains("s3"),
            "Debug hides the body"
        );
    }

    #[tokio::test]
    async fn a_torn_or_corrupted_record_is_reported_and_not_returned() {
        let dir = Temp::new("damage");
        let path = dir.path();
        let j = FileJournal::open(&path).unwrap();
        for k in ["key-a", "key-b", "key-c"] {
            j.record(&write(k)).await.unwrap();
        }
        drop(j);
        let mut bytes = fs::read(&path).unwrap();
        let second = bytes.iter().position(|b| *b == b'\n').unwrap() + 1;
        bytes[second + 30] ^= 0x01; // flip a bit inside key-b's record
        let cut = bytes.len() - 7; // tear key-c's record
        bytes.truncate(cut);
        fs::write(&path, &bytes).unwrap();

        let j = FileJournal::open(&path).unwrap();
        let pending = j.pending().await.unwrap();
        assert_eq!(keys(&pending), ["key-a"]);
        let reasons: Vec<&str> = pending.damaged.iter().map(|d| d.reason.as_str()).collect();
        assert_eq!(
            reasons,
            [
                "checksum mismatch",
                "incomplete last record (torn by a crash)"
            ]
        );
        assert_eq!(pending.damaged[0].offset, second as u64);
        assert!(sidecar(&path, "damaged").exists());
        // New records append cleanly after compaction.
        j.record(&write("key-d")).await.unwrap();
        drop(j);
        let j = FileJournal::open(&path).unwrap();
        let pending = j.pending().await.unwrap();
        assert_eq!(keys(&pending), ["key-a", "key-d"]);
        assert!(pending.damaged.is_empty());
    }

    #[tokio::test]
    async fn settled_lines_are_compacted_while_running() {
        let dir = Temp::new("compact");
        let path = dir.path();
        let j = FileJournal::open(&path).unwrap();
        j.record(&write("key-open")).await.unwrap();
        for i in 0..(COMPACT_SLACK / 2 + 10) {
            let k = format!("key-{i:05}");
            j.record(&write(&k)).await.unwrap();
            j.settle(&k, Settlement::NotApplied).await.unwrap();
        }
        let lines = fs::read_to_string(&path).unwrap().lines().count();
        assert!(lines < COMPACT_SLACK, "{lines} lines");
        assert_eq!(keys(&j.pending().await.unwrap()), ["key-open"]);
    }
}
