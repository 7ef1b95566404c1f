//! The project model's role cases, each on a small repository in memory.

use super::*;
use protocol::project::{FileRole, TargetKind};

pub(super) fn model(files: &[(&str, &str)]) -> ProjectModel {
    build_in_memory(files)
}

pub(super) fn placed<'m>(m: &'m ProjectModel, path: &str) -> (FileRole, &'m str) {
    let f = m
        .file(path)
        .unwrap_or_else(|| panic!("{path} not in the model"));
    (f.role, f.reason.as_str())
}

pub(super) const LIB_TOML: &str = "[package]\nname = \"my-lib\"\nversion = \"0.1.0\"\n";

#[test]
fn a_cfg_test_module_declared_in_its_parent_is_test_support() {
    for child in ["src/testutil.rs", "src/testutil/mod.rs"] {
        let m = model(&[
            ("Cargo.toml", LIB_TOML),
            (
                "src/lib.rs",
                "pub mod parse;\n#[cfg(test)]\nmod testutil;\n",
            ),
            ("src/parse.rs", "pub fn p() {}\n"),
            (child, "pub fn fixture() {}\n"),
        ]);
        let (role, reason) = placed(&m, child);
        assert_eq!(role, FileRole::TestSupport, "{child}");
        assert_eq!(
            reason,
            "declared `#[cfg(test)] mod testutil;` in src/lib.rs"
        );
        assert_eq!(placed(&m, "src/parse.rs").0, FileRole::Library);
        assert_eq!(
            placed(&m, "src/lib.rs"),
            (FileRole::Library, "library src/lib.rs of Cargo.toml")
        );
    }
}

#[test]
fn a_bin_path_outside_src_and_the_modules_it_declares_are_program_code() {
    let m = model(&[
        (
            "Cargo.toml",
            "[package]\nname = \"rg\"\n\n[[bin]]\nname = \"rg\"\npath = \"crates/core/main.rs\"\n",
        ),
        (
            "crates/core/main.rs",
            "mod flags;\nmod search;\nfn main() {}\n",
        ),
        ("crates/core/flags.rs", "pub fn parse() {}\n"),
        ("crates/core/search.rs", "mod matcher;\n"),
        ("crates/core/search/matcher.rs", ""),
    ]);
    assert_eq!(
        placed(&m, "crates/core/main.rs"),
        (FileRole::Program, "`[[bin]] path` in Cargo.toml")
    );
    assert_eq!(placed(&m, "crates/core/flags.rs").0, FileRole::Program);
    assert_eq!(
        placed(&m, "crates/core/search/matcher.rs"),
        (
            FileRole::Program,
            "module of [[bin]] `rg` (crates/core/main.rs), declared in crates/core/search.rs"
        )
    );
    let pkg = &m.packages[0];
    assert_eq!(pkg.targets.len(), 1);
    assert_eq!(pkg.targets[0].kind, TargetKind::Bin);
}

#[test]
fn a_module_a_library_also_loads_stays_library_code() {
    let m = model(&[
        ("Cargo.toml", LIB_TOML),
        // Documented as an API: without a front page, a library beside a binary named after
        // the package is the program's implementation.
        ("src/lib.rs", "//! Shared parsing.\npub mod shared;\n"),
        ("src/main.rs", "mod cli;\nfn main() {}\n"),
        ("src/cli.rs", ""),
        ("src/shared.rs", ""),
        ("src/bin/extra.rs", "fn main() {}\n"),
        ("build.rs", "fn main() {}\n"),
        ("tests/api.rs", "mod common;\nuse my_lib::shared::x;\n"),
        ("tests/common/mod.rs", ""),
    ]);
    assert_eq!(placed(&m, "src/shared.rs").0, FileRole::Library);
    assert_eq!(placed(&m, "src/cli.rs").0, FileRole::Program);
    assert_eq!(
        placed(&m, "src/main.rs"),
        (
            FileRole::Program,
            "auto-discovered src/main.rs of Cargo.toml"
        )
    );
    assert_eq!(
        placed(&m, "src/bin/extra.rs"),
        (
            FileRole::Program,
            "auto-discovered src/bin/ target of Cargo.toml"
        )
    );
    assert_eq!(
        placed(&m, "build.rs"),
        (FileRole::BuildScript, "build script build.rs of Cargo.toml")
    );
    assert_eq!(placed(&m, "tests/api.rs").0, FileRole::Test);
    assert_eq!(placed(&m, "tests/common/mod.rs").0, FileRole::TestSupport);
    assert_eq!(m.tests_of("src/shared.rs"), vec!["tests/api.rs"]);
}

#[test]
fn python_entry_points_are_program_code() {
    let m = model(&[
        (
            "pyproject.toml",
            "[project]\nname = \"httpie-like\"\n\n[project.scripts]\nhl = \"httpie_like:main\"\nhl-admin = \"httpie_like.admin.cli:run\"\n",
        ),
        ("httpie_like/__init__.py", "def main():\n    pass\n"),
        ("httpie_like/admin/cli.py", "def run(): pass\n"),
        ("httpie_like/models.py", "class A: pass\n"),
        ("tools/setup.cfg", "[metadata]\nname = tool\n\n[options.entry_points]\nconsole_scripts =\n    tool = tool.main:cli\n"),
        ("tools/tool/main.py", "def cli(): pass\n"),
    ]);
    assert_eq!(
        placed(&m, "httpie_like/__init__.py"),
        (
            FileRole::Program,
            "`[project.scripts]` entry point `httpie_like:main` in pyproject.toml"
        )
    );
    assert_eq!(placed(&m, "httpie_like/admin/cli.py").0, FileRole::Program);
    assert_eq!(placed(&m, "httpie_like/models.py").0, FileRole::Library);
    assert_eq!(
        placed(&m, "tools/tool/main.py"),
        (
            FileRole::Program,
            "`console_scripts` entry point `tool.main:cli` in tools/setup.cfg"
        )
    );
}

#[test]
fn go_tests_are_tests_of_their_own_package() {
    let m = model(&[
        (
            "go.mod",
            "module example.com/web\n\nrequire github.com/stretchr/testify v1.9.0\n",
        ),
        ("router.go", "package web\n"),
        ("router_test.go", "package web\n"),
        ("tree.go", "package web\n"),
        ("cmd/serve/main.go", "package main\n"),
        ("example/tls/main.go", "package main\n"),
        ("_examples/basic/main.go", "package main\n"),
        ("sub/x.go", "package sub\n"),
    ]);
    assert_eq!(
        placed(&m, "router_test.go"),
        (FileRole::Test, "Go `_test.go`")
    );
    assert_eq!(
        placed(&m, "cmd/serve/main.go"),
        (FileRole::Program, "Go `package main` in cmd/serve/")
    );
    // An example program is an example, whatever package it declares.
    assert_eq!(
        placed(&m, "example/tls/main.go"),
        (
            FileRole::Example,
            "Go `package main` under the top-level example/"
        )
    );
    assert_eq!(
        placed(&m, "_examples/basic/main.go"),
        (
            FileRole::Example,
            "Go `package main` under the top-level _examples/"
        )
    );
    assert_eq!(
        m.file("router_test.go").map(|f| f.exercises.clone()),
        Some(vec!["router.go".to_string(), "tree.go".to_string()])
    );
    let names: Vec<&str> = m.frameworks.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, vec!["go testing", "testify"]);
    assert!(m.assertions("go").contains(&".Fatalf(") && m.assertions("go").contains(&"require."));
}

#[test]
fn a_test_suite_crate_is_test_code() {
    let m = model(&[
        (
            "Cargo.toml",
            "[package]\nname = \"serde-like\"\n\n[workspace]\nmembers = [\"test_suite\", \"only_tests\", \"tests/h2-support\", \"tests/h2-tests\"]\n\n[dev-dependencies]\ntest_suite = { path = \"test_suite\" }\n",
        ),
        (
            "tests/h2-tests/Cargo.toml",
            "[package]\nname = \"h2-tests\"\npublish = false\n\n[dependencies]\nh2-support = { path = \"../h2-support\" }\n",
        ),
        ("src/lib.rs", ""),
        ("test_suite/Cargo.toml", "[package]\nname = \"test_suite\"\npublish = false\n"),
        ("test_suite/src/lib.rs", "pub fn helper() {}\n"),
        ("only_tests/Cargo.toml", "[package]\nname = \"compile-checks\"\n"),
        ("only_tests/tests/ui.rs", ""),
        (
            "tests/h2-support/Cargo.toml",
            "[package]\nname = \"h2-support\"\nversion = \"0.1.0\"\npublish = false\n",
        ),
        ("tests/h2-support/src/lib.rs", "pub mod frames;\n"),
        ("tests/h2-support/src/frames.rs", "pub fn mock() {}\n"),
    ]);
    // A crate kept in a test folder is the tests' own, whatever its name.
    assert_eq!(
        placed(&m, "tests/h2-support/src/frames.rs").0,
        FileRole::Test
    );
    let (role, reason) = placed(&m, "test_suite/src/lib.rs");
    assert_eq!(role, FileRole::Test);
    assert_eq!(reason, "crate `test_suite` is an unpublished test suite used only as a dev-dependency (test_suite/Cargo.toml)");
    assert_eq!(
        placed(&m, "only_tests/tests/ui.rs"),
        (
            FileRole::Test,
            "crate `compile-checks` has only test targets (only_tests/Cargo.toml)"
        )
    );
    assert_eq!(placed(&m, "src/lib.rs").0, FileRole::Library);
    // Used as a normal dependency by some package, it is a library again.
    let used = model(&[
        (
            "Cargo.toml",
            "[package]\nname = \"app\"\n\n[dependencies]\ntest_suite = { path = \"test_suite\" }\n",
        ),
        (
            "test_suite/Cargo.toml",
            "[package]\nname = \"test_suite\"\npublish = false\n",
        ),
        ("test_suite/src/lib.rs", ""),
    ]);
    assert_eq!(placed(&used, "test_suite/src/lib.rs").0, FileRole::Library);
}

#[test]
fn a_published_mock_crate_its_siblings_dev_depend_on_is_test_code() {
    let workspace = |dep_table: &str| {
        let tracing = format!(
            "[package]\nname = \"tracing\"\n\n[{dep_table}]\ntracing-mock = {{ path = \"../tracing-mock\" }}\n"
        );
        model(&[
            (
                "Cargo.toml",
                "[workspace]\nmembers = [\"tracing\", \"tracing-mock\", \"tracing-macros\"]\n",
            ),
            ("tracing/Cargo.toml", &tracing),
            ("tracing/src/lib.rs", ""),
            (
                "tracing-mock/Cargo.toml",
                "[package]\nname = \"tracing-mock\"\nversion = \"0.1.0\"\n",
            ),
            ("tracing-mock/src/lib.rs", "pub fn expect() {}\n"),
            (
                "tracing-macros/Cargo.toml",
                "[package]\nname = \"tracing-macros\"\nversion = \"0.1.0\"\n",
            ),
            ("tracing-macros/src/lib.rs", ""),
        ])
    };
    let m = workspace("dev-dependencies");
    assert_eq!(
        placed(&m, "tracing-mock/src/lib.rs"),
        (
            FileRole::Test,
            "crate `tracing-mock` is test support: the workspace uses it only as a dev-dependency (tracing-mock/Cargo.toml)"
        )
    );
    // A published crate nobody dev-depends on, or one a sibling needs at run time, is a library.
    assert_eq!(placed(&m, "tracing-macros/src/lib.rs").0, FileRole::Library);
    let m = workspace("dependencies");
    assert_eq!(placed(&m, "tracing-mock/src/lib.rs").0, FileRole::Library);
}

#[test]
fn an_undocumented_library_of_a_program_is_program_code() {
    let files = |lib: &'static str| {
        model(&[
            ("Cargo.toml", "[package]\nname = \"starship\"\n"),
            ("src/main.rs", "fn main() { starship::run() }\n"),
            ("src/lib.rs", lib),
            ("src/print.rs", "pub fn prompt() {}\n"),
        ])
    };
    let bench_only = files("// Lib is present to allow for benchmarking\npub mod print;\n");
    assert_eq!(placed(&bench_only, "src/lib.rs").0, FileRole::Program);
    assert_eq!(
        placed(&bench_only, "src/print.rs"),
        (
            FileRole::Program,
            "module of the program's library `starship` (src/lib.rs), declared in src/lib.rs"
        )
    );
    // A library with a front page is an API, whatever else the package builds.
    let documented = files("//! Print a prompt.\npub mod print;\n");
    assert_eq!(placed(&documented, "src/print.rs").0, FileRole::Library);
}

#[test]
fn python_tests_exercise_what_they_import_not_their_names() {
    let m = model(&[
        (
            "pyproject.toml",
            "[project]\nname = \"client\"\n[tool.pytest.ini_options]\n",
        ),
        ("src/client/__init__.py", ""),
        ("src/client/_config.py", "X = 1\n"),
        ("src/client/_models.py", ""),
        (
            "tests/test_config.py",
            "import pytest\nfrom client._config import X\nfrom client import _models\n",
        ),
    ]);
    assert_eq!(placed(&m, "tests/test_config.py").0, FileRole::Test);
    assert_eq!(
        m.file("tests/test_config.py").map(|f| f.exercises.clone()),
        Some(vec![
            "src/client/_config.py".to_string(),
            "src/client/_models.py".to_string()
        ])
    );
    assert_eq!(
        m.tests_of("src/client/_config.py"),
        vec!["tests/test_config.py"]
    );
    assert!(m.assertions("python").contains(&"pytest.raises("));
}

#[test]
fn package_json_bins_are_programs_and_ava_tests_are_tests() {
    let m = model(&[
        (
            "package.json",
            "{\"name\":\"ky-like\",\"bin\":{\"ky\":\"./cli.js\"},\"main\":\"./source/index.ts\",\"devDependencies\":{\"ava\":\"^6\"}}",
        ),
        ("cli.js", "#!/usr/bin/env node\n"),
        ("source/index.ts", "export const a = 1;\n"),
        ("test/main.ts", "import test from 'ava';\nimport ky from '../source/index.js';\ntest('x', t => { t.is(1, 1); });\n"),
        ("test/helpers/server.ts", "export const s = 1;\n"),
        ("test/_setup.js", ""),
    ]);
    assert_eq!(
        placed(&m, "cli.js"),
        (FileRole::Program, "package.json `bin` `ky` in package.json")
    );
    assert_eq!(
        placed(&m, "test/main.ts"),
        (FileRole::Test, "test framework ava: test/**")
    );
    assert_eq!(
        placed(&m, "test/helpers/server.ts").0,
        FileRole::TestSupport
    );
    assert_eq!(placed(&m, "test/_setup.js").0, FileRole::TestSupport);
    assert_eq!(placed(&m, "source/index.ts").0, FileRole::Library);
    assert_eq!(m.tests_of("source/index.ts"), vec!["test/main.ts"]);
    let ava = m
        .frameworks
        .iter()
        .find(|f| f.name == "ava")
        .expect("ava detected");
    assert_eq!(ava.evidence, "dependency in package.json");
    for call in [
        "t.is(",
        "t.true(",
        "t.throws(",
        "t.plan(",
        "t.deepEqual(",
        "t.snapshot(",
    ] {
        assert!(ava.assertions.iter().any(|a| a == call), "{call}");
    }
}

#[test]
fn files_no_manifest_places_keep_the_path_convention() {
    let m = model(&[
        ("src/util.py", "def f(): pass\n"),
        ("scripts/release.py", ""),
        ("app/run.py", "if __name__ == \"__main__\":\n    pass\n"),
        ("vendor/lib/x.go", "package x\n"),
        ("README.md", "# not source\n"),
    ]);
    assert_eq!(placed(&m, "src/util.py").0, FileRole::Library);
    assert_eq!(
        placed(&m, "scripts/release.py"),
        (FileRole::Program, "under scripts/")
    );
    assert_eq!(placed(&m, "app/run.py").0, FileRole::Program);
    assert_eq!(placed(&m, "vendor/lib/x.go").0, FileRole::Vendored);
    assert!(
        m.file("README.md").is_none(),
        "only source and configuration files are listed"
    );
}

#[test]
fn a_stored_model_loads_by_its_hash_and_a_corrupt_one_does_not() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::create_dir_all(root.join("src")).expect("mkdir");
    std::fs::write(root.join("Cargo.toml"), LIB_TOML).expect("write");
    std::fs::write(root.join("src/lib.rs"), "#[cfg(test)]\nmod testutil;\n").expect("write");
    std::fs::write(root.join("src/testutil.rs"), "").expect("write");
    let built = build_at(root);
    assert_eq!(built.role("src/testutil.rs"), Some(FileRole::TestSupport));
    let hash = store(root, &built).expect("stored");
    assert_eq!(hash.len(), 64);
    assert_eq!(load(root, &hash), Some(built.clone()));
    assert_eq!(load(root, "../../etc"), None, "a hash is hex, never a path");
    let file = root
        .join(".retake/cache")
        .join(format!("project-{hash}.bin"));
    let mut bytes = std::fs::read(&file).expect("read");
    bytes.truncate(bytes.len() / 2);
    std::fs::write(&file, bytes).expect("write");
    assert_eq!(load(root, &hash), None);
    // Storing again repairs it; an older model is removed.
    std::fs::write(root.join(".retake/cache/project-00.bin"), b"old").expect("write");
    std::fs::remove_file(&file).expect("rm");
    let again = store(root, &built).expect("stored");
    assert_eq!(again, hash);
    assert!(!root.join(".retake/cache/project-00.bin").exists());
}

#[test]
fn hostile_manifests_are_ignored_not_fatal() {
    let deep_toml = format!(
        "[package]\nname = \"x\"\na = {}{}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let deep_json = format!(
        "{{\"bin\": {}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let deep_mods = "mod a {\n".repeat(50_000) + "mod b;\n";
    let m = model(&[
        ("Cargo.toml", &deep_toml),
        ("package.json", &deep_json),
        ("pyproject.toml", "[project\nname = "),
        ("src/lib.rs", &deep_mods),
        ("go.mod", ""),
    ]);
    assert_eq!(placed(&m, "src/lib.rs").0, FileRole::Library);
    assert!(m
        .packages
        .iter()
        .all(|p| p.ecosystem != protocol::project::Ecosystem::Node));
}
