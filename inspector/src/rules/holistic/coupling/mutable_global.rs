//! `holistic/mutable-global`: a global singleton holding mutable state — a `static` whose type
//! has interior mutability (`Mutex`, `RwLock`, `RefCell`, `Cell`, `UnsafeCell`), directly or
//! inside `LazyLock`/`OnceLock`/`Lazy`, or a `lazy_static!` `static ref` of such a type. Every
//! function that touches it depends on state no signature shows; tests that run in parallel
//! share it. (`static mut` is `holistic/static-mut`.)
//!
//! Not flagged: atomics (counters and flags are the idiomatic use of a global), `OnceLock<T>`
//! of an immutable `T` (set once, read after), a `Mutex<()>` (a lock that guards no state),
//! `thread_local!` (per thread, not shared), and test code. A file that registers a callback
//! which cannot carry a context — a signal handler, a panic hook, an `extern "C" fn` handed to
//! C — has no channel but a global to reach its state: its statics are reported excused by the
//! code ([`Hit::excuse`]), suppressed unless the change under review wrote them.

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::rules::holistic::prefilter::{code_has, Needle};
use crate::rules::test_code::TestCode;
use protocol::{Category, Dimension, Location, Severity};
use quote::ToTokens;
use syn::visit::{self, Visit};

/// Types with interior mutability.
const MUTABLE: [&str; 5] = ["Mutex", "RwLock", "RefCell", "Cell", "UnsafeCell"];

static META: RuleMeta = RuleMeta {
    id: "holistic/mutable-global",
    category: Category::ImplicitCoupling,
    severity: Severity::Medium,
    languages: &[Language::Rust],
    dimensions: &[Dimension::Architecture, Dimension::Maintainability],
    explanation: "Global singletons holding mutable state (static Mutex/RwLock/RefCell, lazy_static!): hidden shared state",
};

/// Flags mutable global singletons.
pub(crate) struct MutableGlobal;

impl Rule for MutableGlobal {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    /// In code order: the keyword `static` (not the lifetime), then a [`MUTABLE`] type name.
    fn wants(&self, file: &SourceFile) -> bool {
        file.language == Some(Language::Rust)
            && code_has(file, &[Needle::Word(&["static"]), Needle::Word(&MUTABLE)])
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let Some(Ok(ast)) = file.rust_ast() else {
            return;
        };
        let mut finder = Finder(Vec::new());
        finder.visit_file(ast);
        if finder.0.is_empty() {
            return;
        }
        let tests = TestCode::of(file);
        let callback = context_free_callback(file);
        for (line, name, ty) in finder.0.into_iter().filter(|(l, _, _)| !tests.contains(*l)) {
            let hit = Hit::new(
                Location::at(&file.rel_path, line),
                format!("`static {name}: {ty}` is a global singleton holding mutable state"),
                format!("mutable global {name}"),
            )
            .suggest(
                "own the state in a value created at start-up and pass it to whoever needs it",
            );
            out.hit(match callback {
                Some(what) => hit.excused(format!(
                    "the file registers {what}, which cannot carry a context: a global is its only channel to state"
                )),
                None => hit,
            });
        }
    }
}

/// What callback without a context the file registers, if any: a signal handler (a call
/// whose name says `signal`, `sigaction`), a panic hook or handler (`set_hook`, `set_handler`),
/// an `atexit`, or an `extern "C" fn` defined for C to call.
fn context_free_callback(file: &SourceFile) -> Option<&'static str> {
    let lexed = file.lexed(Language::Rust);
    for line in lexed.iter() {
        let code = line.code();
        if line.text.contains("extern \"C\" fn") || line.text.contains("extern \"system\" fn") {
            return Some("an `extern \"C\" fn`");
        }
        for (at, _) in code.match_indices('(') {
            let name: String = code[..at]
                .chars()
                .rev()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            let name = name.to_lowercase();
            if name.contains("signal") || name == "sigaction" {
                return Some("a signal handler");
            }
            if matches!(name.as_str(), "set_hook" | "set_handler" | "atexit") {
                return Some("a process-wide hook");
            }
        }
    }
    None
}

/// Whether a type (as text) holds mutable state: it names a [`MUTABLE`] type that does not
/// wrap the unit type.
fn holds_mutable_state(ty: &str) -> bool {
    let words: Vec<&str> = ty
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    let mutable = words.iter().any(|w| MUTABLE.contains(w));
    let guards_nothing = MUTABLE.iter().any(|m| ty.contains(&format!("{m}<()>")));
    mutable && !guards_nothing
}

fn compact(tokens: impl ToTokens) -> String {
    tokens
        .to_token_stream()
        .to_string()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("")
}

/// (line, name, type) of each mutable global.
struct Finder(Vec<(u32, String, String)>);

impl<'ast> Visit<'ast> for Finder {
    fn visit_item_static(&mut self, s: &'ast syn::ItemStatic) {
        let ty = compact(&s.ty);
        if matches!(s.mutability, syn::StaticMutability::None) && holds_mutable_state(&ty) {
            self.0.push((
                s.static_token.span.start().line as u32,
                s.ident.to_string(),
                ty,
            ));
        }
        visit::visit_item_static(self, s);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if mac
            .path
            .segments
            .last()
            .is_none_or(|s| s.ident != "lazy_static")
        {
            return;
        }
        // `static ref NAME: TYPE = INIT;` repeated; read at the token level.
        let tokens: Vec<proc_macro2::TokenTree> = mac.tokens.clone().into_iter().collect();
        for (i, tt) in tokens.iter().enumerate() {
            let proc_macro2::TokenTree::Ident(id) = tt else {
                continue;
            };
            let is_ref =
                matches!(tokens.get(i + 1), Some(proc_macro2::TokenTree::Ident(r)) if r == "ref");
            if id != "static" || !is_ref {
                continue;
            }
            let Some(proc_macro2::TokenTree::Ident(name)) = tokens.get(i + 2) else {
                continue;
            };
            let ty: Vec<&proc_macro2::TokenTree> = tokens[i + 4..]
                .iter()
                .take_while(
                    |t| !matches!(t, proc_macro2::TokenTree::Punct(p) if p.as_char() == '='),
                )
                .collect();
            let ty = compact(
                ty.into_iter()
                    .cloned()
                    .collect::<proc_macro2::TokenStream>(),
            );
            if holds_mutable_state(&ty) {
                self.0
                    .push((id.span().start().line as u32, name.to_string(), ty));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;
    use crate::rules::holistic::prefilter::wanted;

    #[test]
    fn fires_on_statics_with_interior_mutability() {
        let text = "static REGISTRY: Mutex<Vec<Plugin>> = Mutex::new(Vec::new());\nstatic CACHE: LazyLock<RwLock<HashMap<String, u8>>> = LazyLock::new(Default::default);\nlazy_static! {\n    static ref SESSIONS: Mutex<HashMap<u64, Session>> = Mutex::new(HashMap::new());\n}\n";
        assert_eq!(
            hits(&MutableGlobal, "src/a.rs", text),
            vec![
                (1, "`static REGISTRY: Mutex<Vec<Plugin>>` is a global singleton holding mutable state".to_string()),
                (2, "`static CACHE: LazyLock<RwLock<HashMap<String,u8>>>` is a global singleton holding mutable state".to_string()),
                (4, "`static SESSIONS: Mutex<HashMap<u64,Session>>` is a global singleton holding mutable state".to_string()),
            ]
        );
    }

    #[test]
    fn quiet_on_atomics_set_once_values_unit_locks_and_thread_locals() {
        let text = "static NEXT_ID: AtomicU64 = AtomicU64::new(0);\nstatic CONFIG: OnceLock<Config> = OnceLock::new();\nstatic ENV_LOCK: Mutex<()> = Mutex::new(());\nthread_local! {\n    static BUF: RefCell<String> = RefCell::new(String::new());\n}\n#[cfg(test)]\nmod tests {\n    static SEEN: Mutex<Vec<u8>> = Mutex::new(Vec::new());\n}\n";
        assert!(hits(&MutableGlobal, "src/a.rs", text).is_empty());
    }

    #[test]
    fn a_callback_without_a_context_excuses_the_global_it_needs() {
        let handler = "impl SignalHandler {\n    pub fn install() -> Result<()> {\n        Platform::install_signal_handler(|s| Self::instance().handle(s))\n    }\n    fn instance() -> MutexGuard<'static, Self> {\n        static INSTANCE: Mutex<SignalHandler> = Mutex::new(SignalHandler::new());\n        INSTANCE.lock().unwrap()\n    }\n}\n";
        assert!(hits(&MutableGlobal, "src/signal_handler.rs", handler).is_empty());
        assert_eq!(
            crate::rules::fixture::excused(&MutableGlobal, "src/signal_handler.rs", handler),
            vec![(6, "the file registers a signal handler, which cannot carry a context: a global is its only channel to state".to_string())]
        );
        let ffi = "static LOG: Mutex<Vec<String>> = Mutex::new(Vec::new());\nextern \"C\" fn on_event(code: c_int) {\n    LOG.lock().unwrap().push(code.to_string());\n}\n";
        assert_eq!(
            crate::rules::fixture::excused(&MutableGlobal, "src/ffi.rs", ffi).len(),
            1
        );
    }

    #[test]
    fn wants_the_static_keyword_then_a_mutable_type_in_code() {
        assert!(wanted(
            &MutableGlobal,
            "static CACHE: Mutex<Vec<u8>> = Mutex::new(Vec::new());\n"
        ));
        let lifetime = "fn f(m: &'static Mutex<u8>) {}\n";
        assert!(!wanted(&MutableGlobal, lifetime));
        let commented = "// static CACHE: Mutex<u8>\nconst S: &str = \"static RefCell\";\n";
        assert!(!wanted(&MutableGlobal, commented));
    }
}
