//! Paths written into a generated crate: always relative, so a crate does not name the machine
//! it was generated on.

use std::io;
use std::path::{Component, Path, PathBuf};

/// `target` as a path relative to the directory `from` (which need not exist yet), e.g.
/// `../../oncegen-runtime`; both are resolved against the current directory and through symlinks
/// first, so the result holds wherever the two really are.
pub fn relative(from: &Path, target: &Path) -> io::Result<PathBuf> {
    let from = resolved(from)?;
    let target = resolved(target)?;
    let from: Vec<Component<'_>> = from.components().collect();
    let target: Vec<Component<'_>> = target.components().collect();
    let common = from.iter().zip(&target).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the runtime and the generated crate share no root: no relative path joins them",
        ));
    }
    let mut out = PathBuf::new();
    for _ in common..from.len() {
        out.push("..");
    }
    for part in &target[common..] {
        out.push(part);
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    Ok(out)
}

/// How the header names the spec: the path as given when it is relative, else its file name.
pub fn label(spec: &Path) -> String {
    if spec.is_absolute() {
        spec.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "the OpenAPI document".to_owned())
    } else {
        spec.display().to_string().replace('\\', "/")
    }
}

/// `path` absolute, through symlinks: `.` and `..` applied, then its deepest existing
/// ancestor canonicalized and the rest (not created yet) appended.
fn resolved(path: &Path) -> io::Result<PathBuf> {
    let mut absolute = PathBuf::new();
    for part in std::env::current_dir()?.join(path).components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                absolute.pop();
            }
            other => absolute.push(other),
        }
    }
    let mut existing = absolute.as_path();
    let mut rest = Vec::new();
    while !existing.exists() {
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name);
                existing = parent;
            }
            _ => break,
        }
    }
    let mut out = existing.canonicalize()?;
    out.extend(rest.into_iter().rev());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_not_made_yet_reaches_an_existing_one_through_their_common_parent() {
        let temp = std::env::temp_dir();
        let from = temp.join("sdk-paths-not-made/out/crates/new");
        let rel = relative(&from, &temp).unwrap();
        assert_eq!(rel, Path::new("../../../.."));
        let rel = relative(&temp.join("sdk-paths-not-made/a/../b"), &temp).unwrap();
        assert_eq!(rel, Path::new("../.."));
        assert!(!rel.is_absolute());
    }

    #[test]
    fn an_absolute_spec_is_labelled_by_its_file_name() {
        let spec = std::env::temp_dir().join("api.yaml");
        assert_eq!(label(&spec), "api.yaml");
        assert_eq!(label(Path::new("specs/api.yaml")), "specs/api.yaml");
    }
}
