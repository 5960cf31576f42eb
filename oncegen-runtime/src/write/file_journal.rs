//! The embedded [`WriteJournal`]: an append-only file with `fsync`.
//!
//! Why a plain file and not SQLite: the journal only ever appends a record, forces it to disk,
//! and reads everything back once at start-up — the access pattern of a log. An append plus
//! `fdatasync` is the whole durability story, needs no bundled C library to compile or
//! cross-compile, and its format can be read with a text editor when something goes wrong.
//! SQLite would add a C build and a second durability model for the same guarantee.
//!
//! Format: one record per line, `<checksum> <json>\n`, where the checksum is the first 8 bytes of
//! the SHA-256 of the JSON text, in hex. A record is an `open` (the write: key, operation,
//! method, path and query, content type, body in Base64, client request id, other headers,
//! intent), a `settle` (the key and its outcome: the answer's status, headers and body in
//! Base64, or why it was not applied) or a `close` (the key, acknowledged by the application).
//!
//! * `record` appends the `open` line and returns once it is on disk (`sync_data`), so a write
//!   is durable before its first attempt. Concurrent records share one `sync_data` (group
//!   commit): a writer that finds its line already covered by a sync that started after its
//!   append returns without syncing again. A record is written with one `write` call; a failed
//!   write is followed by a newline, so the next record starts on a line of its own.
//! * `settle` and `acknowledge` append without `fsync`: a kill cannot lose an appended line,
//!   and a power cut that does only makes recovery settle the write again with the same key,
//!   or report its outcome again.
//! * On [`FileJournal::open`] the file is read back. A line without its newline (torn by a
//!   crash), with a wrong checksum or unreadable JSON is a [`DamagedRecord`]: reported, copied to
//!   `<file>.damaged` for inspection, and never resent. The file is then compacted to its
//!   entries not acknowledged (written to `<file>.tmp`, synced, renamed over the journal,
//!   directory synced); it is compacted the same way while running once closed entries
//!   dominate it.
//!
//! One process at a time may use a journal: [`FileJournal::open`] takes an exclusive lock on
//! `<file>.lock` for the journal's lifetime, and a second open (in this process or another)
//! fails with [`io::ErrorKind::WouldBlock`] naming the file (after waiting up to two seconds
//! for a predecessor that is still exiting). Files are created with mode 0600
//! on Unix: request bodies are in them.

use std::collections::HashMap;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::spec::Method;
use crate::write::journal::{
    DamagedRecord, JournaledWrite, Pending, PendingWrite, Settlement, StoredResponse, WriteJournal,
};

/// Closed entries' lines tolerated beyond the live ones before the file is compacted while
/// running.
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
    /// Held by the one thread syncing; the others wait for it and usually find their line
    /// synced by then.
    sync: Mutex<()>,
    /// Held (locked) for the journal's lifetime.
    _lock: File,
}

struct State {
    file: File,
    /// Entries not acknowledged, by key.
    live: HashMap<String, Entry>,
    next_seq: u64,
    /// Lines in the file.
    lines: usize,
    /// Lines appended so far (a counter that compaction does not reset).
    appended: u64,
    /// Every line appended up to this count is on disk.
    synced: u64,
    /// The last append failed part-way: start the next one on a new line.
    torn: bool,
}

struct Entry {
    seq: u64,
    line: Vec<u8>,
    write: JournaledWrite,
    /// The `settle` line and what it says, once settled.
    settled: Option<(Vec<u8>, Settlement)>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Record {
    Open(OpenRecord),
    Settle(SettleRecord),
    Close(CloseRecord),
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
    #[serde(default)]
    intent: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    server: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct SettleRecord {
    key: String,
    outcome: Outcome,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
enum Outcome {
    Answered {
        status: u16,
        headers: Vec<(String, String)>,
        body: String,
    },
    AppliedUnread {
        status: u16,
    },
    NotApplied {
        reason: String,
    },
}

#[derive(Serialize, Deserialize)]
struct CloseRecord {
    key: String,
}

impl fmt::Debug for FileJournal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FileJournal")
            .field("path", &self.shared.path)
            .finish_non_exhaustive()
    }
}

impl FileJournal {
    /// Opens (or creates) the journal at `path`, reads back what an earlier process left, and
    /// compacts the file. Fails with [`io::ErrorKind::WouldBlock`] while another
    /// `FileJournal` (of this or another process) has the same file open (after waiting up to
    /// two seconds for it to go away).
    pub fn open(path: impl AsRef<Path>) -> io::Result<Self> {
        let path = path.as_ref().to_owned();
        let lock = lock(&path)?;
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
            live: scan.live,
            next_seq: scan.next_seq,
            lines: scan.lines,
            appended: 0,
            synced: 0,
            torn: false,
        };
        if scan.lines > state.live_lines() || !scan.damaged.is_empty() {
            compact(&path, &mut state)?;
        } else if existing.is_empty() {
            sync_parent(&path)?;
        }
        Ok(Self {
            shared: Arc::new(Shared {
                path,
                damaged: scan.damaged,
                state: Mutex::new(state),
                sync: Mutex::new(()),
                _lock: lock,
            }),
        })
    }

    /// The journal's path.
    pub fn path(&self) -> &Path {
        &self.shared.path
    }

    /// Runs `job` on the shared journal in a blocking thread.
    fn blocking<T: Send + 'static>(
        &self,
        job: impl FnOnce(&Shared) -> io::Result<T> + Send + 'static,
    ) -> BoxFuture<'static, io::Result<T>> {
        let shared = self.shared.clone();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || job(&shared))
                .await
                .map_err(io::Error::other)?
        })
    }
}

/// How long [`FileJournal::open`] waits for the lock: a predecessor killed a moment ago may
/// still hold it while the kernel tears it down (milliseconds).
const LOCK_PATIENCE: Duration = Duration::from_secs(2);

/// Takes the exclusive lock of the journal at `path` (on `<path>.lock`, which compaction never
/// replaces), waiting up to [`LOCK_PATIENCE`].
fn lock(path: &Path) -> io::Result<File> {
    use fs4::fs_std::FileExt as _;
    let lock_path = sidecar(path, "lock");
    let file = options().write(true).open(&lock_path)?;
    let started = Instant::now();
    loop {
        match file.try_lock_exclusive() {
            Ok(true) => return Ok(file),
            Ok(false) if started.elapsed() < LOCK_PATIENCE => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Ok(false) => {
                return Err(io::Error::new(
                    io::ErrorKind::WouldBlock,
                    format!(
                        "the write journal {} is in use by another process (or another \
                         FileJournal of this one): one process at a time may use a journal",
                        path.display()
                    ),
                ));
            }
            Err(e) => {
                return Err(io::Error::new(
                    e.kind(),
                    format!("cannot lock the write journal {}: {e}", path.display()),
                ));
            }
        }
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Makes every line appended up to `count` durable, syncing at most once for a whole
    /// group of concurrent appends.
    fn sync_through(&self, count: u64) -> io::Result<()> {
        let _syncing = self.sync.lock().unwrap_or_else(|e| e.into_inner());
        let (file, target) = {
            let state = self.lock();
            if state.synced >= count {
                return Ok(());
            }
            (state.file.try_clone()?, state.appended)
        };
        file.sync_data()?;
        let mut state = self.lock();
        state.synced = state.synced.max(target);
        Ok(())
    }
}

impl State {
    /// Appends one line (with a leading newline after a failed append); returns the count of
    /// lines appended so far, this one included.
    fn append(&mut self, line: &[u8]) -> io::Result<u64> {
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
        self.appended += 1;
        Ok(self.appended)
    }

    /// Lines the live entries take.
    fn live_lines(&self) -> usize {
        self.live.len() + self.live.values().filter(|e| e.settled.is_some()).count()
    }

    /// Compacts once closed entries' lines dominate the file.
    fn maybe_compact(&mut self, path: &Path) -> io::Result<()> {
        if self.lines > 2 * self.live_lines() + COMPACT_SLACK {
            compact(path, self)?;
        }
        Ok(())
    }
}

impl WriteJournal for FileJournal {
    fn record<'a>(&'a self, write: &'a JournaledWrite) -> BoxFuture<'a, io::Result<()>> {
        let write = write.clone();
        self.blocking(move |shared| {
            let line = encode(&Record::Open(OpenRecord {
                key: write.key.clone(),
                operation_id: write.operation_id.clone(),
                method: write.method.as_str().to_owned(),
                target: write.target.clone(),
                content_type: write.content_type.clone(),
                body: STANDARD.encode(&write.body),
                client_request_id: write.client_request_id.clone(),
                headers: write.headers.clone(),
                intent: write.intent.clone(),
                server: write.server.clone(),
            }))?;
            let count = {
                let mut state = shared.lock();
                let count = state.append(&line)?;
                let seq = state.next_seq;
                state.next_seq += 1;
                let entry = Entry {
                    seq,
                    line,
                    write,
                    settled: None,
                };
                state.live.insert(entry.write.key.clone(), entry);
                count
            };
            super::kill_point!("append");
            shared.sync_through(count)?;
            super::kill_point!("fsync");
            Ok(())
        })
    }

    fn settle<'a>(
        &'a self,
        key: &'a str,
        settlement: &'a Settlement,
    ) -> BoxFuture<'a, io::Result<()>> {
        let key = key.to_owned();
        let settlement = settlement.clone();
        self.blocking(move |shared| {
            let line = encode(&Record::Settle(SettleRecord {
                key: key.clone(),
                outcome: Outcome::from(&settlement),
            }))?;
            let mut state = shared.lock();
            state.append(&line)?;
            if let Some(entry) = state.live.get_mut(&key) {
                entry.settled = Some((line, settlement));
            }
            drop(state);
            super::kill_point!("settle");
            Ok(())
        })
    }

    fn acknowledge<'a>(&'a self, key: &'a str) -> BoxFuture<'a, io::Result<()>> {
        let key = key.to_owned();
        self.blocking(move |shared| {
            let mut state = shared.lock();
            if !state.live.contains_key(&key) {
                return Ok(());
            }
            let line = encode(&Record::Close(CloseRecord { key: key.clone() }))?;
            state.append(&line)?;
            state.live.remove(&key);
            state.maybe_compact(&shared.path)?;
            drop(state);
            super::kill_point!("close");
            Ok(())
        })
    }

    fn pending(&self) -> BoxFuture<'_, io::Result<Pending>> {
        self.blocking(move |shared| {
            let state = shared.lock();
            let mut entries: Vec<&Entry> = state.live.values().collect();
            entries.sort_by_key(|e| e.seq);
            Ok(Pending {
                writes: entries
                    .into_iter()
                    .map(|e| PendingWrite {
                        write: e.write.clone(),
                        settlement: e.settled.as_ref().map(|(_, s)| s.clone()),
                    })
                    .collect(),
                damaged: shared.damaged.clone(),
            })
        })
    }
}

impl From<&Settlement> for Outcome {
    fn from(settlement: &Settlement) -> Self {
        match settlement {
            Settlement::Answered(r) => Outcome::Answered {
                status: r.status,
                headers: r.headers.clone(),
                body: STANDARD.encode(&r.body),
            },
            Settlement::AppliedUnread { status } => Outcome::AppliedUnread { status: *status },
            Settlement::NotApplied { reason } => Outcome::NotApplied {
                reason: reason.clone(),
            },
        }
    }
}

impl Outcome {
    fn into_settlement(self) -> Option<Settlement> {
        Some(match self {
            Outcome::Answered {
                status,
                headers,
                body,
            } => Settlement::Answered(StoredResponse {
                status,
                headers,
                body: Bytes::from(STANDARD.decode(body).ok()?),
            }),
            Outcome::AppliedUnread { status } => Settlement::AppliedUnread { status },
            Outcome::NotApplied { reason } => Settlement::NotApplied { reason },
        })
    }
}

/// What reading a journal file back found.
struct Scan {
    live: HashMap<String, Entry>,
    next_seq: u64,
    lines: usize,
    damaged: Vec<DamagedRecord>,
    damaged_bytes: Vec<u8>,
}

fn scan(bytes: &[u8]) -> Scan {
    let mut out = Scan {
        live: HashMap::new(),
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
                    settled: None,
                };
                out.next_seq += 1;
                out.live.insert(entry.write.key.clone(), entry);
            }
            Ok(Parsed::Settle(key, settlement)) => {
                out.lines += 1;
                if let Some(entry) = out.live.get_mut(&key) {
                    entry.settled = Some((line.to_vec(), settlement));
                }
            }
            Ok(Parsed::Close(key)) => {
                out.lines += 1;
                out.live.remove(&key);
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
    Settle(String, Settlement),
    Close(String),
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
        intent: open.intent,
        server: open.server,
    })
}

/// The method named `name` (as [`Method::as_str`] spells it).
pub(super) fn method(name: &str) -> Option<Method> {
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

/// Parses one line, checking its checksum; an `open` or `settle` that cannot be turned back
/// into a write or an outcome (unknown method, bad Base64) is damaged too.
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
        Record::Settle(settle) => settle
            .outcome
            .into_settlement()
            .map(|s| Parsed::Settle(settle.key, s))
            .ok_or_else(|| "unreadable outcome".into()),
        Record::Close(close) => Ok(Parsed::Close(close.key)),
    }
}

/// Rewrites the file with only the live entries, durably, and reopens it for appending.
fn compact(path: &Path, state: &mut State) -> io::Result<()> {
    let mut entries: Vec<&Entry> = state.live.values().collect();
    entries.sort_by_key(|e| e.seq);
    let tmp = sidecar(path, "tmp");
    let mut file = options().write(true).truncate(true).open(&tmp)?;
    let mut lines = 0;
    for entry in &entries {
        for line in std::iter::once(&entry.line).chain(entry.settled.as_ref().map(|(l, _)| l)) {
            file.write_all(line)?;
            file.write_all(b"\n")?;
            lines += 1;
        }
    }
    file.sync_all()?;
    drop(file);
    fs::rename(&tmp, path)?;
    sync_parent(path)?;
    state.file = options().append(true).open(path)?;
    state.lines = lines;
    state.synced = state.appended;
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
            // One write went to an operation's own server.
            server: (key == "key-a").then(|| "https://upload.example.com/v2".into()),
            content_type: Some("application/json".into()),
            body: Bytes::from_static(b"{\"secret\":\"s3\"}"),
            client_request_id: None,
            headers: vec![("x-tenant".into(), "blue".into())],
            intent: Some(format!("intent of {key}")),
        }
    }

    /// A journal path in a fresh directory, removed when dropped.
    struct Temp(PathBuf);

    impl Temp {
        fn new(name: &str) -> Self {
            let dir = std::env::temp_dir().join(format!(
                "oncegen-runtime-journal-{name}-{}",
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
        p.writes.iter().map(|w| w.write.key.as_str()).collect()
    }

    fn answer(status: u16) -> Settlement {
        Settlement::Answered(StoredResponse {
            status,
            headers: vec![("x-request-id".into(), "req-1".into())],
            body: Bytes::from_static(b"{\"id\":7}"),
        })
    }

    #[tokio::test]
    async fn entries_survive_a_reopen_with_their_outcome_until_acknowledged() {
        let dir = Temp::new("reopen");
        let path = dir.path();
        let j = FileJournal::open(&path).unwrap();
        for k in ["key-a", "key-b", "key-c", "key-d"] {
            j.record(&write(k)).await.unwrap();
        }
        j.settle("key-b", &answer(201)).await.unwrap();
        j.settle("key-c", &answer(201)).await.unwrap();
        j.acknowledge("key-c").await.unwrap();
        j.acknowledge("never-journaled").await.unwrap();
        j.settle(
            "key-d",
            &Settlement::NotApplied {
                reason: "refused".into(),
            },
        )
        .await
        .unwrap();
        drop(j);
        let j = FileJournal::open(&path).unwrap();
        let pending = j.pending().await.unwrap();
        assert_eq!(keys(&pending), ["key-a", "key-b", "key-d"]);
        assert_eq!(pending.writes[0].write, write("key-a"));
        assert_eq!(pending.writes[0].settlement, None, "open");
        assert_eq!(pending.writes[1].settlement, Some(answer(201)), "settled");
        assert!(!pending.writes[2].settlement.as_ref().unwrap().is_applied());
        assert!(pending.damaged.is_empty());
        // Compacted to the live entries: three opens and two outcomes.
        assert_eq!(fs::read_to_string(&path).unwrap().lines().count(), 5);
        assert!(
            !format!("{:?}", pending.writes[1]).contains("s3")
                && !format!("{:?}", pending.writes[1]).contains("\"id\""),
            "Debug hides bodies"
        );
    }

    #[tokio::test]
    async fn a_second_open_of_the_same_journal_is_refused_until_the_first_is_dropped() {
        let dir = Temp::new("lock");
        let path = dir.path();
        let first = FileJournal::open(&path).unwrap();
        let err = FileJournal::open(&path).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::WouldBlock);
        assert!(err.to_string().contains("in use"), "{err}");
        let clone = first.clone();
        drop(first);
        assert!(FileJournal::open(&path).is_err(), "a clone keeps it");
        drop(clone);
        FileJournal::open(&path).unwrap();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn concurrent_records_are_all_durable_and_share_syncs() {
        let dir = Temp::new("group");
        let path = dir.path();
        let j = FileJournal::open(&path).unwrap();
        let tasks: Vec<_> = (0..64)
            .map(|i| {
                let j = j.clone();
                tokio::spawn(async move { j.record(&write(&format!("key-{i:03}"))).await })
            })
            .collect();
        for t in tasks {
            t.await.unwrap().unwrap();
        }
        {
            let state = j.shared.lock();
            assert_eq!(state.synced, 64, "every record synced before returning");
        }
        drop(j);
        let j = FileJournal::open(&path).unwrap();
        assert_eq!(j.pending().await.unwrap().writes.len(), 64);
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
            j.settle(&k, &answer(200)).await.unwrap();
            j.acknowledge(&k).await.unwrap();
        }
        let lines = fs::read_to_string(&path).unwrap().lines().count();
        assert!(lines < COMPACT_SLACK, "{lines} lines");
        assert_eq!(keys(&j.pending().await.unwrap()), ["key-open"]);
    }
}
