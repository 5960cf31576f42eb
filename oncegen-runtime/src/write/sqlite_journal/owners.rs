//! Who holds an entry: every open [`SqliteJournal`](super::SqliteJournal) is an owner with a
//! random id and an exclusive lock on `<journal>.owners/<id>.lock`, held until it is dropped or
//! its process ends (the system releases the lock of a killed process at once). An owner whose
//! lock can be taken is gone, and its open entries are anyone's to settle.
//!
//! Why lock files and not process ids: a lock needs no clock and no lease, cannot be fooled by a
//! reused process id, and works the same on every platform `fs4` supports.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use fs4::fs_std::FileExt as _;

/// This journal's owner id and the lock that says it is alive.
pub(super) struct Owners {
    dir: PathBuf,
    me: String,
    _lock: File,
}

impl Owners {
    /// Registers a new owner beside the journal file `journal`.
    pub(super) fn register(journal: &Path) -> io::Result<Self> {
        let mut dir = journal.as_os_str().to_owned();
        dir.push(".owners");
        let dir = PathBuf::from(dir);
        let mut builder = fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(&dir)?;
        let me = uuid::Uuid::new_v4().simple().to_string();
        let lock = owner_file(&dir.join(format!("{me}.lock")))?;
        if !lock.try_lock_exclusive()? {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                "a new owner id of the write journal is taken",
            ));
        }
        Ok(Owners {
            dir,
            me,
            _lock: lock,
        })
    }

    /// This owner's id.
    pub(super) fn me(&self) -> &str {
        &self.me
    }

    /// Whether `owner` is another owner that is still open (its lock is held).
    pub(super) fn other_alive(&self, owner: &str) -> bool {
        if owner == self.me {
            return false;
        }
        if owner.is_empty() || !owner.chars().all(|c| c.is_ascii_alphanumeric()) {
            // Not an id this journal writes: nobody holds it.
            return false;
        }
        let path = self.dir.join(format!("{owner}.lock"));
        let file = match OpenOptions::new().write(true).open(&path) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return false,
            // Cannot tell: take it as alive, so that nothing is settled twice at once.
            Err(_) => return true,
        };
        match file.try_lock_exclusive() {
            Ok(true) => {
                // Gone: its lock file is left over.
                let _ = fs::remove_file(&path);
                false
            }
            Ok(false) | Err(_) => true,
        }
    }
}

/// Creates (or opens) an owner's lock file, owner-only.
fn owner_file(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.create(true).truncate(false).write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

#[cfg(test)]
mod tests {
    use super::Owners;

    #[test]
    fn an_open_owner_is_alive_and_a_dropped_one_is_gone() {
        let dir = std::env::temp_dir().join(format!("owners-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let journal = dir.join("journal");
        let a = Owners::register(&journal).unwrap();
        let b = Owners::register(&journal).unwrap();
        assert!(a.other_alive(b.me()));
        assert!(!a.other_alive(a.me()));
        let gone = b.me().to_owned();
        drop(b);
        assert!(!a.other_alive(&gone));
        assert!(!a.other_alive("never-registered"));
        assert!(!a.other_alive("../escape"));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
