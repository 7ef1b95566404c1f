//! A task's active form, the present-continuous line progress displays show while it runs:
//! "Add login form" → "Adding login form", "ログイン機能の実装" → "ログイン機能を実装中", a fix
//! task → "Fixing src/auth/login.rs". A subject that does not open with a known verb becomes
//! "Working on …" rather than a guessed, wrong gerund.

/// The active form of a plan task's subject.
pub fn active_form(title: &str) -> String {
    let title = title.trim();
    if let Some(japanese) = japanese(title) {
        return japanese;
    }
    let (first, rest) = title.split_once(' ').unwrap_or((title, ""));
    let verb = first.to_ascii_lowercase();
    if !VERBS.contains(&verb.as_str()) {
        return format!("Working on {title}");
    }
    let mut gerund = gerund(&verb);
    if first.starts_with(|c: char| c.is_ascii_uppercase()) {
        gerund[..1].make_ascii_uppercase();
    }
    if rest.is_empty() {
        gerund
    } else {
        format!("{gerund} {rest}")
    }
}

/// The active form of a fix task for one file.
pub fn fixing(path: &str) -> String {
    if path.is_empty() {
        "Fixing repository-wide findings".to_string()
    } else {
        format!("Fixing {path}")
    }
}

const VERBS: &[&str] = &[
    "add",
    "adjust",
    "allow",
    "build",
    "bump",
    "cache",
    "change",
    "check",
    "clean",
    "complete",
    "configure",
    "connect",
    "convert",
    "create",
    "debug",
    "define",
    "delete",
    "deploy",
    "design",
    "disable",
    "document",
    "drop",
    "enable",
    "ensure",
    "expose",
    "extract",
    "finish",
    "fix",
    "generate",
    "guard",
    "handle",
    "harden",
    "implement",
    "improve",
    "install",
    "integrate",
    "introduce",
    "limit",
    "load",
    "log",
    "make",
    "map",
    "merge",
    "migrate",
    "move",
    "optimize",
    "parse",
    "plan",
    "polish",
    "port",
    "prepare",
    "publish",
    "read",
    "refactor",
    "remove",
    "rename",
    "render",
    "replace",
    "resolve",
    "restore",
    "return",
    "review",
    "rewrite",
    "run",
    "secure",
    "send",
    "set",
    "setup",
    "ship",
    "simplify",
    "split",
    "stop",
    "store",
    "support",
    "test",
    "track",
    "update",
    "upgrade",
    "use",
    "validate",
    "verify",
    "wire",
    "wrap",
    "write",
];

/// Short verbs whose last consonant doubles (run → running).
const DOUBLING: &[&str] = &[
    "drop", "log", "map", "plan", "run", "set", "ship", "split", "stop", "wrap", "debug",
];

fn gerund(verb: &str) -> String {
    if verb == "setup" {
        return "setting up".to_string();
    }
    if DOUBLING.contains(&verb) {
        let last = &verb[verb.len() - 1..];
        return format!("{verb}{last}ing");
    }
    if let Some(stem) = verb.strip_suffix("ie") {
        return format!("{stem}ying");
    }
    if verb.ends_with('e') && !verb.ends_with("ee") && verb.len() > 2 {
        return format!("{}ing", &verb[..verb.len() - 1]);
    }
    format!("{verb}ing")
}

/// `Xの実装` → `Xを実装中`; a subject ending in a verbal noun gets `中`.
fn japanese(title: &str) -> Option<String> {
    const NOUNS: &[&str] = &[
        "実装", "作成", "追加", "修正", "更新", "削除", "改善", "対応", "移行", "整理", "設計",
        "導入", "検証", "統合", "変更",
    ];
    let noun = NOUNS.iter().find(|n| title.ends_with(**n))?;
    let stem = &title[..title.len() - noun.len()];
    Some(match stem.strip_suffix('の') {
        Some(object) => format!("{object}を{noun}中"),
        None => format!("{title}中"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_subjects_get_their_gerund() {
        assert_eq!(active_form("Add login form"), "Adding login form");
        assert_eq!(
            active_form("Implement session store"),
            "Implementing session store"
        );
        assert_eq!(active_form("write docs"), "writing docs");
        assert_eq!(active_form("Run migrations"), "Running migrations");
        assert_eq!(active_form("Set up CI"), "Setting up CI");
        assert_eq!(active_form("Setup CI"), "Setting up CI");
        assert_eq!(active_form("Fix"), "Fixing");
        assert_eq!(active_form("Login form"), "Working on Login form");
    }

    #[test]
    fn japanese_subjects_follow_the_source_table() {
        assert_eq!(active_form("ログイン機能の実装"), "ログイン機能を実装中");
        assert_eq!(
            active_form("認証ミドルウェアの作成"),
            "認証ミドルウェアを作成中"
        );
        assert_eq!(active_form("テストの追加"), "テストを追加中");
        assert_eq!(active_form("バグ修正"), "バグ修正中");
    }

    #[test]
    fn fix_tasks_name_their_file() {
        assert_eq!(fixing("src/auth/login.rs"), "Fixing src/auth/login.rs");
        assert_eq!(fixing(""), "Fixing repository-wide findings");
    }
}
