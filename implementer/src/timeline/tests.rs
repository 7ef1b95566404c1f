use super::*;
use crate::criteria::IssueType;

const AT: &str = "2025-01-23T10:00:30.000Z";

fn base(iteration: u32, judgment: Option<Judgment>, failed: &[&str]) -> Content {
    Content {
        task: 4,
        iteration,
        judgment,
        criteria_failed: failed.iter().map(|s| s.to_string()).collect(),
        ..Content::default()
    }
}

fn line(event_type: EventType, content: Content) -> String {
    TimelineEvent::new(event_type, AT.into(), content).to_json_line()
}

#[test]
fn each_event_serialises_exactly() {
    let start = Content {
        implementer: Some("implementer-1".into()),
        executor: Some("agent".into()),
        max_iterations: Some(3),
        template: Some("goal_drift_guard".into()),
        ..base(0, None, &[])
    };
    assert_eq!(
        line(EventType::ReviewLoopStart, start),
        r###"{"event_type":"REVIEW_LOOP_START","timestamp":"2025-01-23T10:00:30.000Z","visibility":"summary","content":{"task":4,"iteration":0,"judgment":null,"criteria_failed":[],"implementer":"implementer-1","executor":"agent","max_iterations":3,"template":"goal_drift_guard"}}"###
    );
    let iteration = Content {
        retry: Some(false),
        ..base(2, None, &[])
    };
    assert_eq!(
        line(EventType::ReviewIterationStart, iteration),
        r###"{"event_type":"REVIEW_ITERATION_START","timestamp":"2025-01-23T10:00:30.000Z","visibility":"full","content":{"task":4,"iteration":2,"judgment":null,"criteria_failed":[],"retry":false}}"###
    );
    let judged = Content {
        summary: Some("TODO markers and omission detected".into()),
        ..base(2, Some(Judgment::Reject), &["Q2", "Q3"])
    };
    assert_eq!(
        line(EventType::QualityJudgment, judged),
        r###"{"event_type":"QUALITY_JUDGMENT","timestamp":"2025-01-23T10:00:30.000Z","visibility":"summary","content":{"task":4,"iteration":2,"judgment":"REJECT","criteria_failed":["Q2","Q3"],"summary":"TODO markers and omission detected"}}"###
    );
    let issue = Issue::new(
        IssueType::Omission,
        Some("src/utils.ts:45".into()),
        "Code ends with '// 残りは同様に実装'",
        "Implement all remaining functions without omission",
    );
    let details = Content {
        issues_detected: Some(vec![issue]),
        modification_prompt: Some("## Problems were found…".into()),
        ..base(2, Some(Judgment::Reject), &["Q3"])
    };
    assert_eq!(
        line(EventType::RejectionDetails, details),
        r###"{"event_type":"REJECTION_DETAILS","timestamp":"2025-01-23T10:00:30.000Z","visibility":"full","content":{"task":4,"iteration":2,"judgment":"REJECT","criteria_failed":["Q3"],"issues_detected":[{"type":"omission","location":"src/utils.ts:45","description":"Code ends with '// 残りは同様に実装'","suggestion":"Implement all remaining functions without omission"}],"modification_prompt":"## Problems were found…"}}"###
    );
    let prompt = Content {
        modification_prompt: Some("## Problems".into()),
        ..base(2, Some(Judgment::Reject), &["Q3"])
    };
    assert_eq!(
        line(EventType::ModificationPrompt, prompt),
        r###"{"event_type":"MODIFICATION_PROMPT","timestamp":"2025-01-23T10:00:30.000Z","visibility":"full","content":{"task":4,"iteration":2,"judgment":"REJECT","criteria_failed":["Q3"],"modification_prompt":"## Problems"}}"###
    );
    let end = Content {
        started_at: Some("2025-01-23T10:00:00.000Z".into()),
        ended_at: Some(AT.into()),
        ..base(2, Some(Judgment::Retry), &[])
    };
    assert_eq!(
        line(EventType::ReviewIterationEnd, end),
        r###"{"event_type":"REVIEW_ITERATION_END","timestamp":"2025-01-23T10:00:30.000Z","visibility":"full","content":{"task":4,"iteration":2,"judgment":"RETRY","criteria_failed":[],"started_at":"2025-01-23T10:00:00.000Z","ended_at":"2025-01-23T10:00:30.000Z"}}"###
    );
    let done = Content {
        final_status: Some(LoopStatus::AwaitingResponse),
        ..base(3, Some(Judgment::Reject), &["Q2"])
    };
    assert_eq!(
        line(EventType::ReviewLoopEnd, done),
        r###"{"event_type":"REVIEW_LOOP_END","timestamp":"2025-01-23T10:00:30.000Z","visibility":"summary","content":{"task":4,"iteration":3,"judgment":"REJECT","criteria_failed":["Q2"],"final_status":"AWAITING_RESPONSE"}}"###
    );
}

#[test]
fn events_read_back_and_the_clock_has_the_iso_shape() {
    let event = TimelineEvent::new(
        EventType::QualityJudgment,
        AT.into(),
        base(1, Some(Judgment::Pass), &[]),
    );
    let back: TimelineEvent = serde_json::from_str(&event.to_json_line()).expect("parses");
    assert_eq!(back, event);
    let now = SystemClock.now();
    assert_eq!(
        (now.len(), &now[10..11], &now[19..20], &now[23..]),
        (24, "T", ".", "Z")
    );
    let mut seen = Vec::new();
    let mut sink = |e: TimelineEvent| seen.push(e.event_type);
    sink.emit(event);
    assert_eq!(seen, [EventType::QualityJudgment]);
}
