//! What breaks between two revisions of a public surface, item by item.

use super::super::signature::pretty;
use super::{Api, Surface};

/// Whether `head` still makes the item `key` (gone from its place) public under its name: a
/// re-export of the name, or a glob re-export, in the same module.
fn reexported_in(head: &Surface, key: &str) -> bool {
    let (prefix, item) = key.rsplit_once("::").map_or(("", key), |(p, i)| (p, i));
    let Some(name) = item.split_once(' ').map(|(_, n)| n) else {
        return false;
    };
    let prefix = if prefix.is_empty() {
        String::new()
    } else {
        format!("{prefix}::")
    };
    // A method (`fn Type::m`) is not re-exported by name.
    !name.contains("::")
        && (head.contains_key(&format!("{prefix}use {name}"))
            || head.contains_key(&format!("{prefix}use *")))
}

/// One break: the item, where it is now (its line in the change; the module's first line when
/// it is gone), and what breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Break {
    /// The item's key (`fn parse`).
    pub(crate) item: String,
    /// 1-based line in the changed file.
    pub(crate) line: u32,
    /// What a dependent sees, in words.
    pub(crate) what: String,
    /// Whether the item is gone (else it changed).
    pub(crate) gone: bool,
}

/// `pub fn parse` for the key `fn parse`, `pub fn Config::new` for `fn Config::new`; a
/// script's item as it is written (`def parse`, `export function parse`), a Go one without its
/// `go:` mark (`func Parse`).
fn named(key: &str) -> String {
    if let Some(go) = key.strip_prefix("go:") {
        return format!("`{go}`");
    }
    if ["export ", "def ", "class "]
        .iter()
        .any(|p| key.starts_with(p))
    {
        return format!("`{key}`");
    }
    format!("`pub {}`", key.replace("mod ", "").replace("::fn ", "::"))
}

/// Every break from `base` to `head`, in key order.
pub(crate) fn breaks(base: &Surface, head: &Surface) -> Vec<Break> {
    let mut out = Vec::new();
    for (key, (was, _)) in base {
        // A re-export is not an item of its own: it keeps moved items public.
        if key
            .rsplit("::")
            .next()
            .is_some_and(|last| last.starts_with("use "))
        {
            continue;
        }
        let Some((now, line)) = head.get(key) else {
            if reexported_in(head, key) {
                // Moved and re-exported: its signature is checked where it now lives.
                continue;
            }
            out.push(Break {
                item: key.clone(),
                line: 1,
                gone: true,
                what: format!(
                    "{} is gone (removed, renamed, moved or no longer public): code that uses it breaks",
                    named(key)
                ),
            });
            continue;
        };
        for what in changed(was, now) {
            out.push(Break {
                item: key.clone(),
                line: *line,
                gone: false,
                what: format!("{}: {what}", named(key)),
            });
        }
    }
    out
}

fn list(items: &[String]) -> String {
    items
        .iter()
        .map(|i| format!("`{}`", pretty(i)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What breaks between two revisions of one item.
fn changed(was: &Api, now: &Api) -> Vec<String> {
    let mut out = Vec::new();
    match (was, now) {
        (
            Api::Fn {
                params: p0,
                ret: r0,
                generics: g0,
                receiver: s0,
            },
            Api::Fn {
                params: p1,
                ret: r1,
                generics: g1,
                receiver: s1,
            },
        ) => {
            if s0 != s1 {
                let show = |r: &Option<String>| r.clone().unwrap_or_else(|| "none".into());
                out.push(format!(
                    "its receiver went from `{}` to `{}`",
                    show(s0),
                    show(s1)
                ));
            }
            if p0 != p1 {
                out.push(format!(
                    "its parameter types went from ({}) to ({})",
                    list(p0),
                    list(p1)
                ));
            }
            if r0 != r1 {
                out.push(format!(
                    "its return type went from `{}` to `{}`",
                    pretty(r0),
                    pretty(r1)
                ));
            }
            if g0 != g1 {
                let shown = |g: &str| {
                    if g.is_empty() {
                        "none".to_string()
                    } else {
                        format!("`{}`", pretty(g))
                    }
                };
                out.push(format!(
                    "its generics went from {} to {}",
                    shown(g0),
                    shown(g1)
                ));
            }
        }
        (
            Api::Struct {
                fields: f0,
                private_fields: hidden0,
                non_exhaustive: ne0,
            },
            Api::Struct { fields: f1, .. },
        ) => {
            for (name, ty) in f0 {
                match f1.iter().find(|(n, _)| n == name) {
                    None => out.push(format!("its public field `{name}` is gone")),
                    Some((_, t)) if t != ty => out.push(format!(
                        "its field `{name}` went from `{}` to `{}`",
                        pretty(ty),
                        pretty(t)
                    )),
                    Some(_) => {}
                }
            }
            // Only a struct a dependent can build with a literal breaks when a field is added.
            let added: Vec<&String> = f1
                .iter()
                .filter(|(n, _)| !f0.iter().any(|(m, _)| m == n))
                .map(|(n, _)| n)
                .collect();
            if !hidden0 && !ne0 && !added.is_empty() {
                let names: Vec<String> = added.iter().map(|n| format!("`{n}`")).collect();
                out.push(format!(
                    "field {} added to a struct whose fields were all public, so a struct literal in a dependent no longer compiles (`#[non_exhaustive]` prevents this)",
                    names.join(", ")
                ));
            }
        }
        (
            Api::Enum {
                variants: v0,
                non_exhaustive: ne0,
            },
            Api::Enum { variants: v1, .. },
        ) => {
            for (name, shape) in v0 {
                match v1.iter().find(|(n, _)| n == name) {
                    None => out.push(format!("its variant `{name}` is gone")),
                    Some((_, s)) if s != shape => out.push(format!(
                        "its variant `{name}` changed shape from `{name}{}` to `{name}{}`",
                        pretty(shape),
                        pretty(s)
                    )),
                    Some(_) => {}
                }
            }
            let added: Vec<String> = v1
                .iter()
                .filter(|(n, _)| !v0.iter().any(|(m, _)| m == n))
                .map(|(n, _)| format!("`{n}`"))
                .collect();
            if !ne0 && !added.is_empty() {
                out.push(format!(
                    "variant {} added to an exhaustive enum, so a `match` on it in a dependent no longer compiles (`#[non_exhaustive]` prevents this)",
                    added.join(", ")
                ));
            }
        }
        (
            Api::Trait { items: i0, .. },
            Api::Trait {
                items: i1,
                required: r1,
            },
        ) => {
            for (name, sig) in i0 {
                match i1.iter().find(|(n, _)| n == name) {
                    None => out.push(format!("its method `{name}` is gone")),
                    Some((_, s)) if s != sig => out.push(format!(
                        "its method `{name}` went from `{}` to `{}`",
                        pretty(sig),
                        pretty(s)
                    )),
                    Some(_) => {}
                }
            }
            for name in r1 {
                if !i0.iter().any(|(n, _)| n == name) {
                    out.push(format!(
                        "required method `{name}` added (no default), so every implementation in a dependent no longer compiles"
                    ));
                }
            }
        }
        (
            Api::Callable {
                params: p0,
                by_name,
            },
            Api::Callable { params: p1, .. },
        ) => {
            out.extend(super::super::public_script::params_break(p0, p1, *by_name));
        }
        (Api::Typed { ty: t0 }, Api::Typed { ty: t1 }) if t0 != t1 => {
            out.push(format!(
                "its type went from `{}` to `{}`",
                pretty(t0),
                pretty(t1)
            ));
        }
        (Api::Present, Api::Present) | (Api::Typed { .. }, Api::Typed { .. }) => {}
        _ => out.push("it is a different kind of item now".into()),
    }
    out
}
