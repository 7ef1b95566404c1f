//! String literals that fix in code what belongs in configuration (paths, endpoints): the rules
//! that look for them skip the same places — a line that names a default (`DEFAULT_URL`,
//! `default_value = ..`: a documented, overridable choice) and test code.

use crate::engine::SourceFile;
use crate::lexical::Seg;
use crate::rules::line_hits::LazyTestCode;

/// (line, what `pick` makes of it) for every string literal of `file` that `pick` accepts,
/// outside lines naming a default and outside test code, in file order.
pub(super) fn fixed_literals<'f, T>(
    file: &'f SourceFile,
    pick: impl Fn(&'f str) -> Option<T>,
) -> Vec<(u32, T)> {
    let Some(lang) = file.language else {
        return Vec::new();
    };
    let mut tests = LazyTestCode::new(file);
    let mut found = Vec::new();
    for line in file.lexed(lang).iter() {
        if line.code().to_ascii_lowercase().contains("default") {
            continue;
        }
        for seg in &line.segs {
            let Seg::Str(literal) = seg else {
                continue;
            };
            let Some(picked) = pick(literal) else {
                continue;
            };
            if !tests.contains(line.number) {
                found.push((line.number, picked));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skips_defaults_and_test_code() {
        let file = SourceFile::new(
            "src/a.rs",
            "const A: &str = \"a1\";\nconst DEFAULT_B: &str = \"b\";\nfn f() { g(\"x\", \"a2\"); }\n#[cfg(test)]\nmod tests {\n    const C: &str = \"a3\";\n}\n",
        );
        let found = fixed_literals(&file, |l| l.starts_with("\"a").then_some(l));
        assert_eq!(found, vec![(1, "\"a1\""), (3, "\"a2\"")]);
    }
}
