//! The server binary over stdio, spoken to one raw JSON-RPC line at a time (each answer read
//! before the next request), against a sandbox: what the raw-protocol tests share.

#![allow(dead_code)] // each test binary uses part of it

use cloud_sandbox::Sandbox;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A server child process and its pipes.
pub struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

/// A fresh state directory for `test` (also the configuration directory: no user's file).
pub fn state_dir(test: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("customer-cloud-mcp-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

impl Server {
    /// A server of `sb` with `flags` and the sandbox's signed credential, its state under
    /// `state`, initialized by a client speaking protocol 2025-06-18.
    pub fn start(sb: &Sandbox, state: &PathBuf, flags: &[&str]) -> Self {
        Self::start_speaking("2025-06-18", sb, state, flags)
    }

    /// [`Server::start`], the client speaking protocol `version`.
    pub fn start_speaking(version: &str, sb: &Sandbox, state: &PathBuf, flags: &[&str]) -> Self {
        let cred = &sb.credentials().signed;
        let mut command = Command::new(env!("CARGO_BIN_EXE_customer-cloud-mcp"));
        for name in ["BEARER", "JOURNAL", "PROFILE"] {
            command.env_remove(format!("CUSTOMER_CLOUD_API_{name}"));
        }
        let mut child = command
            .args(flags)
            .env("CUSTOMER_CLOUD_API_BASE_URL", sb.base_url())
            .env("CUSTOMER_CLOUD_API_KEY", &cred.prefix)
            .env("CUSTOMER_CLOUD_API_SECRET", &cred.secret)
            .env("XDG_STATE_HOME", state)
            .env("XDG_CONFIG_HOME", state)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts");
        let stdin = child.stdin.take().expect("standard input");
        let stdout = BufReader::new(child.stdout.take().expect("standard output"));
        let mut server = Server {
            child,
            stdin,
            stdout,
            next_id: 1,
        };
        let client = json!({"protocolVersion": version, "capabilities": {},
            "clientInfo": {"name": "raw-json-rpc-test", "version": "0"}});
        server.request("initialize", client);
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        server
    }

    /// Writes one message.
    pub fn send(&mut self, message: &Value) {
        writeln!(self.stdin, "{message}").expect("writing a request");
        self.stdin.flush().expect("flushing a request");
    }

    /// Sends request `method` and reads lines until its answer, which it returns whole.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        loop {
            let mut line = String::new();
            let read = self.stdout.read_line(&mut line).expect("reading an answer");
            assert!(read > 0, "the server ended before answering {method}");
            let answer: Value = serde_json::from_str(&line).expect("one JSON message a line");
            if answer["id"] == id {
                return answer;
            }
        }
    }

    /// Sends request `method` without waiting for its answer; its id.
    pub fn send_request(&mut self, method: &str, params: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// The result of calling `tool` with `arguments`.
    pub fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let answer = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        answer["result"].clone()
    }

    /// Kills the server (SIGKILL) and reaps it.
    pub fn kill(mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reaped");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A tool result's text, its blocks joined by line breaks.
pub fn text(result: &Value) -> String {
    result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}
