//! `quality/naming-violation`: names against their language's conventions.
//!
//! Rust (from the syntax tree, with rustc's own definitions): functions, methods, parameters and
//! `let` bindings in snake_case, types, traits and variants in CamelCase, constants and statics
//! in UPPER_CASE; items under `#[allow(non_snake_case)]`-style attributes (on the item, an
//! enclosing item or the crate), `#[no_mangle]`/`extern` functions and trait-impl methods (named
//! by the trait) are exempt. Bindings are checked only when mixed-case (`myVar`), since an
//! upper-case single name in a pattern may be a constant. Python, Go, TypeScript and
//! JavaScript get the conventions their communities enforce (`script.rs`).

mod rust;
mod script;

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use protocol::{Category, Dimension, Location, Severity};

static META: RuleMeta = RuleMeta {
    id: "quality/naming-violation",
    category: Category::NamingViolation,
    severity: Severity::Low,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
    ],
    dimensions: &[Dimension::Maintainability, Dimension::BestPractices],
    explanation:
        "Names against the language's conventions (snake_case functions, CamelCase types, ...)",
};

/// One badly named item.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Misnamed {
    line: u32,
    /// `function`, `type`, `variable`, ...
    kind: &'static str,
    name: String,
    /// The convention it breaks: `snake_case`, `CamelCase`, ...
    convention: &'static str,
}

/// Flags names that break their language's conventions.
pub(crate) struct NamingViolation;

impl Rule for NamingViolation {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let found = match file.language {
            Some(Language::Rust) => match file.rust_ast() {
                Some(Ok(ast)) => rust::find(ast),
                _ => return,
            },
            Some(lang) if !file.is_test_file() => script::find(&file.text, lang),
            _ => return,
        };
        for m in found {
            out.hit(
                Hit::new(
                    Location::at(&file.rel_path, m.line),
                    format!("{} `{}` is not {}", m.kind, m.name, m.convention),
                    format!("{} {}", m.kind, m.name),
                )
                .suggest(format!("rename it in {}", m.convention)),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;

    #[test]
    fn fires_on_rust_names_against_rustc_conventions() {
        let text = "pub struct http_client;\nfn parseLine(rawLine: &str) {\n    let lineCount = 1;\n}\nconst maxLen: usize = 3;\nenum Mode { fast_mode }\n";
        assert_eq!(
            hits(&NamingViolation, "src/a.rs", text),
            vec![
                (1, "type `http_client` is not CamelCase".to_string()),
                (2, "function `parseLine` is not snake_case".to_string()),
                (2, "variable `rawLine` is not snake_case".to_string()),
                (3, "variable `lineCount` is not snake_case".to_string()),
                (5, "constant `maxLen` is not UPPER_CASE".to_string()),
                (6, "variant `fast_mode` is not CamelCase".to_string()),
            ]
        );
    }

    #[test]
    fn quiet_on_conventional_and_exempt_rust_names() {
        let text = "#[allow(non_snake_case)]\nfn JNI_OnLoad() {}\n#[no_mangle]\npub extern \"C\" fn RustInit() {}\nimpl fmt::Display for X {\n    fn fmt(&self, f: &mut F) -> R { let None = x else { return }; Ok(()) }\n}\nstruct HttpClient { max_len: usize }\nconst MAX: u8 = 1;\nfn r#type(r#in: u8) {}\n#[allow(non_camel_case_types)]\nmod ffi { pub struct c_int; }\n";
        assert!(hits(&NamingViolation, "src/a.rs", text).is_empty());
    }

    #[test]
    fn fires_and_stays_quiet_in_other_languages() {
        let py = "class user_store:\n    def getUser(self):\n        pass\n    def setUp(self):\n        pass\n    def find_user(self):\n        pass\n    def save(self):\n        pass\n";
        assert_eq!(
            hits(&NamingViolation, "app/store.py", py),
            vec![
                (1, "class `user_store` is not CapWords".to_string()),
                (2, "function `getUser` is not snake_case".to_string()),
            ]
        );
        let go = "package store\n\nfunc get_user(id string) {}\ntype user_row struct{}\nfunc GetUser() {}\n";
        assert_eq!(
            hits(&NamingViolation, "store/user.go", go),
            vec![
                (3, "function `get_user` is not MixedCaps".to_string()),
                (4, "type `user_row` is not MixedCaps".to_string()),
            ]
        );
        let ts = "export class userStore {}\nfunction load_users() {}\nfunction loadUsers() {}\nconst MAX_USERS = 3;\nexport interface $ZodCatchDef {}\ninterface _$ZodTypeInternals {}\ninterface $zodLower {}\n";
        assert_eq!(
            hits(&NamingViolation, "web/store.ts", ts),
            vec![
                (1, "class `userStore` is not PascalCase".to_string()),
                (2, "function `load_users` is not camelCase".to_string()),
                (7, "interface `$zodLower` is not PascalCase".to_string()),
            ]
        );
        assert!(hits(
            &NamingViolation,
            "tests/test_x.py",
            "def testFoo():\n    pass\n"
        )
        .is_empty());
    }
}
