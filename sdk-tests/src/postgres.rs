//! A throwaway PostgreSQL cluster for tests and benchmarks: `initdb` into a fresh directory
//! under the workspace's `target/` (the temporary directory when the `postgres` user cannot
//! reach `target/`), started on a free loopback port (no Unix socket), stopped and removed when
//! dropped. The server programs come from Debian's `postgresql` package
//! (`.ci/postgres` installs it); as root they run as its `postgres` user (initdb refuses root).

use std::io;
use std::net::TcpListener;
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A running cluster (see the [module docs](self)).
#[derive(Debug)]
pub struct Cluster {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    /// Run the server programs as the `postgres` user (the tests run as root).
    as_postgres: bool,
    /// Serves TLS with the files [`Cluster::start_tls`] copied into the data directory.
    tls: bool,
}

/// The PEM files of a cluster serving TLS ([`Cluster::start_tls`]).
#[derive(Debug)]
pub struct TlsFiles<'a> {
    pub cert: &'a Path,
    pub key: &'a Path,
    /// The CA that client certificates must lead to.
    pub ca: &'a Path,
}

/// TLS only: every connection must be encrypted; to database `template1` only with a client
/// certificate the cluster's CA signed.
const TLS_ONLY_HBA: &str = "hostssl template1 all 127.0.0.1/32 trust clientcert=verify-ca\n\
                            hostssl all all 127.0.0.1/32 trust\n";

impl Cluster {
    /// Creates and starts a cluster named `name` (part of its directory's name).
    pub fn start(name: &str) -> io::Result<Self> {
        let cluster = Self::create(name)?;
        cluster.start_server()?;
        Ok(cluster)
    }

    /// A cluster that accepts TLS connections only, with `files` (see `TLS_ONLY_HBA`).
    pub fn start_tls(name: &str, files: &TlsFiles<'_>) -> io::Result<Self> {
        Self::start_tls_with(name, files, TLS_ONLY_HBA)
    }

    /// A cluster serving TLS with `files`, whose `pg_hba.conf` is `hba`.
    pub fn start_tls_with(name: &str, files: &TlsFiles<'_>, hba: &str) -> io::Result<Self> {
        let mut cluster = Self::create(name)?;
        let data = cluster.data();
        for (from, to) in [
            (files.cert, "server.crt"),
            (files.key, "server.key"),
            (files.ca, "ca.crt"),
        ] {
            std::fs::copy(from, data.join(to))?;
            std::fs::set_permissions(data.join(to), std::fs::Permissions::from_mode(0o600))?;
            if cluster.as_postgres {
                run(Command::new("chown").arg("postgres:").arg(data.join(to)))?;
            }
        }
        std::fs::write(data.join("pg_hba.conf"), hba)?;
        cluster.tls = true;
        cluster.start_server()?;
        Ok(cluster)
    }

    /// Creates a cluster named `name`, not started.
    fn create(name: &str) -> io::Result<Self> {
        let bin = bin_dir()?;
        let unique = format!(
            "{name}-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or_default()
        );
        let mut dir = crate::target_dir().join("postgres").join(&unique);
        std::fs::create_dir_all(&dir)?;
        let as_postgres = std::fs::metadata("/proc/self")?.uid() == 0;
        if as_postgres {
            if !reachable_by_postgres(&dir) {
                // A checkout under a directory closed to other users (e.g. /root): the
                // `postgres` user cannot reach `target/`, so the cluster goes to the temporary
                // directory instead (removed the same way).
                let _ = std::fs::remove_dir_all(&dir);
                dir = std::env::temp_dir().join(format!("sdk-postgres-{unique}"));
                std::fs::create_dir_all(&dir)?;
                eprintln!(
                    "postgres: target/ is not reachable by the postgres user; cluster in {}",
                    dir.display()
                );
            }
            run(Command::new("chown").arg("postgres:").arg(&dir))?;
        }
        let cluster = Self {
            bin,
            dir,
            port: free_port()?,
            as_postgres,
            tls: false,
        };
        cluster.server_program("initdb", |c| {
            c.arg("-D").arg(cluster.data()).args([
                "-U",
                "sdk",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ]);
        })?;
        Ok(cluster)
    }

    /// The port it listens on (loopback).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The connection string (user `sdk`, database `postgres`, no password: trust on loopback).
    pub fn url(&self) -> String {
        format!("postgresql://sdk@127.0.0.1:{}/postgres", self.port)
    }

    /// Stops the server (fast shutdown: sessions are cut, committed data stays).
    pub fn stop(&self) -> io::Result<()> {
        self.server_program("pg_ctl", |c| {
            c.arg("-D")
                .arg(self.data())
                .args(["-m", "fast", "-w", "stop"]);
        })
    }

    /// Starts the server again on the same port.
    pub fn start_server(&self) -> io::Result<()> {
        let mut options = format!(
            "-c listen_addresses=127.0.0.1 -p {} -c unix_socket_directories='' \
             -c max_connections=200",
            self.port
        );
        if self.tls {
            options.push_str(
                " -c ssl=on -c ssl_cert_file=server.crt -c ssl_key_file=server.key \
                 -c ssl_ca_file=ca.crt",
            );
        }
        self.server_program("pg_ctl", |c| {
            c.arg("-D")
                .arg(self.data())
                .arg("-l")
                .arg(self.dir.join("server.log"))
                .args(["-w", "-t", "60", "-o", &options, "start"]);
        })
    }

    /// Stops every process of the server (SIGSTOP) until the guard is dropped: connections
    /// stay open and nothing answers, as with a hung database.
    pub fn freeze(&self) -> io::Result<Frozen> {
        let pid = std::fs::read_to_string(self.data().join("postmaster.pid"))?;
        let postmaster: u32 = pid
            .lines()
            .next()
            .and_then(|l| l.trim().parse().ok())
            .ok_or_else(|| io::Error::other("postmaster.pid has no pid"))?;
        let mut pids = children(postmaster)?;
        pids.insert(0, postmaster);
        signal("-STOP", &pids)?;
        Ok(Frozen { pids })
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// Runs `program` of the server's installation (as `postgres` when root); fails with its
    /// output when it fails.
    fn server_program(&self, program: &str, args: impl FnOnce(&mut Command)) -> io::Result<()> {
        let path = self.bin.join(program);
        let mut command = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&path);
            c
        } else {
            Command::new(&path)
        };
        args(&mut command);
        run(&mut command).map(|_| ())
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = self.server_program("pg_ctl", |c| {
            c.arg("-D")
                .arg(self.data())
                .args(["-m", "immediate", "-w", "stop"]);
        });
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A frozen server ([`Cluster::freeze`]), resumed (SIGCONT) when dropped.
#[derive(Debug)]
pub struct Frozen {
    pids: Vec<u32>,
}

impl Drop for Frozen {
    fn drop(&mut self) {
        let _ = signal("-CONT", &self.pids);
    }
}

/// The processes whose parent is `parent` (the server's backends and workers).
fn children(parent: u32) -> io::Result<Vec<u32>> {
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc")?.filter_map(Result::ok) {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        // `pid (comm) state ppid ...`: the fields after the last `)`.
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok());
        if ppid == Some(parent) {
            pids.push(pid);
        }
    }
    Ok(pids)
}

fn signal(which: &str, pids: &[u32]) -> io::Result<()> {
    let mut kill = Command::new("kill");
    kill.arg(which).args(pids.iter().map(u32::to_string));
    run(&mut kill).map(drop)
}

/// Whether the `postgres` user can enter `dir` (every directory above it must let it through).
fn reachable_by_postgres(dir: &Path) -> bool {
    Command::new("runuser")
        .args(["-u", "postgres", "--", "test", "-x"])
        .arg(dir)
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether a missing PostgreSQL fails the run (under `CI=true`) rather than skipping.
pub fn required() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// The newest installed server's `bin/` (Debian installs under `/usr/lib/postgresql/<n>/`).
fn bin_dir() -> io::Result<PathBuf> {
    let root = Path::new("/usr/lib/postgresql");
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir(root)
        .map_err(|e| missing(format!("{}: {e}", root.display())))?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .collect();
    versions.sort();
    versions
        .pop()
        .map(|(_, bin)| bin)
        .ok_or_else(|| missing(format!("no server under {}", root.display())))
}

fn missing(what: String) -> io::Error {
    io::Error::new(
        io::ErrorKind::NotFound,
        format!("PostgreSQL is not installed ({what}): run `bash .ci/postgres`"),
    )
}

/// A port free on loopback right now.
fn free_port() -> io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

fn run(command: &mut Command) -> io::Result<Output> {
    let output = command.output()?;
    if output.status.success() {
        return Ok(output);
    }
    Err(io::Error::other(format!(
        "{command:?} failed ({}):\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )))
}

/// Runs `openssl` in `dir` (the tests' certificates; Debian's `openssl` package).
fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl")
        .current_dir(dir)
        .args(args)
        .output()
        .expect("openssl runs");
    assert!(out.status.success(), "openssl {args:?}: {out:?}");
}

/// A CA (`ca.crt`, `ca.key`) in `dir`, and `name.crt`/`name.key` signed by it for each
/// `(name, subject, extensions)`; EC P-256 keys valid two days.
pub fn certificates(dir: &Path, leaves: &[(&str, &str, &str)]) {
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
    ];
    let mut ca = vec!["req", "-x509", "-days", "2", "-subj", "/CN=journal test CA"];
    ca.extend(ec);
    ca.extend(["-keyout", "ca.key", "-out", "ca.crt"]);
    openssl(dir, &ca);
    for (name, subject, extensions) in leaves {
        let (key, csr, crt, ext) = (
            format!("{name}.key"),
            format!("{name}.csr"),
            format!("{name}.crt"),
            format!("{name}.ext"),
        );
        std::fs::write(dir.join(&ext), extensions).expect("an extensions file");
        let mut req = vec!["req", "-subj", subject, "-keyout", &key, "-out", &csr];
        req.extend(ec);
        openssl(dir, &req);
        let sign = [
            "x509",
            "-req",
            "-in",
            &csr,
            "-CA",
            "ca.crt",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-days",
            "2",
            "-extfile",
            &ext,
            "-out",
            &crt,
        ];
        openssl(dir, &sign);
    }
}

/// The server certificate leaf for `localhost`, as [`certificates`] takes it.
pub const LOCALHOST_SERVER: (&str, &str, &str) = (
    "server",
    "/CN=localhost",
    "subjectAltName=DNS:localhost\nextendedKeyUsage=serverAuth\n",
);
