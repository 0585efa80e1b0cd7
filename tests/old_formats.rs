#![cfg(not(target_arch = "wasm32"))]
//! Session files of every format read with one reader of actions (lab/read_action.rs):
//! each case below is what the format's own reader, before it was folded into that
//! one, made of the same file, to the letter: the actions, or the refusal with its
//! place and rule. A file that opened still opens the same; one refused is refused
//! for the same reason at the same place.

use idempotency_lab::lab::{before_transit, from_json};

const CASES: &[(u32, &str, &str)] = &[
    (
        1,
        r#"{"advance":{}}"#,
        r#"Err(BadField { path: "actions[0].advance", problem: Missing("steps") })"#,
    ),
    (
        1,
        r#"{"advance":{"steps":"x"}}"#,
        r#"Err(BadField { path: "actions[0].advance.steps", problem: Wrong { found: Text("x"), expected: Whole { min: 0, max: 4294967295 } } })"#,
    ),
    (
        1,
        r#"{"advance":{"steps":2}}"#,
        r#"Ok([Set(ProcessingMs(0))])"#,
    ),
    (
        1,
        r#"{"advance":true}"#,
        r#"Err(BadField { path: "actions[0].advance", problem: Wrong { found: YesNo(true), expected: Object } })"#,
    ),
    (
        1,
        r#""advance""#,
        r#"Err(BadField { path: "actions[0].advance", problem: Wrong { found: Value, expected: Object } })"#,
    ),
    (
        1,
        r#"{"set-paused":{"paused":1}}"#,
        r#"Err(BadField { path: "actions[0].set-paused.paused", problem: Wrong { found: Whole(1), expected: YesNo } })"#,
    ),
    (
        1,
        r#"{"set-paused":{}}"#,
        r#"Err(BadField { path: "actions[0].set-paused", problem: Missing("paused") })"#,
    ),
    (
        1,
        r#"{"wait":{"ms":1}}"#,
        r#"Err(BadField { path: "actions[0]", problem: UnknownName("wait") })"#,
    ),
    (
        1,
        r#"{"set":{"paused":true}}"#,
        r#"Err(BadField { path: "actions[0]", problem: UnknownName("set") })"#,
    ),
    (
        1,
        r#""restart""#,
        r#"Err(BadField { path: "actions[0]", problem: UnknownName("restart") })"#,
    ),
    (
        1,
        r#"{"send":{"grant":{"key":"k","account_id":"a","points":5}}}"#,
        r#"Ok([Set(ProcessingMs(0)), Send { grant: GrantPoints { key: "k", account_id: "a", points: 5 }, lose_acknowledgement: false }])"#,
    ),
    (
        1,
        r#"{"burst":{"account_id":"a","points":1}}"#,
        r#"Err(BadField { path: "actions[0].burst", problem: Missing("count") })"#,
    ),
    (
        1,
        r#""explode""#,
        r#"Err(BadField { path: "actions[0]", problem: UnknownName("explode") })"#,
    ),
    (
        1,
        r#"{"check-balance":{"account_id":7}}"#,
        r#"Err(BadField { path: "actions[0].check-balance.account_id", problem: Wrong { found: Whole(7), expected: Text } })"#,
    ),
    (
        1,
        r#"{"set-naive":{"on":true}}"#,
        r#"Err(BadField { path: "actions[0]", problem: UnknownName("set-naive") })"#,
    ),
    (
        2,
        r#"{"advance":{}}"#,
        r#"Err(BadField { path: "actions[0]", problem: UnknownName("advance") })"#,
    ),
    (
        2,
        r#"{"advance":{"steps":"x"}}"#,
        r#"Err(BadField { path: "actions[0]", problem: UnknownName("advance") })"#,
    ),
    (
        2,
        r#"{"advance":{"steps":2}}"#,
        r#"Err(BadField { path: "actions[0]", problem: UnknownName("advance") })"#,
    ),
    (
        2,
        r#"{"advance":true}"#,
        r#"Err(BadField { path: "actions[0]", problem: UnknownName("advance") })"#,
    ),
    (
        2,
        r#""advance""#,
        r#"Err(BadField { path: "actions[0]", problem: UnknownName("advance") })"#,
    ),
    (
        2,
        r#"{"set-paused":{"paused":1}}"#,
        r#"Err(BadField { path: "actions[0].set-paused.paused", problem: Wrong { found: Whole(1), expected: YesNo } })"#,
    ),
    (
        2,
        r#"{"set-paused":{}}"#,
        r#"Err(BadField { path: "actions[0].set-paused", problem: Missing("paused") })"#,
    ),
    (2, r#"{"wait":{"ms":1}}"#, r#"Ok([Wait { ms: 1 }])"#),
    (
        2,
        r#"{"set":{"paused":true}}"#,
        r#"Err(BadField { path: "actions[0]", problem: UnknownName("set") })"#,
    ),
    (2, r#""restart""#, r#"Ok([Restart])"#),
    (
        2,
        r#"{"send":{"grant":{"key":"k","account_id":"a","points":5}}}"#,
        r#"Ok([Send { grant: GrantPoints { key: "k", account_id: "a", points: 5 }, lose_acknowledgement: false }])"#,
    ),
    (
        2,
        r#"{"burst":{"account_id":"a","points":1}}"#,
        r#"Err(BadField { path: "actions[0].burst", problem: Missing("count") })"#,
    ),
    (
        2,
        r#""explode""#,
        r#"Err(BadField { path: "actions[0]", problem: UnknownName("explode") })"#,
    ),
    (
        2,
        r#"{"check-balance":{"account_id":7}}"#,
        r#"Err(BadField { path: "actions[0].check-balance.account_id", problem: Wrong { found: Whole(7), expected: Text } })"#,
    ),
    (
        2,
        r#"{"set-naive":{"on":true}}"#,
        r#"Ok([Set(Naive(true))])"#,
    ),
    (
        2,
        r#"{"set-naive":{}}"#,
        r#"Err(BadField { path: "actions[0].set-naive", problem: Missing("on") })"#,
    ),
    (
        2,
        r#"{"set-naive":true}"#,
        r#"Err(BadField { path: "actions[0].set-naive", problem: Wrong { found: YesNo(true), expected: Object } })"#,
    ),
    (
        2,
        r#"{"set-naive":{"on":true,"x":1}}"#,
        r#"Ok([Set(Naive(true))])"#,
    ),
    (
        2,
        r#"{"set":{"naive":true}}"#,
        r#"Err(BadField { path: "actions[0]", problem: UnknownName("set") })"#,
    ),
    (
        2,
        r#"{"set-routing":{"routing":{"by":"only","slot":9}}}"#,
        r#"Err(Replay(ReplayError { index: 0, error: Setting(RoutingSlot(9)) }))"#,
    ),
    (
        2,
        r#"{"set-routing":{"routing":{"by":"nope"}}}"#,
        r#"Err(BadField { path: "actions[0].set-routing.routing.by", problem: UnknownName("nope") })"#,
    ),
    (
        2,
        r#"{"set-naive":{"on":true},"wait":{"ms":1}}"#,
        r#"Err(NotJson("expected value at line 1 column 83"))"#,
    ),
    (
        2,
        r#"{"set-store":{"kind":"x"}}"#,
        r#"Err(BadField { path: "actions[0].set-store.kind", problem: UnknownName("x") })"#,
    ),
    (
        2,
        r#"{}"#,
        r#"Err(NotJson("expected value at line 1 column 61"))"#,
    ),
    (
        2,
        r#"{"set-naive":null}"#,
        r#"Err(BadField { path: "actions[0].set-naive", problem: Wrong { found: Null, expected: Object } })"#,
    ),
    (
        2,
        r#"{"set-auto-retry":{"policy":null}}"#,
        r#"Ok([Set(AutoRetry(None))])"#,
    ),
    (
        2,
        r#"[1]"#,
        r#"Err(NotJson("expected value at line 1 column 60"))"#,
    ),
    (
        2,
        r#""set-naive""#,
        r#"Err(BadField { path: "actions[0].set-naive", problem: Wrong { found: Value, expected: Object } })"#,
    ),
    (
        3,
        r#"{"set":{}}"#,
        r#"Err(NotJson("expected value at line 1 column 68"))"#,
    ),
    (
        3,
        r#"{"set":true}"#,
        r#"Err(NotJson("expected value at line 1 column 67"))"#,
    ),
    (
        3,
        r#"{"set":{"naive":true,"x":1}}"#,
        r#"Err(NotJson("expected value at line 1 column 79"))"#,
    ),
    (
        3,
        r#"{"set-naive":{"on":true}}"#,
        r#"Err(BadField { path: "actions[0]", problem: UnknownName("set-naive") })"#,
    ),
    (
        3,
        r#"{"set":{"routing":{"by":"only","slot":9}}}"#,
        r#"Err(Replay(ReplayError { index: 0, error: Setting(RoutingSlot(9)) }))"#,
    ),
    (
        3,
        r#"{"set":{"nope":1}}"#,
        r#"Err(BadField { path: "actions[0].set", problem: UnknownName("nope") })"#,
    ),
    (
        3,
        r#"{"wait":{"ms":1},"step":null}"#,
        r#"Err(NotJson("expected value at line 1 column 75"))"#,
    ),
    (
        3,
        r#"{"send":{"grant":{"key":"k","account_id":"a","points":"x"}}}"#,
        r#"Err(BadField { path: "actions[0].send.grant.points", problem: Wrong { found: Text("x"), expected: Whole { min: -2147483648, max: 2147483647 } } })"#,
    ),
    (
        3,
        r#"{}"#,
        r#"Err(NotJson("expected value at line 1 column 61"))"#,
    ),
    (
        3,
        r#""step""#,
        r#"Err(Replay(ReplayError { index: 0, error: StepNotPaused }))"#,
    ),
    (
        3,
        r#""send""#,
        r#"Err(BadField { path: "actions[0].send", problem: Wrong { found: Value, expected: Object } })"#,
    ),
    (
        3,
        r#"{"step":{}}"#,
        r#"Err(BadField { path: "actions[0].step", problem: Wrong { found: Object, expected: Other } })"#,
    ),
    (
        3,
        r#"{"wait":{}}"#,
        r#"Err(BadField { path: "actions[0].wait", problem: Missing("ms") })"#,
    ),
    (3, r#"{"wait":{"ms":1,"x":2}}"#, r#"Ok([Wait { ms: 1 }])"#),
    (
        3,
        r#"[1]"#,
        r#"Err(NotJson("expected value at line 1 column 60"))"#,
    ),
    (
        3,
        r#""explode""#,
        r#"Err(BadField { path: "actions[0]", problem: UnknownName("explode") })"#,
    ),
    (
        3,
        r#"{"sign-in":{"account_id":null}}"#,
        r#"Ok([SignIn { account_id: None }])"#,
    ),
];

#[test]
fn every_format_reads_each_action_as_its_own_reader_did() {
    for (version, action, said) in CASES {
        let file = format!(
            r#"{{"format":"idempotency-lab/session","version":{version},"actions":[{action}]}}"#
        );
        // Every old format now also opens with a transit of 0 set first (its
        // messages arrived at once): that conversion is not the reader's.
        let read = from_json(&file).map(|lab| {
            let mut actions = lab.history().actions.clone();
            let at = actions.iter().position(|a| *a == before_transit());
            assert!(at.is_some_and(|i| i <= 1), "{actions:?}");
            actions.remove(at.unwrap());
            actions
        });
        assert_eq!(&format!("{read:?}"), said, "version {version}: {action}");
    }
}

/// Format 1 is replayed with two actions of the conversion's own in front (the
/// processing time and the transit), so a file that fills every place but
/// those two opens, and a file one longer is one action too many.
#[test]
fn a_format_1_file_counts_the_action_its_conversion_adds() {
    use idempotency_lab::lab::{SessionError, MAX_ACTIONS};
    let file = |n: usize| {
        let actions = vec![r#"{"set-paused":{"paused":false}}"#; n].join(",");
        format!(r#"{{"format":"idempotency-lab/session","version":1,"actions":[{actions}]}}"#)
    };
    assert_eq!(
        from_json(&file(MAX_ACTIONS - 1)).unwrap_err(),
        SessionError::TooManyActions(MAX_ACTIONS + 1)
    );
    assert_eq!(
        from_json(&file(MAX_ACTIONS - 2)).unwrap_err(),
        SessionError::NoRoomForTime
    );
    assert_eq!(from_json(&file(3)).unwrap().history().actions.len(), 5);
}
