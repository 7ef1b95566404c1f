//! Formatting for the builtin executor and what it needs from cargo: the workspace root (cargo
//! names files relative to it) and each package's edition (rustfmt parses by edition).
//!
//! Files are formatted one at a time through rustfmt's stdin: `cargo fmt` and `rustfmt FILE`
//! also format every module the file declares, which may belong to another Implementer's task.

use crate::executor::process::{self, Extra};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What `cargo metadata --no-deps` says about the repository's workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Workspace {
    /// The workspace root; cargo's diagnostics name files relative to it.
    pub(crate) root: PathBuf,
    /// Each package's folder and edition.
    packages: Vec<(PathBuf, String)>,
}

#[derive(Deserialize)]
struct Metadata {
    workspace_root: PathBuf,
    packages: Vec<Package>,
}

#[derive(Deserialize)]
struct Package {
    edition: String,
    manifest_path: PathBuf,
}

impl Workspace {
    /// Reads the workspace of the repository at `repo` (cargo must be able to read it).
    pub(crate) fn read(repo: &Path, timeout: Duration) -> Result<Workspace, String> {
        let argv = ["cargo", "metadata", "--no-deps", "--format-version", "1"].map(String::from);
        let done = process::run(&argv, repo, timeout, &Extra::default())
            .map_err(|e| format!("cargo metadata did not run: {e:?}"))?;
        if done.code != Some(0) {
            let err = String::from_utf8_lossy(&done.stderr);
            let first = err
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("no message");
            return Err(format!("cargo metadata failed: {first}"));
        }
        Workspace::parse(&done.stdout)
    }

    fn parse(json: &[u8]) -> Result<Workspace, String> {
        let meta: Metadata = serde_json::from_slice(json)
            .map_err(|e| format!("cargo metadata printed unexpected JSON: {e}"))?;
        let packages = meta
            .packages
            .into_iter()
            .filter_map(|p| Some((p.manifest_path.parent()?.to_path_buf(), p.edition)))
            .collect();
        Ok(Workspace {
            root: meta.workspace_root,
            packages,
        })
    }

    /// The edition of the package holding `file` (the innermost one), 2021 when none does.
    pub(crate) fn edition_of(&self, file: &Path) -> &str {
        self.packages
            .iter()
            .filter(|(dir, _)| file.starts_with(dir))
            .max_by_key(|(dir, _)| dir.components().count())
            .map_or("2021", |(_, edition)| edition.as_str())
    }
}

/// How formatting one file went.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Formatted {
    /// The file changed.
    Changed,
    /// It was already formatted.
    Unchanged,
    /// rustfmt could not format it (a parse error, rustfmt missing), with the reason.
    Failed(String),
}

/// Formats `file` with rustfmt for `edition`, run in the file's folder so its `rustfmt.toml`
/// applies, and writes it back when it changed.
pub(crate) fn format_file(file: &Path, edition: &str, timeout: Duration) -> Formatted {
    let Ok(before) = std::fs::read_to_string(file) else {
        return Formatted::Failed(format!("{} is not readable text", file.display()));
    };
    let dir = file.parent().unwrap_or(Path::new("."));
    let argv = ["rustfmt", "--edition", edition].map(String::from);
    let extra = Extra {
        stdin: Some(before.clone().into_bytes()),
        env: Vec::new(),
    };
    let done = match process::run(&argv, dir, timeout, &extra) {
        Ok(done) => done,
        Err(e) => return Formatted::Failed(format!("rustfmt did not run: {e:?}")),
    };
    if done.code != Some(0) {
        let err = String::from_utf8_lossy(&done.stderr);
        let first = err
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("no message");
        return Formatted::Failed(format!("rustfmt: {first}"));
    }
    let Ok(after) = String::from_utf8(done.stdout) else {
        return Formatted::Failed("rustfmt printed something that is not UTF-8".into());
    };
    if after == before {
        return Formatted::Unchanged;
    }
    match std::fs::write(file, after) {
        Ok(()) => Formatted::Changed,
        Err(e) => Formatted::Failed(format!("cannot write {}: {e}", file.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_innermost_package_gives_the_edition() {
        let json = br#"{"workspace_root":"/w","packages":[
            {"name":"a","edition":"2018","manifest_path":"/w/Cargo.toml"},
            {"name":"b","edition":"2024","manifest_path":"/w/crates/b/Cargo.toml"}]}"#;
        let ws = Workspace::parse(json).expect("parses");
        assert_eq!(ws.root, PathBuf::from("/w"));
        assert_eq!(ws.edition_of(Path::new("/w/crates/b/src/lib.rs")), "2024");
        assert_eq!(ws.edition_of(Path::new("/w/src/main.rs")), "2018");
        assert_eq!(ws.edition_of(Path::new("/elsewhere/x.rs")), "2021");
        assert!(Workspace::parse(b"not json").is_err());
    }

    #[test]
    fn formatting_rewrites_only_what_rustfmt_changes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("a.rs");
        std::fs::write(&file, "fn  main(){}").expect("write");
        let limit = Duration::from_secs(60);
        assert_eq!(format_file(&file, "2021", limit), Formatted::Changed);
        assert_eq!(
            std::fs::read_to_string(&file).expect("read"),
            "fn main() {}\n"
        );
        assert_eq!(format_file(&file, "2021", limit), Formatted::Unchanged);
        std::fs::write(&file, "fn main( {}").expect("write");
        assert!(
            matches!(format_file(&file, "2021", limit), Formatted::Failed(e) if e.contains("unclosed delimiter"))
        );
    }
}
