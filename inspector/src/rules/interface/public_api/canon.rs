//! The canonical text of a type, a bound list and an alias: what a dependent relies on, however
//! the crate writes it, so that a rewrite that changes nothing for a caller is no break.

use super::text_of;

/// A type as a dependent sees it: paths reduced to their last segment (`crate::io::Read`,
/// `io::Read` and `Read` are the same trait to a caller; how the crate names it is its own
/// business), qualified paths (`<T as Trait>::Item`) kept, `dyn` left out (a bare trait in a
/// type is a trait object), and named lifetimes left out
/// (`fn f<'a>(&'a self) -> &'a T` is `fn f(&self) -> &T` by elision; `'static` stays).
pub(crate) fn unqualified(text: &str) -> String {
    // `Box<Log>` is `Box<dyn Log>` written before the 2018 edition.
    let text = qualified_less(&without_lifetimes(text));
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find("dyn ") {
        out.push_str(&rest[..at]);
        // `dyn` as a word: nothing of a longer identifier before it.
        let keyword = !out.chars().next_back().is_some_and(word);
        if !keyword {
            out.push_str("dyn ");
        }
        rest = &rest[at + 4..];
    }
    out.push_str(rest);
    out
}

/// `text` without its named lifetimes (`'a`, `'_`, and the `,` or space after one).
fn without_lifetimes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('\'') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let len = after
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let name = &after[..len];
        if name == "static" || name.is_empty() {
            out.push('\'');
            rest = after;
            continue;
        }
        let tail = &after[len..];
        rest = tail.strip_prefix(',').unwrap_or(tail).trim_start();
    }
    out.push_str(rest);
    out.replace("<>", "")
}

fn qualified_less(text: &str) -> String {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut ident_start: Option<usize> = None;
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == ':' && chars.get(i + 1) == Some(&':') {
            match ident_start {
                // `seg::` after a word: the segment goes.
                Some(start) => out.truncate(start),
                // `::std` at the start of a path goes; `>::Assoc` stays.
                None if !out.ends_with('>') => {}
                None => out.push_str("::"),
            }
            ident_start = None;
            i += 2;
            continue;
        }
        if word(c) {
            if ident_start.is_none() {
                ident_start = Some(out.len());
            }
        } else {
            ident_start = None;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Generics as a dependent relies on them, however they are written: the parameters in order,
/// then every bound (inline or in the `where` clause) as `T: Bound`, sorted.
pub(super) fn generics_of(g: &syn::Generics) -> String {
    let mut names = Vec::new();
    let mut bounds: Vec<String> = Vec::new();
    let mut bound = |on: String, b: String| bounds.push(format!("{on}: {}", unqualified(&b)));
    for p in &g.params {
        match p {
            syn::GenericParam::Type(t) => {
                names.push(t.ident.to_string());
                for b in &t.bounds {
                    bound(t.ident.to_string(), text_of(b));
                }
            }
            // Lifetimes are left out (see `unqualified`).
            syn::GenericParam::Lifetime(_) => {}
            syn::GenericParam::Const(c) => {
                names.push(format!(
                    "const {}: {}",
                    c.ident,
                    unqualified(&text_of(&c.ty))
                ));
            }
        }
    }
    for pred in g.where_clause.iter().flat_map(|w| &w.predicates) {
        match pred {
            syn::WherePredicate::Type(t) => {
                let on = unqualified(&text_of(&t.bounded_ty));
                for b in &t.bounds {
                    bound(on.clone(), text_of(b));
                }
            }
            syn::WherePredicate::Lifetime(_) => {}
            _ => bound(String::new(), text_of(pred)),
        }
    }
    bounds.sort();
    bounds.dedup();
    if names.is_empty() && bounds.is_empty() {
        return String::new();
    }
    format!("<{}> {}", names.join(", "), bounds.join(", "))
        .trim_end()
        .to_string()
}

/// A type alias as a dependent uses it: its parameters without a default, and the aliased type
/// with every defaulted parameter replaced by its default — so `type Result<T, E = Error> =
/// Result<T, E>` is the `type Result<T> = Result<T, Error>` it grew from.
pub(super) fn alias(t: &syn::ItemType) -> String {
    let mut ty = unqualified(&text_of(&t.ty));
    let mut params = Vec::new();
    for p in &t.generics.params {
        match p {
            syn::GenericParam::Type(g) => match &g.default {
                Some(default) => {
                    ty = replace_word(&ty, &g.ident.to_string(), &unqualified(&text_of(default)))
                }
                None => params.push(g.ident.to_string()),
            },
            syn::GenericParam::Const(c) => params.push(c.ident.to_string()),
            syn::GenericParam::Lifetime(_) => {}
        }
    }
    format!("<{}> {ty}", params.join(", "))
}

/// `text` with every whole-word `word` replaced by `with`.
pub(super) fn replace_word(text: &str, word: &str, with: &str) -> String {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (at, _) in text.match_indices(word) {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        if before.is_some_and(is_word) || after.is_some_and(is_word) {
            continue;
        }
        out.push_str(&text[last..at]);
        out.push_str(with);
        last = at + word.len();
    }
    out.push_str(&text[last..]);
    out
}
