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
    /// The revision the repository's files are read at does not name a commit (a bad
    /// `--base`): the scope's mistake, said as such.
    #[error("{0}")]
    Revision(String),
}

/// One configuration file to layer: what names it (in errors and `config show`) and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileLayer {
    /// The file's path, with the revision when it was read from git.
    pub label: String,
    /// Its TOML text.
    pub text: String,
}

/// A configuration loaded for a reviewed repository, with where its repository layer came from.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The effective settings (before command-line flags).
    pub settings: Settings,
    /// The commit whose repository-level files the review reads (`.retake/decisions.yaml` in
    /// the Inspectors); `None`: the work tree.
    pub repo_files_rev: Option<String>,
    /// What the report says about the configuration's source (edits ignored, keys dropped).
    pub notes: Vec<String>,
    /// The files layered, lowest first.
    pub files: Vec<FileLayer>,
}

/// `~/.config/retake/retake.toml`, when it exists: the user's own, trusted file.
fn user_file() -> Option<PathBuf> {
    let home = std::env::var_os("HOME")?;
    let user = PathBuf::from(home).join(".config/retake/retake.toml");
    user.is_file().then_some(user)
}

/// Reads `path` as a layer.
fn read_layer(path: &Path) -> Result<FileLayer, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|e| ConfigError::Invalid {
        origin: path.display().to_string(),
        message: e.to_string(),
    })?;
    Ok(FileLayer {
        label: path.display().to_string(),
        text,
    })
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
        .with_list_parse_key("executor.fallback")
        .with_list_parse_key("loop.lint")
        .with_list_parse_key("loop.typecheck")
        .try_parsing(true)
}

/// The layers merged (and, with `check`, validated), or the message of the first thing wrong.
fn merge(files: &[FileLayer], env: bool, check: bool) -> Result<Settings, String> {
    let mut builder = config::Config::builder();
    for f in files {
        builder = builder.add_source(config::File::from_str(&f.text, config::FileFormat::Toml));
    }
    if env {
        builder = builder.add_source(env_source());
    }
    let settings: Settings = builder
        .build()
        .and_then(config::Config::try_deserialize)
        .map_err(message_of)?;
    if check {
        settings.validate()?;
    }
    Ok(settings)
}

/// What a deserialising error says: a message that already starts with its key or a key
/// inside it (`loop.gate = 'strict' (expected …)`, from [`super::choice`]) is not told the key
/// a second time.
fn message_of(e: config::ConfigError) -> String {
    if let config::ConfigError::At {
        error,
        key: Some(key),
        ..
    } = &e
    {
        if let config::ConfigError::Message(m) = error.as_ref() {
            let names_it = m
                .strip_prefix(key.as_str())
                .is_some_and(|rest| rest.starts_with(" = ") || rest.starts_with('.'));
            if names_it {
                return m.clone();
            }
        }
    }
    e.to_string()
}

/// Loads the settings in `dir` with its `retake.toml` trusted as it is in the work tree: the
/// operator's own configuration (`retake serve`'s folder, `retake init`'s check). A reviewed
/// repository's configuration is [`load_repo`]'s.
pub fn load(dir: &Path) -> Result<Settings, ConfigError> {
    let trust = super::Trust {
        work_tree: true,
        commands: true,
    };
    load_repo(dir, None, trust).map(|l| l.settings)
}

/// Loads the settings for reviewing `repo`: the user's file, the repository's `retake.toml`
/// from the source [`super::source::repo_layer`] picks for `base` and `trust`, the environment.
pub fn load_repo(
    repo: &Path,
    base: Option<&str>,
    trust: super::Trust,
) -> Result<Loaded, ConfigError> {
    let mut files = Vec::new();
    if let Some(user) = user_file() {
        files.push(read_layer(&user)?);
    }
    let layer = super::source::repo_layer(repo, base, trust).map_err(|e| match e {
        super::source::SourceError::UnknownBase(message) => ConfigError::Revision(message),
        super::source::SourceError::Other(message) => ConfigError::Invalid {
            origin: repo.join(super::source::REPO_CONFIG).display().to_string(),
            message,
        },
    })?;
    files.extend(layer.file);
    let mut settings = merge(&files, true, true).map_err(|message| ConfigError::Invalid {
        origin: culprit(&files),
        message,
    })?;
    settings
        .agent
        .load_templates(repo, layer.commit.as_deref())
        .map_err(|message| ConfigError::Invalid {
            origin: culprit(&files),
            message,
        })?;
    Ok(Loaded {
        settings,
        repo_files_rev: layer.commit,
        notes: layer.notes,
        files,
    })
}

/// The layer at fault: the first file, or the environment, that is wrong on its own over the
/// defaults — an unknown key or a wrong type first, then a bad value; when only their
/// combination is wrong, every layer read.
fn culprit(files: &[FileLayer]) -> String {
    let alone = |check: bool| {
        files
            .iter()
            .find(|f| merge(std::slice::from_ref(f), false, check).is_err())
            .map(|f| f.label.clone())
            .or_else(|| {
                merge(&[], true, check)
                    .is_err()
                    .then(|| "the environment".to_string())
            })
    };
    alone(false).or_else(|| alone(true)).unwrap_or_else(|| {
        let mut layers: Vec<String> = files.iter().map(|f| f.label.clone()).collect();
        layers.push("the environment".into());
        layers.join(", ")
    })
}

/// Every effective key of `settings` (loaded from `files`), with the source of its value;
/// `flags` is the layer of the command-line flags that changed it.
pub fn explain(
    files: &[FileLayer],
    settings: &Settings,
    flags: Layer,
) -> Result<Vec<Entry>, ConfigError> {
    let mut layers = Vec::new();
    for file in files {
        let table = file
            .text
            .parse::<toml::Table>()
            .map_err(|e| ConfigError::Invalid {
                origin: file.label.clone(),
                message: e.to_string(),
            })?;
        layers.push(origin::file_layer(PathBuf::from(&file.label), &table));
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

    fn write(dir: &Path, name: &str, text: &str) -> FileLayer {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        read_layer(&path).expect("read")
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
        assert_eq!(culprit(&files), repo.label);
        let bad_value = write(
            dir.path(),
            "bad.toml",
            "[audit]\ntest_failure = \"maybe\"\n",
        );
        assert_eq!(culprit(&[user, bad_value.clone()]), bad_value.label);
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
            format!("{}, {}, the environment", a.label, b.label)
        );
    }
}
