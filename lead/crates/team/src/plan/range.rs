//! RANGE, as a user types it: every open task (`all`, `everything`, `the rest`, `remaining`,
//! `全部`, `全部やって`, `すべて`, …), `"auth to user management"` (from the first task matching
//! the first words to the last matching the second; `from X to Y` and `XからYまで` too), a comma
//! list of keywords, or one keyword. A phrase matches a task whose id it is, or whose subject
//! holds every one of its words (case-insensitive); a phrase that matches nothing is refused
//! with the tasks it could have meant.

use super::{Plan, PlanTask};
use std::collections::HashSet;
use std::fmt;

/// A parsed RANGE.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Range {
    /// Every open task.
    All,
    /// From the first task matching `from` to the last matching `to`, in plan order.
    Span {
        /// The first words.
        from: String,
        /// The second words.
        to: String,
    },
    /// Tasks matching any of the keywords.
    Keywords(Vec<String>),
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Range::All => f.write_str("all"),
            Range::Span { from, to } => write!(f, "{from} to {to}"),
            Range::Keywords(words) => f.write_str(&words.join(", ")),
        }
    }
}

/// Why a range selects nothing usable; each names the phrase or task.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RangeError {
    /// No task matches a phrase: the tasks it could have meant (sharing a word with it), else
    /// the open tasks.
    #[error(
        "no task matches '{phrase}' (a phrase matches a task id, or a subject holding all its words); {}",
        candidates_text(.candidates)
    )]
    NoMatch {
        /// The phrase.
        phrase: String,
        /// What it could have meant (`4.2 Auth middleware`), at most eight.
        candidates: Vec<String>,
    },
    /// The end of a span comes before its start.
    #[error("range '{from} to {to}': the last task matching '{to}' comes before the first matching '{from}'")]
    Reversed {
        /// Start phrase.
        from: String,
        /// End phrase.
        to: String,
    },
    /// Everything in range is already done.
    #[error("range '{0}' has no open task: every task in it is cc:done")]
    NothingOpen(String),
    /// A selected task waits for an open task the range leaves out; it could never start.
    #[error("task {task} depends on {dependency}, which is open but outside the range: widen the range or mark {dependency} cc:done")]
    DependencyOutside {
        /// The selected task.
        task: String,
        /// Its open dependency outside the range.
        dependency: String,
    },
}

/// The selected tasks, in plan order, with dependencies on done tasks dropped (they are met).
pub type Selection = Vec<PlanTask>;

/// The most tasks a refused phrase lists.
const CANDIDATES: usize = 8;

fn candidates_text(candidates: &[String]) -> String {
    if candidates.is_empty() {
        "the plan has no open task".to_string()
    } else {
        format!("tasks: {}", candidates.join(", "))
    }
}

/// Ways to say "every open task" (after [`plain`]).
const ALL: [&str; 10] = [
    "all",
    "everything",
    "all of it",
    "the rest",
    "remaining",
    "all remaining",
    "all the rest",
    "全部",
    "全て",
    "すべて",
];

/// A request's wording without what asks for it (`do …`, `…やって`, `…をお願いします`) and
/// without closing punctuation: `全部やって。` → `全部`, `do everything!` → `everything`.
fn plain(lower: &str) -> &str {
    let mut text = lower
        .trim()
        .trim_end_matches(['.', '!', '。', '！', '?', '？']);
    text = text.strip_prefix("do ").unwrap_or(text).trim();
    for ending in [
        "をお願いします",
        "お願いします",
        "をお願い",
        "お願い",
        "をやって",
        "やって",
        "やる",
        "して",
    ] {
        if let Some(stripped) = text.strip_suffix(ending) {
            text = stripped.trim();
            break;
        }
    }
    text
}

/// Parses RANGE; none or blank means `all`.
pub fn parse_range(text: Option<&str>) -> Range {
    let text = text.map(str::trim).unwrap_or_default();
    let lower = text.to_lowercase();
    if text.is_empty() || ALL.contains(&plain(&lower)) {
        return Range::All;
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    if let Some(i) = words.iter().position(|w| w.eq_ignore_ascii_case("to")) {
        // `from X to Y` reads as `X to Y`.
        let start = usize::from(
            words
                .first()
                .is_some_and(|w| w.eq_ignore_ascii_case("from")),
        );
        if i > start && i + 1 < words.len() {
            return Range::Span {
                from: words[start..i].join(" "),
                to: words[i + 1..].join(" "),
            };
        }
    }
    if let Some((from, rest)) = text.split_once("から") {
        let to = rest.strip_suffix("まで").unwrap_or(rest).trim();
        if !from.trim().is_empty() && !to.is_empty() {
            return Range::Span {
                from: from.trim().to_string(),
                to: to.to_string(),
            };
        }
    }
    Range::Keywords(
        text.split([',', '、'])
            .map(str::trim)
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect(),
    )
}

/// Whether `phrase` names the task: its id, or every word of it in the subject.
pub fn matches(task: &PlanTask, phrase: &str) -> bool {
    let phrase = phrase.trim().trim_start_matches('#');
    if phrase.eq_ignore_ascii_case(&task.id) {
        return true;
    }
    let subject = task.subject().to_lowercase();
    let words: Vec<String> = phrase.split_whitespace().map(str::to_lowercase).collect();
    !words.is_empty() && words.iter().all(|w| subject.contains(w.as_str()))
}

/// A task as a refusal lists it: `4.2 Auth middleware`.
fn shown(task: &PlanTask) -> String {
    let subject = task.subject();
    if subject.starts_with(&task.id) {
        subject.to_string()
    } else {
        format!("{} {subject}", task.id)
    }
}

/// The refusal of `phrase`: the open tasks sharing a word with it, else every open task.
fn no_match(plan: &Plan, phrase: &str) -> RangeError {
    let open: Vec<&PlanTask> = plan.tasks.iter().filter(|t| t.is_open()).collect();
    let words: Vec<String> = phrase.split_whitespace().map(str::to_lowercase).collect();
    let near: Vec<&PlanTask> = open
        .iter()
        .copied()
        .filter(|t| {
            let subject = t.subject().to_lowercase();
            words.iter().any(|w| subject.contains(w.as_str()))
        })
        .collect();
    let listed = if near.is_empty() { open } else { near };
    RangeError::NoMatch {
        phrase: phrase.to_string(),
        candidates: listed.into_iter().take(CANDIDATES).map(shown).collect(),
    }
}

/// The open tasks RANGE selects from the plan.
pub fn select(plan: &Plan, range: &Range) -> Result<Selection, RangeError> {
    let picked: Vec<&PlanTask> = match range {
        Range::All => plan.tasks.iter().collect(),
        Range::Span { from, to } => {
            let first = plan.tasks.iter().position(|t| matches(t, from));
            let last = plan.tasks.iter().rposition(|t| matches(t, to));
            match (first, last) {
                (None, _) => return Err(no_match(plan, from)),
                (_, None) => return Err(no_match(plan, to)),
                (Some(a), Some(b)) if b < a => {
                    return Err(RangeError::Reversed {
                        from: from.clone(),
                        to: to.clone(),
                    })
                }
                (Some(a), Some(b)) => plan.tasks[a..=b].iter().collect(),
            }
        }
        Range::Keywords(words) => {
            if let Some(w) = words
                .iter()
                .find(|w| !plan.tasks.iter().any(|t| matches(t, w)))
            {
                return Err(no_match(plan, w));
            }
            plan.tasks
                .iter()
                .filter(|t| words.iter().any(|w| matches(t, w)))
                .collect()
        }
    };
    let open: Vec<&PlanTask> = picked.into_iter().filter(|t| t.is_open()).collect();
    if open.is_empty() {
        return Err(RangeError::NothingOpen(range.to_string()));
    }
    // Indexes, not scans: a selection is checked in linear time however large the plan.
    let done: HashSet<&str> = plan
        .tasks
        .iter()
        .filter(|t| !t.is_open())
        .map(|t| t.id.as_str())
        .collect();
    let selected: HashSet<&str> = open.iter().map(|t| t.id.as_str()).collect();
    let mut selection = Vec::with_capacity(open.len());
    for task in &open {
        let mut task = (*task).clone();
        let mut kept = Vec::new();
        for dep in &task.depends {
            if done.contains(dep.as_str()) {
                continue;
            }
            if !selected.contains(dep.as_str()) {
                return Err(RangeError::DependencyOutside {
                    task: task.id.clone(),
                    dependency: dep.clone(),
                });
            }
            kept.push(dep.clone());
        }
        task.depends = kept;
        selection.push(task);
    }
    Ok(selection)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::parse_plans_md;

    const PLAN: &str = "\
## Phase 4: Auth
- 4.1 Login form cc:done
- 4.2 Auth middleware cc:TODO
- 4.3 Session store cc:WIP depends: 4.2
- 4.4 User management screen cc:TODO depends: 4.1
## Phase 5: Layout
- 5.1 Header cc:TODO
- 5.2 Footer cc:TODO
- 5.3 Sidebar cc:TODO depends: 5.9
- 5.9 Theme tokens cc:TODO
";

    fn ids(range: &str) -> Result<Vec<String>, RangeError> {
        let plan = parse_plans_md(PLAN, "Plans.md").unwrap();
        select(&plan, &parse_range(Some(range))).map(|s| s.into_iter().map(|t| t.id).collect())
    }

    #[test]
    fn the_four_forms_parse() {
        assert_eq!(parse_range(None), Range::All);
        assert_eq!(parse_range(Some(" ALL ")), Range::All);
        assert_eq!(
            parse_range(Some("auth to user management")),
            Range::Span {
                from: "auth".into(),
                to: "user management".into()
            }
        );
        assert_eq!(
            parse_range(Some("認証機能からユーザー管理まで")),
            Range::Span {
                from: "認証機能".into(),
                to: "ユーザー管理".into()
            }
        );
        assert_eq!(
            parse_range(Some("Header, Footer,Sidebar")),
            Range::Keywords(vec!["Header".into(), "Footer".into(), "Sidebar".into()])
        );
        assert_eq!(
            parse_range(Some("login")),
            Range::Keywords(vec!["login".into()])
        );
    }

    #[test]
    fn every_way_of_saying_all_and_from_x_to_y_parse() {
        for all in [
            "全部",
            "全部やって",
            "全部やって。",
            "すべて",
            "すべてやって",
            "全てお願いします",
            "everything",
            "Do everything!",
            "the rest",
            "remaining",
            "all the rest",
        ] {
            assert_eq!(parse_range(Some(all)), Range::All, "{all}");
        }
        assert_eq!(
            parse_range(Some("from login to sessions")),
            Range::Span {
                from: "login".into(),
                to: "sessions".into()
            }
        );
        assert_eq!(
            ids("from auth to user management").unwrap(),
            vec!["4.2", "4.3", "4.4"]
        );
        // A word that only looks like one of them is a keyword (a task may be about REST).
        assert_eq!(
            parse_range(Some("rest")),
            Range::Keywords(vec!["rest".into()])
        );
        assert_eq!(
            parse_range(Some("rest api")),
            Range::Keywords(vec!["rest api".into()])
        );
    }

    #[test]
    fn all_takes_every_open_task_and_drops_met_dependencies() {
        assert_eq!(
            ids("all").unwrap(),
            vec!["4.2", "4.3", "4.4", "5.1", "5.2", "5.3", "5.9"]
        );
        let plan = parse_plans_md(PLAN, "Plans.md").unwrap();
        let all = select(&plan, &Range::All).unwrap();
        assert!(
            all[2].depends.is_empty(),
            "4.1 is done: 4.4 waits for nothing"
        );
        assert_eq!(all[1].depends, vec!["4.2"]);
    }

    #[test]
    fn span_keyword_and_list_select_in_plan_order() {
        assert_eq!(
            ids("auth to user management").unwrap(),
            vec!["4.2", "4.3", "4.4"]
        );
        assert_eq!(ids("4.2 to 4.3").unwrap(), vec!["4.2", "4.3"]);
        assert_eq!(ids("theme").unwrap(), vec!["5.9"]);
        assert_eq!(ids("footer, header").unwrap(), vec!["5.1", "5.2"]);
    }

    #[test]
    fn bad_ranges_name_the_problem() {
        assert_eq!(
            ids("payments").unwrap_err().to_string(),
            "no task matches 'payments' (a phrase matches a task id, or a subject holding all its words); tasks: 4.2 Auth middleware, 4.3 Session store, 4.4 User management screen, 5.1 Header, 5.2 Footer, 5.3 Sidebar, 5.9 Theme tokens"
        );
        assert_eq!(
            ids("user payments").unwrap_err(),
            RangeError::NoMatch {
                phrase: "user payments".into(),
                candidates: vec!["4.4 User management screen".into()],
            }
        );
        assert_eq!(
            ids("footer to header"),
            Err(RangeError::Reversed {
                from: "footer".into(),
                to: "header".into()
            })
        );
        assert_eq!(ids("login"), Err(RangeError::NothingOpen("login".into())));
        let err = ids("sidebar").unwrap_err();
        assert_eq!(
            err.to_string(),
            "task 5.3 depends on 5.9, which is open but outside the range: widen the range or mark 5.9 cc:done"
        );
    }
}
