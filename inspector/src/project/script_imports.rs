//! What a TypeScript/JavaScript file imports, read as text: the quoted specifiers of its
//! `import … from`, `export … from`, `import '…'`, `require(…)` and `import(…)`, and the
//! repository file a module path names. Shared by the project model (which tests exercise which
//! modules) and `test/missing-test-file` (which modules any file imports).

/// The extensions a script module may have, in the order a module path tries them.
pub(crate) const SCRIPT_EXTS: [&str; 8] = ["ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "cts"];

/// The quoted module specifiers of a file's import, export and require lines.
pub(crate) fn specifiers(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        for marker in ["from ", "import ", "require(", "import("] {
            for (at, _) in line.match_indices(marker) {
                let rest = line[at + marker.len()..].trim_start();
                let Some(q) = rest
                    .chars()
                    .next()
                    .filter(|c| matches!(c, '\'' | '"' | '`'))
                else {
                    continue;
                };
                if let Some(end) = rest[1..].find(q) {
                    out.push(rest[1..1 + end].to_string());
                }
            }
        }
    }
    out
}

/// The repository file a module path names, when `exists` says it is there: the path itself,
/// with a script extension added or swapped (a TypeScript import names `./x.js` for `x.ts`), or
/// its folder's `index`.
pub(crate) fn resolve(base: &str, exists: impl Fn(&str) -> bool) -> Option<String> {
    if exists(base) {
        return Some(base.to_string());
    }
    let stem = match base.rsplit_once('.') {
        Some((s, ext)) if SCRIPT_EXTS.contains(&ext) && !s.ends_with('/') => s,
        _ => base,
    };
    SCRIPT_EXTS
        .iter()
        .map(|ext| format!("{stem}.{ext}"))
        .chain(SCRIPT_EXTS.iter().map(|ext| format!("{base}/index.{ext}")))
        .find(|c| exists(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specifiers_of_every_import_form() {
        let text = "import a from './a';\nexport { b } from \"../b.js\";\nimport './side';\nconst c = require(`./c`);\nconst d = await import('./d');\n";
        assert_eq!(
            specifiers(text),
            vec!["./a", "../b.js", "./side", "./c", "./d"]
        );
    }

    #[test]
    fn a_module_path_resolves_to_its_file_source_or_index() {
        let files = ["src/a.ts", "src/b.ts", "src/c/index.js"];
        let exists = |p: &str| files.contains(&p);
        assert_eq!(resolve("src/a", exists).as_deref(), Some("src/a.ts"));
        assert_eq!(resolve("src/b.js", exists).as_deref(), Some("src/b.ts"));
        assert_eq!(resolve("src/c", exists).as_deref(), Some("src/c/index.js"));
        assert_eq!(resolve("src/d", exists), None);
    }
}
