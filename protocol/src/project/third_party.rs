//! Code nobody in the repository wrote, told by its path alone: vendored (`vendor/`,
//! `third_party/`, `node_modules/`) or generated (a `generated/` folder, `*.pb.rs`, `*.pb.go`,
//! `*_pb2.py`, `*_generated.*`). One definition for the Inspectors' walk (which skips such files
//! and lists them) and the Auditor's step 3 (which drops a finding in one).

/// Folders whose files are vendored, as path components.
const VENDORED_DIRS: [&str; 3] = ["vendor", "third_party", "node_modules"];

/// The folder whose files are generated, as a path component.
const GENERATED_DIR: &str = "generated";

/// `"vendored"` or `"generated"` when a repository-relative, `/`-separated path names code
/// nobody here wrote; `None` otherwise.
pub fn generated_or_vendored(path: &str) -> Option<&'static str> {
    let mut parts = path.split('/').filter(|p| !p.is_empty() && *p != ".");
    let file = parts.next_back()?;
    let dirs: Vec<&str> = parts.collect();
    if dirs.iter().any(|d| VENDORED_DIRS.contains(d)) {
        return Some("vendored");
    }
    let stem = file.split('.').next().unwrap_or(file);
    let named = [".pb.rs", ".pb.go", "_pb2.py"]
        .iter()
        .any(|s| file.ends_with(s) && file.len() > s.len())
        || (stem.ends_with("_generated") && stem.len() > "_generated".len());
    (dirs.contains(&GENERATED_DIR) || named).then_some("generated")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vendored_and_generated_paths_are_told_by_folder_and_name() {
        for path in [
            "vendor/github.com/x/y.go",
            "./third_party/zlib/inflate.c",
            "web/node_modules/left-pad/index.js",
        ] {
            assert_eq!(generated_or_vendored(path), Some("vendored"), "{path}");
        }
        for path in [
            "src/generated/api.rs",
            "proto/user.pb.rs",
            "api/user.pb.go",
            "py/user_pb2.py",
            "src/schema_generated.ts",
        ] {
            assert_eq!(generated_or_vendored(path), Some("generated"), "{path}");
        }
        for path in [
            "src/vendor.rs",
            "src/vendoring/mod.rs",
            "src/generator.rs",
            ".pb.rs",
            "_generated.rs",
            "docs/generated.md",
            "",
        ] {
            assert_eq!(generated_or_vendored(path), None, "{path}");
        }
    }
}
