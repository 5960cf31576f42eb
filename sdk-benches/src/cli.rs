//! `bench-report cli` (issue #30): the generated command-line tool as a shell runs it, whole
//! process from exec to exit. One GET (`customer-cloud integrations get-version`) against the
//! in-process sandbox beside `curl` sending the same request (same URL, same bearer header),
//! and `customer-cloud --help`, in one run of interleaved rounds; the release binary's size.
//!
//! Both GETs are checked once before timing: each succeeds and both print the same JSON.

use crate::repo_root;
use crate::stats::median;
use cloud_sandbox::Sandbox;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

const ROUNDS: usize = 21;
/// Processes per path per round.
const RUNS: usize = 10;
/// Target: the tool's GET against curl's, whole process.
const GET_TARGET: f64 = 1.5;
/// Target: `--help`, milliseconds.
const HELP_TARGET_MS: f64 = 10.0;

/// Prints the section.
pub fn section() {
    println!("## Command-line tool: one GET from exec to exit against curl (issue #30)\n");
    let built = Command::new(env!("CARGO"))
        .args(["build", "--release", "-q", "-p", "customer-cloud-cli"])
        .current_dir(repo_root())
        .status()
        .expect("cargo runs");
    assert!(built.success(), "building customer-cloud-cli failed");
    let binary = repo_root().join("target/release/customer-cloud");
    let scratch = repo_root().join("target/bench-cli");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("a scratch directory under target/");

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("tokio runtime");
    let sb = rt.block_on(Sandbox::start()).expect("sandbox");
    sb.set_rate_limit(None);
    let token = sb.credentials().bearer.bearer_token();
    let paths = Paths {
        tool: tool(&binary, &scratch, &sb.base_url(), &token),
        curl: curl(&format!("{}/v1/version", sb.base_url()), &token),
        help: {
            let mut help = tool(&binary, &scratch, &sb.base_url(), &token);
            help.arg("--help");
            help
        },
    };
    let mut paths = match paths.checked() {
        Ok(paths) => paths,
        Err(reason) => {
            println!("**Not measured:** {reason}\n");
            size(&binary, &scratch);
            return;
        }
    };
    print_table(paths.rounds());
    size(&binary, &scratch);
    let _ = std::fs::remove_dir_all(&scratch);
}

/// The table of the three paths' times (ms per process, by round) against the targets.
fn print_table(times: [Vec<f64>; 3]) {
    let ratios: Vec<f64> = times[0].iter().zip(&times[1]).map(|(t, c)| t / c).collect();
    let to_curl = median(&mut ratios.clone());
    let fastest = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let fast: [f64; 3] = std::array::from_fn(|i| fastest(&times[i]));
    let medians: [f64; 3] = std::array::from_fn(|i| median(&mut times[i].clone()));
    let met = |ok: bool| if ok { "met" } else { "not met" };
    println!(
        "{ROUNDS} interleaved rounds of {RUNS} processes per path (who goes first rotates, order \
         reversed every other round); ms per process from spawn to exit, fastest round / median \
         round. The GET is `GET /v1/version` with a bearer header against the in-process sandbox \
         (loopback, one server thread), output to /dev/null; the tool prints JSON (not a \
         terminal). Ratio: median of the per-round ratios, fastest rounds beside it.\n"
    );
    println!("| process | ms, fastest / median | ratio to curl | fastest rounds | target |");
    println!("| --- | ---: | ---: | ---: | --- |");
    println!(
        "| `curl -sS -H 'Authorization: Bearer …' URL` | {:.2} / {:.2} | 1.00 | 1.00 | |",
        fast[1], medians[1]
    );
    println!(
        "| `customer-cloud integrations get-version` | {:.2} / {:.2} | **{to_curl:.2}** | {:.2} | ≤ {GET_TARGET}× curl: {} |",
        fast[0],
        medians[0],
        fast[0] / fast[1],
        met(to_curl <= GET_TARGET)
    );
    println!(
        "| `customer-cloud --help` | {:.2} / {:.2} | | | ≤ {HELP_TARGET_MS} ms: {} |",
        fast[2],
        medians[2],
        met(medians[2] <= HELP_TARGET_MS)
    );
    println!();
}

/// The three commands, each run [`RUNS`] times per round.
struct Paths {
    tool: Command,
    curl: Command,
    help: Command,
}

impl Paths {
    /// [`ROUNDS`] rounds: 0 the tool's GET, 1 curl's GET, 2 the tool's --help; who goes first
    /// rotates, order reversed every other round. ms per process, by path.
    fn rounds(&mut self) -> [Vec<f64>; 3] {
        let mut times: [Vec<f64>; 3] = Default::default();
        for round in 0..ROUNDS {
            for step in 0..3 {
                let step = if round % 2 == 0 { step } else { 2 - step };
                let which = (step + round) % 3;
                times[which].push(self.per_run_ms(which));
            }
        }
        times
    }

    /// The paths once each, output compared: both GETs succeed with the same JSON, `--help`
    /// succeeds. `Err` says why the comparison cannot be made (curl missing).
    fn checked(mut self) -> Result<Self, String> {
        let tool = self.tool.output().expect("the tool runs");
        assert!(
            tool.status.success(),
            "customer-cloud integrations get-version failed: {}",
            String::from_utf8_lossy(&tool.stderr)
        );
        let curl = match self.curl.output() {
            Ok(out) => out,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(
                    "`curl` is not installed on this machine, so the tool's GET has nothing to be \
                     compared with (install curl: `apt-get install curl`)"
                        .into(),
                );
            }
            Err(e) => panic!("curl does not run: {e}"),
        };
        assert!(
            curl.status.success(),
            "curl's GET failed: {}",
            String::from_utf8_lossy(&curl.stderr)
        );
        let json = |bytes: &[u8]| -> serde_json::Value {
            serde_json::from_slice(bytes).expect("a JSON answer")
        };
        assert_eq!(
            json(&tool.stdout),
            json(&curl.stdout),
            "the tool and curl print the same answer"
        );
        let help = self.help.output().expect("--help runs");
        assert!(help.status.success() && !help.stdout.is_empty());
        for command in [&mut self.tool, &mut self.curl, &mut self.help] {
            command.stdout(Stdio::null()).stderr(Stdio::null());
        }
        Ok(self)
    }

    /// Milliseconds per process of path `which`, over [`RUNS`] sequential processes.
    fn per_run_ms(&mut self, which: usize) -> f64 {
        let command = match which {
            0 => &mut self.tool,
            1 => &mut self.curl,
            _ => &mut self.help,
        };
        let started = Instant::now();
        for _ in 0..RUNS {
            let status = command.status().expect("the process runs");
            assert!(status.success(), "{command:?} failed");
        }
        started.elapsed().as_secs_f64() * 1e3 / RUNS as f64
    }
}

/// `customer-cloud integrations get-version` against `base_url`, nothing read from the user's
/// environment or configuration.
fn tool(binary: &Path, scratch: &Path, base_url: &str, token: &str) -> Command {
    let mut command = Command::new(binary);
    command
        .args(["integrations", "get-version"])
        .env_remove("CUSTOMER_CLOUD_API_KEY")
        .env_remove("CUSTOMER_CLOUD_API_SECRET")
        .env_remove("CUSTOMER_CLOUD_API_PROFILE")
        .env_remove("CUSTOMER_CLOUD_API_JOURNAL")
        .env("CUSTOMER_CLOUD_API_BASE_URL", base_url)
        .env("CUSTOMER_CLOUD_API_BEARER", token)
        .env("XDG_CONFIG_HOME", scratch.join("config"))
        .env("XDG_STATE_HOME", scratch.join("state"));
    command
}

/// curl sending the same GET: same URL, same bearer header.
fn curl(url: &str, token: &str) -> Command {
    let mut command = Command::new("curl");
    command
        .args(["-sS", "--fail", "-H"])
        .arg(format!("Authorization: Bearer {token}"))
        .arg(url);
    command
}

/// The release binary's size, and stripped (a copy run through `strip`) when `strip` is there.
fn size(binary: &Path, scratch: &Path) {
    let bytes = std::fs::metadata(binary).expect("the binary").len();
    let stripped: PathBuf = scratch.join("customer-cloud.stripped");
    let stripped_bytes = std::fs::copy(binary, &stripped)
        .ok()
        .and_then(|_| Command::new("strip").arg(&stripped).status().ok())
        .filter(|s| s.success())
        .and_then(|_| std::fs::metadata(&stripped).ok())
        .map(|m| m.len());
    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    match stripped_bytes {
        Some(s) => println!(
            "Release binary `target/release/customer-cloud`: {bytes} bytes ({:.1} MiB); stripped \
             (`strip`): {s} bytes ({:.1} MiB).\n",
            mib(bytes),
            mib(s)
        ),
        None => println!(
            "Release binary `target/release/customer-cloud`: {bytes} bytes ({:.1} MiB); not \
             stripped (`strip` did not run).\n",
            mib(bytes)
        ),
    }
}
