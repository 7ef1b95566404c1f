//! `retake init [PATH]`: writes a commented `retake.toml` (every key with its default, as
//! `deploy/retake.toml` ships it) and the agent prompt templates into a repository, so that
//! both can be edited there. Nothing is overwritten without `--force`.

use crate::cli::InitArgs;
use anyhow::Context as _;
use outputs::ExitCode;
use protocol::InspectorKind;
use std::path::{Path, PathBuf};

/// The shipped configuration, every key documented with its default.
const SHIPPED_CONFIG: &str = include_str!("../../../deploy/retake.toml");

/// Where the templates go, relative to the repository root; the written `retake.toml` points
/// `[agent] prompt_dir` at it so that edits to them take effect.
pub const PROMPT_DIR: &str = ".retake/prompts";

/// The shipped file's commented-out `prompt_dir` line, which [`config_text`] turns on.
const PROMPT_DIR_COMMENTED: &str = "# prompt_dir = \".retake/prompts\"";

/// Runs the command: exit 0 with every file written, or an error (exit 2) naming the first
/// file that exists when `--force` is not given — then nothing is written.
pub fn run(args: InitArgs) -> anyhow::Result<ExitCode> {
    let path = args.path.clone().unwrap_or_else(|| ".".into());
    let repo = std::fs::canonicalize(&path)
        .with_context(|| format!("'{}': no such directory", path.display()))?;
    if !repo.is_dir() {
        anyhow::bail!("'{}' is not a directory", path.display());
    }
    let files = files_to_write();
    if !args.force {
        if let Some((existing, _)) = files.iter().find(|(rel, _)| repo.join(rel).exists()) {
            anyhow::bail!(
                "{} already exists: pass --force to overwrite it",
                repo.join(existing).display()
            );
        }
    }
    // Every file first, then the list: a closed output pipe must not leave half a set.
    let mut written = String::new();
    for (rel, content) in &files {
        let target = repo.join(rel);
        host::journal::write_atomic(&target, content.as_bytes())
            .with_context(|| format!("cannot write {}", target.display()))?;
        written += &format!("wrote {}\n", target.display());
    }
    super::print_stdout(&written)?;
    Ok(ExitCode::Success)
}

/// Every file `init` writes, relative to the repository root, with its content.
fn files_to_write() -> Vec<(PathBuf, String)> {
    let mut files = vec![(PathBuf::from("retake.toml"), config_text(SHIPPED_CONFIG))];
    for kind in InspectorKind::ALL {
        files.push((
            Path::new(PROMPT_DIR).join(format!("{kind}.md")),
            inspector::backend::default_template(kind).to_string(),
        ));
    }
    for role in protocol::prompt::Role::ALL {
        files.push((
            Path::new(PROMPT_DIR).join(role.file()),
            role.builtin().to_string(),
        ));
    }
    files
}

/// The shipped configuration with `prompt_dir` turned on, pointing at [`PROMPT_DIR`].
fn config_text(shipped: &str) -> String {
    shipped.replacen(PROMPT_DIR_COMMENTED, &PROMPT_DIR_COMMENTED[2..], 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_written_config_turns_on_the_prompt_dir_and_nothing_else() {
        assert!(SHIPPED_CONFIG.contains(PROMPT_DIR_COMMENTED));
        let text = config_text(SHIPPED_CONFIG);
        assert!(text.contains("\nprompt_dir = \".retake/prompts\"\n"));
        assert_eq!(text.len() + 2, SHIPPED_CONFIG.len());
    }

    #[test]
    fn the_written_files_load_as_a_valid_config_with_the_templates() {
        let dir = tempfile::tempdir().expect("tempdir");
        let files = files_to_write();
        assert_eq!(files.len(), 14);
        assert_eq!(files[1].0, Path::new(".retake/prompts/rulebase.md"));
        for (rel, content) in &files {
            host::journal::write_atomic(&dir.path().join(rel), content.as_bytes()).expect("write");
        }
        let s = crate::config::load(dir.path()).expect("valid");
        assert_eq!(s.agent.prompt_dir.as_deref(), Some(PROMPT_DIR));
        assert_eq!(
            s.agent
                .templates
                .get(&InspectorKind::Holistic)
                .map(String::as_str),
            Some(inspector::backend::default_template(
                InspectorKind::Holistic
            ))
        );
        assert_eq!(s.agent.templates.len(), 6);
        assert_eq!(
            s.agent.roles.get(protocol::prompt::Role::Planner),
            protocol::prompt::Role::Planner.builtin()
        );
    }
}
