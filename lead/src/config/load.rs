//! Reading the layers: the files that exist, the `RETAKE__` environment, merged by the `config`
//! crate into [`Settings`]; and, for `retake config show`, each layer read on its own so that
//! every effective value can name its source.

use super::origin::{self, Entry, Layer};
use super::Settings;
use std::path::{Path, PathBuf};

/// A configuration that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// Reading or deserialising failed; the message names the key and the file.
    #[error("configuration error in {origin}: {message}")]
    Invalid {
        /// The file (or environment) at fault, else every layer that was read.
        origin: String,
        /// What is wrong.
        message: String,
    },
}

/// The configuration files that exist, in the order they are layered (lowest first):
/// `~/.config/retake/retake.toml`, then the repository's `retake.toml`.
pub fn config_files(repo: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    if let Some(home) = std::env::var_os("HOME") {
        let user = PathBuf::from(home).join(".config/retake/retake.toml");
        if user.is_file() {
            files.push(user);
        }
    }
    let local = repo.join("retake.toml");
    if local.is_file() {
        files.push(local);
    }
    files
}

/// The `RETAKE__SECTION__KEY` source; list keys take space-separated values.
fn env_source() -> config::Environment {
    config::Environment::with_prefix("RETAKE")
        .prefix_separator("__")
        .separator("__")
        .list_separator(" ")
        .with_list_parse_key("test.command")
        .with_list_parse_key("test.coverage_command")
        .with_list_parse_key("rules.disable")
        .with_list_parse_key("inspector.linters")
        .with_list_parse_key("agent.command")
        .with_list_parse_key("review.dimensions")
        .with_list_parse_key("executor.command")
        .with_list_parse_key("loop.lint")
        .with_list_parse_key("loop.typecheck")
        .try_parsing(true)
}

fn file_source(path: &Path) -> config::File<config::FileSourceFile, config::FileFormat> {
    config::File::from(path).format(config::FileFormat::Toml)
}

/// The layers merged (and, with `check`, validated), or the message of the first thing wrong.
fn merge(files: &[PathBuf], env: bool, check: bool) -> Result<Settings, String> {
    let mut builder = config::Config::builder();
    for f in files {
        builder = builder.add_source(file_source(f));
    }
    if env {
        builder = builder.add_source(env_source());
    }
    let settings: Settings = builder
        .build()
        .and_then(config::Config::try_deserialize)
        .map_err(|e| e.to_string())?;
    if check {
        settings.validate()?;
    }
    Ok(settings)
}

/// Loads the settings for the repository at `repo`.
pub fn load(repo: &Path) -> Result<Settings, ConfigError> {
    let files = config_files(repo);
    let mut settings = merge(&files, true, true).map_err(|message| ConfigError::Invalid {
        origin: culprit(&files),
        message,
    })?;
    settings
        .agent
        .load_templates(repo)
        .map_err(|message| ConfigError::Invalid {
            origin: culprit(&files),
            message,
        })?;
    Ok(settings)
}

/// The layer at fault: the first file, or the environment, that is wrong on its own over the
/// defaults — an unknown key or a wrong type first, then a bad value; when only their
/// combination is wrong, every layer read.
fn culprit(files: &[PathBuf]) -> String {
    let alone = |check: bool| {
        files
            .iter()
            .find(|f| merge(std::slice::from_ref(f), false, check).is_err())
            .map(|f| f.display().to_string())
            .or_else(|| {
                merge(&[], true, check)
                    .is_err()
                    .then(|| "the environment".to_string())
            })
    };
    alone(false).or_else(|| alone(true)).unwrap_or_else(|| {
        let mut layers: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        layers.push("the environment".into());
        layers.join(", ")
    })
}

/// Every effective key of `settings` (loaded for `repo`), with the source of its value;
/// `flags` is the layer of the command-line flags that changed it.
pub fn explain(repo: &Path, settings: &Settings, flags: Layer) -> Result<Vec<Entry>, ConfigError> {
    let mut layers = Vec::new();
    for path in config_files(repo) {
        let invalid = |message: String| ConfigError::Invalid {
            origin: path.display().to_string(),
            message,
        };
        let text = std::fs::read_to_string(&path).map_err(|e| invalid(e.to_string()))?;
        let table = text
            .parse::<toml::Table>()
            .map_err(|e| invalid(e.to_string()))?;
        layers.push(origin::file_layer(path.clone(), &table));
    }
    layers.push(origin::env_layer(std::env::vars()));
    layers.push(flags);
    let effective = serde_json::to_value(settings).map_err(|e| ConfigError::Invalid {
        origin: "the effective configuration".into(),
        message: e.to_string(),
    })?;
    Ok(origin::origins(&effective, &layers))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        path
    }

    #[test]
    fn the_file_at_fault_is_named_alone() {
        let dir = tempfile::tempdir().expect("tempdir");
        let user = write(dir.path(), "user.toml", "[review]\ntimeout_secs = 60\n");
        let repo = write(
            dir.path(),
            "repo.toml",
            "[review]\ntimeout_secs = \"soon\"\n",
        );
        let files = [user.clone(), repo.clone()];
        let err = merge(&files, false, true).expect_err("wrong type");
        assert!(err.contains("timeout_secs"), "{err}");
        assert_eq!(culprit(&files), repo.display().to_string());
        let bad_value = write(
            dir.path(),
            "bad.toml",
            "[audit]\ntest_failure = \"maybe\"\n",
        );
        assert_eq!(
            culprit(&[user, bad_value.clone()]),
            bad_value.display().to_string()
        );
    }

    #[test]
    fn a_combination_wrong_only_together_names_every_layer() {
        let dir = tempfile::tempdir().expect("tempdir");
        // Each is valid alone; together the quality agent is HTTP without a model.
        let a = write(
            dir.path(),
            "a.toml",
            "[agent]\nkind = \"http\"\nurl = \"http://x\"\n",
        );
        let b = write(
            dir.path(),
            "b.toml",
            "[inspector.quality]\nbackend = \"agent\"\n[agent]\ncommand = [\"bot\"]\n",
        );
        let err = merge(&[a.clone(), b.clone()], false, true).expect_err("together");
        assert!(err.contains("agent.model"), "{err}");
        assert_eq!(
            culprit(&[a.clone(), b.clone()]),
            format!("{}, {}, the environment", a.display(), b.display())
        );
    }
}
