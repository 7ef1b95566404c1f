//! When two findings sit at "the same place": same path and line, or same path and anchor.
//!
//! Columns and spans are ignored on purpose: two Inspectors pointing at one line rarely agree on
//! the column, and the problem they describe is still one problem.

use protocol::Location;

/// The part of a location that decides whether two findings are at the same place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Place<'a> {
    path: &'a str,
    line: Option<u32>,
    anchor: Option<&'a str>,
}

impl<'a> Place<'a> {
    /// The place of a location.
    pub(crate) fn of(location: &'a Location) -> Place<'a> {
        Place {
            path: &location.path,
            line: location.line,
            anchor: location.anchor.as_deref(),
        }
    }
}

/// A repository-relative path in one spelling: `/` separators, no leading `./`.
pub(crate) fn normalise_path(path: &str) -> String {
    let path = path.trim().replace('\\', "/");
    let mut rest = path.as_str();
    while let Some(stripped) = rest.strip_prefix("./") {
        rest = stripped;
    }
    rest.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_do_not_matter_lines_and_anchors_do() {
        let mut with_column = Location::at("src/a.rs", 3);
        with_column.column = Some(9);
        let plain = Location::at("src/a.rs", 3);
        assert_eq!(Place::of(&with_column), Place::of(&plain));
        assert_ne!(Place::of(&plain), Place::of(&Location::at("src/a.rs", 4)));
        assert_eq!(
            Place::of(&Location::anchored("design.md", "Spec 3")),
            Place::of(&Location::parse("design.md#Spec 3"))
        );
        assert_ne!(
            Place::of(&Location::anchored("design.md", "Spec 3")),
            Place::of(&Location::anchored("design.md", "Spec 4"))
        );
    }

    #[test]
    fn paths_are_compared_in_one_spelling() {
        assert_eq!(normalise_path("./src/a.rs"), "src/a.rs");
        assert_eq!(normalise_path(" src\\a.rs "), "src/a.rs");
        assert_eq!(normalise_path("././vendor/"), "vendor/");
    }
}
