//! A throwaway PostgreSQL cluster for tests and benchmarks: `initdb` into a fresh directory
//! under the workspace's `target/` (the temporary directory when the `postgres` user cannot
//! reach `target/`), started on a free loopback port (no Unix socket), stopped and removed when
//! dropped. The server programs come from Debian's `postgresql` package
//! (`.ci/postgres` installs it); as root they run as its `postgres` user (initdb refuses root).

use std::io;
use std::net::TcpListener;
use std::os::unix::fs::MetadataExt as _;
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
}

impl Cluster {
    /// Creates and starts a cluster named `name` (part of its directory's name).
    pub fn start(name: &str) -> io::Result<Self> {
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
        cluster.start_server()?;
        Ok(cluster)
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
        let options = format!(
            "-c listen_addresses=127.0.0.1 -p {} -c unix_socket_directories='' \
             -c max_connections=200",
            self.port
        );
        self.server_program("pg_ctl", |c| {
            c.arg("-D")
                .arg(self.data())
                .arg("-l")
                .arg(self.dir.join("server.log"))
                .args(["-w", "-t", "60", "-o", &options, "start"]);
        })
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
