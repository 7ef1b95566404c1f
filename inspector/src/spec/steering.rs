//! `steering/tech.md`: the test command from its "Common Commands" section.

/// The first test command under a "Common Commands" heading, split on whitespace into argv.
///
/// A candidate is an inline code span on a line, or else the line itself (a code-block line or a
/// list item, with `$ `, `- `, `* ` prefixes and trailing `# comments` removed). It is a test
/// command when it starts with a known runner (or `./script`) and one of its first words
/// mentions `test` or `jest` (`cargo test`, `cargo nextest run`, `pytest`, `npm test`, `go test ./...`).
pub fn test_command_in(tech_md: &str) -> Option<Vec<String>> {
    let mut in_section: Option<usize> = None;
    for line in tech_md.lines() {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if hashes > 0 && line[hashes..].starts_with(' ') {
            let title = line[hashes..].trim().to_lowercase();
            match in_section {
                Some(level) if hashes <= level => in_section = None,
                Some(_) => {}
                None if title.contains("common commands") => {
                    in_section = Some(hashes);
                    continue;
                }
                None => {}
            }
        }
        if in_section.is_none() {
            continue;
        }
        for candidate in candidates(line) {
            let argv: Vec<String> = candidate.split_whitespace().map(str::to_string).collect();
            if looks_like_test_command(&argv) {
                return Some(argv);
            }
        }
    }
    None
}

fn candidates(line: &str) -> Vec<String> {
    let spans = super::design::code_spans(line);
    if !spans.is_empty() {
        return spans;
    }
    let mut text = line.trim();
    if text.starts_with("```") || text.starts_with("~~~") {
        return Vec::new();
    }
    for prefix in ["$ ", "- ", "* ", "> "] {
        text = text.strip_prefix(prefix).unwrap_or(text).trim_start();
    }
    let text = text.split(" #").next().unwrap_or_default().trim();
    vec![text.to_string()]
}

/// Programs that run tests; prose lines ("Run the tests first") never start with one.
const RUNNERS: [&str; 30] = [
    "cargo", "pytest", "python", "python3", "py", "npm", "npx", "yarn", "pnpm", "bun", "deno",
    "go", "make", "just", "tox", "nox", "uv", "poetry", "hatch", "pdm", "jest", "vitest", "mvn",
    "gradle", "dotnet", "mix", "rake", "bundle", "ctest", "bazel",
];

fn looks_like_test_command(argv: &[String]) -> bool {
    let Some(program) = argv.first() else {
        return false;
    };
    let name = program.rsplit('/').next().unwrap_or(program);
    let runner = RUNNERS.contains(&name) || program.starts_with("./");
    runner
        && argv.iter().take(4).any(|w| {
            let w = w.to_lowercase();
            w.contains("test") || w.contains("jest")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(text: &str) -> Option<Vec<String>> {
        Some(text.split_whitespace().map(str::to_string).collect())
    }

    #[test]
    fn finds_the_test_command_in_common_commands() {
        let code_block = "# Tech\n\n## Common Commands\n```bash\n$ cargo build\n$ cargo test --all # everything\n```\n";
        assert_eq!(test_command_in(code_block), argv("cargo test --all"));
        let list = "## Common Commands\n- Build: `npm run build`\n- Test: `npm test`\n";
        assert_eq!(test_command_in(list), argv("npm test"));
        let plain = "### Common commands\npython -m pytest -q\n";
        assert_eq!(test_command_in(plain), argv("python -m pytest -q"));
        let go = "## Common Commands\n    go vet ./...\n    go test ./...\n";
        assert_eq!(test_command_in(go), argv("go test ./..."));
    }

    #[test]
    fn ignores_other_sections_and_prose() {
        let text = "## Testing\n`cargo test`\n## Common Commands\nRun the tests before pushing.\n`cargo fmt`\n## Deploy\n`cargo test --release`\n";
        assert_eq!(test_command_in(text), None);
        assert_eq!(test_command_in("no headings at all\ncargo test\n"), None);
    }
}
