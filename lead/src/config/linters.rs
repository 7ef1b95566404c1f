//! `[inspector] linters`: which of the field's own analyzers the quality Inspector runs when
//! commands may run. `"auto"` (the default) is the analyzer of each language the review's
//! scope holds — clippy, ruff, go vet, and eslint where the repository configures it; a list
//! names analyzers (`["clippy", "ruff"]`, `"auto"` may be one of them); `[]` or `"off"` runs
//! none. A single name may be given as a string. `--no-exec` runs none whatever this says.

use serde::{Deserialize, Deserializer};

/// The names `[inspector] linters` accepts in its list.
pub(super) const NAMES: [&str; 5] = ["auto", "clippy", "ruff", "eslint", "go-vet"];

/// The default: the analyzers of the languages present.
pub(super) fn default_linters() -> Vec<String> {
    vec!["auto".to_string()]
}

/// Reads the key as a list or a single string; `"off"` (alone) is the empty list.
pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    let names = match OneOrMany::deserialize(d)? {
        OneOrMany::One(name) => vec![name],
        OneOrMany::Many(names) => names,
    };
    Ok(if names == ["off"] { Vec::new() } else { names })
}

/// The first name that is not an analyzer, as the configuration error to give.
pub(super) fn check(names: &[String]) -> Result<(), String> {
    match names.iter().find(|n| !NAMES.contains(&n.as_str())) {
        Some(bad) => Err(format!(
            "inspector.linters: '{bad}' (expected auto, off, clippy, ruff, eslint or go-vet)"
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use crate::config::load;

    fn linters(toml: Option<&str>) -> Result<Vec<String>, String> {
        let dir = tempfile::tempdir().expect("tempdir");
        if let Some(toml) = toml {
            std::fs::write(
                dir.path().join("retake.toml"),
                format!("[inspector]\n{toml}\n"),
            )
            .expect("write");
        }
        load(dir.path())
            .map(|s| s.inspector.linters)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn auto_by_default_off_or_empty_runs_none_and_a_list_keeps_its_meaning() {
        let names = |n: &[&str]| Ok(n.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(linters(None), names(&["auto"]));
        assert_eq!(linters(Some("linters = \"auto\"")), names(&["auto"]));
        assert_eq!(linters(Some("linters = \"off\"")), names(&[]));
        assert_eq!(linters(Some("linters = []")), names(&[]));
        assert_eq!(
            linters(Some("linters = [\"clippy\", \"go-vet\"]")),
            names(&["clippy", "go-vet"])
        );
        let err = linters(Some("linters = [\"pylint\"]")).expect_err("unknown");
        assert!(
            err.contains(
                "inspector.linters: 'pylint' (expected auto, off, clippy, ruff, eslint or go-vet)"
            ),
            "{err}"
        );
    }
}
