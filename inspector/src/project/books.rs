//! Documentation books: an mdBook (`book.toml`) keeps its chapters, and the code they show, in
//! its source folder (`[book] src`, `src` by default). That code is documentation — fragments
//! with mdBook's hidden `#` lines, snippets a chapter includes — never a module any crate
//! compiles, wherever the book sits (`guide/`, a test's sample book under `tests/`).
//!
//! Only Rust files, and only after the manifests: a `.rs` file no crate's module tree or targets
//! claim is compiled by nobody, so calling it documentation hides nothing from the review (a
//! crate whose root also holds a `book.toml` keeps its `src/`). A Python, JavaScript or Go file
//! in a book's folder keeps what the other conventions say — a `book.toml` a change adds must
//! not turn a package into documentation.

use super::{dir_of, Roles, Sources};
use protocol::project::FileRole;

/// Places the files in each book's source folder as documentation.
pub(crate) fn place(src: &Sources<'_>, roles: &mut Roles) {
    let books: Vec<String> = src
        .paths()
        .iter()
        .filter(|p| p.rsplit('/').next() == Some("book.toml"))
        .filter_map(|manifest| {
            let text = src.text(manifest)?;
            let folder = source_folder(&text)?;
            Some(format!("{}{}/", dir_of(manifest), folder))
        })
        .collect();
    if books.is_empty() {
        return;
    }
    for path in src.paths().iter().filter(|p| p.ends_with(".rs")) {
        if let Some(book) = books.iter().find(|b| path.starts_with(b.as_str())) {
            roles.place(
                path,
                FileRole::Docs,
                format!("a chapter of the mdBook in {book}"),
            );
        }
    }
}

/// The book's source folder: `[book] src`, or `src`; `None` when the file is no mdBook
/// manifest (it does not parse, or names no `[book]` table).
fn source_folder(text: &str) -> Option<String> {
    let table: toml::Table = text.parse().ok()?;
    let book = table.get("book")?.as_table()?;
    let folder = book.get("src").and_then(|v| v.as_str()).unwrap_or("src");
    let folder = folder.trim_start_matches("./").trim_end_matches('/');
    (!folder.is_empty() && !folder.contains("..")).then(|| folder.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_book_names_its_source_folder() {
        assert_eq!(
            source_folder("[book]\ntitle = \"Guide\"\n").as_deref(),
            Some("src")
        );
        assert_eq!(
            source_folder("[book]\nsrc = \"./chapters/\"\n").as_deref(),
            Some("chapters")
        );
        assert_eq!(source_folder("[package]\nname = \"x\"\n"), None);
        assert_eq!(source_folder("[book]\nsrc = \"../escape\"\n"), None);
    }

    fn placed_in<'m>(m: &'m protocol::project::ProjectModel, path: &str) -> (FileRole, &'m str) {
        let f = m
            .file(path)
            .unwrap_or_else(|| panic!("{path} not in the model"));
        (f.role, f.reason.as_str())
    }
    #[test]
    fn a_book_s_chapters_and_an_example_project_s_tests_are_not_the_project_s_code() {
        let m = super::super::build_in_memory(&[
            (
                "Cargo.toml",
                "[package]\nname = \"mdbook\"\nversion = \"0.5.0\"\n",
            ),
            ("src/lib.rs", "pub mod book;\n"),
            ("src/book.rs", "pub fn build() {}\n"),
            ("guide/book.toml", "[book]\ntitle = \"Guide\"\n"),
            (
                "guide/src/format/example.rs",
                "fn main() {\n#   hidden();\n}\n",
            ),
            (
                "tests/testsuite/includes/all_includes/book.toml",
                "[book]\ntitle = \"t\"\n",
            ),
            (
                "tests/testsuite/includes/all_includes/src/example.rs",
                "let x = 1;\n",
            ),
            ("guide/src/helper.py", "password = 'hunter2!'\n"),
            ("pyproject.toml", "[project]\nname = \"xdist\"\n"),
            (
                "example/loadscope/test/test_alpha.py",
                "def test_alpha0():\n    assert True\n",
            ),
        ]);
        assert_eq!(
            placed_in(&m, "guide/src/format/example.rs"),
            (FileRole::Docs, "a chapter of the mdBook in guide/src/")
        );
        // A book kept under `tests/` as a test's input, compiled by no target: test data.
        assert_eq!(
            placed_in(&m, "tests/testsuite/includes/all_includes/src/example.rs").0,
            FileRole::TestData
        );
        assert_eq!(placed_in(&m, "src/book.rs").0, FileRole::Library);
        assert_ne!(
            placed_in(&m, "guide/src/helper.py").0,
            FileRole::Docs,
            "a book.toml turns only uncompiled Rust into documentation"
        );
        assert_eq!(
            placed_in(&m, "example/loadscope/test/test_alpha.py"),
            (
                FileRole::Example,
                "a test of the example project under the top-level example/"
            )
        );
    }
}
