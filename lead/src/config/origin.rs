//! Where each effective value came from. The `config` crate merges its sources and forgets
//! them, so each layer (every file, the environment, the flags) is read on its own as a set of
//! keys, and an effective key belongs to the last layer that sets it — or to the defaults.
//!
//! A layer "sets" a key when it names it, even to the default value: comparing values instead
//! would credit `runtime = "local"` written in a file to the defaults.

use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

/// Where one value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Nothing set it: the built-in default.
    Default,
    /// A configuration file.
    File(PathBuf),
    /// An environment variable (its name, e.g. `RETAKE__REVIEW__RUNTIME`).
    Env(String),
    /// A command-line flag (e.g. `--runtime`).
    Flag(String),
}

impl Source {
    /// `default`, `file`, `env` or `flag`.
    pub fn kind(&self) -> &'static str {
        match self {
            Source::Default => "default",
            Source::File(_) => "file",
            Source::Env(_) => "env",
            Source::Flag(_) => "flag",
        }
    }

    /// The file path, variable or flag; none for a default.
    pub fn detail(&self) -> Option<String> {
        match self {
            Source::Default => None,
            Source::File(path) => Some(path.display().to_string()),
            Source::Env(name) | Source::Flag(name) => Some(name.clone()),
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.detail() {
            Some(detail) => write!(f, "{} {detail}", self.kind()),
            None => f.write_str(self.kind()),
        }
    }
}

/// The keys one layer sets (dotted paths, see [`key_path`]), each with its source.
pub type Layer = BTreeMap<String, Source>;

/// One effective key, its value and where the value came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The dotted key (`review.runtime`, `rules.severity."quality/todo-marker"`).
    pub key: String,
    /// The effective value; `null` when unset.
    pub value: Value,
    /// The layer it came from.
    pub source: Source,
}

/// Every leaf of `effective` (tables are descended, arrays and scalars are leaves, an empty
/// table is a leaf) with the source of its value: the last of `layers` (lowest first) that
/// sets the key, one of its parents or one of its children; else the default.
pub fn origins(effective: &Value, layers: &[Layer]) -> Vec<Entry> {
    let mut leaves = Vec::new();
    flatten_json(effective, &mut Vec::new(), &mut leaves);
    leaves
        .into_iter()
        .map(|(key, value)| {
            let source = layers
                .iter()
                .rev()
                .find_map(|layer| setter(layer, &key))
                .unwrap_or(Source::Default);
            Entry { key, value, source }
        })
        .collect()
}

/// The source in `layer` that sets `key`, a parent of it or a child of it.
fn setter(layer: &Layer, key: &str) -> Option<Source> {
    if let Some(source) = layer.get(key) {
        return Some(source.clone());
    }
    let child_prefix = format!("{key}.");
    layer
        .iter()
        .find(|(k, _)| k.starts_with(&child_prefix) || key.starts_with(&format!("{k}.")))
        .map(|(_, source)| source.clone())
}

fn flatten_json(value: &Value, path: &mut Vec<String>, out: &mut Vec<(String, Value)>) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (k, v) in map {
                path.push(k.clone());
                flatten_json(v, path, out);
                path.pop();
            }
        }
        _ => out.push((key_path(path), value.clone())),
    }
}

/// The layer of a TOML file: every leaf key it sets (an empty table sets nothing).
pub fn file_layer(path: PathBuf, table: &toml::Table) -> Layer {
    let mut keys = Vec::new();
    flatten_toml(table, &mut Vec::new(), &mut keys);
    keys.into_iter()
        .map(|k| (k, Source::File(path.clone())))
        .collect()
}

fn flatten_toml(table: &toml::Table, path: &mut Vec<String>, out: &mut Vec<String>) {
    for (k, v) in table {
        path.push(k.clone());
        match v {
            toml::Value::Table(inner) => flatten_toml(inner, path, out),
            _ => out.push(key_path(path)),
        }
        path.pop();
    }
}

/// The layer of the environment: each `RETAKE__SECTION__KEY` variable sets `section.key`. The
/// mapping is the `config` crate's: case-insensitive prefix, lower-cased, `__` nests.
pub fn env_layer<I>(vars: I) -> Layer
where
    I: IntoIterator<Item = (String, String)>,
{
    const PREFIX: &str = "retake__";
    vars.into_iter()
        .filter_map(|(name, _)| {
            let lower = name.to_lowercase();
            let rest = lower.strip_prefix(PREFIX)?;
            (!rest.is_empty()).then(|| (rest.replace("__", "."), Source::Env(name)))
        })
        .collect()
}

/// Joins key segments with dots, quoting a segment that is not a bare TOML key.
pub fn key_path(segments: &[String]) -> String {
    segments
        .iter()
        .map(|s| {
            let bare = !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            if bare {
                s.clone()
            } else {
                format!("{s:?}")
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn effective() -> Value {
        json!({
            "review": {"runtime": "inproc", "timeout_secs": 60, "dimensions": []},
            "wire": {"secret": null},
            "rules": {"severity": {"quality/todo-marker": "L"}, "disable": []},
            "chaos": {"faults": [{"actor": "auditor", "fault": "stall-output"}]},
            "test": {"extra": {}},
        })
    }

    fn file(path: &str, text: &str) -> Layer {
        file_layer(
            PathBuf::from(path),
            &text.parse::<toml::Table>().expect("toml"),
        )
    }

    fn source_of(entries: &[Entry], key: &str) -> Source {
        entries
            .iter()
            .find(|e| e.key == key)
            .unwrap_or_else(|| panic!("{key} missing"))
            .source
            .clone()
    }

    #[test]
    fn each_key_belongs_to_the_last_layer_that_sets_it() {
        let user = file(
            "/home/u/.config/retake/retake.toml",
            "[review]\nruntime = \"local\"\ntimeout_secs = 60\n",
        );
        let repo = file("/repo/retake.toml", "[review]\nruntime = \"inproc\"\n");
        let env = env_layer([
            ("RETAKE__REVIEW__RUNTIME".to_string(), "inproc".to_string()),
            ("HOME".to_string(), "/home/u".to_string()),
            ("RETAKE_SECRET".to_string(), "ab".to_string()),
        ]);
        let entries = origins(&effective(), &[user, repo, env]);
        assert_eq!(
            source_of(&entries, "review.runtime"),
            Source::Env("RETAKE__REVIEW__RUNTIME".into())
        );
        assert_eq!(
            source_of(&entries, "review.timeout_secs"),
            Source::File("/home/u/.config/retake/retake.toml".into())
        );
        assert_eq!(source_of(&entries, "review.dimensions"), Source::Default);
        assert_eq!(source_of(&entries, "wire.secret"), Source::Default);
    }

    #[test]
    fn a_value_equal_to_the_default_still_belongs_to_the_layer_that_wrote_it() {
        let repo = file("/repo/retake.toml", "[wire]\nsecret = \"00ff\"\n");
        let flags: Layer = [(
            "review.runtime".to_string(),
            Source::Flag("--runtime".into()),
        )]
        .into_iter()
        .collect();
        let entries = origins(&effective(), &[repo, flags]);
        assert_eq!(
            source_of(&entries, "wire.secret"),
            Source::File("/repo/retake.toml".into())
        );
        assert_eq!(
            source_of(&entries, "review.runtime"),
            Source::Flag("--runtime".into())
        );
    }

    #[test]
    fn leaves_are_scalars_arrays_and_empty_tables_with_quoted_odd_keys() {
        let entries = origins(&effective(), &[]);
        let keys: Vec<&str> = entries.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "review.runtime",
                "review.timeout_secs",
                "review.dimensions",
                "wire.secret",
                "rules.severity.\"quality/todo-marker\"",
                "rules.disable",
                "chaos.faults",
                "test.extra",
            ]
        );
        assert_eq!(
            entries[6].value,
            json!([{"actor": "auditor", "fault": "stall-output"}])
        );
    }

    #[test]
    fn tables_in_a_file_are_matched_key_by_key_and_arrays_of_tables_whole() {
        let repo = file(
            "/repo/retake.toml",
            "[rules.severity]\n\"quality/todo-marker\" = \"L\"\n\n\
             [[chaos.faults]]\nactor = \"auditor\"\nfault = \"stall-output\"\n\n[test.extra]\n",
        );
        let entries = origins(&effective(), &[repo]);
        let repo_file = Source::File("/repo/retake.toml".into());
        assert_eq!(
            source_of(&entries, "rules.severity.\"quality/todo-marker\""),
            repo_file
        );
        assert_eq!(source_of(&entries, "chaos.faults"), repo_file);
        assert_eq!(source_of(&entries, "rules.disable"), Source::Default);
        // An empty table sets nothing.
        assert_eq!(source_of(&entries, "test.extra"), Source::Default);
    }

    #[test]
    fn the_environment_maps_like_the_config_crate() {
        let env = env_layer([
            (
                "RETAKE__INSPECTOR__QUALITY__BACKEND".to_string(),
                "both".to_string(),
            ),
            ("retake__wire__max_frame_bytes".to_string(), "1".to_string()),
            ("RETAKE__".to_string(), "x".to_string()),
            ("RETAKEX__REVIEW__RUNTIME".to_string(), "x".to_string()),
        ]);
        let keys: Vec<(&str, String)> = env
            .iter()
            .map(|(k, s)| (k.as_str(), s.to_string()))
            .collect();
        assert_eq!(
            keys,
            [
                (
                    "inspector.quality.backend",
                    "env RETAKE__INSPECTOR__QUALITY__BACKEND".to_string()
                ),
                (
                    "wire.max_frame_bytes",
                    "env retake__wire__max_frame_bytes".to_string()
                ),
            ]
        );
    }

    #[test]
    fn a_parent_or_child_set_by_a_layer_counts_for_the_leaf() {
        let parent: Layer = [("rules".to_string(), Source::Env("RETAKE__RULES".into()))]
            .into_iter()
            .collect();
        let entries = origins(&effective(), &[parent]);
        assert_eq!(
            source_of(&entries, "rules.disable"),
            Source::Env("RETAKE__RULES".into())
        );
        let child: Layer = [("test.extra.x".to_string(), Source::Flag("--x".into()))]
            .into_iter()
            .collect();
        let entries = origins(&effective(), &[child]);
        assert_eq!(
            source_of(&entries, "test.extra"),
            Source::Flag("--x".into())
        );
        assert_eq!(Source::Default.to_string(), "default");
        assert_eq!(Source::Flag("--chaos".into()).to_string(), "flag --chaos");
    }
}
