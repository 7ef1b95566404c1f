//! The project model's placement of whole packages and test inputs: a package kept under the
//! examples folder, and the sources a tool's tests read that no target compiles.

use super::tests::{model, placed, LIB_TOML};
use protocol::project::FileRole;

#[test]
fn a_package_kept_under_the_examples_folder_is_an_example() {
    let m = model(&[
        (
            "Cargo.toml",
            "[workspace]\nmembers = [\"futures\", \"examples/imperative\"]\n",
        ),
        (
            "futures/Cargo.toml",
            "[package]\nname = \"futures\"\nversion = \"0.3.31\"\n",
        ),
        ("futures/src/lib.rs", "pub fn f() {}\n"),
        (
            "examples/imperative/Cargo.toml",
            "[package]\nname = \"imperative\"\nversion = \"0.0.0\"\npublish = false\n",
        ),
        ("examples/imperative/src/main.rs", "fn main() {}\n"),
        // The crate a CLI copies into its users' projects.
        (
            "cli/template/migration/Cargo.toml",
            "[package]\nname = \"migration\"\nversion = \"0.1.0\"\n",
        ),
        (
            "cli/template/migration/src/lib.rs",
            "pub fn up() { todo!() }\n",
        ),
        // A crate named templates is a crate.
        (
            "crates/templates/Cargo.toml",
            "[package]\nname = \"templates\"\nversion = \"0.1.0\"\n",
        ),
        ("crates/templates/src/lib.rs", "pub fn render() {}\n"),
    ]);
    assert_eq!(placed(&m, "futures/src/lib.rs").0, FileRole::Library);
    assert_eq!(
        placed(&m, "examples/imperative/src/main.rs").0,
        FileRole::Example
    );
    assert_eq!(
        placed(&m, "cli/template/migration/src/lib.rs").0,
        FileRole::Example
    );
    assert_eq!(
        placed(&m, "crates/templates/src/lib.rs").0,
        FileRole::Library
    );
}

#[test]
fn sources_a_formatter_s_tests_read_are_test_data() {
    let m = model(&[
        ("Cargo.toml", LIB_TOML),
        ("src/lib.rs", "pub fn f() {}\n"),
        ("tests/system.rs", "mod common;\n#[test]\nfn t() {}\n"),
        ("tests/common/mod.rs", "pub fn helper() {}\n"),
        ("tests/ui/main.rs", "#[test]\nfn ui() {}\n"),
        ("tests/source/closure.rs", "fn f() { let x = }\n"),
        ("tests/target/closure.rs", "fn f() {}\n"),
    ]);
    assert_eq!(placed(&m, "tests/system.rs").0, FileRole::Test);
    assert_eq!(placed(&m, "tests/common/mod.rs").0, FileRole::TestSupport);
    assert_eq!(placed(&m, "tests/ui/main.rs").0, FileRole::Test);
    for input in ["tests/source/closure.rs", "tests/target/closure.rs"] {
        assert_eq!(placed(&m, input).0, FileRole::TestData, "{input}");
    }
}
