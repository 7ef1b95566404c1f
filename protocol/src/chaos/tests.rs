use super::*;

fn spec(text: &str) -> FaultSpec {
    text.parse()
        .unwrap_or_else(|e| panic!("{text} should parse: {e}"))
}

#[test]
fn every_fault_parses_to_its_variant() {
    let cases = [
        ("crash-at=inspect", Fault::CrashAt(Phase::Inspect)),
        ("hang-at=handshake", Fault::HangAt(Phase::Handshake)),
        ("hang-at=collect", Fault::HangAt(Phase::Collect)),
        ("stall-output", Fault::StallOutput),
        ("delay=500", Fault::Delay(500)),
        ("garbage-frame", Fault::GarbageFrame),
        ("drop-after=2", Fault::DropAfter(2)),
        ("exit-code=7", Fault::ExitCode(7)),
        ("fail-times=2", Fault::FailTimes(2)),
    ];
    for (text, fault) in cases {
        assert_eq!(text.parse::<Fault>(), Ok(fault), "{text}");
        assert_eq!(fault.to_string(), text, "Display is the canonical form");
    }
}

#[test]
fn the_briefs_examples_parse_with_actor_and_spawn() {
    assert_eq!(
        spec("inspector-quality:hang-at=inspect"),
        FaultSpec {
            actor: "inspector-quality".into(),
            spawn: None,
            fault: Fault::HangAt(Phase::Inspect),
        }
    );
    assert_eq!(
        spec("auditor#1:stall-output"),
        FaultSpec {
            actor: "auditor".into(),
            spawn: Some(1),
            fault: Fault::StallOutput,
        }
    );
    assert_eq!(spec("inspector-test:delay=500").fault, Fault::Delay(500));
    assert_eq!(spec("implementer-3#2:crash-at=execute").spawn, Some(2));
    assert_eq!(spec("lead:crash-at=handshake").actor, "lead");
}

#[test]
fn display_round_trips_every_spec() {
    for text in [
        "inspector-quality:hang-at=inspect",
        "auditor#1:stall-output",
        "inspector-test:delay=500",
        "inspector-quality:fail-times=2",
        "auditor#2:garbage-frame",
        "implementer-12:drop-after=3",
        "inspector-holistic#3:exit-code=0",
        "auditor:crash-at=verdict",
    ] {
        let parsed = spec(text);
        assert_eq!(parsed.to_string(), text);
        assert_eq!(spec(&parsed.to_string()), parsed);
    }
}

#[test]
fn bad_faults_are_refused_naming_the_text() {
    use ChaosParseError as E;
    let cases: [(&str, E); 9] = [
        ("explode", E::UnknownFault("explode".into())),
        ("crash-at=lunch", E::UnknownPhase("lunch".into())),
        ("crash-at=idle", E::UnknownPhase("idle".into())),
        (
            "hang-at",
            E::MissingValue {
                fault: "hang-at",
                expected: "PHASE",
            },
        ),
        (
            "delay=",
            E::MissingValue {
                fault: "delay",
                expected: "MS",
            },
        ),
        (
            "stall-output=1",
            E::UnexpectedValue {
                fault: "stall-output",
                value: "1".into(),
            },
        ),
        (
            "delay=soon",
            E::BadNumber {
                fault: "delay",
                value: "soon".into(),
                expected: "milliseconds, e.g. delay=500",
            },
        ),
        (
            "exit-code=256",
            E::BadNumber {
                fault: "exit-code",
                value: "256".into(),
                expected: "an exit code from 0 to 255",
            },
        ),
        (
            "drop-after=0",
            E::BadNumber {
                fault: "drop-after",
                value: "0".into(),
                expected: "a count of at least 1",
            },
        ),
    ];
    for (text, err) in cases {
        assert_eq!(text.parse::<Fault>(), Err(err), "{text}");
    }
    let msg = "explode".parse::<Fault>().unwrap_err().to_string();
    assert!(
        msg.starts_with("unknown fault 'explode': expected crash-at=PHASE"),
        "{msg}"
    );
}

#[test]
fn bad_actors_and_spawns_are_refused() {
    use ChaosParseError as E;
    let err = |text: &str| text.parse::<FaultSpec>().unwrap_err();
    assert_eq!(err("stall-output"), E::MissingActor("stall-output".into()));
    assert_eq!(
        err("inspector-style:stall-output"),
        E::UnknownActor("inspector-style".into())
    );
    assert_eq!(
        err("inspector-quality-r1:stall-output"),
        E::UnknownActor("inspector-quality-r1".into()),
        "a re-spawn's instance name is not a plan target"
    );
    assert_eq!(
        err("implementer-0:stall-output"),
        E::UnknownActor("implementer-0".into())
    );
    assert_eq!(
        err("auditor#0:stall-output"),
        E::BadSpawn {
            actor: "auditor".into(),
            value: "0".into(),
        }
    );
    assert_eq!(
        err("auditor#first:stall-output"),
        E::BadSpawn {
            actor: "auditor".into(),
            value: "first".into(),
        }
    );
    assert_eq!(err("auditor:hang-at=nap"), E::UnknownPhase("nap".into()));
    let msg = err("inspector-quality-r1:stall-output").to_string();
    assert!(msg.contains("select a re-spawn with #SPAWN"), "{msg}");
}

#[test]
fn for_actor_selects_by_logical_name_and_spawn() {
    let plan = FaultPlan {
        faults: vec![
            spec("inspector-quality:hang-at=inspect"),
            spec("inspector-quality#2:delay=100"),
            spec("auditor#1:stall-output"),
            spec("inspector-test:fail-times=2"),
        ],
    };
    assert_eq!(
        plan.for_actor("inspector-quality", 1),
        vec![Fault::HangAt(Phase::Inspect)]
    );
    assert_eq!(
        plan.for_actor("inspector-quality", 2),
        vec![Fault::HangAt(Phase::Inspect), Fault::Delay(100)]
    );
    assert_eq!(plan.for_actor("auditor", 1), vec![Fault::StallOutput]);
    assert_eq!(plan.for_actor("auditor", 2), Vec::<Fault>::new());
    assert_eq!(
        plan.for_actor("inspector-test", 3),
        vec![Fault::FailTimes(2)],
        "fail-times goes to every spawn; the actor counts"
    );
    assert!(plan.for_actor("inspector-quality-r1", 2).is_empty());
    assert!(!plan.is_empty());
    assert!(FaultPlan::default().is_empty());
}
