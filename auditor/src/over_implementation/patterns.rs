//! The six over-implementation patterns and the words that betray them.
//!
//! The Auditor does not read code here; it reads what the Inspectors wrote. A pattern is detected
//! when a finding's description or rule uses one of the pattern's *evidence* phrases, and it is
//! over-implementation only when the design mentions none of the pattern's *design* words — the
//! question "does the design specify this?" answered by plain text search. Keyword lists are
//! short and specific on purpose: a missed detection costs a finding, a false one costs trust.

use protocol::Category;

/// An over-implementation pattern of the Auditor spec, step 8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pattern {
    /// Changes the design does not ask for.
    ScopeCreep,
    /// Checks and guards for cases the design rules out.
    DefensiveExcess,
    /// A helper used once.
    PrematureUtility,
    /// Values made configurable that the design hard-codes.
    ConfigExternalization,
    /// A trait with a single implementation where the design names a concrete type.
    UnrequestedAbstraction,
    /// Retries and fallbacks the design does not have.
    PhantomResilience,
}

impl Pattern {
    /// All six, in the chapter's order.
    pub const ALL: [Pattern; 6] = [
        Pattern::ScopeCreep,
        Pattern::DefensiveExcess,
        Pattern::PrematureUtility,
        Pattern::ConfigExternalization,
        Pattern::UnrequestedAbstraction,
        Pattern::PhantomResilience,
    ];

    /// The category an agent may report the pattern under ([`Category::PhantomResilience`]).
    pub const fn category(self) -> Category {
        match self {
            Pattern::ScopeCreep => Category::ScopeCreep,
            Pattern::DefensiveExcess => Category::DefensiveExcess,
            Pattern::PrematureUtility => Category::PrematureUtility,
            Pattern::ConfigExternalization => Category::ConfigExternalization,
            Pattern::UnrequestedAbstraction => Category::UnrequestedAbstraction,
            Pattern::PhantomResilience => Category::PhantomResilience,
        }
    }

    /// The pattern's name, its category's text (`phantom-resilience`).
    pub const fn as_str(self) -> &'static str {
        self.category().as_str()
    }

    /// The pattern in words, for descriptions (`phantom resilience`).
    pub fn words(self) -> &'static str {
        match self {
            Pattern::ScopeCreep => "scope creep",
            Pattern::DefensiveExcess => "defensive excess",
            Pattern::PrematureUtility => "premature utility",
            Pattern::ConfigExternalization => "config externalization",
            Pattern::UnrequestedAbstraction => "unrequested abstraction",
            Pattern::PhantomResilience => "phantom resilience",
        }
    }

    /// What the pattern means, for descriptions.
    pub fn meaning(self) -> &'static str {
        match self {
            Pattern::ScopeCreep => "a change the design does not ask for",
            Pattern::DefensiveExcess => "checks for cases the design does not have",
            Pattern::PrematureUtility => "a helper used once",
            Pattern::ConfigExternalization => "configuration the design does not have",
            Pattern::UnrequestedAbstraction => "an abstraction the design does not name",
            Pattern::PhantomResilience => "retries or fallbacks the design does not have",
        }
    }

    /// The pattern a category names, when it names one.
    pub fn from_category(category: &str) -> Option<Pattern> {
        Pattern::ALL
            .into_iter()
            .find(|p| p.as_str() == category.trim())
    }

    /// Phrases in a finding's description or rule that show the code does this (lower case).
    pub(crate) fn evidence(self) -> &'static [&'static str] {
        match self {
            // Scope creep is told from paths, not words (see `over_implementation`).
            Pattern::ScopeCreep => &[],
            Pattern::DefensiveExcess => &[
                "redundant check",
                "redundant validation",
                "unreachable check",
                "defensive",
            ],
            Pattern::PrematureUtility => &[
                "used once",
                "single caller",
                "one call site",
                "only one caller",
                "called once",
            ],
            Pattern::ConfigExternalization => &[
                "environment variable",
                "env::var",
                "env var",
                "config key",
                "configurable",
            ],
            Pattern::UnrequestedAbstraction => &[
                "single implementation",
                "one implementation",
                "only implementation",
                "single implementor",
            ],
            Pattern::PhantomResilience => &["retry", "retries", "fallback", "circuit breaker"],
        }
    }

    /// Words whose presence in the design means it specifies this kind of thing (lower case;
    /// stems like `configur` catch configure/configurable/configuration).
    pub(crate) fn design_words(self) -> &'static [&'static str] {
        match self {
            Pattern::ScopeCreep => &[],
            Pattern::DefensiveExcess => &["validat", "guard", "defensive"],
            Pattern::PrematureUtility => &["helper", "utility", "utilities"],
            Pattern::ConfigExternalization => {
                &["configur", "environment variable", "env var", "setting"]
            }
            Pattern::UnrequestedAbstraction => &["trait", "abstraction", "interface"],
            Pattern::PhantomResilience => &[
                "retry",
                "retries",
                "retried",
                "fallback",
                "circuit breaker",
                "resilien",
            ],
        }
    }

    /// Whether a finding of this pattern is judged by the symbols it names rather than by the
    /// design's words: "the design has a helper" does not make *this* helper requested.
    pub(crate) fn judged_by_symbol(self) -> bool {
        matches!(
            self,
            Pattern::DefensiveExcess | Pattern::PrematureUtility | Pattern::UnrequestedAbstraction
        )
    }

    /// Phrases of a suggestion that would add this kind of thing (lower case); the simplicity
    /// check asks the design about each.
    pub(crate) fn additions(self) -> &'static [&'static str] {
        match self {
            Pattern::ScopeCreep => &[],
            Pattern::DefensiveExcess => &[
                "add validation",
                "add a check",
                "add a guard",
                "validate all",
            ],
            Pattern::PrematureUtility => &[
                "extract a helper",
                "add a helper",
                "utility function",
                "helper function",
            ],
            Pattern::ConfigExternalization => &[
                "make it configurable",
                "configurable",
                "environment variable",
                "config option",
            ],
            Pattern::UnrequestedAbstraction => &[
                "introduce a trait",
                "add a trait",
                "introduce an interface",
                "abstraction",
            ],
            Pattern::PhantomResilience => &["retry", "fallback", "circuit breaker"],
        }
    }
}

/// The first phrase of `phrases` that `text` (any case) contains.
pub(crate) fn first_phrase(text: &str, phrases: &[&'static str]) -> Option<&'static str> {
    let text = text.to_lowercase();
    phrases.iter().copied().find(|p| text.contains(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_categories_round_trip() {
        for p in Pattern::ALL {
            assert_eq!(Pattern::from_category(p.as_str()), Some(p));
            assert_eq!(p.words().replace(' ', "-"), p.as_str());
        }
        assert_eq!(Pattern::from_category("dead-code"), None);
    }

    #[test]
    fn phrases_are_found_in_any_case() {
        assert_eq!(
            first_phrase(
                "Retry loop without backoff",
                Pattern::PhantomResilience.evidence()
            ),
            Some("retry")
        );
        assert_eq!(
            first_phrase("plain text", Pattern::PhantomResilience.evidence()),
            None
        );
    }
}
