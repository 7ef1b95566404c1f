//! What makes an `.unwrap()`/`.expect(..)` safe without a comment, read from the syntax tree
//! and the lines before it: a `write!`/`writeln!` into a `String` (`fmt::Write` for `String`
//! never fails), a call on constant input (`"path:fg:magenta".parse()`, `Regex::new(r"\d+")`:
//! it fails the first time it runs or never), and a receiver the same function checked just
//! before (`if v.is_empty() { return … }`, `if x.is_some()`, `assert!(v.len() > 1)`,
//! `matches!(x, Some(..))`).

use crate::rules::holistic::syntax::{callee, path_ends_with};
use std::collections::BTreeSet;
use syn::visit::{self, Visit};

/// Methods whose call on a name is a check that makes a later unwrap of that name safe.
const GUARDS: [&str; 8] = [
    "is_some",
    "is_ok",
    "is_none",
    "is_err",
    "is_empty",
    "len",
    "contains_key",
    "starts_with",
];

/// The names a file binds to a `String`: `let s = String::new()`, `String::with_capacity(..)`,
/// `String::from(..)`, `format!(..)`, `x.to_string()`, `let s: String`, and parameters typed
/// `String` or `&mut String`. Names, not scopes: a name that is a `String` somewhere in the
/// file counts everywhere in it.
pub(super) fn string_names(ast: &syn::File) -> BTreeSet<String> {
    let mut finder = StringNames::default();
    finder.visit_file(ast);
    finder.names
}

#[derive(Default)]
struct StringNames {
    names: BTreeSet<String>,
}

impl<'ast> Visit<'ast> for StringNames {
    fn visit_local(&mut self, local: &'ast syn::Local) {
        let (pat, ty) = match &local.pat {
            syn::Pat::Type(t) => (&*t.pat, Some(&*t.ty)),
            p => (p, None),
        };
        if let syn::Pat::Ident(id) = pat {
            let typed = ty.is_some_and(is_string_type);
            let built = local.init.as_ref().is_some_and(|i| builds_string(&i.expr));
            if typed || built {
                self.names.insert(id.ident.to_string());
            }
        }
        visit::visit_local(self, local);
    }

    /// A struct field of type `String` or `&mut String`: `self.string` is one.
    fn visit_field(&mut self, field: &'ast syn::Field) {
        if let (Some(name), true) = (&field.ident, is_string_type(&field.ty)) {
            self.names.insert(format!("self.{name}"));
        }
        visit::visit_field(self, field);
    }

    fn visit_fn_arg(&mut self, arg: &'ast syn::FnArg) {
        if let syn::FnArg::Typed(t) = arg {
            if let (syn::Pat::Ident(id), true) = (&*t.pat, is_string_type(&t.ty)) {
                self.names.insert(id.ident.to_string());
            }
        }
        visit::visit_fn_arg(self, arg);
    }
}

/// `String`, `&mut String`.
fn is_string_type(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Reference(r) => r.mutability.is_some() && is_string_type(&r.elem),
        syn::Type::Path(p) => p.path.segments.last().is_some_and(|s| s.ident == "String"),
        _ => false,
    }
}

/// An expression that makes a new `String`.
fn builds_string(expr: &syn::Expr) -> bool {
    match expr {
        syn::Expr::Call(c) => match &*c.func {
            syn::Expr::Path(p) => {
                let segs: Vec<String> = p
                    .path
                    .segments
                    .iter()
                    .map(|s| s.ident.to_string())
                    .collect();
                segs.len() >= 2
                    && segs[segs.len() - 2] == "String"
                    && matches!(
                        segs[segs.len() - 1].as_str(),
                        "new" | "with_capacity" | "from"
                    )
            }
            _ => false,
        },
        syn::Expr::Macro(m) => m
            .mac
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "format"),
        syn::Expr::MethodCall(m) => m.method == "to_string",
        _ => false,
    }
}

/// Whether `receiver` is `write!(s, ..)`/`writeln!(s, ..)` into one of `strings`.
pub(super) fn writes_into_string(receiver: &syn::Expr, strings: &BTreeSet<String>) -> bool {
    let syn::Expr::Macro(m) = receiver else {
        return false;
    };
    let is_write = m
        .mac
        .path
        .segments
        .last()
        .is_some_and(|s| s.ident == "write" || s.ident == "writeln");
    if !is_write {
        return false;
    }
    let target: String = m
        .mac
        .tokens
        .clone()
        .into_iter()
        .take_while(|t| !matches!(t, proc_macro2::TokenTree::Punct(p) if p.as_char() == ','))
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join("");
    let target = target.trim_start_matches("&mut").trim_start_matches('&');
    strings.contains(target)
}

/// Constructors and parsers whose only input is their arguments.
const CONSTRUCTORS: [&str; 6] = [
    "new",
    "parse",
    "from_str",
    "from",
    "try_from",
    "from_static",
];

/// Whether `receiver` builds or parses a value from literals only: `"a:b".parse()`,
/// `Regex::new(r"x+")`, `NonZeroUsize::new(1)` (not `env("P")`, which reads the environment).
pub(super) fn constant_input(receiver: &syn::Expr) -> bool {
    let literal = |e: &syn::Expr| matches!(e, syn::Expr::Lit(_));
    match receiver {
        syn::Expr::Paren(p) => constant_input(&p.expr),
        syn::Expr::MethodCall(m) => {
            literal(&m.receiver)
                && matches!(m.method.to_string().as_str(), "parse" | "try_into")
                && m.args.iter().all(literal)
        }
        syn::Expr::Call(c) => {
            let constructor = match &*c.func {
                syn::Expr::Path(p) => {
                    p.path.segments.len() >= 2
                        && p.path
                            .segments
                            .last()
                            .is_some_and(|s| CONSTRUCTORS.iter().any(|n| s.ident == n))
                }
                _ => false,
            };
            constructor && !c.args.is_empty() && c.args.iter().all(literal)
        }
        _ => false,
    }
}

/// Methods whose result is decided by input or the outside world: a parse of text, a read, a
/// write or flush, opening, connecting, receiving, decoding.
const INPUT_METHODS: [&str; 19] = [
    "parse",
    "read",
    "read_to_string",
    "read_to_end",
    "read_line",
    "read_exact",
    "write",
    "write_all",
    "write_fmt",
    "flush",
    "open",
    "create",
    "connect",
    "bind",
    "accept",
    "recv",
    "send_to",
    "decode",
    "deserialize",
];

/// Functions (a path's last segment) whose result is decided by input or the outside world.
const INPUT_FUNCTIONS: [&str; 14] = [
    "var",
    "var_os",
    "read_to_string",
    "read",
    "read_dir",
    "open",
    "create",
    "metadata",
    "canonicalize",
    "from_str",
    "from_slice",
    "from_reader",
    "from_utf8",
    "connect",
];

/// Types whose `FromStr` cannot fail (`Err = Infallible`): `SmolStr::from_str(s).unwrap()` is
/// a conversion, not a parse of input.
const INFALLIBLE_FROM_STR: [&str; 6] = [
    "String",
    "SmolStr",
    "PathBuf",
    "OsString",
    "CompactString",
    "EcoString",
];

/// Whether an unwrap's receiver chain holds a call whose failure the caller's input or the
/// outside world decides (`s.parse::<u16>()`, `std::env::var("P")`, `File::open(p)`,
/// `writeln!(f, ..)` into anything but a `String`): the unwrap turns an error the caller could
/// handle into a panic. The other unwraps assume an invariant of the code itself.
pub(super) fn input_dependent(receiver: &syn::Expr) -> bool {
    match receiver {
        syn::Expr::MethodCall(m) => {
            INPUT_METHODS.iter().any(|n| m.method == n) || input_dependent(&m.receiver)
        }
        syn::Expr::Call(c) => {
            let named = callee(c).is_some_and(|path| {
                let infallible = INFALLIBLE_FROM_STR
                    .iter()
                    .any(|ty| path_ends_with(&path, &format!("{ty}::from_str")));
                let last = path.rsplit("::").next().unwrap_or_default();
                !infallible && INPUT_FUNCTIONS.contains(&last)
            });
            named || c.args.iter().any(input_dependent)
        }
        syn::Expr::Macro(m) => m
            .mac
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "write" || s.ident == "writeln"),
        syn::Expr::Paren(p) => input_dependent(&p.expr),
        syn::Expr::Reference(r) => input_dependent(&r.expr),
        syn::Expr::Try(t) => input_dependent(&t.expr),
        syn::Expr::Await(a) => input_dependent(&a.base),
        _ => false,
    }
}

/// The name an unwrap's receiver chain starts from (`items` in `items.first().unwrap()`,
/// `self.buf` in `self.buf.pop().unwrap()`), when it is a plain name or field path.
pub(super) fn receiver_root(receiver: &syn::Expr) -> Option<String> {
    match receiver {
        syn::Expr::MethodCall(m) => receiver_root(&m.receiver),
        syn::Expr::Paren(p) => receiver_root(&p.expr),
        syn::Expr::Reference(r) => receiver_root(&r.expr),
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => receiver_root(&u.expr),
        syn::Expr::Path(p) if p.qself.is_none() => p.path.get_ident().map(|i| i.to_string()),
        syn::Expr::Field(f) => {
            let base = receiver_root(&f.base)?;
            match &f.member {
                syn::Member::Named(n) => Some(format!("{base}.{n}")),
                syn::Member::Unnamed(i) => Some(format!("{base}.{}", i.index)),
            }
        }
        _ => None,
    }
}

/// Whether one of `lines` (the function's lines before the call, and the call's own line) checks
/// `name`: a guard method on it (`name.is_empty()`, `name.len()`, `name.is_some()`, …) in a
/// condition or an assertion, or `matches!(name, …)` / `let Some(..) = name`.
pub(super) fn guarded(lines: &[&str], name: &str) -> bool {
    // `set.lits.pop()` is guarded by a check of `set` too (`set.len() == 1`), but not by one
    // of `self` alone.
    let mut owners: Vec<&str> = vec![name];
    let mut rest = name;
    while let Some((owner, _)) = rest.rsplit_once('.') {
        if owner != "self" {
            owners.push(owner);
        }
        rest = owner;
    }
    owners.iter().any(|n| guarded_name(lines, n))
}

fn guarded_name(lines: &[&str], name: &str) -> bool {
    lines.iter().any(|line| {
        let code = line.split("//").next().unwrap_or_default();
        let checks = code.contains("if ")
            || code.contains("while ")
            || code.contains("assert")
            || code.contains("&&")
            || code.contains("||");
        // The check may read through accessors: `self.dent.path().starts_with("./")`.
        let guard_call = find_name(code, &format!("{name}.")).is_some_and(|at| {
            let tail = &code[at..];
            GUARDS.iter().any(|g| tail.contains(&format!(".{g}(")))
        });
        (checks && guard_call)
            || find_name(code, &format!("matches!({name},")).is_some()
            || (code.contains("let Some")
                && [format!("= {name} else"), format!("= {name} {{")]
                    .iter()
                    .any(|n| code.contains(n.as_str())))
    })
}

/// The position of `needle` in `code` where it is not the tail of a longer name (`x.len()`
/// does not match `max.len()`).
fn find_name(code: &str, needle: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = code[from..].find(needle).map(|p| p + from) {
        let before = code[..at].chars().next_back();
        if !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
            return Some(at);
        }
        from = at + needle.len();
    }
    None
}

/// `x.lock()`, `x.read()`, `x.write()` with no arguments: a lock acquisition; and
/// `handle.join()`, whose error is the thread's panic, propagated on purpose.
pub(super) fn is_lock_call(expr: &syn::Expr) -> bool {
    matches!(expr, syn::Expr::MethodCall(m)
        if m.args.is_empty()
            && matches!(m.method.to_string().as_str(), "lock" | "read" | "write" | "join"))
}

/// Whether an `expect` argument is a panic message.
pub(super) fn is_message(arg: &syn::Expr) -> bool {
    matches!(
        arg,
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(_),
            ..
        }) | syn::Expr::Reference(_)
            | syn::Expr::Macro(_)
    )
}

/// Whether a function's contract puts its preconditions on its callers: Rust's `_unchecked`
/// naming (`from_str_unchecked`: called once the input was validated), or `#[doc(hidden)]` —
/// outside the documented API, support code the crate's own macros expand to and call with
/// what those macros wrote (`quote`'s runtime parsing its own token text).
pub(super) fn caller_upholds(name: &str, attrs: &[syn::Attribute]) -> bool {
    name.ends_with("_unchecked")
        || attrs.iter().any(|a| {
            a.path().is_ident("doc")
                && matches!(&a.meta, syn::Meta::List(l) if l.tokens.to_string().trim() == "hidden")
        })
}

/// Whether a function is a test helper the library publishes, by its name (`mock`, `fake`,
/// `stub`, `dummy`, `for_test…`) or its doc ("useful for integration tests"): a panic is how a
/// test helper fails.
pub(super) fn helps_tests(name: &str, doc: &str) -> bool {
    name.contains("for_test")
        || name
            .split('_')
            .any(|w| matches!(w, "mock" | "mocked" | "fake" | "stub" | "dummy"))
        || [
            "for tests",
            "for testing",
            "in tests",
            "integration tests",
            "unit tests",
        ]
        .iter()
        .any(|p| doc.contains(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_inputs_are_literal_arguments_only() {
        let expr = |s: &str| syn::parse_str::<syn::Expr>(s).expect("expression");
        assert!(constant_input(&expr("\"path:fg:magenta\".parse()")));
        assert!(constant_input(&expr("Regex::new(r\"\\d+\")")));
        assert!(!constant_input(&expr("Regex::new(pattern)")));
        assert!(!constant_input(&expr("s.parse()")));
        assert!(!constant_input(&expr("Config::load()")));
        assert!(!constant_input(&expr("env(\"P\")")));
        assert!(!constant_input(&expr("std::env::var(\"P\")")));
    }

    #[test]
    fn guards_name_the_receiver_in_a_condition_or_assertion() {
        assert!(guarded(
            &["    if v.is_empty() {", "        return None;"],
            "v"
        ));
        assert!(guarded(&["    assert!(self.buf.len() > 1);"], "self.buf"));
        assert!(guarded(&["    if !matches!(x, Some(_)) { return; }"], "x"));
        assert!(!guarded(&["    if max.is_empty() { return; }"], "x"));
        assert!(!guarded(&["    let n = v.len();"], "v"));
        assert!(!guarded(&["    // if v.is_empty() {"], "v"));
        assert!(guarded(&["    } else if set.len() == 1 {"], "set.lits"));
        assert!(guarded(
            &["    if s.on && self.dent.path().starts_with(\"./\") {"],
            "self.dent"
        ));
        assert!(!guarded(&["    if self.len() > 1 {"], "self.items"));
    }

    #[test]
    fn an_infallible_from_str_reads_no_input_and_a_string_field_is_a_string() {
        let expr = |s: &str| syn::parse_str::<syn::Expr>(s).expect("expression");
        assert!(!input_dependent(&expr("SmolStr::from_str(name)")));
        assert!(input_dependent(&expr("Uri::from_str(name)")));
        let file: syn::File =
            syn::parse_str("struct V<'a> { string: &'a mut String, n: u8 }").expect("file");
        let names = string_names(&file);
        assert!(names.contains("self.string") && !names.contains("self.n"));
    }
}
