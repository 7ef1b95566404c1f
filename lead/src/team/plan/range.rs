//! RANGE, as a user types it: `all` (every open task), `"auth to user management"` (from the
//! first task matching the first words to the last matching the second; `XからYまで` too), a
//! comma list of keywords, or one keyword. A phrase matches a task whose id it is, or whose
//! subject holds every one of its words (case-insensitive).

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
    /// No task matches a phrase.
    #[error(
        "no task matches '{0}' (a phrase matches a task id, or a subject holding all its words)"
    )]
    NoMatch(String),
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

/// Parses RANGE; none or blank means `all`.
pub fn parse_range(text: Option<&str>) -> Range {
    let text = text.map(str::trim).unwrap_or_default();
    let lower = text.to_lowercase();
    if text.is_empty() || matches!(lower.as_str(), "all" | "全部" | "全て" | "すべて") {
        return Range::All;
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    if let Some(i) = words.iter().position(|w| w.eq_ignore_ascii_case("to")) {
        if i > 0 && i + 1 < words.len() {
            return Range::Span {
                from: words[..i].join(" "),
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

/// The open tasks RANGE selects from the plan.
pub fn select(plan: &Plan, range: &Range) -> Result<Selection, RangeError> {
    let picked: Vec<&PlanTask> = match range {
        Range::All => plan.tasks.iter().collect(),
        Range::Span { from, to } => {
            let first = plan.tasks.iter().position(|t| matches(t, from));
            let last = plan.tasks.iter().rposition(|t| matches(t, to));
            match (first, last) {
                (None, _) => return Err(RangeError::NoMatch(from.clone())),
                (_, None) => return Err(RangeError::NoMatch(to.clone())),
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
                return Err(RangeError::NoMatch(w.clone()));
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
    use crate::team::plan::parse_plans_md;

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
        assert_eq!(ids("payments"), Err(RangeError::NoMatch("payments".into())));
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
