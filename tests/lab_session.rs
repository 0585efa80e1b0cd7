#![cfg(not(target_arch = "wasm32"))]
//! Sessions as files and links, and the stress run: bad input is refused whole.

use idempotency_lab::lab::{
    from_json, from_link_token, to_json, to_link_token, Action, Lab, LabError, Outcome,
    SessionError, MAX_ACTIONS, MAX_SESSION_BYTES,
};
use idempotency_lab::GrantPoints;

fn walked_lab() -> Lab {
    let mut lab = Lab::new();
    lab.dispatch(Action::Send {
        grant: GrantPoints::new("<img src=x onerror=alert(1)>", "account-7", 100),
        lose_acknowledgement: true,
    })
    .unwrap();
    lab.drain();
    lab.dispatch(Action::RetrySame {
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.dispatch(Action::Stress {
        account_id: "account-9".into(),
        points: 2,
        count: 50,
        duplicate_percent: 30,
    })
    .unwrap();
    lab.drain();
    lab
}

#[test]
fn a_session_round_trips_through_a_file_and_a_link() {
    let lab = walked_lab();
    for copy in [
        from_json(&to_json(lab.history())).unwrap(),
        from_link_token(&to_link_token(lab.history())).unwrap(),
    ] {
        assert_eq!(copy.history(), lab.history());
        assert_eq!(copy.state().timeline(), lab.state().timeline());
        assert_eq!(
            copy.state().store().balances(),
            lab.state().store().balances()
        );
    }
    let token = to_link_token(lab.history());
    assert!(token
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
}

#[test]
fn malformed_and_hostile_sessions_are_refused_with_a_reason() {
    type Expect = fn(&SessionError) -> bool;
    let cases: Vec<(String, Expect)> = vec![
        ("not json".into(), |e| matches!(e, SessionError::NotJson(_))),
        ("{}".into(), |e| matches!(e, SessionError::NotJson(_))),
        (
            r#"{"format":"other","version":1,"actions":[]}"#.into(),
            |e| matches!(e, SessionError::WrongFormat),
        ),
        (
            r#"{"format":"idempotency-lab/session","version":9,"actions":[]}"#.into(),
            |e| matches!(e, SessionError::UnsupportedVersion(9)),
        ),
        (
            r#"{"format":"idempotency-lab/session","version":1,"actions":[{"explode":{}}]}"#.into(),
            |e| matches!(e, SessionError::NotJson(_)),
        ),
        (
            r#"{"format":"idempotency-lab/session","version":1,"actions":[{"retry-same":{}}]}"#
                .into(),
            |e| matches!(e, SessionError::Replay(r) if r.index == 0 && r.error == LabError::NothingToRetry),
        ),
        (
            format!(
                r#"{{"format":"idempotency-lab/session","version":1,"actions":[{{"check-balance":{{"account_id":"{}"}}}}]}}"#,
                "a".repeat(81)
            ),
            |e| matches!(e, SessionError::TextTooLong { index: 0 }),
        ),
        (
            format!(
                r#"{{"format":"idempotency-lab/session","version":1,"actions":[{}]}}"#,
                [r#"{"burst":{"account_id":"a","points":1,"count":10000}}"#; 6].join(",")
            ),
            |e| matches!(e, SessionError::TooManySends(60_000)),
        ),
        (
            format!(
                r#"{{"format":"idempotency-lab/session","version":1,"actions":[{}]}}"#,
                vec![r#"{"set-paused":{"paused":true}}"#; MAX_ACTIONS + 1].join(",")
            ),
            |e| matches!(e, SessionError::TooManyActions(_)),
        ),
        (" ".repeat(MAX_SESSION_BYTES + 1), |e| {
            matches!(e, SessionError::TooLarge { .. })
        }),
    ];
    for (text, expected) in cases {
        let error = from_json(&text).unwrap_err();
        assert!(
            expected(&error),
            "{error:?} for {}",
            &text[..text.len().min(80)]
        );
        assert!(!error.to_string().is_empty());
    }
    assert_eq!(from_link_token("%%%").unwrap_err(), SessionError::BadLink);
    assert!(matches!(
        from_link_token(&"A".repeat(MAX_SESSION_BYTES * 2)).unwrap_err(),
        SessionError::TooLarge { .. }
    ));
}

#[test]
fn a_stress_run_with_duplicates_grants_each_distinct_key_once() {
    let mut lab = Lab::new();
    lab.dispatch(Action::Stress {
        account_id: "a".into(),
        points: 3,
        count: 10_000,
        duplicate_percent: 30,
    })
    .unwrap();
    lab.drain();
    let rows = lab.state().timeline();
    assert_eq!(rows.len(), 10_000, "every grant answered");
    let applied = rows
        .iter()
        .filter(|r| r.outcome() == Outcome::Applied)
        .count();
    let replayed = rows
        .iter()
        .filter(|r| r.outcome() == Outcome::Replayed)
        .count();
    assert_eq!(applied + replayed, 10_000);
    assert!(
        (2_500..3_500).contains(&replayed),
        "about 30% duplicates, got {replayed}"
    );
    assert_eq!(lab.state().store().balance("a"), 3 * applied as i32);
    assert_eq!(lab.state().store().receipts().len(), applied);

    let again = Lab::replay(lab.history()).unwrap();
    assert_eq!(
        again.state().timeline(),
        rows,
        "the same run picks the same duplicates"
    );
}

#[test]
fn a_stress_run_outside_its_limits_is_refused() {
    let mut lab = Lab::new();
    let stress = |count, duplicate_percent| Action::Stress {
        account_id: "a".into(),
        points: 1,
        count,
        duplicate_percent,
    };
    assert_eq!(lab.dispatch(stress(0, 30)), Err(LabError::BurstSize(0)));
    assert_eq!(
        lab.dispatch(stress(10, 101)),
        Err(LabError::DuplicatePercent(101))
    );
    assert!(lab.history().actions.is_empty());
}

#[test]
fn the_lab_refuses_to_grow_past_what_a_session_file_may_hold() {
    use idempotency_lab::lab::{MAX_BURST, MAX_SENDS};
    let mut lab = Lab::new();
    let burst = || Action::Burst {
        account_id: "a".into(),
        points: 1,
        count: MAX_BURST,
    };
    let mut accepted = 0u64;
    while lab.dispatch(burst()).is_ok() {
        accepted += u64::from(MAX_BURST);
    }
    assert_eq!(
        accepted,
        MAX_SENDS / u64::from(MAX_BURST) * u64::from(MAX_BURST)
    );
    assert_eq!(lab.dispatch(burst()), Err(LabError::SessionFull));
    // Work already queued can still finish, and the full session still round-trips.
    lab.drain();
    assert_eq!(lab.state().in_flight(), 0);
    let copy = from_json(&to_json(lab.history())).unwrap();
    assert_eq!(copy.state().timeline().len() as u64, accepted);

    let mut lab = Lab::new();
    let mut sent = 0;
    while lab
        .dispatch(Action::CheckBalance {
            account_id: "a".into(),
        })
        .is_ok()
    {
        sent += 1;
    }
    assert_eq!(
        sent,
        MAX_ACTIONS - 1,
        "the last place is kept for the consumer"
    );
    assert!(from_json(&to_json(lab.history())).is_ok());
}
