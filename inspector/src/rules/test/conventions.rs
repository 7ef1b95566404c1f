//! Per-language conventions the static test rules share: which files are package entry points
//! rather than implementation, a file's stem, and whether a file defines functions at all.

use crate::engine::Language;

/// File names that structure a package (`lib.rs`, `mod.rs`, `__init__.py`, `index.ts`, …) or
/// build it, rather than implement something to test.
pub(super) fn is_entry_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    matches!(
        name,
        "lib.rs"
            | "mod.rs"
            | "main.rs"
            | "build.rs"
            | "__init__.py"
            | "__main__.py"
            | "conftest.py"
            | "setup.py"
            | "doc.go"
    ) || name.ends_with(".d.ts")
        || name
            .strip_prefix("index.")
            .is_some_and(|ext| matches!(ext, "ts" | "tsx" | "js" | "jsx" | "mjs" | "cjs"))
}

/// Words that mark a test as integration-level by its path.
const INTEGRATION_WORDS: [&str; 7] = [
    "integration",
    "e2e",
    "functional",
    "acceptance",
    "system",
    "cypress",
    "playwright",
];

/// Whether a test's path says it is an integration-level test: a folder or file-name word
/// starting with `integration`, `e2e`, `functional`, `acceptance`, `system`, `cypress` or
/// `playwright` (Rust's `tests/` folder is the Rust convention and is judged by the callers).
pub(super) fn names_integration(path: &str) -> bool {
    path.to_lowercase()
        .split(['/', '.', '_', '-'])
        .any(|w| INTEGRATION_WORDS.iter().any(|i| w.starts_with(i)))
}

/// A file's name up to its first dot (`cart.test.ts` → `cart`).
pub(super) fn stem_of(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.split('.').next().unwrap_or(name)
}

/// Whether source text defines functions (Rust: public ones; the others: any), found in the
/// text; a file of types and constants alone has nothing to call in a test.
pub(super) fn defines_functions(text: &str, lang: Language) -> bool {
    match lang {
        Language::Rust => [
            "pub fn ",
            "pub async fn ",
            "pub const fn ",
            "pub(crate) fn ",
        ]
        .iter()
        .any(|n| text.contains(n)),
        Language::Python => text.lines().any(|l| {
            let t = l.trim_start();
            t.starts_with("def ") || t.starts_with("async def ")
        }),
        Language::Go => text.starts_with("func ") || text.contains("\nfunc "),
        Language::TypeScript | Language::JavaScript => {
            text.contains("function ") || text.contains("=>") || text.contains("class ")
        }
        Language::Config => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_files_stems_and_functions() {
        assert!(is_entry_file("src/store/mod.rs") && is_entry_file("web/index.tsx"));
        assert!(is_entry_file("types/api.d.ts") && !is_entry_file("web/indexer.ts"));
        assert_eq!(stem_of("web/cart.test.ts"), "cart");
        assert!(defines_functions(
            "pub struct A;\npub fn f() {}\n",
            Language::Rust
        ));
        assert!(!defines_functions(
            "pub struct A;\nimpl A { fn f() {} }\n",
            Language::Rust
        ));
        assert!(defines_functions(
            "class A:\n    def f(self): pass\n",
            Language::Python
        ));
        assert!(!defines_functions("package x\nconst A = 1\n", Language::Go));
        assert!(!defines_functions(
            "export interface A { b: number }\n",
            Language::TypeScript
        ));
    }
}
