//! Where a finding points: a repository-relative file position, or a symbolic place in a document.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Component, Path, PathBuf};

/// A finding's location. Text form: `path`, `path:line`, `path:line:col` or `path#anchor`
/// (`design.md#Spec 3`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default)]
pub struct Location {
    /// Repository-relative path with `/` separators (may be empty for a repository-wide finding).
    pub path: String,
    /// 1-based line, when the finding has one.
    pub line: Option<u32>,
    /// 1-based column, when known.
    pub column: Option<u32>,
    /// Last line of the span, when it spans several lines.
    pub end_line: Option<u32>,
    /// A symbolic place inside the file (`Spec 3`), written after `#`.
    pub anchor: Option<String>,
}

/// The location would leave the repository root.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("location '{0}' resolves outside the repository root")]
pub struct OutsideRoot(pub String);

impl Location {
    /// A file-and-line location.
    pub fn at(path: impl Into<String>, line: u32) -> Location {
        Location {
            path: path.into(),
            line: Some(line),
            ..Location::default()
        }
    }

    /// A whole-file location.
    pub fn file(path: impl Into<String>) -> Location {
        Location {
            path: path.into(),
            ..Location::default()
        }
    }

    /// A symbolic location inside a file (`design.md#Spec 3`).
    pub fn anchored(path: impl Into<String>, anchor: impl Into<String>) -> Location {
        Location {
            path: path.into(),
            anchor: Some(anchor.into()),
            ..Location::default()
        }
    }

    /// Parses the text form; never fails: text that is not `path:line[:col]` or `path#anchor`
    /// is taken as a path.
    pub fn parse(text: &str) -> Location {
        let text = text.trim();
        if let Some((path, anchor)) = text.split_once('#') {
            return Location::anchored(path, anchor);
        }
        let mut parts = text.rsplitn(3, ':');
        let last = parts.next().unwrap_or_default();
        let middle = parts.next();
        let first = parts.next();
        match (first, middle, last.parse::<u32>()) {
            (Some(path), Some(line), Ok(col)) if line.parse::<u32>().is_ok() => Location {
                path: path.to_string(),
                line: line.parse().ok(),
                column: Some(col),
                ..Location::default()
            },
            (first, Some(mid), Ok(line)) => {
                let path = match first {
                    Some(f) => format!("{f}:{mid}"),
                    None => mid.to_string(),
                };
                Location::at(path, line)
            }
            _ => Location::file(text),
        }
    }

    /// Joins the location's path to `root`, refusing absolute paths and `..` that climb out.
    pub fn resolve(&self, root: &Path) -> Result<PathBuf, OutsideRoot> {
        let rel = Path::new(&self.path);
        let mut depth: i32 = 0;
        for c in rel.components() {
            match c {
                Component::Normal(_) => depth += 1,
                Component::CurDir => {}
                Component::ParentDir => {
                    depth -= 1;
                    if depth < 0 {
                        return Err(OutsideRoot(self.path.clone()));
                    }
                }
                Component::RootDir | Component::Prefix(_) => {
                    return Err(OutsideRoot(self.path.clone()))
                }
            }
        }
        Ok(root.join(rel))
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.path)?;
        if let Some(anchor) = &self.anchor {
            return write!(f, "#{anchor}");
        }
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(col) = self.column {
                write!(f, ":{col}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_text_forms() {
        assert_eq!(Location::parse("src/a.rs:12"), Location::at("src/a.rs", 12));
        assert_eq!(Location::parse("src/a.rs:12:4").column, Some(4));
        assert_eq!(
            Location::parse("design.md#Spec 3"),
            Location::anchored("design.md", "Spec 3")
        );
        assert_eq!(Location::parse("src/a.rs"), Location::file("src/a.rs"));
        for text in [
            "src/a.rs:12",
            "src/a.rs:12:4",
            "design.md#Spec 3",
            "Cargo.toml",
        ] {
            assert_eq!(Location::parse(text).to_string(), text);
        }
    }

    #[test]
    fn refuses_paths_outside_the_root() {
        let root = Path::new("/repo");
        assert!(Location::file("../etc/passwd").resolve(root).is_err());
        assert!(Location::file("/etc/passwd").resolve(root).is_err());
        assert!(Location::file("a/../../b").resolve(root).is_err());
        assert_eq!(
            Location::file("a/../b").resolve(root),
            Ok(PathBuf::from("/repo/a/../b"))
        );
    }
}
