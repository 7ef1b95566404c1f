//! `retake config show [PATH]`: the effective configuration of a repository, every key with the
//! layer its value came from (default, a file, a `RETAKE__…` variable, a flag).

use crate::cli::{ConfigFormat, ConfigShowArgs};
use crate::config::origin::{Entry, Layer, Source};
use anyhow::Context as _;
use outputs::ExitCode;
use serde_json::{json, Value};
use std::io::Write as _;
use std::path::Path;

/// Keys whose value is never printed, only where it came from.
const SECRET_KEYS: [&str; 1] = ["wire.secret"];

/// Runs the command: exit 0, or an error (exit 2) naming the key and the file.
pub fn run(args: ConfigShowArgs) -> anyhow::Result<ExitCode> {
    let path = args.path.clone().unwrap_or_else(|| ".".into());
    let repo = std::fs::canonicalize(&path)
        .with_context(|| format!("'{}': no such directory", path.display()))?;
    if !repo.is_dir() {
        anyhow::bail!("'{}' is not a directory", path.display());
    }
    // What a review without a base would use: the repository's file as committed at HEAD.
    let trust = crate::config::Trust {
        work_tree: args.trust_repo_config,
        commands: true,
    };
    let loaded = crate::config::load_repo(&repo, None, trust)?;
    for note in &loaded.notes {
        eprintln!("retake: note: {note}");
    }
    let mut settings = loaded.settings.clone();
    let mut flags = Layer::new();
    if let Some(runtime) = args.runtime {
        settings.review.runtime = runtime;
        flags.insert("review.runtime".into(), Source::Flag("--runtime".into()));
    }
    if !args.dimensions.is_empty() {
        settings.review.dimensions = args.dimensions.clone();
        flags.insert(
            "review.dimensions".into(),
            Source::Flag("--dimensions".into()),
        );
    }
    if args.chaos {
        settings.chaos.enabled = true;
        flags.insert("chaos.enabled".into(), Source::Flag("--chaos".into()));
    }
    let entries = redact(crate::config::explain(&loaded.files, &settings, flags)?);
    let files: Vec<std::path::PathBuf> = loaded.files.iter().map(|f| (&f.label).into()).collect();
    let text = match args.format {
        ConfigFormat::Text => render_text(&repo, &files, &entries),
        ConfigFormat::Json => {
            serde_json::to_string_pretty(&render_json(&repo, &files, &entries))? + "\n"
        }
    };
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    Ok(ExitCode::Success)
}

/// The entries with every secret value replaced by `"<redacted>"` (an unset one stays null).
fn redact(entries: Vec<Entry>) -> Vec<Entry> {
    entries
        .into_iter()
        .map(|mut e| {
            if SECRET_KEYS.contains(&e.key.as_str()) && !e.value.is_null() {
                e.value = Value::String("<redacted>".into());
            }
            e
        })
        .collect()
}

/// One `key = value  # source` line per key, after a header naming the layers.
fn render_text(repo: &Path, files: &[std::path::PathBuf], entries: &[Entry]) -> String {
    let mut layers = vec!["defaults".to_string()];
    layers.extend(files.iter().map(|f| f.display().to_string()));
    layers.push("RETAKE__SECTION__KEY environment".into());
    layers.push("flags".into());
    let mut out = format!(
        "# effective configuration of {}\n# layers, lowest first: {}\n",
        repo.display(),
        layers.join(" < ")
    );
    let lines: Vec<String> = entries
        .iter()
        .map(|e| {
            let value = if e.value.is_null() {
                "(unset)".to_string()
            } else {
                e.value.to_string()
            };
            format!("{} = {value}", e.key)
        })
        .collect();
    // Aligned comments read as a column; a very long value is not worth padding every line.
    let width = lines
        .iter()
        .map(String::len)
        .filter(|n| *n <= 60)
        .max()
        .unwrap_or(0);
    for (line, e) in lines.iter().zip(entries) {
        out.push_str(&format!("{line:<width$}  # {}\n", e.source));
    }
    out
}

/// `{"repository", "files", "keys": [{"key", "value", "source", "origin"?}]}`.
fn render_json(repo: &Path, files: &[std::path::PathBuf], entries: &[Entry]) -> Value {
    let keys: Vec<Value> = entries
        .iter()
        .map(|e| {
            let mut o = json!({"key": e.key, "value": e.value, "source": e.source.kind()});
            if let Some(detail) = e.source.detail() {
                o["origin"] = Value::String(detail);
            }
            o
        })
        .collect();
    json!({
        "repository": repo.display().to_string(),
        "files": files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>(),
        "keys": keys,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn entries() -> Vec<Entry> {
        vec![
            Entry {
                key: "review.runtime".into(),
                value: json!("inproc"),
                source: Source::Env("RETAKE__REVIEW__RUNTIME".into()),
            },
            Entry {
                key: "wire.secret".into(),
                value: json!("00ff00ff"),
                source: Source::File("/r/retake.toml".into()),
            },
            Entry {
                key: "test.command".into(),
                value: Value::Null,
                source: Source::Default,
            },
        ]
    }

    #[test]
    fn text_aligns_values_and_sources_and_hides_the_secret() {
        let files = [PathBuf::from("/r/retake.toml")];
        let text = render_text(Path::new("/r"), &files, &redact(entries()));
        assert_eq!(
            text,
            "# effective configuration of /r\n\
             # layers, lowest first: defaults < /r/retake.toml < RETAKE__SECTION__KEY environment < flags\n\
             review.runtime = \"inproc\"   # env RETAKE__REVIEW__RUNTIME\n\
             wire.secret = \"<redacted>\"  # file /r/retake.toml\n\
             test.command = (unset)      # default\n"
        );
    }

    #[test]
    fn json_names_the_source_kind_and_its_origin() {
        let v = render_json(Path::new("/r"), &[], &redact(entries()));
        assert_eq!(
            v["keys"][0],
            json!({"key": "review.runtime", "value": "inproc", "source": "env",
                   "origin": "RETAKE__REVIEW__RUNTIME"})
        );
        assert_eq!(v["keys"][1]["value"], json!("<redacted>"));
        assert_eq!(
            v["keys"][2],
            json!({"key": "test.command", "value": null, "source": "default"})
        );
        assert_eq!(v["files"], json!([]));
    }
}
