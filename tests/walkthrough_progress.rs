//! A learner's progress: kept, carried in a file, merged without loss, and a
//! file that is not one of ours (or names steps the walkthrough lacks) refused.

use idempotency_lab::walkthrough::{
    Progress, ProgressError, Scripts, Standing, MAX_PROGRESS_BYTES,
};

fn scripts() -> Scripts {
    serde_json::from_str(include_str!("../walkthrough/scenarios.json")).unwrap()
}

/// s1 has three steps and asks its question at step 2.
fn s1_done() -> Progress {
    let mut p = Progress::default();
    p.saw("s1", 3);
    p.answered("s1", 2);
    p.met_challenge("s1");
    p
}

#[test]
fn a_scenario_is_walked_through_once_its_last_step_was_reached() {
    let scripts = scripts();
    let mut p = Progress::default();
    assert!(!p.walked(&scripts, "s1"));
    p.saw("s1", 2);
    assert!(!p.walked(&scripts, "s1"), "one step short");
    p.saw("s1", 3);
    assert!(p.walked(&scripts, "s1"));
    assert!(!p.done(&scripts, "s1"), "walked is not done");
    assert!(!p.walked(&scripts, "s2"));
    assert!(!p.walked(&scripts, "s99"));
}

#[test]
fn a_scenario_is_done_with_its_last_step_its_questions_and_its_challenge() {
    let scripts = scripts();
    assert!(s1_done().done(&scripts, "s1"));
    for undo in 0..3 {
        let mut p = Progress::default();
        p.saw("s1", if undo == 0 { 2 } else { 3 });
        if undo != 1 {
            p.answered("s1", 2);
        }
        if undo != 2 {
            p.met_challenge("s1");
        }
        assert!(!p.done(&scripts, "s1"), "missing piece {undo}");
    }
    assert!(!s1_done().done(&scripts, "s2"));
    assert!(!s1_done().done(&scripts, "s99"));
    // Going back does not forget the furthest step.
    let mut p = s1_done();
    p.saw("s1", 1);
    assert_eq!(p.of("s1").furthest, 3);
}

#[test]
fn a_scenario_s_standing_says_what_is_left_to_finish_it() {
    let scripts = scripts();
    let mut p = Progress::default();
    assert_eq!(p.standing(&scripts, "s1"), Standing::NotStarted);
    p.saw("s1", 1);
    assert_eq!(
        p.standing(&scripts, "s1"),
        Standing::AtStep {
            furthest: 1,
            steps: 3
        }
    );
    p.saw("s1", 3);
    assert_eq!(
        p.standing(&scripts, "s1"),
        Standing::Walked {
            questions_left: 1,
            challenge_left: true
        }
    );
    p.answered("s1", 2);
    assert_eq!(
        p.standing(&scripts, "s1"),
        Standing::Walked {
            questions_left: 0,
            challenge_left: true
        }
    );
    p.met_challenge("s1");
    assert_eq!(p.standing(&scripts, "s1"), Standing::Done);
    assert_eq!(Standing::Done.code(), "done");
    // A challenge met and a question answered before the end: still walking.
    let mut early = Progress::default();
    early.saw("s11", 2);
    early.met_challenge("s11");
    assert_eq!(early.standing(&scripts, "s11").code(), "at-step");
    // s11 asks more than one question: each counts.
    let s11 = scripts.scenarios.iter().find(|s| s.id == "s11").unwrap();
    let asked = s11.steps.iter().filter(|s| s.question.is_some()).count();
    assert!(asked > 1);
    early.saw("s11", s11.steps.len());
    assert_eq!(
        early.standing(&scripts, "s11"),
        Standing::Walked {
            questions_left: asked,
            challenge_left: false
        }
    );
    assert_eq!(p.standing(&scripts, "s99"), Standing::NotStarted);
}

#[test]
fn progress_round_trips_through_its_file_and_merges_without_loss() {
    let scripts = scripts();
    let json = s1_done().to_json();
    assert_eq!(Progress::from_json(&json, &scripts), Ok(s1_done()));
    let mut other = Progress::default();
    other.saw("s1", 1);
    other.saw("s4", 2);
    other.answered("s4", 1);
    other.merge(s1_done());
    assert_eq!(other.of("s1"), s1_done().of("s1"));
    assert_eq!(other.of("s4").furthest, 2);
    assert!(other.of("s4").answered.contains(&1));
    assert!(!other.of("s4").challenge);
}

#[test]
fn a_file_that_is_not_progress_or_does_not_fit_is_refused() {
    let scripts = scripts();
    let read = |json: &str| Progress::from_json(json, &scripts);
    assert_eq!(read("not json"), Err(ProgressError::NotProgress));
    assert_eq!(
        read(r#"{"format":"idempotency-lab/session","version":1,"scenarios":{}}"#),
        Err(ProgressError::NotProgress)
    );
    assert_eq!(
        read(r#"{"format":"idempotency-lab/progress","version":2,"scenarios":{}}"#),
        Err(ProgressError::Version(2))
    );
    let with = |scenarios: &str| {
        read(&format!(
            r#"{{"format":"idempotency-lab/progress","version":1,"scenarios":{scenarios}}}"#
        ))
    };
    assert_eq!(with("{}"), Ok(Progress::default()));
    assert_eq!(
        with(r#"{"s12":{"furthest":1}}"#),
        Err(ProgressError::UnknownScenario("s12".into()))
    );
    assert_eq!(
        with(r#"{"s1":{"furthest":4}}"#),
        Err(ProgressError::UnknownStep {
            scenario: "s1".into(),
            step: 4
        })
    );
    assert_eq!(
        with(r#"{"s1":{"answered":[1]}}"#),
        Err(ProgressError::UnknownStep {
            scenario: "s1".into(),
            step: 1
        })
    );
    assert_eq!(
        with(r#"{"s1":{"answered":[0]}}"#),
        Err(ProgressError::UnknownStep {
            scenario: "s1".into(),
            step: 0
        })
    );
    assert_eq!(
        with(r#"{"s1":{"answered":[9]}}"#),
        Err(ProgressError::UnknownStep {
            scenario: "s1".into(),
            step: 9
        })
    );
    assert_eq!(
        with(r#"{"s1":{"answered":[2],"furthest":3}}"#).map(|p| p.of("s1").answered.len()),
        Ok(1)
    );
    assert_eq!(
        with(r#"{"s1":{"luck":true}}"#),
        Err(ProgressError::NotProgress)
    );
    let huge = " ".repeat(MAX_PROGRESS_BYTES + 1);
    assert_eq!(read(&huge), Err(ProgressError::TooLarge));
}

/// A kept record that no longer fits the scripts keeps what still does.
#[test]
fn a_kept_record_keeps_what_still_fits() {
    let scripts = scripts();
    let kept = Progress::fitting(
        r#"{"format":"idempotency-lab/progress","version":1,"scenarios":{
            "s1":{"furthest":9,"answered":[0,1,2,7],"challenge":true},
            "s4":{"furthest":2,"answered":[1]},
            "s12":{"furthest":1}}}"#,
        &scripts,
    );
    assert_eq!(kept.of("s1").furthest, 3);
    assert_eq!(
        kept.of("s1").answered.iter().copied().collect::<Vec<_>>(),
        vec![2]
    );
    assert!(kept.of("s1").challenge);
    assert!(kept.done(&scripts, "s1"));
    assert_eq!(kept.of("s4").furthest, 2);
    assert!(!kept.scenarios.contains_key("s12"));
    assert_eq!(Progress::fitting("nonsense", &scripts), Progress::default());
    assert_eq!(
        Progress::fitting(
            r#"{"format":"idempotency-lab/progress","version":2,"scenarios":{"s1":{"furthest":1}}}"#,
            &scripts
        ),
        Progress::default()
    );
    assert_eq!(
        Progress::fitting(
            r#"{"format":"other","version":1,"scenarios":{"s1":{"furthest":1}}}"#,
            &scripts
        ),
        Progress::default()
    );
}

/// A real progress file, however padded, is read up to the size limit itself.
#[test]
fn a_progress_file_is_read_up_to_the_limit() {
    let scripts = scripts();
    let json = s1_done().to_json();
    let padded = format!("{json}{}", " ".repeat(MAX_PROGRESS_BYTES - json.len()));
    assert_eq!(padded.len(), MAX_PROGRESS_BYTES);
    assert_eq!(Progress::from_json(&padded, &scripts), Ok(s1_done()));
    assert_eq!(MAX_PROGRESS_BYTES, 65_536);
}
