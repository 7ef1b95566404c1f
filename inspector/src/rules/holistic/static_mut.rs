//! `holistic/static-mut`: `static mut` items. Every access is `unsafe` and unsynchronised; two
//! threads touching one is a data race, and even a shared reference to one is undefined
//! behaviour if a write can happen meanwhile (the 2024 edition denies such references).
//! Test code is not exempt: tests run in parallel threads. A file that guards initialisation
//! with a `Once` (`call_once`) or an atomic state it swaps (`compare_exchange`) is the classic
//! write-once global (set under the guard, read after it): its `static mut` items are reported
//! excused by that code ([`Hit::excuse`]), suppressed unless the change under review wrote them.

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::rules::holistic::prefilter::{code_has, Needle};
use protocol::{Category, Dimension, Location, Severity};
use syn::visit::{self, Visit};

static META: RuleMeta = RuleMeta {
    id: "holistic/static-mut",
    category: Category::RaceCondition,
    severity: Severity::High,
    languages: &[Language::Rust],
    dimensions: &[Dimension::Quality, Dimension::Security],
    explanation:
        "`static mut`: unsynchronised global state, a data race as soon as two threads touch it",
};

/// Flags `static mut` items.
pub(crate) struct StaticMut;

impl Rule for StaticMut {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    /// The keywords `static mut` in code.
    fn wants(&self, file: &SourceFile) -> bool {
        file.language == Some(Language::Rust) && code_has(file, &[Needle::Pair("static", "mut")])
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let Some(Ok(ast)) = file.rust_ast() else {
            return;
        };
        let mut finder = Finder(Vec::new());
        finder.visit_file(ast);
        // A unit struct's static (`static mut NULL_WRITER: NullWriter = NullWriter;`) holds no
        // data: nothing in it can race.
        let units = unit_structs(&ast.items);
        finder.0.retain(|(_, _, ty)| !units.contains(ty));
        let guarded = code_has(
            file,
            &[Needle::Method(&[
                "call_once",
                "call_once_force",
                "get_or_init",
                "get_or_try_init",
                "compare_exchange",
                "compare_exchange_weak",
            ])],
        );
        for (line, name, _) in finder.0 {
            let hit = Hit::new(
                Location::at(&file.rel_path, line),
                format!("`static mut {name}` is unsynchronised global state: concurrent access is a data race"),
                format!("static mut {name}"),
            )
            .suggest("use an atomic, a Mutex/RwLock in a static, OnceLock, or thread_local!");
            out.hit(if guarded {
                hit.excused("the file guards initialisation with a Once or an atomic state it swaps: a write-once global set under the guard")
            } else {
                hit
            });
        }
    }
}

/// Collects (line, name, type) of every `static mut`, also inside functions.
struct Finder(Vec<(u32, String, String)>);

/// The names of the unit structs (`struct NullWriter;`) declared in `items`, at any depth of
/// inline modules.
fn unit_structs(items: &[syn::Item]) -> Vec<String> {
    let mut out = Vec::new();
    for item in items {
        match item {
            syn::Item::Struct(s) if matches!(s.fields, syn::Fields::Unit) => {
                out.push(s.ident.to_string());
            }
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    out.extend(unit_structs(inner));
                }
            }
            _ => {}
        }
    }
    out
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_item_static(&mut self, item: &'ast syn::ItemStatic) {
        // `#[cfg(doc)] pub static mut CFG: Cfg = …`: compiled only by rustdoc, to document a
        // setting the real code provides another way.
        let doc_only = item.attrs.iter().any(|a| {
            a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "doc")
        });
        if matches!(item.mutability, syn::StaticMutability::Mut(_)) && !doc_only {
            let ty = quote::ToTokens::to_token_stream(&*item.ty).to_string();
            self.0.push((
                item.static_token.span.start().line as u32,
                item.ident.to_string(),
                ty,
            ));
        }
        visit::visit_item_static(self, item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;
    use crate::rules::holistic::prefilter::wanted;

    #[test]
    fn fires_on_static_mut_items_also_inside_functions() {
        let text =
            "static mut COUNTER: u32 = 0;\nfn f() {\n    static mut CACHE: Option<u8> = None;\n}\n";
        assert_eq!(
            hits(&StaticMut, "src/a.rs", text),
            vec![
                (1, "`static mut COUNTER` is unsynchronised global state: concurrent access is a data race".to_string()),
                (3, "`static mut CACHE` is unsynchronised global state: concurrent access is a data race".to_string()),
            ]
        );
        let unit = "pub struct NullWriter;\nimpl NullWriter {\n    pub fn get_mut() -> &'static mut NullWriter {\n        static mut NULL_WRITER: NullWriter = NullWriter;\n        unsafe { &mut *addr_of_mut!(NULL_WRITER) }\n    }\n}\n";
        assert!(
            hits(&StaticMut, "src/output.rs", unit).is_empty(),
            "a unit struct holds no data"
        );
        let documented = "/// The build's settings.\n#[cfg(doc)]\npub static mut CFG: Cfg = Cfg { doxygen: false };\n";
        assert!(
            hits(&StaticMut, "src/cfg.rs", documented).is_empty(),
            "rustdoc only"
        );
    }

    #[test]
    fn a_write_once_global_under_a_once_is_excused() {
        let text = "static mut THE_REGISTRY: Option<Arc<Registry>> = None;\nstatic THE_REGISTRY_SET: Once = Once::new();\nfn global() -> &'static Arc<Registry> {\n    THE_REGISTRY_SET.call_once(|| unsafe { THE_REGISTRY = Some(Registry::new()) });\n    unsafe { THE_REGISTRY.as_ref().unwrap() }\n}\n";
        assert!(hits(&StaticMut, "src/registry.rs", text).is_empty());
        assert_eq!(
            crate::rules::fixture::excused(&StaticMut, "src/registry.rs", text).len(),
            1
        );
        // Set once under a OnceLock (a CPython extension's cached type pointers).
        let lock = "pub(crate) static mut NONE: *mut PyObject = null_mut();\nstatic INIT: OnceLock<bool> = OnceLock::new();\npub(crate) fn init() {\n    INIT.get_or_init(init_impl);\n}\n";
        assert!(hits(&StaticMut, "src/typeref.rs", lock).is_empty());
        assert_eq!(
            crate::rules::fixture::excused(&StaticMut, "src/typeref.rs", lock).len(),
            1
        );
    }

    #[test]
    fn quiet_on_immutable_statics_atomics_and_mentions() {
        let text = "static COUNTER: AtomicU32 = AtomicU32::new(0);\n// no static mut here\nconst DOC: &str = \"static mut X\";\nfn f(x: &'static mut u8) {}\n";
        assert!(hits(&StaticMut, "src/a.rs", text).is_empty());
    }

    #[test]
    fn wants_static_mut_in_code() {
        assert!(wanted(&StaticMut, "static mut COUNT: u32 = 0;\n"));
        let not_an_item =
            "// static mut X\nfn f(x: &'static mut u8) -> &'static str {\n    \"static mut\"\n}\n";
        assert!(!wanted(&StaticMut, not_an_item));
    }
}
