use super::*;

const SEED_STYLE: &str = "\
# Plans

## Phase 4: 認証機能

### 4.1 ログイン機能の実装 <!-- cc:TODO -->
- ログインフォーム作成
- バリデーション追加
owns: `src/auth/login.rs`, `src/auth/form.rs`

### 4.2 認証ミドルウェアの作成 <!-- cc:WIP --> <!-- feature:tdd -->
- JWT 検証
- owns: `src/middleware.rs`
- depends: 4.1

#### Notes
Plain text under a deeper heading stays in the body.

## Phase 5: Layout

- [ ] 5.1 Header `cc:TODO` owns: `src/ui/header.rs` depends: 4.2
  - sticky on scroll
- [x] 5.2 Footer [cc:done]
- Sidebar cc:todo
1. Numbered item (cc:TODO)

```md
- 9.9 Inside a fence cc:TODO
```
Paragraph mentioning cc:TODO is not a task.
";

fn parsed() -> Plan {
    parse_plans_md(SEED_STYLE, "Plans.md").unwrap()
}

#[test]
fn every_marked_heading_and_item_is_a_task() {
    let plan = parsed();
    let ids: Vec<&str> = plan.tasks.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, vec!["4.1", "4.2", "5.1", "5.2", "task-5", "1"]);
    let markers: Vec<Marker> = plan.tasks.iter().map(|t| t.marker).collect();
    assert_eq!(
        markers,
        vec![
            Marker::Todo,
            Marker::Wip,
            Marker::Todo,
            Marker::Done,
            Marker::Todo,
            Marker::Todo
        ]
    );
    let lines: Vec<u32> = plan.tasks.iter().map(|t| t.line).collect();
    assert_eq!(lines, vec![5, 10, 20, 22, 23, 24]);
}

#[test]
fn titles_lose_numbers_markers_comments_and_annotations() {
    let plan = parsed();
    let titles: Vec<&str> = plan.tasks.iter().map(|t| t.title.as_str()).collect();
    assert_eq!(
        titles,
        vec![
            "ログイン機能の実装",
            "認証ミドルウェアの作成",
            "Header",
            "Footer",
            "Sidebar",
            "Numbered item"
        ]
    );
    assert_eq!(plan.tasks[0].subject(), "4.1 ログイン機能の実装");
    assert_eq!(plan.tasks[4].subject(), "Sidebar");
    assert!(!plan.tasks[4].numbered);
}

#[test]
fn owns_depends_and_body_come_from_the_line_and_the_body() {
    let plan = parsed();
    let t41 = &plan.tasks[0];
    assert_eq!(t41.owns, vec!["src/auth/login.rs", "src/auth/form.rs"]);
    assert_eq!(t41.description, "ログインフォーム作成\nバリデーション追加");
    assert_eq!(t41.subtasks, 2);
    let t42 = &plan.tasks[1];
    assert_eq!(t42.owns, vec!["src/middleware.rs"]);
    assert_eq!(t42.depends, vec!["4.1"]);
    assert_eq!(
        t42.description,
        "JWT 検証\n#### Notes\nPlain text under a deeper heading stays in the body."
    );
    assert_eq!(t42.subtasks, 1);
    let t51 = &plan.tasks[2];
    assert_eq!(t51.owns, vec!["src/ui/header.rs"]);
    assert_eq!(t51.depends, vec!["4.2"]);
    assert_eq!(t51.description, "sticky on scroll");
    assert!(plan.tasks[3].owns.is_empty() && plan.tasks[3].description.is_empty());
}

#[test]
fn unmarked_lines_and_glued_markers_are_not_tasks() {
    let plan = parse_plans_md(
        "- acc:todo\n- mycc:TODO\n- real cc:TODOS\n- ok cc:TODO\n",
        "P",
    )
    .unwrap();
    assert_eq!(plan.tasks.len(), 1);
    assert_eq!(plan.tasks[0].title, "ok");
    let empty = parse_plans_md("# Plans\n- nothing marked\n", "Plans.md").unwrap_err();
    assert_eq!(
        empty.to_string(),
        "Plans.md has no tasks: a task is a heading or list item carrying cc:TODO, cc:WIP or cc:done"
    );
}

#[test]
fn plain_owns_auto_and_list_separators() {
    let plan = parse_plans_md(
        "- 1 A cc:TODO owns: src/a.rs, src/b.rs\n- 2 B cc:TODO owns: auto\n- 3 C cc:TODO depends: #1, 2.\n",
        "P",
    )
    .unwrap();
    assert_eq!(plan.tasks[0].owns, vec!["src/a.rs", "src/b.rs"]);
    assert!(plan.tasks[1].owns.is_empty());
    assert_eq!(plan.tasks[2].depends, vec!["1", "2"]);
}

#[test]
fn duplicate_ids_and_unknown_dependencies_name_the_lines() {
    let dup = parse_plans_md("- 1 A cc:TODO\n- 1 B cc:TODO\n", "Plans.md").unwrap_err();
    assert_eq!(
        dup.to_string(),
        "Plans.md:2: task id 1 is already used on line 1; give each task its own number"
    );
    let unknown = parse_plans_md("- 1 A cc:TODO depends: 7\n", "Plans.md").unwrap_err();
    assert_eq!(
        unknown.to_string(),
        "Plans.md:1: task 1 depends on 7, which is not a task of the plan"
    );
}

#[test]
fn a_high_tag_marks_the_task_and_leaves_the_title() {
    let plan = parse_plans_md(
        "- [ ] 1 Add login `cc:TODO` [HIGH] owns: `src/login.rs`\n- [ ] 2 Add logout `cc:TODO`\n",
        "Plans.md",
    )
    .unwrap();
    let seen: Vec<(&str, bool, &[String])> = plan
        .tasks
        .iter()
        .map(|t| (t.title.as_str(), t.high_priority, t.owns.as_slice()))
        .collect();
    assert_eq!(
        seen,
        [
            ("Add login", true, &["src/login.rs".to_string()][..]),
            ("Add logout", false, &[][..])
        ]
    );
}
