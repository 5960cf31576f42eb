//! Crate versions: parsing, the bump a change class implies, and the version already written in
//! a Cargo.toml.

use super::diff::Class;
use std::fmt;

/// A `MAJOR.MINOR.PATCH` version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version {
    /// Major.
    pub major: u64,
    /// Minor.
    pub minor: u64,
    /// Patch.
    pub patch: u64,
}

impl Version {
    /// The version of a crate without a recorded one.
    pub const INITIAL: Version = Version {
        major: 0,
        minor: 1,
        patch: 0,
    };

    /// Parses `MAJOR.MINOR.PATCH` (no pre-release or build suffix).
    pub fn parse(text: &str) -> Option<Version> {
        let mut parts = text.trim().split('.').map(|p| {
            (!p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
                .then(|| p.parse::<u64>().ok())
                .flatten()
        });
        let version = Version {
            major: parts.next()??,
            minor: parts.next()??,
            patch: parts.next()??,
        };
        parts.next().is_none().then_some(version)
    }

    /// The next version for a revision whose most severe change is `class` (cargo semver:
    /// before 1.0 breaking bumps the minor and everything else the patch; from 1.0 on
    /// breaking, additive and docs only bump major, minor and patch).
    pub fn bumped(self, class: Class) -> Version {
        let Version {
            major,
            minor,
            patch,
        } = self;
        match (major, class) {
            (0, Class::Breaking) | (1.., Class::Additive) => Version::new(major, minor + 1, 0),
            (0, _) | (1.., Class::DocsOnly) => Version::new(major, minor, patch + 1),
            (1.., Class::Breaking) => Version::new(major + 1, 0, 0),
        }
    }

    /// Which part [`bumped`](Self::bumped) increments, in words.
    pub fn bump_name(self, class: Class) -> &'static str {
        match (self.major, class) {
            (0, Class::Breaking) | (1.., Class::Additive) => "minor",
            (0, _) | (1.., Class::DocsOnly) => "patch",
            (1.., Class::Breaking) => "major",
        }
    }

    const fn new(major: u64, minor: u64, patch: u64) -> Version {
        Version {
            major,
            minor,
            patch,
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// The `version = "…"` value of the `[package]` table of a Cargo.toml, if written explicitly
/// (`version.workspace = true` gives `None`).
pub fn package_version(cargo_toml: &str) -> Option<&str> {
    let mut in_package = false;
    for line in cargo_toml.lines().map(str::trim) {
        if line.starts_with('[') {
            in_package = line == "[package]";
            continue;
        }
        let Some(value) = line.strip_prefix("version") else {
            continue;
        };
        let Some(value) = value.trim_start().strip_prefix('=') else {
            continue;
        };
        if in_package {
            return value.trim().strip_prefix('"')?.split('"').next();
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_only_plain_versions() {
        assert_eq!(Version::parse("1.20.3"), Some(Version::new(1, 20, 3)));
        for bad in ["1.2", "1.2.3.4", "1.2.3-beta", "v1.2.3", "1..3", ""] {
            assert_eq!(Version::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn bumps_follow_cargo_semver() {
        let pre = Version::new(0, 3, 4);
        assert_eq!(pre.bumped(Class::Breaking), Version::new(0, 4, 0));
        assert_eq!(pre.bumped(Class::Additive), Version::new(0, 3, 5));
        assert_eq!(pre.bumped(Class::DocsOnly), Version::new(0, 3, 5));
        let stable = Version::new(2, 3, 4);
        assert_eq!(stable.bumped(Class::Breaking), Version::new(3, 0, 0));
        assert_eq!(stable.bumped(Class::Additive), Version::new(2, 4, 0));
        assert_eq!(stable.bumped(Class::DocsOnly), Version::new(2, 3, 5));
        assert_eq!(stable.bump_name(Class::Breaking), "major");
        assert_eq!(pre.bump_name(Class::Breaking), "minor");
    }

    #[test]
    fn reads_the_package_version_only() {
        let toml =
            "[package]\nname = \"x\"\nversion = \"0.4.1\"\n\n[dependencies]\nversion = \"9\"\n";
        assert_eq!(package_version(toml), Some("0.4.1"));
        let inherited = "[package]\nversion.workspace = true\n[dependencies]\nversion = \"9\"\n";
        assert_eq!(package_version(inherited), None);
    }
}
