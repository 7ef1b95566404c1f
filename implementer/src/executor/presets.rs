//! The seed systems' coding-agent CLIs as presets: each name expands to the CLI's documented
//! non-interactive command line, reading the prompt on standard input and allowed to edit files
//! in the repository (never to skip every permission).

/// Every preset: its name and its argv.
pub const PRESETS: [(&str, &[&str]); 4] = [
    // Claude Code's print mode; edits accepted without asking.
    (
        "claude",
        &["claude", "-p", "--permission-mode", "acceptEdits"],
    ),
    // `codex exec -` reads the prompt on stdin; the sandbox may write the work tree only.
    (
        "codex",
        &["codex", "exec", "--sandbox", "workspace-write", "-"],
    ),
    // Gemini CLI is headless when stdin is not a terminal; edits approved, commands asked.
    ("gemini", &["gemini", "--approval-mode", "auto_edit"]),
    // Qwen Code, Gemini CLI's fork, spells the mode with a hyphen.
    ("qwen", &["qwen", "--approval-mode", "auto-edit"]),
];

/// The argv of preset `name`, if there is one.
pub fn preset(name: &str) -> Option<Vec<String>> {
    PRESETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, argv)| argv.iter().map(|a| a.to_string()).collect())
}

/// The preset names, for messages (`claude, codex, gemini or qwen`).
pub fn names() -> String {
    let names: Vec<&str> = PRESETS.iter().map(|(n, _)| *n).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_preset_reads_the_prompt_on_stdin_without_a_terminal() {
        assert_eq!(
            preset("codex").expect("codex").last().map(String::as_str),
            Some("-")
        );
        assert_eq!(preset("claude").expect("claude")[..2], ["claude", "-p"]);
        assert_eq!(preset("aider"), None);
        assert_eq!(names(), "claude, codex, gemini or qwen");
    }
}
