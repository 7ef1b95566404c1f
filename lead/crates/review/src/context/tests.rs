use super::*;
use protocol::message::SpecExemption;

fn write(root: &Path, rel: &str, body: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, body).expect("write");
}

const DESIGN: &str = "# Design: orders

## Components

| Component | Files |
|---|---|
| Orders | `src/orders.rs` |
| Storage | `src/db/` |

### Spec 1: Placing orders
1. `place_order` places an order.

```rust
pub fn place_order(sku: &str, note: Option<String>) -> Result<Order, OrderError>;
pub struct Order { pub id: u64 }
```

## Error Handling

- `OutOfStock`: the SKU is short.
- Payment declined: nothing is charged.

## Integration Points

- `billing::charge` after an order is placed.

## Deviations

- `todo-marker` in `src/orders.rs`: refunds come in v2, the marker tracks it.
- We prefer clarity: no exemption here.
";

fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(
        root,
        "specs/orders/spec.yaml",
        "feature: orders\nphase: implementation-complete\nroadmap: {wave: 2}\nfiles: [src/orders.rs]\n",
    );
    write(
        root,
        "specs/orders/tasks.yaml",
        "tasks:\n  - id: 1\n    title: Place\n    done: true\n    files: [src/orders.rs]\n  - id: 2\n    title: Refund\n    done: true\n    files: [src/refund.rs]\n",
    );
    write(root, "specs/orders/design.md", DESIGN);
    write(
        root,
        "specs/users/spec.yaml",
        "feature: users\nphase: implementation-complete\nroadmap: {wave: 3}\nfiles: [src/users.rs]\n",
    );
    write(
        root,
        "steering/tech.md",
        "# Tech\n\n## Allowed Patterns\n\n- \"unwrap\" in `src/bin/`: binaries exit on bad input.\n",
    );
    write(
        root,
        "steering/structure.md",
        "# Structure\nOne module per concept.\n",
    );
    write(root, "steering/notes.txt", "not steering\n");
    write(root, "src/orders.rs", "pub fn place_order() {}\n");
    write(root, "src/refund.rs", "pub fn refund() {}\n");
    write(root, "src/users.rs", "pub fn user() {}\n");
    dir
}

fn feature(name: &str, tasks: &[&str]) -> Scope {
    Scope::Feature {
        feature: name.into(),
        tasks: tasks.iter().map(|t| t.to_string()).collect(),
    }
}

#[test]
fn a_feature_review_reads_its_design_and_the_steering() {
    let dir = repo();
    let ctx = build(dir.path(), &feature("orders", &[])).expect("context");
    assert_eq!(ctx.design_files, vec!["src/orders.rs", "src/refund.rs"]);
    assert_eq!(ctx.design_interfaces, vec!["place_order", "Order"]);
    assert_eq!(ctx.optional_parameters, vec!["note"]);
    assert_eq!(
        ctx.design_error_scenarios,
        vec!["OutOfStock", "Payment declined"]
    );
    assert_eq!(ctx.design_tasks, vec!["1", "2"]);
    assert_eq!(ctx.integration_points, vec!["billing::charge"]);
    assert_eq!(
        ctx.documented_deviations,
        vec![SpecExemption {
            category: Some("todo-marker".into()),
            path: Some("src/orders.rs".into()),
            mentions: None,
            reason: "refunds come in v2, the marker tracks it.".into(),
        }]
    );
    assert_eq!(
        ctx.allowed_patterns,
        vec![SpecExemption {
            category: None,
            path: Some("src/bin/".into()),
            mentions: Some("unwrap".into()),
            reason: "binaries exit on bad input.".into(),
        }]
    );
    assert!(ctx.changed_files.is_empty());
    assert_eq!(
        ctx.design_text,
        format!("<!-- specs/orders/design.md -->\n{DESIGN}\n")
    );
    assert!(ctx
        .steering_text
        .starts_with("<!-- steering/structure.md -->\n# Structure\n"));
    assert!(ctx
        .steering_text
        .contains("<!-- steering/tech.md -->\n# Tech\n"));
    assert!(!ctx.steering_text.contains("not steering"));
}

#[test]
fn listed_tasks_narrow_the_files_and_the_task_ids() {
    let dir = repo();
    let ctx = build(dir.path(), &feature("orders", &["2"])).expect("context");
    assert_eq!(ctx.design_files, vec!["src/refund.rs"]);
    assert_eq!(ctx.design_tasks, vec!["2"]);
}

#[test]
fn waves_globs_and_the_whole_repository_pick_their_features() {
    let dir = repo();
    let wave2 = build(dir.path(), &Scope::WaveCrossCheck { wave: 2 }).expect("wave");
    assert_eq!(wave2.design_files, vec!["src/orders.rs", "src/refund.rs"]);
    let all = build(dir.path(), &Scope::repository()).expect("repository");
    assert_eq!(
        all.design_files,
        vec!["src/orders.rs", "src/refund.rs", "src/users.rs"]
    );
    let users = Scope::Module {
        globs: vec!["src/users.rs".into()],
    };
    let users = build(dir.path(), &users).expect("module");
    assert_eq!(users.design_files, vec!["src/users.rs"]);
    assert!(users.design_text.is_empty());
    assert!(users.design_interfaces.is_empty());
}

#[test]
fn a_repository_without_specs_has_an_empty_design_context() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "src/lib.rs", "pub fn a() {}\n");
    let ctx = build(dir.path(), &Scope::repository()).expect("context");
    assert_eq!(ctx, SpecContext::default());
    assert_eq!(
        load(
            dir.path(),
            &feature("nope", &[]),
            None,
            &Prepared::default()
        ),
        SpecContext::default()
    );
}

#[test]
fn long_texts_are_cut_at_a_character_boundary() {
    let text = "é".repeat(MAX_TEXT_BYTES);
    let cut = capped(text);
    assert_eq!(cut.len(), MAX_TEXT_BYTES);
    assert_eq!(capped("short".into()), "short");
}

#[test]
fn the_handover_s_exceptions_for_every_feature_and_the_features_in_scope_reach_the_auditor() {
    let dir = repo();
    write(
        dir.path(),
        crate::handover::HANDOVER_PATH,
        "## Steering Exceptions\n\n| Feature | Rule | Where | Decided by | Why |\n|---|---|---|---|---|\n| * | dead-code | | alice | demo |\n| orders | todo-marker | src/orders.rs | bob | refunds in v2 |\n| users | todo-marker | | carol | later |\n| orders | naming-violation | | dave | |\n",
    );
    let rules = |scope: &Scope| -> Vec<String> {
        build(dir.path(), scope)
            .expect("context")
            .steering_exceptions
            .into_iter()
            .map(|e| format!("{} {}", e.feature, e.rule))
            .collect()
    };
    assert_eq!(
        rules(&feature("orders", &[])),
        vec!["* dead-code", "orders todo-marker"]
    );
    assert_eq!(
        rules(&feature("users", &[])),
        vec!["* dead-code", "users todo-marker"]
    );
    assert_eq!(
        rules(&Scope::CrossCheck),
        vec!["* dead-code", "orders todo-marker", "users todo-marker"]
    );
}
