use super::*;

fn diff(base: &str, head: &str) -> Vec<String> {
    let (b, h) = (
        surface(base).expect("base parses"),
        surface(head).expect("head parses"),
    );
    breaks(&b, &h).into_iter().map(|b| b.what).collect()
}

#[test]
fn a_removed_function_a_new_parameter_and_a_new_variant_break() {
    let base = "pub fn gone() {}\npub fn add(a: i64) -> i64 { a }\npub enum Op { Add, Sub }\n";
    let head = "pub fn add(a: i64, b: i64) -> i64 { a + b }\npub enum Op { Add, Sub, Mul }\n";
    assert_eq!(
        diff(base, head),
        [
            "`pub enum Op`: variant `Mul` added to an exhaustive enum, so a `match` on it in a dependent no longer compiles (`#[non_exhaustive]` prevents this)",
            "`pub fn add`: its parameter types went from (`i64`) to (`i64`, `i64`)",
            "`pub fn gone` is gone (removed, renamed, moved or no longer public): code that uses it breaks",
        ]
    );
}

#[test]
fn additions_renamed_parameters_bodies_and_private_items_break_nothing() {
    let base =
        "pub fn add(a: i64, b: i64) -> i64 { a + b }\nfn helper() {}\npub(crate) fn inner() {}\n\
        #[non_exhaustive]\npub enum Op { Add }\npub struct Opaque { pub a: u8, b: u8 }\n\
        pub trait T { fn f(&self); }\n#[cfg(test)]\npub fn only_in_tests() {}\n";
    let head = "pub fn add(x: i64, y: i64) -> i64 { y + x }\npub fn new_one() {}\n\
        #[non_exhaustive]\npub enum Op { Add, Sub }\npub struct Opaque { pub a: u8, b: u8, pub c: u8 }\n\
        pub trait T { fn f(&self); fn g(&self) {} }\n";
    assert!(diff(base, head).is_empty(), "{:?}", diff(base, head));
}

#[test]
fn narrowed_visibility_retyped_fields_new_required_methods_and_new_fields_break() {
    let base = "pub struct P { pub x: i32 }\nimpl P { pub fn new() -> P { P { x: 0 } } }\n\
        pub trait Shape { fn area(&self) -> f64; }\npub const MAX: u32 = 1;\n\
        pub mod io { pub fn read() {} }\n";
    let head = "pub struct P { pub x: i64, pub y: i64 }\nimpl P { pub(crate) fn new() -> P { P { x: 0, y: 0 } } }\n\
        pub trait Shape { fn area(&self) -> f64; fn name(&self) -> String; }\npub const MAX: u64 = 1;\n\
        pub mod io { pub fn read(buf: &mut [u8]) {} }\n";
    assert_eq!(
        diff(base, head),
        [
            "`pub const MAX`: its type went from `u32` to `u64`",
            "`pub fn P::new` is gone (removed, renamed, moved or no longer public): code that uses it breaks",
            "`pub io::read`: its parameter types went from () to (`&mut[u8]`)",
            "`pub struct P`: its field `x` went from `i32` to `i64`",
            "`pub struct P`: field `y` added to a struct whose fields were all public, so a struct literal in a dependent no longer compiles (`#[non_exhaustive]` prevents this)",
            "`pub trait Shape`: required method `name` added (no default), so every implementation in a dependent no longer compiles",
        ]
    );
}

#[test]
fn a_changed_return_type_and_new_generics_break_and_a_file_that_does_not_parse_has_no_surface() {
    let base = "pub fn load(p: &str) -> String { String::new() }\n";
    let head = "pub fn load<P: AsRef<str>>(p: P) -> Option<String> { None }\n";
    let found = diff(base, head);
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(found[1].contains("return type went from `String` to `Option<String>`"));
    assert!(
        found[2].contains("generics went from none to `<P> P: AsRef<str>`"),
        "{found:?}"
    );
    assert!(surface("pub fn broken(").is_none());
}

#[test]
fn an_item_moved_and_re_exported_is_not_gone() {
    let base = "pub fn parse() {}\npub fn render() {}\npub mod io { pub fn read() {} }\n";
    let head = "mod imp;\npub use imp::parse;\npub use self::imp::{render as render};\npub mod io { mod inner; pub use inner::*; }\n";
    assert!(diff(base, head).is_empty(), "{:?}", diff(base, head));
    // A re-export elsewhere, or of another name, does not keep it.
    let head = "mod imp;\npub use imp::other;\npub mod io { }\n";
    assert_eq!(diff(base, head).len(), 3, "{:?}", diff(base, head));
}

#[test]
fn bounds_moved_to_the_where_clause_and_requalified_paths_are_the_same_api() {
    let base = "pub fn to_writer<W, T: ?Sized>(w: W, v: &T) -> io::Result<()> where W: io::Write, T: ser::Serialize {}\n\
        pub trait F { fn write_null<W: ?Sized>(&mut self, w: &mut W) -> io::Result<()> where W: io::Write; }\n\
        pub fn get<Q: ?Sized>(k: &Q) -> Option<&::std::string::String> where String: Borrow<Q>, Q: Ord {}\n";
    let head = "pub fn to_writer<W, T>(w: W, v: &T) -> std::io::Result<()> where W: crate::io::Write, T: ?Sized + Serialize {}\n\
        pub trait F { fn write_null<W>(&mut self, w: &mut W) -> io::Result<()> where W: ?Sized + io::Write; }\n\
        pub fn get<Q>(k: &Q) -> Option<&String> where String: Borrow<Q>, Q: ?Sized + Ord {}\n";
    assert!(diff(base, head).is_empty(), "{:?}", diff(base, head));
    // A new bound, or a parameter more, is a change.
    let head = "pub fn to_writer<W, T>(w: W, v: &T) -> io::Result<()> where W: io::Write + Send, T: ?Sized + Serialize {}\n\
        pub trait F { fn write_null<W: ?Sized>(&mut self, w: &mut W) -> io::Result<()> where W: io::Write; }\n\
        pub fn get<Q: ?Sized, R>(k: &Q) -> Option<&String> where String: Borrow<Q>, Q: Ord {}\n";
    let found = diff(base, head);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0].starts_with("`pub fn get`: its generics went from"),
        "{found:?}"
    );
    assert!(found[1].contains("W: Send"), "{found:?}");
    assert_eq!(
        unqualified("::std::io::Result<crate::Error>"),
        "Result<Error>"
    );
    assert_eq!(unqualified("<T as de::Trait>::Item"), "<T as Trait>::Item");
}

#[test]
fn elided_lifetimes_are_the_same_api_and_static_is_kept() {
    let base = "pub struct V;\nimpl V { pub fn pointer<'a>(&'a self, p: &str) -> Option<&'a V> { None } }\npub fn name() -> &'static str { \"\" }\n";
    let head = "pub struct V;\nimpl V { pub fn pointer(&self, p: &str) -> Option<&V> { None } }\npub fn name() -> &'static str { \"\" }\n";
    assert!(diff(base, head).is_empty(), "{:?}", diff(base, head));
    assert_eq!(unqualified("Cow<'a, str>"), "Cow<str>");
    assert_eq!(unqualified("&'static str"), "&'static str");
    assert_eq!(unqualified("Ref<'_>"), "Ref");
}

#[test]
fn an_alias_that_gains_a_defaulted_parameter_is_the_same_api() {
    let base = "pub type Result<T> = core::result::Result<T, Error>;\n";
    let head = "pub type Result<T, E = Error> = core::result::Result<T, E>;\n";
    assert!(diff(base, head).is_empty(), "{:?}", diff(base, head));
    let head = "pub type Result<T, E = Box<dyn Error>> = core::result::Result<T, E>;\n";
    assert_eq!(
        diff(base, head),
        ["`pub type Result`: its type went from `<T> Result<T, Error>` to `<T> Result<T, Box<Error>>`"]
    );
    assert_eq!(replace_word("Result<T,E>", "E", "Error"), "Result<T,Error>");
    assert_eq!(replace_word("Ex<E>", "E", "X"), "Ex<X>");
}

#[test]
fn a_trait_object_written_with_or_without_dyn_is_the_same_type() {
    let base = "pub fn set(l: Box<Log>) -> &'static Log { todo!() }\n";
    let head = "pub fn set(l: Box<dyn Log>) -> &'static dyn Log { todo!() }\n";
    assert!(diff(base, head).is_empty(), "{:?}", diff(base, head));
}

#[test]
fn only_the_dyn_keyword_is_dropped() {
    assert_eq!(unqualified("Box<dyn Error + Send>"), "Box<Error + Send>");
    assert_eq!(unqualified("Vec<Foodyn Bar>"), "Vec<Foodyn Bar>");
}
