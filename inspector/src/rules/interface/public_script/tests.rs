use super::super::public_api::breaks;
use super::*;

fn py(base: &str, head: &str) -> Vec<String> {
    breaks(&python(base), &python(head))
        .into_iter()
        .map(|b| b.what)
        .collect()
}

fn ts(base: &str, head: &str) -> Vec<String> {
    breaks(&typescript(base), &typescript(head))
        .into_iter()
        .map(|b| b.what)
        .collect()
}

#[test]
fn python_removed_functions_new_required_parameters_and_lost_defaults_break() {
    let base = "def gone():\n    pass\n\ndef add(a, b=0):\n    return a + b\n\ndef _private(x):\n    pass\n\nclass Shape:\n    pass\n";
    let head = "def add(a, b,\n        c):\n    return a + b + c\n\ndef _private():\n    pass\n\nclass Shape:\n    pass\n";
    assert_eq!(
        py(base, head),
        [
            "`def add`: its parameter `b` lost its default",
            "`def add`: it takes a new required parameter `c`",
            "`def gone` is gone (removed, renamed, moved or no longer public): code that uses it breaks",
        ]
    );
}

#[test]
fn python_optional_parameters_new_functions_and_names_outside_all_break_nothing() {
    let base = "__all__ = ['add']\n\ndef add(a: int, b: int = 0) -> int:\n    return a + b\n\ndef helper(x):\n    pass\n";
    let head = "__all__ = ['add', 'sub']\n\ndef add(a: int, b: int = 0, *, strict: bool = False) -> int:\n    return a + b\n\ndef sub(a, b):\n    return a - b\n";
    assert!(py(base, head).is_empty(), "{:?}", py(base, head));
    // A parameter renamed breaks callers that pass it by name.
    assert_eq!(
        py("def f(path):\n    pass\n", "def f(filename):\n    pass\n"),
        [
            "`def f`: its parameter `path` is gone",
            "`def f`: it takes a new required parameter `filename`",
        ]
    );
}

#[test]
fn typescript_arity_and_removed_exports_break_and_optional_parameters_do_not() {
    let base = "export function add(a: number): number {\n  return a;\n}\nexport const VERSION = 1;\nexport interface Options {\n  strict: boolean;\n}\nfunction internal() {}\n";
    let head = "export function add(a: number, b: number, c?: number): number {\n  return a + b;\n}\nexport interface Options {\n  strict: boolean;\n}\n";
    assert_eq!(
        ts(base, head),
        [
            "`export const VERSION` is gone (removed, renamed, moved or no longer public): code that uses it breaks",
            "`export function add`: it requires 2 argument(s) where it required 1: (a) → (a, b, c)",
        ]
    );
    let head = "export function add(a: number, b?: number, ...more: number[]): number {\n  return a;\n}\nexport const VERSION = 2;\nexport interface Options {\n  strict: boolean;\n}\nexport function sub(a: number, b: number): number {\n  return a - b;\n}\n";
    assert!(ts(base, head).is_empty(), "{:?}", ts(base, head));
}
