//! Build and test commands retake starts in a reviewed repository leave its work tree as they
//! found it: their build output goes under `.retake/build/` (Cargo's target folder, Python's
//! bytecode cache) or nowhere (pytest's cache), and a lock file they create that was not there
//! before ([`LOCK_FILES`]) is removed when they end. Otherwise a review writes `target/` and
//! `Cargo.lock` into a project that does not ignore them, and the next review of the unchanged
//! repository sees "changes".
//!
//! Analyzers (`cargo clippy`, `cargo check`) build into [`analyzer_target_dir`] instead: a
//! directory per repository in the user's cache, outside the work tree, so that their build
//! survives the review (the next one is incremental) without growing the repository;
//! [`mark_analyzer_target_used`] stamps the one a review uses and removes the folders of
//! repositories no review has built for [`STALE_AFTER`], so the cache does not grow without
//! bound as repositories (and temporary copies of them) come and go.
//!
//! What remains: a command that writes other files into the tree (a test writing fixtures, a
//! tool with its own cache folder) is not undone; the review's scope is read before any
//! command runs.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// Lock files a build or test command creates when they are missing (`cargo test` writes
/// `Cargo.lock`); one that did not exist before the command is removed after it.
pub const LOCK_FILES: [&str; 1] = ["Cargo.lock"];

/// Where build output goes, under the repository's `.retake/`.
const BUILD_DIR: &str = ".retake/build";

/// The environment that sends a command's build output out of the work tree `root`: appended
/// to the inherited environment (a caller's own variables, added after, win). A
/// `CARGO_TARGET_DIR` the user set outside the tree is kept.
pub fn build_env(root: &Path) -> Vec<(String, String)> {
    let build = root.join(BUILD_DIR);
    let mut env = Vec::new();
    let user_target = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from);
    if !user_target.is_some_and(|t| t.is_absolute() && !t.starts_with(root)) {
        env.push(var("CARGO_TARGET_DIR", &build.join("cargo-target")));
    }
    env.push(("PYTHONDONTWRITEBYTECODE".into(), "1".into()));
    env.push(var("PYTHONPYCACHEPREFIX", &build.join("pycache")));
    // pytest writes `.pytest_cache/` into the rootdir unless its cache plugin is off.
    let pytest = std::env::var("PYTEST_ADDOPTS").unwrap_or_default();
    let pytest = format!("{pytest} -p no:cacheprovider");
    env.push(("PYTEST_ADDOPTS".into(), pytest.trim().to_string()));
    env
}

/// Where an analyzer's cargo build of the work tree `root` goes: the user's `CARGO_TARGET_DIR`
/// when it is absolute and outside the tree, else `retake/target/<16 hex digits of SHA-256 of
/// the root's path>` under `$XDG_CACHE_HOME` (absolute), `$HOME/.cache`, or the system's
/// temporary directory — whichever comes first and is not inside the tree.
pub fn analyzer_target_dir(root: &Path) -> PathBuf {
    let env_dir = |name: &str| std::env::var_os(name).map(PathBuf::from);
    let outside = |p: &PathBuf| p.is_absolute() && !p.starts_with(root);
    if let Some(user) = env_dir("CARGO_TARGET_DIR").filter(outside) {
        return user;
    }
    let digest = Sha256::digest(root.to_string_lossy().as_bytes());
    user_cache_dir(root)
        .join("retake")
        .join("target")
        .join(hex::encode(&digest[..8]))
}

/// The user's cache folder, never inside the work tree `root`: `$XDG_CACHE_HOME` (absolute),
/// `$HOME/.cache`, or the system's temporary directory — whichever comes first and is not
/// inside the tree.
pub fn user_cache_dir(root: &Path) -> PathBuf {
    let env_dir = |name: &str| std::env::var_os(name).map(PathBuf::from);
    let outside = |p: &PathBuf| p.is_absolute() && !p.starts_with(root);
    [
        env_dir("XDG_CACHE_HOME"),
        env_dir("HOME").map(|h| h.join(".cache")),
    ]
    .into_iter()
    .flatten()
    .find(outside)
    .unwrap_or_else(std::env::temp_dir)
}

/// This machine's key for what retake caches inside a reviewed tree: 16 random bytes in
/// `retake/cache-key` under [`user_cache_dir`], made on first use (mode 0600). A cache the
/// reviewed repository carries itself — committed, or written by the change under review — was
/// not made with this key, so it is foreign and ignored: no repository can hand the gate results
/// for files it did not check. `None` when the key can be neither read nor made (then nothing is
/// cached).
pub fn cache_key(root: &Path) -> Option<[u8; 16]> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let file = user_cache_dir(root).join("retake").join("cache-key");
    let read = || std::fs::read(&file).ok()?.try_into().ok();
    if let Some(key) = read() {
        return Some(key);
    }
    let dir = file.parent()?;
    std::fs::create_dir_all(dir).ok()?;
    // Written whole under a name of its own, then linked into place: a review racing this one
    // sees no key or the whole key, and the first link made wins for both.
    let key: [u8; 16] = rand::random();
    let tmp = dir.join(format!(
        "cache-key.{}",
        hex::encode(rand::random::<[u8; 8]>())
    ));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&tmp)
        .and_then(|mut f| f.write_all(&key));
    let linked = written.and_then(|()| std::fs::hard_link(&tmp, &file));
    std::fs::remove_file(&tmp).ok();
    match linked {
        Ok(()) => Some(key),
        Err(_) => read(),
    }
}

/// How long an analyzer build folder may go unused before a review removes it.
pub const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(7 * 24 * 3600);

/// The stamp file whose modification time says when a review last used a build folder.
const USED_STAMP: &str = ".retake-used";

/// Stamps `target` (an [`analyzer_target_dir`]) as used now, creating it, and removes its
/// sibling folders under `retake/target/` whose stamp (or, without one, the folder itself) is
/// older than `stale_after`. Only folders of that cache are touched; failures are ignored (a
/// folder left behind costs disk, never a review).
pub fn mark_analyzer_target_used(target: &Path, stale_after: std::time::Duration) {
    // A user's own `CARGO_TARGET_DIR` is theirs: neither stamped nor pruned around.
    let Some(parent) = target.parent().filter(|p| p.ends_with("retake/target")) else {
        return;
    };
    if std::fs::create_dir_all(target).is_err() {
        return;
    }
    let _ = std::fs::write(target.join(USED_STAMP), b"");
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    let now = std::time::SystemTime::now();
    for dir in entries.flatten().map(|e| e.path()).filter(|p| p != target) {
        let stamp = dir.join(USED_STAMP);
        let used = std::fs::metadata(&stamp)
            .or_else(|_| std::fs::metadata(&dir))
            .and_then(|m| m.modified());
        let stale = used.is_ok_and(|t| now.duration_since(t).is_ok_and(|age| age > stale_after));
        if stale && dir.is_dir() {
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

fn var(name: &str, path: &Path) -> (String, String) {
    (name.to_string(), path.display().to_string())
}

/// The [`LOCK_FILES`] missing from `root` before a command; [`LockGuard::restore`] removes the
/// ones the command created.
#[derive(Debug)]
pub struct LockGuard {
    missing: Vec<PathBuf>,
}

impl LockGuard {
    /// Notes which lock files `root` lacks now.
    pub fn before(root: &Path) -> LockGuard {
        LockGuard {
            missing: LOCK_FILES
                .iter()
                .map(|f| root.join(f))
                .filter(|p| !p.exists())
                .collect(),
        }
    }

    /// Removes the lock files that appeared since [`LockGuard::before`]; the paths removed.
    pub fn restore(self) -> Vec<PathBuf> {
        self.missing
            .into_iter()
            // Absent again (or never created): nothing to undo.
            .filter(|p| p.is_file() && std::fs::remove_file(p).is_ok())
            .collect()
    }
}

/// A command run in the sandbox that ran to completion, its output as (lossy) UTF-8 text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ran {
    /// Its exit code; `None` when a signal ended it.
    pub code: Option<i32>,
    /// Its standard output (capped).
    pub stdout: String,
    /// Its standard error (capped).
    pub stderr: String,
}

impl Ran {
    /// Exit 0.
    pub fn ok(&self) -> bool {
        self.code == Some(0)
    }

    /// The last non-empty line of its error output (or its output), for a one-line message.
    pub fn last_line(&self) -> String {
        let pick = |t: &str| {
            t.lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .map(|l| l.trim().to_string())
        };
        pick(&self.stderr)
            .or_else(|| pick(&self.stdout))
            .unwrap_or_default()
    }
}

/// Runs a build or test command `argv` in the work tree `cwd` through the one process runner
/// ([`super::run`]) in this sandbox: its build output out of the tree ([`build_env`]; the
/// variables of `extra`, added after, win), a lock file it creates removed after
/// ([`LockGuard`]), its process group killed after `timeout`.
pub fn run(
    argv: &[String],
    cwd: &Path,
    timeout: std::time::Duration,
    extra: &super::Extra,
) -> Result<Ran, super::RunError> {
    let mut env = build_env(cwd);
    env.extend(extra.env.iter().cloned());
    let sandboxed = super::Extra {
        stdin: extra.stdin.clone(),
        env,
    };
    let locks = LockGuard::before(cwd);
    let ran = super::run(argv, cwd, timeout, &sandboxed);
    locks.restore();
    let done = ran?;
    let text = |bytes: Vec<u8>| String::from_utf8_lossy(&bytes).into_owned();
    Ok(Ran {
        code: done.code,
        stdout: text(done.stdout),
        stderr: text(done.stderr),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_output_goes_under_retake_and_pytest_keeps_no_cache() {
        let root = Path::new("/repo");
        let env = build_env(root);
        let get = |k: &str| env.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        assert_eq!(get("PYTHONDONTWRITEBYTECODE"), Some("1"));
        assert_eq!(
            get("PYTHONPYCACHEPREFIX"),
            Some("/repo/.retake/build/pycache")
        );
        assert!(get("PYTEST_ADDOPTS").is_some_and(|v| v.ends_with("-p no:cacheprovider")));
        // Either the tree's own build folder, or the user's target folder outside the tree.
        let target = get("CARGO_TARGET_DIR");
        assert!(
            target == Some("/repo/.retake/build/cargo-target")
                || (target.is_none() && std::env::var_os("CARGO_TARGET_DIR").is_some()),
            "{target:?}"
        );
    }

    #[test]
    fn analyzer_builds_go_to_the_user_cache_outside_the_tree() {
        let root = Path::new("/home/u/src/repo");
        let dir = analyzer_target_dir(root);
        assert!(!dir.starts_with(root), "{}", dir.display());
        if std::env::var_os("CARGO_TARGET_DIR").is_none() {
            let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            assert_eq!(name, "ae9fbcc6b5c02c00");
            assert!(dir.parent().is_some_and(|p| p.ends_with("retake/target")));
        }
    }

    #[test]
    fn a_used_build_folder_is_stamped_and_stale_siblings_removed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let cache = dir.path().join("retake/target");
        let (old, mine) = (
            cache.join("0000000000000001"),
            cache.join("0000000000000002"),
        );
        std::fs::create_dir_all(old.join("debug")).expect("mkdir");
        std::fs::write(old.join(USED_STAMP), b"").expect("stamp");
        std::thread::sleep(std::time::Duration::from_millis(50));
        // Unused for longer than 10 ms: removed; the review's own folder is kept and stamped.
        mark_analyzer_target_used(&mine, std::time::Duration::from_millis(10));
        assert!(!old.exists() && mine.join(USED_STAMP).is_file());
        let fresh = cache.join("0000000000000003");
        std::fs::create_dir_all(&fresh).expect("mkdir");
        mark_analyzer_target_used(&mine, STALE_AFTER);
        assert!(fresh.is_dir(), "a folder used within the week stays");
    }

    #[test]
    fn a_lock_file_the_command_created_is_removed_and_an_existing_one_kept() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fresh = LockGuard::before(dir.path());
        std::fs::write(dir.path().join("Cargo.lock"), "# created\n").expect("write");
        assert_eq!(fresh.restore(), vec![dir.path().join("Cargo.lock")]);
        assert!(!dir.path().join("Cargo.lock").exists());

        std::fs::write(dir.path().join("Cargo.lock"), "# the project's\n").expect("write");
        let kept = LockGuard::before(dir.path());
        std::fs::write(dir.path().join("Cargo.lock"), "# updated\n").expect("write");
        assert_eq!(kept.restore(), Vec::<PathBuf>::new());
        assert_eq!(
            std::fs::read_to_string(dir.path().join("Cargo.lock")).expect("read"),
            "# updated\n"
        );
    }
    #[test]
    fn a_command_runs_as_text_and_a_slow_or_missing_one_does_not() {
        use std::time::Duration;
        let dir = tempfile::tempdir().expect("tempdir");
        let argv = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let done = run(
            &argv(&["sh", "-c", "printf 'out\\377'; echo err >&2; exit 3"]),
            dir.path(),
            Duration::from_secs(10),
            &super::super::Extra::default(),
        )
        .expect("ran");
        assert_eq!(
            (done.code, done.stdout.as_str(), done.stderr.as_str()),
            (Some(3), "out\u{FFFD}", "err\n")
        );
        assert_eq!((done.ok(), done.last_line().as_str()), (false, "err"));
        let slow = run(
            &argv(&["sleep", "5"]),
            dir.path(),
            Duration::from_millis(100),
            &super::super::Extra::default(),
        );
        assert!(matches!(slow, Err(super::super::RunError::TimedOut)));
        let missing = run(
            &argv(&["retake-no-such-tool"]),
            dir.path(),
            Duration::from_secs(1),
            &super::super::Extra::default(),
        );
        assert!(
            matches!(missing, Err(super::super::RunError::Spawn(e)) if e.kind() == std::io::ErrorKind::NotFound)
        );
    }
}
