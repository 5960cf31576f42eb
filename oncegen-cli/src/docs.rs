//! Shell completions and man pages, generated from the command tree itself (clap_complete,
//! clap_mangen): `<bin> completions <SHELL>` prints a completion script, `<bin> man` the
//! tool's man page, `<bin> man --dir DIR` one page per command (`<bin>-<area>-<op>.1`).

use crate::{Failure, exit};
use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgMatches};
use clap_complete::Shell;
use std::io::Write;
use std::path::Path;

/// `completions`.
pub const COMPLETIONS: &str = "completions";
/// `man`.
pub const MAN: &str = "man";

/// The `completions` and `man` commands of the program `bin`.
pub fn commands(bin: &str) -> [clap::Command; 2] {
    let shells = ["bash", "elvish", "fish", "powershell", "zsh"];
    [
        clap::Command::new(COMPLETIONS)
            .about(format!(
                "Print a shell completion script (e.g. `source <({bin} completions bash)`)"
            ))
            .arg(
                Arg::new("shell")
                    .required(true)
                    .value_parser(PossibleValuesParser::new(shells)),
            ),
        clap::Command::new(MAN)
            .about("Print the man page, or write one page per command into --dir")
            .arg(
                Arg::new("dir")
                    .long("dir")
                    .value_name("DIR")
                    .help("Write <bin>.1 and a page per command here"),
            ),
    ]
}

fn failed(what: &str, e: std::io::Error) -> Failure {
    Failure {
        code: exit::OTHER,
        message: format!("{what}: {e}"),
        settled_key: None,
    }
}

/// Runs `completions` or `man` (`name`) for the tool `root`.
pub fn run(mut root: clap::Command, name: &str, matches: &ArgMatches) -> Result<(), Failure> {
    let bin = root.get_name().to_owned();
    let mut out = std::io::stdout().lock();
    if name == COMPLETIONS {
        let shell: Shell = matches
            .get_one::<String>("shell")
            .expect("required")
            .parse()
            .map_err(|e: String| Failure::usage(e))?;
        // Into memory first: `generate` panics when its writer fails (a closed pipe).
        let mut script = Vec::new();
        clap_complete::generate(shell, &mut root, bin.clone(), &mut script);
        if shell == Shell::Bash {
            script = bash_hyphen_fix(&script, &bin);
        }
        return out
            .write_all(&script)
            .and_then(|()| out.flush())
            .map_err(|e| failed("writing the script", e));
    }
    root.build();
    match matches.get_one::<String>("dir") {
        None => clap_mangen::Man::new(root)
            .render(&mut out)
            .map_err(|e| failed("writing the man page", e)),
        Some(dir) => write_pages(&root, Path::new(dir), &bin)
            .map_err(|e| failed(&format!("writing man pages into {dir}"), e)),
    }
}

/// clap_complete's bash script for a binary whose name has a hyphen never completes past the
/// first word: its dispatch loop names the state `customer__cloud__subcmd__dns`, its case arms
/// `customer__subcmd__cloud__subcmd__dns` (clap-rs/clap#6421, open; found by this crate's
/// completion test). The arms are respelled the way the loop spells them.
fn bash_hyphen_fix(script: &[u8], bin: &str) -> Vec<u8> {
    if !bin.contains('-') {
        return script.to_vec();
    }
    let text = String::from_utf8_lossy(script);
    let wrong = format!("{}__subcmd__", bin.replace('-', "__subcmd__"));
    let right = format!("{}__subcmd__", bin.replace('-', "__"));
    text.replace(&wrong, &right).into_bytes()
}

/// Writes the page of `command` (named `name`) and of each of its subcommands into `dir`.
fn write_pages(command: &clap::Command, dir: &Path, name: &str) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut file = std::fs::File::create(dir.join(format!("{name}.1")))?;
    clap_mangen::Man::new(command.clone())
        .title(name.to_uppercase())
        .render(&mut file)?;
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        write_pages(sub, dir, &format!("{name}-{}", sub.get_name()))?;
    }
    Ok(())
}
