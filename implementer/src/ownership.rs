//! What a task owns: its `owns` entries as paths, folders or globs. The built-in executor
//! touches only those files; the judge looks only at changes inside them (in a team run other
//! Implementers change other files of the same work tree at the same time); peer notes are
//! about changes outside them.

use globset::{Glob, GlobSet, GlobSetBuilder};

/// The files a task may change: its `owns` entries as paths, folders or globs; everything
/// when it owns nothing.
#[derive(Debug)]
pub struct Ownership {
    paths: Vec<String>,
    globs: Option<GlobSet>,
}

impl Ownership {
    /// The ownership of `owns`; a malformed glob is an error naming the entry.
    pub fn new(owns: &[String]) -> Result<Ownership, String> {
        let mut paths = Vec::new();
        let mut globs = GlobSetBuilder::new();
        let mut any_glob = false;
        for entry in owns {
            let entry = entry.trim_start_matches("./");
            if entry.contains(['*', '?', '[', '{']) {
                let glob = Glob::new(entry).map_err(|e| format!("owns entry `{entry}`: {e}"))?;
                globs.add(glob);
                any_glob = true;
            } else {
                paths.push(entry.trim_end_matches('/').to_string());
            }
        }
        let globs = if any_glob {
            Some(globs.build().map_err(|e| format!("owns globs: {e}"))?)
        } else {
            None
        };
        Ok(Ownership { paths, globs })
    }

    /// The ownership of a task that owns nothing: every file.
    pub fn everything() -> Ownership {
        Ownership {
            paths: Vec::new(),
            globs: None,
        }
    }

    /// Whether `relative` (a repository-relative `/` path) is owned; owning nothing owns all.
    pub fn contains(&self, relative: &str) -> bool {
        if self.paths.is_empty() && self.globs.is_none() {
            return true;
        }
        self.paths.iter().any(|p| {
            p.is_empty()
                || relative == p
                || relative
                    .strip_prefix(p.as_str())
                    .is_some_and(|r| r.starts_with('/'))
        }) || self.globs.as_ref().is_some_and(|g| g.is_match(relative))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ownership_covers_files_folders_and_globs() {
        let owns = ["src/a.rs", "./tests/", "benches/**/*.rs"].map(String::from);
        let scope = Ownership::new(&owns).expect("valid");
        assert!(scope.contains("src/a.rs"));
        assert!(!scope.contains("src/a.rs.bak"));
        assert!(!scope.contains("src/b.rs"));
        assert!(scope.contains("tests/it.rs"));
        assert!(scope.contains("benches/x/y.rs"));
        assert!(!scope.contains("testsuite/x.rs"));
        assert!(Ownership::new(&[]).expect("empty").contains("anything.rs"));
        assert!(Ownership::new(&["src/[".to_string()]).is_err());
    }
}
