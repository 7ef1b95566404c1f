//! Finding categories: the ones the built-in rules raise and the Auditor treats specially, named
//! once so that no rule or audit step spells one by hand.
//!
//! A finding keeps its category as text ([`Finding::category`](super::Finding::category)):
//! agent-backed Inspectors and CPF files may report any category, and every byte written
//! (JSON, SARIF, CPF, the wire) is that text. [`Category`] names the categories this build
//! knows; [`Category::as_str`] is the exact text, and [`Category::parse`] reads it back.

use super::verdict::UnknownValue;
use std::fmt;
use std::str::FromStr;

/// A finding category this build names: raised by a built-in rule or read by the Auditor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// `spec-defect`: an Inspector judges a spec item unimplementable (audit step 1).
    SpecDefect,
    /// `signature-mismatch`: a designed signature differs from the code; always Critical.
    SignatureMismatch,
    /// `call-site-error`: a call of a designed interface with the wrong number of arguments.
    CallSiteError,
    /// `dependency-wrong`: an import the design names that does not resolve.
    DependencyWrong,
    /// `test-failure`: a failing test.
    TestFailure,
    /// `regression`: a failing test outside the changed scope, a failing test all the same.
    Regression,
    /// `environment-error`: a command (test runner, compiler) that could not run at all.
    EnvironmentError,
    /// `build-failure`: the code does not build.
    BuildFailure,
    /// `lint-failure`: a lint command that failed (the team loop's verification).
    LintFailure,
    /// `false-positive-risk`: test doubles may hide a real failure (also contradiction rule b).
    FalsePositiveRisk,
    /// `functionality-not-delivered`: a task marked complete whose code does nothing.
    FunctionalityNotDelivered,
    /// `dead-code`: code nothing uses, or code commented out.
    DeadCode,
    /// `task-incomplete`: a task in tasks.yaml not marked done.
    TaskIncomplete,
    /// `error-handling-drift`: swallowed errors, `unwrap` in library code.
    ErrorHandlingDrift,
    /// `error-handling-inconsistency`: error handling done differently in different modules.
    ErrorHandlingInconsistency,
    /// `type-mismatch`: one boundary type defined differently in two features.
    TypeMismatch,
    /// `interface-inconsistency`: a shared module called by different conventions.
    InterfaceInconsistency,
    /// `file-unexpected`: a source file the design does not declare.
    FileUnexpected,
    /// `over-implementation`: code the design does not ask for (audit step 8).
    OverImplementation,
    /// `scope-creep`: over-implementation pattern, changes the design does not ask for.
    ScopeCreep,
    /// `defensive-excess`: over-implementation pattern, guards for cases the design rules out.
    DefensiveExcess,
    /// `premature-utility`: over-implementation pattern, a helper used once.
    PrematureUtility,
    /// `config-externalization`: over-implementation pattern, configuration the design lacks.
    ConfigExternalization,
    /// `unrequested-abstraction`: over-implementation pattern, an abstraction the design lacks.
    UnrequestedAbstraction,
    /// `phantom-resilience`: over-implementation pattern, retries or fallbacks the design lacks.
    PhantomResilience,
    /// `file-missing`: a file the design or spec.yaml declares that does not exist.
    FileMissing,
    /// `traceability-missing`: a design section whose cited paths and names the code lacks.
    TraceabilityMissing,
    /// `stale-ac-marker`: a test's `AC:` marker names a spec or criterion that does not exist.
    StaleAcMarker,
    /// `metadata-mismatch`: spec.yaml's phase does not match the completion of tasks.yaml.
    MetadataMismatch,
    /// `gate-config-changed`: the change edits the gate's own configuration.
    GateConfigChanged,
    /// `ac-coverage`: the tests' AC markers cover too few of a feature's acceptance criteria.
    AcCoverage,
    /// `coverage`: what the configured coverage command measured.
    Coverage,
    /// `weak-assertion`: a test with nothing in it that can fail.
    WeakAssertion,
    /// `missing-test-file`: an implementation file with no tests by its language's convention.
    MissingTestFile,
    /// `missing-integration-tests`: a project whose tests include no integration tests.
    MissingIntegrationTests,
    /// `strategy-gap`: a kind of tests design.md's Testing Strategy promises and the tests lack.
    StrategyGap,
    /// `naming-violation`: a name against its language's conventions.
    NamingViolation,
    /// `logging-violation`: printing instead of logging, or a secret in a log.
    LoggingViolation,
    /// `incomplete-syntax`: a source file that does not parse.
    IncompleteSyntax,
    /// `lint`: a finding of the project's own analyzers (clippy, ruff, eslint, go vet).
    Lint,
    /// `complexity`: too long a function or file, too deep a nesting.
    Complexity,
    /// `duplication`: the same lines twice in a file or module.
    Duplication,
    /// `unreviewed-file`: a file too large or too deeply nested for any rule to review.
    UnreviewedFile,
    /// `incomplete`: work left undone: a TODO or an omission marker.
    Incomplete,
    /// `import-pattern`: a module that imports differently from the rest.
    ImportPattern,
    /// `duplicated-logic`: the same function body in two modules.
    DuplicatedLogic,
    /// `pattern-inconsistency`: a recurring task (configuration, logging) done differently.
    PatternInconsistency,
    /// `operational-risk`: code that fails in operation (panics, secrets, injection, no timeout).
    OperationalRisk,
    /// `performance`: blocking in async code, clones or queries in loops.
    Performance,
    /// `race-condition`: unsynchronised or badly synchronised shared state.
    RaceCondition,
    /// `implicit-coupling`: modules tied by the environment, fixed paths or mutable globals.
    ImplicitCoupling,
    /// `resource-leak`: channels, detached tasks or collections that grow or live unbounded.
    ResourceLeak,
    /// `breaking-change`: a public API the base revision had is removed or changed in a way
    /// that breaks the code depending on it.
    BreakingChange,
}

impl Category {
    /// Every category, in declaration order.
    pub const ALL: [Category; 53] = [
        Category::SpecDefect,
        Category::SignatureMismatch,
        Category::CallSiteError,
        Category::DependencyWrong,
        Category::TestFailure,
        Category::Regression,
        Category::EnvironmentError,
        Category::BuildFailure,
        Category::LintFailure,
        Category::FalsePositiveRisk,
        Category::FunctionalityNotDelivered,
        Category::DeadCode,
        Category::TaskIncomplete,
        Category::ErrorHandlingDrift,
        Category::ErrorHandlingInconsistency,
        Category::TypeMismatch,
        Category::InterfaceInconsistency,
        Category::FileUnexpected,
        Category::OverImplementation,
        Category::ScopeCreep,
        Category::DefensiveExcess,
        Category::PrematureUtility,
        Category::ConfigExternalization,
        Category::UnrequestedAbstraction,
        Category::PhantomResilience,
        Category::FileMissing,
        Category::TraceabilityMissing,
        Category::StaleAcMarker,
        Category::MetadataMismatch,
        Category::GateConfigChanged,
        Category::AcCoverage,
        Category::Coverage,
        Category::WeakAssertion,
        Category::MissingTestFile,
        Category::MissingIntegrationTests,
        Category::StrategyGap,
        Category::NamingViolation,
        Category::LoggingViolation,
        Category::IncompleteSyntax,
        Category::Lint,
        Category::Complexity,
        Category::Duplication,
        Category::UnreviewedFile,
        Category::Incomplete,
        Category::ImportPattern,
        Category::DuplicatedLogic,
        Category::PatternInconsistency,
        Category::OperationalRisk,
        Category::Performance,
        Category::RaceCondition,
        Category::ImplicitCoupling,
        Category::ResourceLeak,
        Category::BreakingChange,
    ];

    /// The exact text a finding carries (`operational-risk`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Category::SpecDefect => "spec-defect",
            Category::SignatureMismatch => "signature-mismatch",
            Category::CallSiteError => "call-site-error",
            Category::DependencyWrong => "dependency-wrong",
            Category::TestFailure => "test-failure",
            Category::Regression => "regression",
            Category::EnvironmentError => "environment-error",
            Category::BuildFailure => "build-failure",
            Category::LintFailure => "lint-failure",
            Category::FalsePositiveRisk => "false-positive-risk",
            Category::FunctionalityNotDelivered => "functionality-not-delivered",
            Category::DeadCode => "dead-code",
            Category::TaskIncomplete => "task-incomplete",
            Category::ErrorHandlingDrift => "error-handling-drift",
            Category::ErrorHandlingInconsistency => "error-handling-inconsistency",
            Category::TypeMismatch => "type-mismatch",
            Category::InterfaceInconsistency => "interface-inconsistency",
            Category::FileUnexpected => "file-unexpected",
            Category::OverImplementation => "over-implementation",
            Category::ScopeCreep => "scope-creep",
            Category::DefensiveExcess => "defensive-excess",
            Category::PrematureUtility => "premature-utility",
            Category::ConfigExternalization => "config-externalization",
            Category::UnrequestedAbstraction => "unrequested-abstraction",
            Category::PhantomResilience => "phantom-resilience",
            Category::FileMissing => "file-missing",
            Category::TraceabilityMissing => "traceability-missing",
            Category::StaleAcMarker => "stale-ac-marker",
            Category::MetadataMismatch => "metadata-mismatch",
            Category::GateConfigChanged => "gate-config-changed",
            Category::AcCoverage => "ac-coverage",
            Category::Coverage => "coverage",
            Category::WeakAssertion => "weak-assertion",
            Category::MissingTestFile => "missing-test-file",
            Category::MissingIntegrationTests => "missing-integration-tests",
            Category::StrategyGap => "strategy-gap",
            Category::NamingViolation => "naming-violation",
            Category::LoggingViolation => "logging-violation",
            Category::IncompleteSyntax => "incomplete-syntax",
            Category::Lint => "lint",
            Category::Complexity => "complexity",
            Category::Duplication => "duplication",
            Category::UnreviewedFile => "unreviewed-file",
            Category::Incomplete => "incomplete",
            Category::ImportPattern => "import-pattern",
            Category::DuplicatedLogic => "duplicated-logic",
            Category::PatternInconsistency => "pattern-inconsistency",
            Category::OperationalRisk => "operational-risk",
            Category::Performance => "performance",
            Category::RaceCondition => "race-condition",
            Category::ImplicitCoupling => "implicit-coupling",
            Category::ResourceLeak => "resource-leak",
            Category::BreakingChange => "breaking-change",
        }
    }

    /// The category `text` names, exactly spelled (no trimming, no case folding); `None` for
    /// any other text (an agent's own category).
    pub fn parse(text: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.as_str() == text)
    }

    /// Whether `category` (a finding's text) is this category.
    pub fn is(self, category: &str) -> bool {
        self.as_str() == category
    }

    /// Whether `category` (a finding's text) is any of `set`.
    pub fn any_is(set: &[Category], category: &str) -> bool {
        set.iter().any(|c| c.is(category))
    }
}

/// The exact text; honours width and alignment (`{:<28}`), as a `&str` does.
impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

impl FromStr for Category {
    type Err = UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Category::parse(s).ok_or_else(|| UnknownValue {
            kind: "category",
            value: s.to_string(),
            expected: "a category this build names (see Category::ALL)",
        })
    }
}

impl From<Category> for String {
    fn from(category: Category) -> String {
        category.as_str().to_string()
    }
}

impl AsRef<str> for Category {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_category_round_trips_through_its_text() {
        for c in Category::ALL {
            assert_eq!(Category::parse(c.as_str()), Some(c));
            assert_eq!(c.as_str().parse::<Category>(), Ok(c));
            assert_eq!(c.to_string(), c.as_str());
            assert_eq!(format!("{c:<30}|"), format!("{:<30}|", c.as_str()));
            assert_eq!(String::from(c), c.as_str());
            assert!(c.is(c.as_str()));
        }
    }

    #[test]
    fn spellings_are_unique_kebab_case_and_all_listed() {
        let texts: HashSet<&str> = Category::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(texts.len(), Category::ALL.len());
        let variants: HashSet<Category> = Category::ALL.into_iter().collect();
        assert_eq!(variants.len(), Category::ALL.len());
        for t in texts {
            assert!(
                !t.is_empty()
                    && !t.starts_with('-')
                    && !t.ends_with('-')
                    && t.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{t}"
            );
        }
    }

    #[test]
    fn other_text_is_no_category() {
        assert_eq!(Category::parse("null-check"), None);
        assert_eq!(Category::parse(" dead-code"), None);
        assert_eq!(Category::parse("Dead-Code"), None);
        assert!("null-check".parse::<Category>().is_err());
        assert!(Category::any_is(
            &[Category::TestFailure, Category::Regression],
            "regression"
        ));
        assert!(!Category::any_is(&[Category::TestFailure], "regression"));
    }
}
