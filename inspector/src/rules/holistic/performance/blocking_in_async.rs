//! `holistic/blocking-in-async`: a blocking call made directly in async code — `thread::sleep`,
//! `std::fs` I/O, `reqwest::blocking`, a std channel's `recv()`, a thread's `join()`, std
//! `Command::output()/status()`, `block_on` (Rust); `time.sleep`, `requests.*` (Python). The call
//! holds an executor thread: every other task on it stalls until the call returns.
//!
//! Awaited calls are async versions (`tokio::fs::read(..).await`) and are not flagged, nor is
//! anything inside a sync closure (`spawn_blocking(|| fs::read(..))`, `block_in_place`), nor
//! files that use `tokio::fs`/`tokio::process` for the bare `fs::`/`Command` names. Test code is
//! exempt (fixtures are written with `std::fs` on purpose).

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::functions::{functions, indent_of};
use crate::lexical::lex;
use crate::rules::holistic::async_scope::{visit_async_scopes, AsyncScope};
use crate::rules::holistic::prefilter::{code_has, Needle};
use crate::rules::holistic::syntax::{callee, line, path_ends_with};
use crate::rules::macro_calls::visit_macro_args;
use crate::rules::test_code::TestCode;
use protocol::{Category, Dimension, Location, Severity};
use std::collections::HashSet;
use syn::visit::{self, Visit};

/// `std::fs` functions that do blocking I/O.
const FS: [&str; 14] = [
    "read",
    "read_to_string",
    "write",
    "copy",
    "rename",
    "remove_file",
    "remove_dir",
    "remove_dir_all",
    "create_dir",
    "create_dir_all",
    "metadata",
    "read_dir",
    "canonicalize",
    "read_link",
];

/// Words one of which each blocking call names: a path's last segment (`sleep`, `block_on`),
/// its `fs`, `File` or `reqwest` segment, or the method.
const BLOCKING_WORDS: [&str; 9] = [
    "sleep", "block_on", "fs", "File", "reqwest", "recv", "join", "output", "status",
];

static META: RuleMeta = RuleMeta {
    id: "holistic/blocking-in-async",
    category: Category::Performance,
    severity: Severity::Medium,
    languages: &[Language::Rust, Language::Python],
    dimensions: &[Dimension::Performance],
    explanation: "Blocking calls (thread::sleep, std::fs, reqwest::blocking, std recv) inside async functions",
};

/// Flags blocking calls in async code.
pub(crate) struct BlockingInAsync;

impl Rule for BlockingInAsync {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        match file.language {
            // Async code, then a blocking call's word after the first `async`.
            Some(Language::Rust) => code_has(
                file,
                &[Needle::Word(&["async"]), Needle::Word(&BLOCKING_WORDS)],
            ),
            Some(Language::Python) => file.text.contains("async def") && !file.is_test_file(),
            _ => false,
        }
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let found = if file.language == Some(Language::Rust) {
            let Some(Ok(ast)) = file.rust_ast() else {
                return;
            };
            let mut finder = Finder {
                tokio_fs: file.text.contains("tokio::fs") || file.text.contains("async_std::fs"),
                tokio_process: file.text.contains("tokio::process"),
                in_async: false,
                awaited: HashSet::new(),
                found: Vec::new(),
            };
            finder.visit_file(ast);
            finder.found
        } else {
            python(&file.text)
        };
        if found.is_empty() {
            return;
        }
        let tests = TestCode::of(file);
        for (l, call) in found.into_iter().filter(|(l, _)| !tests.contains(*l)) {
            out.hit(
                Hit::new(
                    Location::at(&file.rel_path, l),
                    format!("`{call}` blocks inside async code: every task on this executor thread stalls until it returns"),
                    format!("blocking {call}"),
                )
                .suggest("use the async version (tokio::time::sleep, tokio::fs, an async client) or move it into spawn_blocking"),
            );
        }
    }
}

struct Finder {
    tokio_fs: bool,
    tokio_process: bool,
    in_async: bool,
    /// Addresses of expressions that are awaited.
    awaited: HashSet<usize>,
    found: Vec<(u32, String)>,
}

impl Finder {
    fn is_awaited(&self, e: &syn::Expr) -> bool {
        self.awaited.contains(&(e as *const syn::Expr as usize))
    }

    /// The blocking function a call path names, if it is one.
    fn blocking_path(&self, path: &str) -> Option<String> {
        if path_ends_with(path, "thread::sleep") {
            return Some("thread::sleep".into());
        }
        if path.starts_with("reqwest::blocking") {
            return Some(path.to_string());
        }
        if path_ends_with(path, "block_on") {
            return Some("block_on".into());
        }
        let fs_call = FS
            .iter()
            .find(|f| path_ends_with(path, &format!("fs::{f}")));
        let std_fs = path.starts_with("std::")
            || !self.tokio_fs && !path.starts_with("tokio") && !path.starts_with("async_std");
        if let (Some(f), true) = (fs_call, std_fs) {
            return Some(format!("fs::{f}"));
        }
        let file_call = ["File::open", "File::create"]
            .iter()
            .find(|f| path_ends_with(path, f));
        if let (Some(f), true) = (file_call, std_fs) {
            return Some((*f).to_string());
        }
        None
    }
}

impl AsyncScope for Finder {
    fn in_async_mut(&mut self) -> &mut bool {
        &mut self.in_async
    }
}

impl<'ast> Visit<'ast> for Finder {
    visit_async_scopes!('ast);

    fn visit_expr_await(&mut self, e: &'ast syn::ExprAwait) {
        self.awaited.insert(&*e.base as *const syn::Expr as usize);
        // A future handed to an awaited wrapper is awaited through it: `timeout(d,
        // rx.recv()).await` waits on tokio's `recv`, never blocks.
        if let syn::Expr::Call(c) = &*e.base {
            for arg in &c.args {
                self.awaited.insert(arg as *const syn::Expr as usize);
            }
        }
        visit::visit_expr_await(self, e);
    }

    fn visit_expr(&mut self, e: &'ast syn::Expr) {
        if self.in_async && !self.is_awaited(e) {
            match e {
                syn::Expr::Call(c) => {
                    if let Some(name) = callee(c).and_then(|p| self.blocking_path(&p)) {
                        let at = match &*c.func {
                            syn::Expr::Path(p) => {
                                p.path.segments.last().map_or(0, |s| line(s.ident.span()))
                            }
                            _ => 0,
                        };
                        self.found.push((at, name));
                    }
                }
                syn::Expr::MethodCall(m) => {
                    let method = m.method.to_string();
                    let blocking = match method.as_str() {
                        "recv" | "join" => m.args.is_empty(),
                        "output" | "status" => {
                            !self.tokio_process
                                && m.args.is_empty()
                                && chain_root_is_command(&m.receiver)
                        }
                        _ => false,
                    };
                    if blocking {
                        self.found
                            .push((line(m.method.span()), format!(".{method}()")));
                    }
                }
                _ => {}
            }
        }
        visit::visit_expr(self, e);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        visit_macro_args(self, mac);
    }
}

fn chain_root_is_command(e: &syn::Expr) -> bool {
    let mut e = e;
    while let syn::Expr::MethodCall(m) = e {
        e = &m.receiver;
    }
    matches!(e, syn::Expr::Call(c) if callee(c).is_some_and(|p| path_ends_with(&p, "Command::new")))
}

/// Python: blocking calls directly in the body of an `async def` (not in a nested `def`).
fn python(text: &str) -> Vec<(u32, String)> {
    let lines = lex(text, Language::Python);
    let mut found = Vec::new();
    for f in functions(&lines, Language::Python) {
        let header = &lines[(f.start - 1) as usize];
        if !header.code().trim_start().starts_with("async def") {
            continue;
        }
        let mut nested: Option<usize> = None;
        for l in &lines[f.start as usize..f.end as usize] {
            let code = l.code();
            let t = code.trim_start();
            let indent = indent_of(l.text);
            if nested.is_some_and(|n| indent > n) || t.is_empty() {
                continue;
            }
            nested = None;
            if t.starts_with("def ") || t.starts_with("async def ") {
                nested = Some(indent);
                continue;
            }
            let call = [
                "time.sleep(",
                "requests.get(",
                "requests.post(",
                "requests.put(",
                "requests.delete(",
                "requests.request(",
                "urlopen(",
            ]
            .iter()
            .find(|c| t.contains(*c));
            if let Some(c) = call {
                found.push((l.number, c.trim_end_matches('(').to_string()));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;
    use crate::rules::holistic::prefilter::wanted;

    #[test]
    fn fires_on_blocking_calls_in_async_code() {
        let rust = "async fn poll(path: &Path, rx: &std::sync::mpsc::Receiver<u8>) {\n    std::thread::sleep(Duration::from_secs(1));\n    let text = std::fs::read_to_string(path)?;\n    let m = rx.recv();\n    let body = reqwest::blocking::get(url)?;\n}\n";
        assert_eq!(
            hits(&BlockingInAsync, "src/a.rs", rust),
            vec![
                (2, "`thread::sleep` blocks inside async code: every task on this executor thread stalls until it returns".to_string()),
                (3, "`fs::read_to_string` blocks inside async code: every task on this executor thread stalls until it returns".to_string()),
                (4, "`.recv()` blocks inside async code: every task on this executor thread stalls until it returns".to_string()),
                (5, "`reqwest::blocking::get` blocks inside async code: every task on this executor thread stalls until it returns".to_string()),
            ]
        );
        let py = "async def handler(req):\n    time.sleep(1)\n    return requests.get(URL)\n";
        let lines: Vec<u32> = hits(&BlockingInAsync, "app/h.py", py)
            .into_iter()
            .map(|h| h.0)
            .collect();
        assert_eq!(lines, vec![2, 3]);
    }

    #[test]
    fn quiet_on_async_versions_spawn_blocking_and_sync_code() {
        let rust = "async fn a(path: PathBuf, mut rx: Receiver<u8>) {\n    tokio::time::sleep(Duration::from_secs(1)).await;\n    let t = tokio::fs::read_to_string(&path).await?;\n    let m = rx.recv().await;\n    let n = timeout(Duration::from_secs(20), rx.recv()).await;\n    let h = tokio::task::spawn_blocking(move || std::fs::read(path)).await;\n}\nfn b(path: &Path) {\n    std::thread::sleep(Duration::from_millis(5));\n    let t = std::fs::read(path);\n}\n#[tokio::test]\nasync fn t() {\n    std::fs::write(\"x\", \"y\").unwrap();\n}\n";
        assert!(hits(&BlockingInAsync, "src/a.rs", rust).is_empty());
        let py = "async def handler(req):\n    await asyncio.sleep(1)\n    def sync_part():\n        time.sleep(1)\n    return await loop.run_in_executor(None, sync_part)\n";
        assert!(hits(&BlockingInAsync, "app/h.py", py).is_empty());
    }

    #[test]
    fn wants_a_blocking_word_after_async_in_code() {
        let blocking = "async fn f() {\n    std::thread::sleep(D);\n}\n";
        assert!(wanted(&BlockingInAsync, blocking));
        let before = "fn f() {\n    std::thread::sleep(D);\n}\nasync fn g() {}\n";
        assert!(!wanted(&BlockingInAsync, before));
        let commented = "/// An async wrapper: never calls thread::sleep.\nfn f() {\n    log(\"async fs::read\");\n}\n";
        assert!(!wanted(&BlockingInAsync, commented));
    }
}
