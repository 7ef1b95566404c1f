//! `quality/duplicated-block`: the same [`MIN_LINES`] or more non-trivial lines twice, within a
//! file or across files of one module (copies across modules are the consistency Inspector's
//! `duplicated-logic`). A fix made to one copy is missed in the other.
//!
//! Lines are compared normalised: indentation and runs of spaces collapsed, comments dropped,
//! literals kept (two tables with different values are not copies). Trivial lines — closing
//! brackets, `else`, bare `return`/`break`, imports, data lines of tables and struct literals,
//! lines with fewer than four letters or digits — are skipped, so they neither count nor break a
//! copy. Test code is not compared.

use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::Seg;
use crate::rules::consistency::module::module_of;
use crate::rules::test_code::TestCode;
use protocol::{Category, Dimension, Location, Severity};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// The fewest identical non-trivial lines that make a copy.
pub(crate) const MIN_LINES: usize = 8;

static META: RuleMeta = RuleMeta {
    id: "quality/duplicated-block",
    category: Category::Duplication,
    severity: Severity::Low,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
    ],
    dimensions: &[Dimension::Maintainability],
    explanation: "The same 8+ non-trivial lines twice in a file or module: extract them once",
};

/// Flags duplicated blocks within a file or a module.
pub(crate) struct DuplicatedBlock;

/// A file's non-trivial lines: (hash of the normalised text, 1-based line). Hashes, not
/// texts, keep memory bounded on large trees.
type Norm = Vec<(u64, u32)>;

impl Rule for DuplicatedBlock {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        file.language.is_some_and(|l| META.languages.contains(&l)) && !file.is_test_file()
    }

    /// Normalises one file in the (parallel) file pass, where its tree is at hand for the
    /// test-code exemption; copies are found across files in `check_project`.
    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let norm = normalise(file);
        if norm.len() >= MIN_LINES {
            out.keep((file.rel_path.clone(), norm));
        }
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let files: Vec<(&SourceFile, Norm)> = out
            .kept::<(String, Norm)>(ctx, self)
            .into_iter()
            .filter_map(|(path, norm)| Some((ctx.file(&path)?, norm)))
            .collect();
        let modules: Vec<String> = files.iter().map(|(f, _)| module_of(&f.rel_path)).collect();
        // Window hash → first occurrence (file index, start index).
        let mut first: HashMap<u64, (usize, usize)> = HashMap::new();
        // (file, start) of a window → the occurrence it copies.
        let mut copy_of: HashMap<(usize, usize), (usize, usize)> = HashMap::new();
        for (fi, (_, norm)) in files.iter().enumerate() {
            for start in 0..=norm.len() - MIN_LINES {
                let key = window(norm, start);
                match first.get(&key) {
                    Some(&(ff, fs)) => {
                        let overlaps = ff == fi && start < fs + MIN_LINES;
                        let same_module = modules[ff] == modules[fi];
                        if !overlaps && same_module {
                            copy_of.insert((fi, start), (ff, fs));
                        }
                    }
                    None => {
                        first.insert(key, (fi, start));
                    }
                }
            }
        }
        let mut starts: Vec<(usize, usize)> = copy_of.keys().copied().collect();
        starts.sort();
        for (fi, start) in starts {
            let (ff, fs) = copy_of[&(fi, start)];
            // The continuation of a copy already reported.
            if start > 0 && fs > 0 && copy_of.get(&(fi, start - 1)) == Some(&(ff, fs - 1)) {
                continue;
            }
            let mut len = MIN_LINES;
            while copy_of.get(&(fi, start + len - MIN_LINES + 1))
                == Some(&(ff, fs + len - MIN_LINES + 1))
            {
                len += 1;
            }
            let (file, norm) = &files[fi];
            let (orig, orig_norm) = &files[ff];
            let (from, to) = (norm[start].1, norm[start + len - 1].1);
            let (ofrom, oto) = (orig_norm[fs].1, orig_norm[fs + len - 1].1);
            let mut location = Location::at(&file.rel_path, from);
            location.end_line = Some(to);
            let place = if ff == fi {
                format!("lines {ofrom}–{oto}")
            } else {
                format!("{}:{ofrom}–{oto}", orig.rel_path)
            };
            out.hit(
                Hit::new(
                    location,
                    format!("{len} lines here duplicate {place}"),
                    format!("duplicate of {}: {}", orig.rel_path, line_text(file, from)),
                )
                .suggest("extract the shared lines into one function and call it from both places"),
            );
        }
    }
}

fn window(norm: &Norm, start: usize) -> u64 {
    let mut hasher = DefaultHasher::new();
    for (h, _) in &norm[start..start + MIN_LINES] {
        h.hash(&mut hasher);
    }
    hasher.finish()
}

fn line_text(file: &SourceFile, line: u32) -> &str {
    file.lines()
        .nth(line.saturating_sub(1) as usize)
        .map_or("", str::trim)
}

/// The non-trivial lines of a file outside test code, normalised.
fn normalise(file: &SourceFile) -> Norm {
    let Some(lang) = file.language else {
        return Vec::new();
    };
    let tests = (lang == Language::Rust && file.text.contains("test")).then(|| TestCode::of(file));
    let mut out = Vec::new();
    for line in file.lexed(lang).iter() {
        if tests.as_ref().is_some_and(|t| t.contains(line.number)) {
            continue;
        }
        let mut text = String::new();
        for seg in &line.segs {
            match seg {
                Seg::Code(c) | Seg::Str(c) => text.push_str(c),
                Seg::Comment(_) => text.push(' '),
            }
        }
        let norm = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if !is_trivial(&norm) {
            let mut hasher = DefaultHasher::new();
            norm.hash(&mut hasher);
            out.push((hasher.finish(), line.number));
        }
    }
    out
}

/// Lines that say nothing on their own: punctuation, imports, bare keywords, and data lines
/// (a list element or field value ending in `,` with no call: `Language::Rust,`, `id: "x",`),
/// which repeat in declarative tables without being logic worth extracting.
fn is_trivial(line: &str) -> bool {
    let alnum = line.chars().filter(|c| c.is_alphanumeric()).count();
    let data = line.ends_with(',') && !line.contains('(');
    alnum < 4
        || data
        || [
            "use ", "import ", "from ", "package ", "#include", "pub use ", "mod ", "pub mod ",
        ]
        .iter()
        .any(|p| line.starts_with(p))
        || matches!(
            line,
            "} else {"
                | "else:"
                | "try:"
                | "finally:"
                | "return;"
                | "break;"
                | "continue;"
                | "pass"
                | "Ok(())"
                | "None"
                | "return nil"
                | "return err"
                | "} else if"
                | "default:"
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::project_fixture::project_sink;

    fn run(files: &[(&str, &str)]) -> Vec<(String, u32, Option<u32>, String)> {
        project_sink(&DuplicatedBlock, files)
            .hits
            .into_iter()
            .map(|h| {
                (
                    h.location.path,
                    h.location.line.unwrap_or(0),
                    h.location.end_line,
                    h.description,
                )
            })
            .collect()
    }

    const BLOCK: &str = "    let total = order.items.iter().map(|i| i.price * i.qty).sum::<u64>();\n    let tax = total * rate / 100;\n    let shipping = if total > 5000 { 0 } else { 495 };\n    // comments do not matter\n    let grand = total + tax + shipping;\n    audit.record(order.id, grand);\n    {\n    metrics.observe(\"order_total\", grand);\n    }\n    invoice.lines.push(Line::total(grand));\n    invoice.lines.push(Line::tax(tax));\n    invoice\n";

    #[test]
    fn fires_on_copies_within_a_file_and_a_module() {
        let a = format!("fn a() -> Invoice {{\n{BLOCK}}}\n\nfn b() -> Invoice {{\n{BLOCK}}}\n");
        assert_eq!(
            run(&[("src/billing.rs", &a)]),
            vec![(
                "src/billing.rs".to_string(),
                17,
                Some(28),
                "9 lines here duplicate lines 2–13".to_string()
            )]
        );
        let b = format!("fn c() -> Invoice {{\n{BLOCK}}}\n");
        let found = run(&[("billing/src/a.rs", &b), ("billing/src/b.rs", &b)]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].3, "10 lines here duplicate billing/src/a.rs:1–13");
    }

    #[test]
    fn quiet_on_short_or_different_copies_other_modules_and_tests() {
        let short: String = BLOCK.lines().take(6).map(|l| format!("{l}\n")).collect();
        let a = format!("fn a() {{\n{short}}}\nfn b() {{\n{short}}}\n");
        assert!(run(&[("src/a.rs", &a)]).is_empty());
        let other = BLOCK.replace("495", "990");
        let b = format!("fn a() {{\n{BLOCK}}}\nfn b() {{\n{other}}}\n");
        assert!(run(&[("src/a.rs", &b)]).is_empty());
        let c = format!("fn c() {{\n{BLOCK}}}\n");
        assert!(run(&[("billing/src/a.rs", &c), ("shipping/src/a.rs", &c)]).is_empty());
        let t =
            format!("#[cfg(test)]\nmod tests {{\nfn a() {{\n{BLOCK}}}\nfn b() {{\n{BLOCK}}}\n}}\n");
        assert!(run(&[("src/a.rs", &t)]).is_empty());
    }
}
