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

fn go_breaks(base: &str, head: &str) -> Vec<String> {
    breaks(&go(base), &go(head))
        .into_iter()
        .map(|b| b.what)
        .collect()
}

#[test]
fn go_exported_functions_methods_and_declarations_are_its_surface() {
    let base = "package calc\n\nimport \"fmt\"\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n\nfunc Legacy() {}\n\nfunc helper(x int) int { return x }\n\ntype Op int\n\nconst (\n\tPlus Op = iota\n\tminus\n)\n\nfunc (o *Op) Name(verbose bool) (string, error) {\n\treturn fmt.Sprint(*o), nil\n}\n\nvar Version = \"1\"\n";
    let surface = go(base);
    let keys: Vec<&str> = surface.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "go:const Plus",
            "go:func (Op) Name",
            "go:func Add",
            "go:func Legacy",
            "go:type Op",
            "go:var Version"
        ]
    );
    // Legacy gone, Add takes a third parameter, Name returns one result, Plus gone; a new
    // exported function breaks nothing.
    let head = "package calc\n\nfunc Add(a, b, c int) int {\n\treturn a + b + c\n}\n\nfunc Sub(a, b int) int { return a - b }\n\ntype Op int\n\nconst (\n\tMinus Op = iota\n)\n\nfunc (o *Op) Name(verbose bool) string {\n\treturn \"\"\n}\n\nvar Version = \"2\"\n";
    let found = go_breaks(base, head);
    assert_eq!(found.len(), 4, "{found:#?}");
    assert!(
        found.iter().any(|b| b.starts_with("`const Plus` is gone")),
        "{found:#?}"
    );
    assert!(
        found.iter().any(|b| b.starts_with("`func Legacy` is gone")),
        "{found:#?}"
    );
    assert!(
        found
            .iter()
            .any(|b| b.starts_with("`func Add`") && b.contains("`int`, `int`, `int`")),
        "{found:#?}"
    );
    assert!(
        found.contains(
            &"`func (Op) Name`: its return type went from `(string, error)` to `string`"
                .to_string()
        ),
        "{found:#?}"
    );
    assert_eq!(
        go_breaks(base, &format!("{base}\nfunc New() {{}}\n")),
        Vec::<String>::new()
    );
}
