//! A function signature reduced to what the design contract fixes — receiver, parameter names
//! and types in order, return type — and the exact differences between two of them.
//!
//! Types are compared as token text with the whitespace the tokenizer adds removed (a space is
//! kept only between two words: `&'a str`, `dyn Error`), so `Result<User,Error>` and
//! `Result < User , Error >` are the same type while `String` and `&str` are not.

use quote::ToTokens;

/// One parameter: its binding name and its type, both normalised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Param {
    /// The binding name (`email`), or the pattern's text.
    pub(super) name: String,
    /// The normalised type.
    pub(super) ty: String,
}

impl Param {
    /// `name: Type`, as a reader writes it.
    pub(super) fn display(&self) -> String {
        format!("{}: {}", pretty(&self.name), pretty(&self.ty))
    }
}

/// A function or method signature with where it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct FnSig {
    /// The function's name.
    pub(super) name: String,
    /// The trait or the implementing type it belongs to.
    pub(super) owner: Option<String>,
    /// For `impl Trait for Type` methods: the trait.
    pub(super) trait_name: Option<String>,
    /// `&self`, `&mut self`, `self` or `self: Type`; `None` for free and associated functions.
    pub(super) receiver: Option<String>,
    /// The parameters after the receiver, in order.
    pub(super) params: Vec<Param>,
    /// `()` when the signature has no `->`.
    pub(super) ret: String,
    /// 1-based line of the `fn`, in the file it came from.
    pub(super) line: u32,
}

impl FnSig {
    /// The signature of `sig`, found at `line`, belonging to `owner`.
    pub(super) fn from_syn(sig: &syn::Signature, owner: Option<String>, line: u32) -> FnSig {
        let mut receiver = None;
        let mut params = Vec::new();
        for input in &sig.inputs {
            match input {
                syn::FnArg::Receiver(r) => receiver = Some(receiver_text(r)),
                syn::FnArg::Typed(t) => params.push(Param {
                    name: pattern_name(&t.pat),
                    ty: normalise(&t.ty.to_token_stream().to_string()),
                }),
            }
        }
        let ret = match &sig.output {
            syn::ReturnType::Default => "()".to_string(),
            syn::ReturnType::Type(_, ty) => normalise(&ty.to_token_stream().to_string()),
        };
        FnSig {
            name: sig.ident.to_string(),
            owner,
            trait_name: None,
            receiver,
            params,
            ret,
            line,
        }
    }

    /// `Owner::name` for methods, `name` for free functions.
    pub(super) fn qualified(&self) -> String {
        match &self.owner {
            Some(owner) => format!("{owner}::{}", self.name),
            None => self.name.clone(),
        }
    }

    /// The parameters as the design writes them: `(a: A, b: B)`.
    pub(super) fn param_list(&self) -> String {
        let parts: Vec<String> = self.params.iter().map(Param::display).collect();
        format!("({})", parts.join(", "))
    }
}

/// Every difference of `code` from `design`, worded for the finding; empty when they match.
pub(super) fn differences(design: &FnSig, code: &FnSig) -> Vec<String> {
    let mut out = Vec::new();
    if design.receiver != code.receiver {
        let show = |r: &Option<String>| r.as_ref().map_or("none".to_string(), |r| format!("`{r}`"));
        out.push(format!(
            "receiver is {} in the design, {} in the code",
            show(&design.receiver),
            show(&code.receiver)
        ));
    }
    let (d, c) = (&design.params, &code.params);
    if d.len() != c.len() {
        out.push(format!(
            "it takes {} parameter{} in the design `{}`, {} in the code `{}`",
            d.len(),
            if d.len() == 1 { "" } else { "s" },
            design.param_list(),
            c.len(),
            code.param_list()
        ));
    } else if d != c && same_multiset(d, c) {
        out.push(format!(
            "parameters are in a different order: `{}` in the design, `{}` in the code",
            design.param_list(),
            code.param_list()
        ));
    } else {
        for (i, (dp, cp)) in d.iter().zip(c).enumerate() {
            if dp != cp {
                out.push(format!(
                    "parameter {} is `{}` in the design, `{}` in the code",
                    i + 1,
                    dp.display(),
                    cp.display()
                ));
            }
        }
    }
    if design.ret != code.ret {
        out.push(format!(
            "return type is `{}` in the design, `{}` in the code",
            pretty(&design.ret),
            pretty(&code.ret)
        ));
    }
    out
}

fn same_multiset(a: &[Param], b: &[Param]) -> bool {
    let mut left: Vec<&Param> = a.iter().collect();
    for p in b {
        match left.iter().position(|q| *q == p) {
            Some(i) => {
                left.swap_remove(i);
            }
            None => return false,
        }
    }
    left.is_empty()
}

fn receiver_text(r: &syn::Receiver) -> String {
    match (&r.reference, r.colon_token) {
        (_, Some(_)) => format!("self: {}", normalise(&r.ty.to_token_stream().to_string())),
        (Some((_, lifetime)), None) => {
            let lt = lifetime.as_ref().map_or(String::new(), |l| format!("{l} "));
            let mutability = if r.mutability.is_some() { "mut " } else { "" };
            format!("&{lt}{mutability}self")
        }
        // `mut self` only makes the binding mutable: the signature is still `self`.
        (None, None) => "self".to_string(),
    }
}

/// A parameter's name: the identifier (without `mut`/`ref`), else the pattern's text.
fn pattern_name(pat: &syn::Pat) -> String {
    match pat {
        syn::Pat::Ident(p) => p.ident.to_string(),
        other => normalise(&other.to_token_stream().to_string()),
    }
}

/// Token text with whitespace removed except between two word characters.
pub(super) fn normalise(tokens: &str) -> String {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(tokens.len());
    let mut pending_space = false;
    for ch in tokens.chars() {
        if ch.is_whitespace() {
            pending_space = true;
            continue;
        }
        if pending_space && out.chars().next_back().is_some_and(word) && word(ch) {
            out.push(' ');
        }
        pending_space = false;
        out.push(ch);
    }
    out
}

/// A normalised type as a reader writes it: `Result<User, Error>`, `impl Fn(u8) -> u8`.
pub(super) fn pretty(normalised: &str) -> String {
    normalised
        .replace(',', ", ")
        .replace("->", " -> ")
        .replace('+', " + ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig(text: &str) -> FnSig {
        let f: syn::ForeignItemFn = syn::parse_str(text).expect("signature");
        FnSig::from_syn(&f.sig, None, 1)
    }

    #[test]
    fn normalises_and_prints_types() {
        assert_eq!(normalise("Result < User , Error >"), "Result<User,Error>");
        assert_eq!(normalise("& 'a mut dyn Error"), "&'a mut dyn Error");
        assert_eq!(pretty("Result<User,Error>"), "Result<User, Error>");
        let s = sig("pub fn f(&mut self, mut a: Vec<u8>, (x, y): (u8, u8)) -> impl Fn(u8) -> u8;");
        assert_eq!(s.receiver.as_deref(), Some("&mut self"));
        assert_eq!(s.param_list(), "(a: Vec<u8>, (x, y): (u8, u8))");
        assert_eq!(pretty(&s.ret), "impl Fn(u8) -> u8");
        assert_eq!(sig("fn g(mut self);").receiver.as_deref(), Some("self"));
        assert_eq!(sig("fn g();").ret, "()");
    }

    #[test]
    fn words_each_kind_of_difference() {
        let design = sig("fn create_user(name: &str, email: &str) -> Result<User, Error>;");
        assert!(differences(
            &design,
            &sig("fn create_user(name:&str,email:&str)->Result<User,Error>;")
        )
        .is_empty());
        assert_eq!(
            differences(
                &design,
                &sig("fn create_user(name: &str, mail: String) -> Option<User>;")
            ),
            vec![
                "parameter 2 is `email: &str` in the design, `mail: String` in the code",
                "return type is `Result<User, Error>` in the design, `Option<User>` in the code",
            ]
        );
        assert_eq!(
            differences(&design, &sig("fn create_user(email: &str, name: &str) -> Result<User, Error>;")),
            vec!["parameters are in a different order: `(name: &str, email: &str)` in the design, `(email: &str, name: &str)` in the code"]
        );
        assert_eq!(
            differences(&design, &sig("fn create_user(&self, name: &str) -> Result<User, Error>;")),
            vec![
                "receiver is none in the design, `&self` in the code",
                "it takes 2 parameters in the design `(name: &str, email: &str)`, 1 in the code `(name: &str)`",
            ]
        );
    }
}
