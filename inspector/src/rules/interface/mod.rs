//! The interface Inspector's rules: the design contract (design.md's code blocks) against the
//! real code, signature by signature, call by call and import by import; and the contract with
//! dependents (`breaking_change`): a published library's public API against the base revision.
//!
//! Trust code, not mocks: the code side is always the real definitions — test files, test items
//! and test doubles (`MockX`, `FakeX`, `mocks/` folders, `#[cfg(feature = "mocks")]` items; see
//! `test_doubles`) never stand in for them.

mod breaking_change;
mod call_site_error;
mod code_fns;
mod dependency_wrong;
mod design_fns;
mod design_imports;
mod public_api;
mod public_script;
mod python_modules;
mod rust_modules;
mod semver_checks;
mod signature;
mod signature_mismatch;
mod test_doubles;

use crate::engine::{Context, Rule, Sink};
use crate::spec::{features_for, Feature};
use code_fns::CodeFn;
use signature::{differences, FnSig};

/// Every interface rule.
pub(crate) fn rules() -> Vec<Box<dyn Rule>> {
    vec![
        Box::new(signature_mismatch::SignatureMismatch),
        Box::new(call_site_error::CallSiteError),
        Box::new(dependency_wrong::DependencyWrong),
        Box::new(breaking_change::BreakingChange),
    ]
}

/// A function design.md declares, the design.md it is in, and the implementation paths of its
/// feature this review did not read.
#[derive(Debug)]
struct Designed {
    sig: FnSig,
    design_path: String,
    /// Declared paths (spec.yaml, tasks.yaml, the Components table) that exist but are outside
    /// the reviewed files — another task's file in a task-scoped review. A designed function the
    /// reviewed files do not define may live there, so its absence is not this review's finding.
    unread: Vec<String>,
}

/// The functions the reviewed features' designs declare; with none, notes that the Inspector
/// had nothing to compare.
fn designed_or_note(ctx: &Context, out: &mut Sink) -> Vec<Designed> {
    let mut designed = Vec::new();
    for feature in features_for(ctx) {
        let Some(design) = &feature.design else {
            continue;
        };
        let design_path = feature.path_of("design.md");
        let unread = unread_paths(ctx, feature);
        for block in design.blocks_in("rust") {
            designed.extend(
                design_fns::designed_fns(block)
                    .into_iter()
                    .map(|sig| Designed {
                        sig,
                        design_path: design_path.clone(),
                        unread: unread.clone(),
                    }),
            );
        }
    }
    if designed.is_empty() {
        out.note("interface: no design: skipped");
    }
    designed
}

/// The paths `feature` declares that exist in the repository but that the review did not read:
/// a declared path that does not exist cannot hold a definition, so it leaves nothing unread.
fn unread_paths(ctx: &Context, feature: &Feature) -> Vec<String> {
    feature
        .declared_paths()
        .into_iter()
        .filter(|declared| {
            let p = declared.trim_end_matches('/');
            let read = ctx.files.iter().any(|file| {
                file.rel_path == p
                    || file
                        .rel_path
                        .strip_prefix(p)
                        .is_some_and(|rest| rest.starts_with('/'))
            });
            !read && ctx.root.join(p).exists()
        })
        .collect()
}

/// The code's definition of a designed function: same name, preferring the same owner (the
/// trait, or the implementing type) — or no owner for a designed free function — and, among
/// those, one whose signature matches.
fn implementation<'a>(design: &FnSig, defs: &'a [CodeFn]) -> Option<&'a CodeFn> {
    let named: Vec<&CodeFn> = defs.iter().filter(|d| d.sig.name == design.name).collect();
    let same_owner: Vec<&CodeFn> = named
        .iter()
        .copied()
        .filter(|d| match &design.owner {
            Some(owner) => {
                d.sig.owner.as_ref() == Some(owner) || d.sig.trait_name.as_ref() == Some(owner)
            }
            None => d.sig.owner.is_none(),
        })
        .collect();
    let pool = if same_owner.is_empty() {
        named
    } else {
        same_owner
    };
    pool.iter()
        .copied()
        .find(|d| differences(design, &d.sig).is_empty())
        .or_else(|| pool.first().copied())
}

#[cfg(test)]
mod fixture {
    //! A repository with a design and an implementation, for the interface rules' tests.

    /// A design.md declaring `create_user`, `UserRepo::lookup` and `delete_user`.
    pub(super) const DESIGN: &str = "\
# Design

## Interfaces
```rust
pub fn create_user(name: &str, email: &str) -> Result<User, Error>;

pub trait UserRepo {
    fn lookup(&self, id: u64) -> Option<User>;
}
```
";
}
