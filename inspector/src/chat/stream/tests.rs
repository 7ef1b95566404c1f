use super::*;
use std::io::Cursor;

/// Event streams recorded from a real model server (llama.cpp's, SmolLM2-135M-Instruct at
/// temperature 0; `bench/models/record-replies URL streams`), not written by hand.
fn recorded(name: &str) -> &'static str {
    match name {
        "whole" => include_str!("recorded/whole.sse"),
        "truncated" => include_str!("recorded/truncated.sse"),
        "loop" => include_str!("recorded/loop.sse"),
        other => panic!("no recording {other}"),
    }
}

fn assemble(text: &str) -> Result<String, ChatError> {
    let mut assembly = Assembly::default();
    for line in text.lines() {
        if assembly.feed(line)? == Step::Done {
            break;
        }
    }
    assembly.completion()
}

#[test]
fn a_whole_streamed_answer_reads_as_the_completion_it_amounts_to() {
    let completion = assemble(recorded("whole")).expect("a whole answer");
    let content = super::super::content_of(&completion).expect("usable");
    assert!(content.starts_with("VERDICT:GO"), "{content}");
    let (prompt, completion_tokens) = super::super::usage_of(&completion);
    assert!(prompt > 0, "the final chunk's usage is kept");
    assert!(completion_tokens > 0 && completion_tokens <= 64);
}

#[test]
fn a_streamed_answer_cut_at_the_token_limit_is_refused_by_the_usual_reading() {
    let completion = assemble(recorded("truncated")).expect("the stream itself ended well");
    let refused = super::super::content_of(&completion).expect_err("cut off");
    assert!(refused.contains("finish_reason: length"), "{refused}");
    assert_eq!(super::super::usage_of(&completion).1, 12);
}

#[test]
fn a_looping_stream_is_stopped_while_it_loops() {
    let stopped = assemble(recorded("loop")).expect_err("it loops");
    assert!(
        stopped.reason().contains("repeats itself ('token'"),
        "{}",
        stopped.reason()
    );
    assert!(matches!(stopped, ChatError::Retry(_)));
}

#[test]
fn a_stream_cut_before_its_end_or_reporting_an_error_is_no_answer() {
    let whole = recorded("whole");
    let half = &whole[..whole.len() / 2];
    let half = &half[..half.rfind("\n\n").expect("an event boundary") + 2];
    let cut = assemble(half).expect_err("cut");
    assert!(cut.reason().contains("ended before it was complete"));
    let error = "data: {\"error\":{\"code\":500,\"message\":\"out of memory\"}}\n\n";
    let failed = assemble(error).expect_err("an error event");
    assert_eq!(
        failed.reason(),
        "the endpoint reported an error while answering: out of memory"
    );
    let garbage = assemble("data: {not json\n\n").expect_err("not JSON");
    assert!(garbage
        .reason()
        .starts_with("a part of the streamed answer is not JSON"));
}

/// A body that sends its first bytes, then nothing for `stall` (a model that stopped), then
/// the rest.
struct Stalling {
    first: Cursor<Vec<u8>>,
    stall: Duration,
    rest: Cursor<Vec<u8>>,
    stalled: bool,
}

impl Read for Stalling {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.first.read(buf)?;
        if n > 0 {
            return Ok(n);
        }
        if !self.stalled {
            self.stalled = true;
            std::thread::sleep(self.stall);
        }
        self.rest.read(buf)
    }
}

#[test]
fn a_stream_that_stalls_between_parts_past_the_idle_timeout_fails_and_one_that_keeps_coming_does_not(
) {
    let whole = recorded("whole");
    let split = whole.find("\n\n").expect("an event") + 2;
    let body = |stall| Stalling {
        first: Cursor::new(whole.as_bytes()[..split].to_vec()),
        stall,
        rest: Cursor::new(whole.as_bytes()[split..].to_vec()),
        stalled: false,
    };
    let far = Instant::now() + Duration::from_secs(60);
    let stalled = read(
        "http://m",
        body(Duration::from_secs(3)),
        Duration::from_millis(200),
        far,
    )
    .expect_err("stalled");
    assert_eq!(
        stalled,
        ChatError::Fatal(
            "http://m sent no part of its answer for 0.2 s (the stream's idle timeout)".into()
        )
    );
    let read_whole = read(
        "http://m",
        body(Duration::from_millis(10)),
        Duration::from_secs(5),
        far,
    )
    .expect("on time");
    assert!(super::super::content_of(&read_whole)
        .expect("usable")
        .starts_with("VERDICT:GO"));
    // Before the first part only the deadline counts: the model is reading the prompt.
    let first_late = Stalling {
        first: Cursor::new(Vec::new()),
        stall: Duration::from_millis(600),
        rest: Cursor::new(whole.as_bytes().to_vec()),
        stalled: false,
    };
    let read_late = read("http://m", first_late, Duration::from_millis(200), far)
        .expect("the first part may take longer than the idle timeout");
    assert!(super::super::content_of(&read_late)
        .expect("usable")
        .starts_with("VERDICT:GO"));
    let late = read(
        "http://m",
        body(Duration::from_secs(3)),
        Duration::from_secs(30),
        Instant::now() + Duration::from_millis(200),
    )
    .expect_err("past the deadline");
    assert_eq!(late, ChatError::Fatal("http://m timed out".into()));
}
