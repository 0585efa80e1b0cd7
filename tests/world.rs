#![cfg(not(target_arch = "wasm32"))]
//! The simulated world: the article's `PointWorker` on a single-threaded executor
//! with a virtual clock. Deterministic, time only moves forward, a pause holds the
//! worker and not the callers, every timeout later tells its truth, a restart
//! forgets, the naive worker beside grants twice, and undo/redo are exact.

mod common;
use common::{event_log, lab_of};

use idempotency_lab::lab::{Action, Lab, LabError, Origin, Outcome, Setting, Truth};
use idempotency_lab::sim::{Event, Happening, World};
use idempotency_lab::{GrantError, GrantPoints, GrantResult, StoreOutcome};

const ACCOUNT: &str = "account-7";

fn grant(key: &str, points: i32) -> GrantPoints {
    GrantPoints::new(key, ACCOUNT, points)
}

fn send(key: &str, points: i32, lose: bool) -> Action {
    Action::Send {
        grant: grant(key, points),
        lose_acknowledgement: lose,
    }
}

fn retry_same(lose: bool) -> Action {
    Action::RetrySame {
        lose_acknowledgement: lose,
    }
}

fn receipt(key: &str, points: i32, balance: i32) -> GrantResult {
    GrantResult {
        key: key.to_owned(),
        account_id: ACCOUNT.to_owned(),
        points,
        balance,
    }
}

fn events(lab: &Lab) -> Vec<Event> {
    lab.state().world().events().to_vec()
}

/// Everything a lab is, as bytes: its event log and its history.
fn snapshot(lab: &Lab) -> (String, String) {
    (
        event_log(lab),
        serde_json::to_string(lab.history()).unwrap(),
    )
}

/// A history that touches every part of the world: lost acknowledgements, a retry,
/// a pause with a full queue, changed settings, a restart, a stress run with no
/// deadline, and the naive worker beside.
fn rich_history() -> Vec<Action> {
    vec![
        Action::Set(Setting::Naive(true)),
        send("order-1042", 100, true),
        Action::Wait { ms: 500 },
        retry_same(false),
        Action::Set(Setting::Paused(true)),
        Action::Burst {
            account_id: ACCOUNT.into(),
            points: 3,
            count: 20,
        },
        Action::Set(Setting::CallerTimeoutMs(1_000)),
        send("x", 5, false),
        Action::Wait { ms: 1_500 },
        Action::Set(Setting::Paused(false)),
        Action::Set(Setting::ProcessingMs(50)),
        Action::Wait { ms: 700 },
        Action::Restart,
        Action::RetryFresh {
            lose_acknowledgement: true,
        },
        Action::Stress {
            account_id: "account-9".into(),
            points: 2,
            count: 10,
            duplicate_percent: 30,
        },
        Action::CheckBalance {
            account_id: ACCOUNT.into(),
        },
        Action::Set(Setting::Naive(false)),
        send("after", 1, false),
        Action::Wait { ms: 10_000 },
    ]
}

// ---------------------------------------------------------------------------------
// Determinism
// ---------------------------------------------------------------------------------

#[test]
fn the_same_history_gives_the_same_event_log_byte_for_byte() {
    let first = lab_of(&rich_history());
    let second = lab_of(&rich_history());
    assert!(events(&first).len() > 100, "a history with much happening");
    assert_eq!(event_log(&first), event_log(&second));
    assert_eq!(snapshot(&first), snapshot(&second));
    assert_eq!(first.state().timeline(), second.state().timeline());
    let replayed = Lab::replay(first.history()).unwrap();
    assert_eq!(snapshot(&replayed), snapshot(&first));
}

#[test]
fn a_replayed_prefix_followed_by_the_rest_gives_the_same_event_log() {
    let whole = lab_of(&rich_history());
    let actions = whole.history().actions.clone();
    for cut in 0..=actions.len() {
        let mut lab = whole.rewound(cut);
        assert_eq!(lab.history().actions, actions[..cut], "cut {cut}");
        for action in &actions[cut..] {
            lab.dispatch(action.clone()).unwrap();
        }
        assert_eq!(snapshot(&lab), snapshot(&whole), "cut {cut}");
    }
}

/// The page's clock moves in small ticks, while a replay waits once: both make the
/// same world, and the history keeps the ticks as one wait.
#[test]
fn many_small_waits_make_the_same_world_as_one_long_wait() {
    let start = [
        send("order-1042", 100, true),
        Action::Burst {
            account_id: ACCOUNT.into(),
            points: 1,
            count: 30,
        },
    ];
    let mut ticked = lab_of(&start);
    for _ in 0..4_000 {
        ticked.dispatch(Action::Wait { ms: 1 }).unwrap();
    }
    let mut waited = lab_of(&start);
    waited.dispatch(Action::Wait { ms: 4_000 }).unwrap();
    // The lab's first action (a transit of 0), the start, and one wait.
    assert_eq!(ticked.history().actions.len(), 4);
    assert_eq!(snapshot(&ticked), snapshot(&waited));

    let mut skipped = lab_of(&start);
    assert_eq!(skipped.skip_to_idle().unwrap(), 3_100);
    waited.skip_to_idle().unwrap();
    let mut once = lab_of(&start);
    once.dispatch(Action::Wait { ms: 3_100 }).unwrap();
    assert_eq!(snapshot(&skipped), snapshot(&once));
    assert_eq!(event_log(&skipped), event_log(&waited));
}

#[test]
fn the_world_driven_directly_is_deterministic_too() {
    fn run() -> String {
        let mut world = World::new();
        world.set(Setting::Naive(true)).unwrap();
        world.send(grant("a", 100), true, false, Origin::Send);
        world.send(grant("a", 100), false, true, Origin::Send);
        world.set(Setting::Paused(true)).unwrap();
        for i in 3..30 {
            world.send(grant(&format!("b{i}"), 1), false, i % 2 == 0, Origin::Send);
        }
        world.advance(2_000);
        world.set(Setting::Paused(false)).unwrap();
        world.advance(1_500);
        world.restart();
        world.send(grant("a", 100), false, false, Origin::Send);
        while let Some(next) = world.until_next() {
            world.advance(next);
        }
        let log = serde_json::to_string(&*world.events()).unwrap();
        log
    }
    assert_eq!(run(), run());
}

#[test]
fn the_event_log_reads_as_the_article_tells_it() {
    let mut lab = lab_of(&[send("order-1042", 100, true)]);
    lab.skip_to_idle().unwrap();
    lab.dispatch(retry_same(false)).unwrap();
    lab.skip_to_idle().unwrap();
    let expected = [
        r#"{"at":0,"event":"sent","attempt":1,"origin":"send","process":1,"deadline":3000,"grant":{"key":"order-1042","account_id":"account-7","points":100},"acknowledgement_will_be_lost":true}"#,
        r#"{"at":0,"event":"queued","attempt":1}"#,
        r#"{"at":0,"event":"taken","attempt":1}"#,
        r#"{"at":100,"event":"store","attempt":1,"durable":false,"step":"wrote-both"}"#,
        r#"{"at":100,"event":"handled","attempt":1,"store":{"Ok":{"applied":{"key":"order-1042","account_id":"account-7","points":100,"balance":100}}},"acknowledgement_lost":true,"balance":100}"#,
        r#"{"at":3000,"event":"timed-out","attempt":1,"balance":100}"#,
        r#"{"at":3000,"event":"sent","attempt":2,"origin":"retry-same","process":1,"deadline":6000,"grant":{"key":"order-1042","account_id":"account-7","points":100},"acknowledgement_will_be_lost":false}"#,
        r#"{"at":3000,"event":"queued","attempt":2}"#,
        r#"{"at":3000,"event":"taken","attempt":2}"#,
        r#"{"at":3100,"event":"handled","attempt":2,"store":{"Ok":{"replayed":{"key":"order-1042","account_id":"account-7","points":100,"balance":100}}},"acknowledgement_lost":false,"balance":100}"#,
        r#"{"at":3100,"event":"answered","attempt":2,"answer":{"Ok":{"key":"order-1042","account_id":"account-7","points":100,"balance":100}},"balance":100}"#,
    ];
    let log: Vec<String> = events(&lab)
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect();
    assert_eq!(log, expected);
    assert_eq!(
        format!("[{}]", expected.join(",")),
        event_log(&lab),
        "the log is the events, in order"
    );
}

// ---------------------------------------------------------------------------------
// Time
// ---------------------------------------------------------------------------------

#[test]
fn the_clock_never_goes_back() {
    let lab = lab_of(&rich_history());
    let times: Vec<u64> = events(&lab).iter().map(|e| e.at).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
    assert!(lab.state().now() >= *times.last().unwrap());
    assert_eq!(
        lab.state().now(),
        500 + 1_500 + 700 + 10_000,
        "only waits move the clock"
    );
    // Every prefix's clock is at or before the whole history's, and the rows come
    // in the order their attempts were sent.
    let mut previous = 0;
    for cut in 0..=lab.history().actions.len() {
        let now = lab.rewound(cut).state().now();
        assert!(now >= previous, "cut {cut}");
        previous = now;
    }
    let sent: Vec<u64> = lab
        .state()
        .timeline()
        .iter()
        .map(|r| r.attempt.sent_at)
        .collect();
    assert!(sent.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn waiting_moves_the_clock_by_exactly_that_much_and_fires_what_is_due() {
    let mut lab = lab_of(&[send("order-1042", 100, false)]);
    assert_eq!(lab.state().until_next(), Some(100), "the work in hand");
    lab.dispatch(Action::Wait { ms: 99 }).unwrap();
    assert_eq!(lab.state().now(), 99);
    assert_eq!(lab.state().in_hand().unwrap().id, 1);
    assert_eq!(lab.state().timeline()[0].outcome(), Outcome::Pending);
    lab.dispatch(Action::Wait { ms: 1 }).unwrap();
    assert_eq!(lab.state().now(), 100);
    assert_eq!(lab.state().timeline().len(), 1);
    assert_eq!(lab.state().timeline()[0].answered_at, Some(100));
    assert_eq!(
        lab.state().until_next(),
        None,
        "answered: its deadline is no longer pending"
    );
    lab.dispatch(Action::Wait { ms: 12_345 }).unwrap();
    assert_eq!(lab.state().now(), 12_445);
    assert_eq!(
        events(&lab).len(),
        6,
        "waiting on an idle world adds nothing"
    );
}

#[test]
fn a_pause_freezes_the_worker_but_not_the_callers_clocks() {
    let mut lab = lab_of(&[
        Action::Set(Setting::Paused(true)),
        send("a", 100, false),
        Action::Wait { ms: 1_000 },
        send("b", 50, false),
        Action::Wait { ms: 9_000 },
    ]);
    assert_eq!(lab.state().now(), 10_000);
    let kinds: Vec<(u64, &str)> = events(&lab)
        .iter()
        .map(|e| {
            let json = serde_json::to_value(e).unwrap();
            let kind = match json["event"].as_str().unwrap() {
                "sent" => "sent",
                "queued" => "queued",
                "timed-out" => "timed-out",
                other => panic!("nothing else happens while paused: {other}"),
            };
            (e.at, kind)
        })
        .collect();
    assert_eq!(
        kinds,
        [
            (0, "sent"),
            (0, "queued"),
            (1_000, "sent"),
            (1_000, "queued"),
            (3_000, "timed-out"),
            (4_000, "timed-out"),
        ],
        "each caller gave up at its own deadline while the worker stood still"
    );
    let rows = lab.state().timeline();
    assert!(rows.iter().all(|r| r.outcome() == Outcome::Timeout));
    assert!(rows.iter().all(|r| r.truth() == Some(Truth::Pending)));
    assert!(rows.iter().all(|r| r.balance_after == 0));
    let queue: Vec<u64> = lab.state().queue().iter().map(|a| a.id).collect();
    assert_eq!(queue, [1, 2]);
    assert_eq!(lab.state().store().balances(), []);
    assert_eq!(lab.state().until_next(), None, "idle until someone acts");

    lab.dispatch(Action::Set(Setting::Paused(false))).unwrap();
    assert_eq!(lab.state().in_hand().unwrap().id, 1);
    assert_eq!(lab.skip_to_idle().unwrap(), 200);
    let rows = lab.state().timeline();
    for (row, handled_at) in rows.iter().zip([10_100, 10_200]) {
        assert_eq!(row.outcome(), Outcome::TimeoutApplied);
        assert_eq!(row.truth(), Some(Truth::AppliedAfterTimeout));
        assert_eq!(row.handled.as_ref().unwrap().at, handled_at);
        assert!(!row.handled_before_answer);
    }
    assert_eq!(lab.state().store().balance(ACCOUNT), 150);
}

#[test]
fn a_pause_lets_the_delivery_in_hand_finish() {
    let mut lab = lab_of(&[
        send("a", 100, false),
        send("b", 100, false),
        Action::Wait { ms: 50 },
        Action::Set(Setting::Paused(true)),
    ]);
    assert_eq!(lab.state().in_hand().unwrap().id, 1);
    lab.skip_to_idle().unwrap();
    assert_eq!(lab.state().store().balance(ACCOUNT), 100);
    let codes: Vec<&str> = lab
        .state()
        .timeline()
        .iter()
        .map(|r| r.outcome().code())
        .collect();
    assert_eq!(codes, ["applied", "timeout"]);
    assert_eq!(lab.state().timeline()[0].answered_at, Some(100));
    assert_eq!(lab.state().timeline()[1].answered_at, Some(3_000));
}

// ---------------------------------------------------------------------------------
// The three truths of a timeout
// ---------------------------------------------------------------------------------

#[test]
fn never_applied_a_restart_drops_a_queued_attempt_whose_caller_had_timed_out() {
    let mut lab = lab_of(&[
        Action::Set(Setting::Paused(true)),
        Action::Set(Setting::CallerTimeoutMs(1_000)),
        send("a", 100, false),
        Action::Wait { ms: 1_000 },
    ]);
    let row = &lab.state().timeline()[0];
    assert_eq!(row.truth(), Some(Truth::Pending), "still queued");
    assert_eq!(lab.state().queue().len(), 1);

    lab.dispatch(Action::Restart).unwrap();
    let row = &lab.state().timeline()[0];
    assert_eq!(row.truth(), Some(Truth::NeverApplied));
    assert_eq!(row.truth().unwrap().code(), "never-applied");
    assert_eq!(row.outcome(), Outcome::Timeout);
    assert!(row.never_handled);
    assert!(lab.state().queue().is_empty());
    // The caller had already given up: nobody is told again.
    let about_it = events(&lab)
        .iter()
        .filter(|e| e.what.attempt() == Some(1))
        .count();
    assert_eq!(about_it, 3, "sent, queued, timed out");
    lab.dispatch(Action::Set(Setting::Paused(false))).unwrap();
    lab.skip_to_idle().unwrap();
    assert_eq!(lab.state().store().balances(), []);
    assert_eq!(lab.state().timeline().len(), 1);
    assert_eq!(lab.state().process_number(), 2);
}

#[test]
fn never_applied_a_caller_gives_up_waiting_for_room() {
    let mut lab = lab_of(&[
        Action::Set(Setting::Paused(true)),
        Action::Burst {
            account_id: ACCOUNT.into(),
            points: 1,
            count: 16,
        },
        send("x", 5, false),
    ]);
    assert_eq!(lab.state().waiting(), 1);
    lab.skip_to_idle().unwrap();
    assert_eq!(lab.state().now(), 3_000);
    assert_eq!(lab.state().waiting(), 0, "it took its request back");
    assert_eq!(lab.state().queue().len(), 16);
    let x = lab
        .state()
        .timeline()
        .iter()
        .find(|r| r.attempt.id == 17)
        .unwrap();
    assert_eq!(x.truth(), Some(Truth::NeverApplied), "known at once");
    assert!(x.never_handled);

    lab.dispatch(Action::Set(Setting::Paused(false))).unwrap();
    lab.skip_to_idle().unwrap();
    assert_eq!(lab.state().store().balance(ACCOUNT), 16);
    assert_eq!(lab.state().store().receipt(ACCOUNT, "x"), None);
    assert!(!events(&lab).iter().any(|e| matches!(
        e.what,
        Happening::Queued { attempt: 17 } | Happening::Handled { attempt: 17, .. }
    )));
    let truths: Vec<Option<Truth>> = lab.state().timeline().iter().map(|r| r.truth()).collect();
    assert_eq!(truths.len(), 17);
    assert_eq!(
        truths
            .iter()
            .filter(|t| **t == Some(Truth::AppliedAfterTimeout))
            .count(),
        16
    );
}

#[test]
fn never_applied_the_store_refuses_what_arrives_after_the_timeout() {
    let mut lab = lab_of(&[
        Action::Set(Setting::Paused(true)),
        send("k", 100, false),
        send("k", 200, false),
    ]);
    lab.skip_to_idle().unwrap();
    lab.dispatch(Action::Set(Setting::Paused(false))).unwrap();
    lab.skip_to_idle().unwrap();
    let rows = lab.state().timeline();
    assert_eq!(rows[0].truth(), Some(Truth::AppliedAfterTimeout));
    assert_eq!(rows[1].truth(), Some(Truth::NeverApplied));
    assert_eq!(rows[1].outcome(), Outcome::Timeout);
    assert!(matches!(
        rows[1].store_error(),
        Some(GrantError::PayloadMismatch { .. })
    ));
    assert!(!rows[1].never_handled, "the store did see it");
}

#[test]
fn applied_before_timeout_a_lost_acknowledgement() {
    let mut lab = lab_of(&[send("order-1042", 100, true)]);
    assert_eq!(lab.skip_to_idle().unwrap(), 3_000);
    let row = &lab.state().timeline()[0];
    assert_eq!(row.outcome(), Outcome::TimeoutApplied);
    assert_eq!(row.truth(), Some(Truth::AppliedBeforeTimeout));
    assert_eq!(row.truth().unwrap().code(), "applied-before-timeout");
    assert!(row.handled_before_answer);
    let handling = row.handled.as_ref().unwrap();
    assert!(handling.acknowledgement_lost);
    assert_eq!(
        handling.store,
        Ok(StoreOutcome::Applied(receipt("order-1042", 100, 100)))
    );
    assert_eq!((handling.at, row.answered_at), (100, Some(3_000)));
    assert_eq!(row.caller, Some(Err(GrantError::Timeout)));
}

#[test]
fn applied_after_timeout_slow_processing_and_a_retry_sent_while_it_runs() {
    let mut lab = lab_of(&[
        Action::Set(Setting::ProcessingMs(5_000)),
        send("order-1042", 100, false),
        Action::Wait { ms: 3_000 },
    ]);
    let row = &lab.state().timeline()[0];
    assert_eq!(row.outcome(), Outcome::Timeout);
    assert_eq!(row.truth(), Some(Truth::Pending), "still running");
    assert_eq!(lab.state().in_hand().unwrap().id, 1);

    // The caller retries at once; the first attempt is still being worked on.
    lab.dispatch(Action::Set(Setting::ProcessingMs(100)))
        .unwrap();
    lab.dispatch(retry_same(false)).unwrap();
    assert_eq!(lab.state().queue()[0].id, 2);
    lab.skip_to_idle().unwrap();
    let rows = lab.state().timeline();
    assert_eq!(rows[0].outcome(), Outcome::TimeoutApplied);
    assert_eq!(rows[0].truth(), Some(Truth::AppliedAfterTimeout));
    assert_eq!(rows[0].truth().unwrap().code(), "applied-after-timeout");
    assert_eq!(rows[0].handled.as_ref().unwrap().at, 5_000);
    assert_eq!(rows[0].answered_at, Some(3_000));
    assert_eq!(rows[1].outcome(), Outcome::Replayed);
    assert_eq!(rows[1].caller, Some(Ok(receipt("order-1042", 100, 100))));
    assert_eq!(rows[1].answered_at, Some(5_100));
    assert_eq!(lab.state().store().balance(ACCOUNT), 100);
}

// ---------------------------------------------------------------------------------
// Restarts
// ---------------------------------------------------------------------------------

#[test]
fn restart_then_retry_grants_twice() {
    let mut lab = lab_of(&[
        send("order-1042", 100, true),
        Action::Wait { ms: 200 },
        Action::Restart,
        retry_same(false),
    ]);
    lab.skip_to_idle().unwrap();
    let rows = lab.state().timeline();
    assert_eq!(rows.len(), 2);
    // Rows are in sending order: the retry second, though it was answered first.
    let retry = &rows[1];
    assert!(retry.answered_at < rows[0].answered_at);
    assert_eq!(retry.attempt.origin, Origin::RetrySame);
    assert_eq!(retry.attempt.process, 2);
    assert_eq!(retry.attempt.attempt_of_request, 2);
    assert_eq!(
        retry.outcome(),
        Outcome::Applied,
        "the new process never saw it"
    );
    let handling = retry.handled.as_ref().unwrap();
    assert_eq!(handling.granted_before_in, Some(1));
    assert_eq!(
        handling.store,
        Ok(StoreOutcome::Applied(receipt("order-1042", 100, 100)))
    );
    // The first caller's answer was lost before the restart; it times out still.
    let first = &rows[0];
    assert_eq!(first.attempt.process, 1);
    assert_eq!(first.outcome(), Outcome::TimeoutApplied);
    assert_eq!(first.truth(), Some(Truth::AppliedBeforeTimeout));
    assert_eq!(first.handled.as_ref().unwrap().granted_before_in, None);
    // Granted twice: once in each process. The store is in memory, so the new
    // process holds only the second grant.
    let granted: i32 = events(&lab)
        .iter()
        .filter_map(|e| match &e.what {
            Happening::Handled {
                store: Ok(StoreOutcome::Applied(r)),
                ..
            } => Some(r.points),
            _ => None,
        })
        .sum();
    assert_eq!(granted, 200);
    assert_eq!(lab.state().store().balance(ACCOUNT), 100);
    assert_eq!(lab.state().process_number(), 2);
    let restart: Vec<Happening> = events(&lab)
        .into_iter()
        .filter(|e| e.what.attempt().is_none())
        .map(|e| {
            assert_eq!(e.at, 200);
            e.what
        })
        .collect();
    assert_eq!(
        restart,
        [
            Happening::ProcessEnded { process: 1 },
            Happening::ProcessStarted {
                process: 2,
                slot: 1
            }
        ]
    );
}

#[test]
fn a_restart_tells_every_caller_still_waiting_that_the_worker_stopped() {
    let mut lab = lab_of(&[
        Action::Set(Setting::ProcessingMs(1_000)),
        // 1 in hand, 16 queued, 2 waiting for room.
        Action::Burst {
            account_id: ACCOUNT.into(),
            points: 1,
            count: 19,
        },
        Action::Wait { ms: 500 },
    ]);
    assert_eq!(lab.state().in_hand().unwrap().id, 1);
    assert_eq!(lab.state().queue().len(), 16);
    assert_eq!(lab.state().waiting(), 2);
    lab.dispatch(Action::Restart).unwrap();
    let rows = lab.state().timeline();
    assert_eq!(rows.len(), 19, "everyone heard at once");
    for row in rows {
        assert_eq!(row.outcome(), Outcome::ProcessEnded);
        assert_eq!(row.caller, Some(Err(GrantError::WorkerStopped)));
        assert_eq!(row.answered_at, Some(500));
        assert!(row.never_handled);
        assert_eq!(row.truth(), None, "not a timeout: the caller knows");
    }
    assert_eq!(lab.state().in_hand(), None);
    assert!(lab.state().queue().is_empty());
    assert_eq!(lab.state().waiting(), 0);
    assert_eq!(lab.state().in_flight(), 0);
    assert_eq!(
        lab.state().until_next(),
        None,
        "the dropped work left no timer"
    );
    // The new process is up first (so a caller that calls again reaches it),
    // then each old caller hears of the end, in the same instant.
    let log = events(&lab);
    let ended = log
        .iter()
        .position(|e| e.what == Happening::ProcessEnded { process: 1 })
        .unwrap();
    assert_eq!(
        log[ended + 1].what,
        Happening::ProcessStarted {
            process: 2,
            slot: 1
        }
    );
    assert_eq!(log.len(), ended + 2 + 19);
    for event in &log[ended..] {
        assert_eq!(event.at, 500);
        if let Happening::Answered { answer, .. } = &event.what {
            assert_eq!(answer, &Err(GrantError::WorkerStopped));
        }
    }
    // The new process works as a new one.
    lab.dispatch(send("after", 7, false)).unwrap();
    lab.skip_to_idle().unwrap();
    assert_eq!(lab.state().store().balances(), [(ACCOUNT.to_owned(), 7)]);
    assert_eq!(lab.state().timeline().last().unwrap().attempt.process, 2);
}

#[test]
fn the_pause_and_the_settings_outlive_a_restart() {
    let mut lab = lab_of(&[
        Action::Set(Setting::Paused(true)),
        Action::Set(Setting::CallerTimeoutMs(700)),
        Action::Set(Setting::ProcessingMs(30)),
        Action::Set(Setting::Naive(true)),
        Action::Restart,
    ]);
    let settings = lab.state().settings();
    assert!(settings.paused);
    assert_eq!(settings.caller_timeout_ms, 700);
    assert_eq!(settings.processing_ms, 30);
    assert!(settings.naive);
    lab.dispatch(send("a", 1, false)).unwrap();
    lab.skip_to_idle().unwrap();
    assert_eq!(lab.state().timeline()[0].answered_at, Some(700));
    assert_eq!(lab.state().timeline()[0].truth(), Some(Truth::Pending));
}

// ---------------------------------------------------------------------------------
// The naive worker beside
// ---------------------------------------------------------------------------------

#[test]
fn naive_200_beside_idempotent_100() {
    let mut lab = lab_of(&[
        Action::Set(Setting::Naive(true)),
        send("order-1042", 100, true),
    ]);
    lab.skip_to_idle().unwrap();
    lab.dispatch(retry_same(false)).unwrap();
    lab.skip_to_idle().unwrap();
    assert_eq!(
        lab.state().naive_balances(),
        [(ACCOUNT.to_owned(), 200)],
        "every delivery is new to the naive worker"
    );
    assert_eq!(lab.state().world().naive_store().balance(ACCOUNT), 200);
    assert_eq!(lab.state().store().balance(ACCOUNT), 100);
    assert_eq!(lab.state().store().balances(), [(ACCOUNT.to_owned(), 100)]);
    let codes: Vec<&str> = lab
        .state()
        .timeline()
        .iter()
        .map(|r| r.outcome().code())
        .collect();
    assert_eq!(codes, ["timeout-applied", "replayed"]);
    let naive: Vec<(u64, i32)> = events(&lab)
        .iter()
        .filter_map(|e| match e.what {
            Happening::NaiveHandled { attempt, balance } => Some((attempt, balance)),
            _ => None,
        })
        .collect();
    assert_eq!(naive, [(1, 100), (2, 200)]);
}

#[test]
fn the_naive_worker_sees_only_what_is_sent_while_it_is_on_and_forgets_on_restart() {
    let mut lab = lab_of(&[
        send("a", 10, false),
        Action::Set(Setting::Naive(true)),
        send("b", 20, false),
        Action::Set(Setting::Naive(false)),
        send("c", 40, false),
    ]);
    lab.skip_to_idle().unwrap();
    assert_eq!(lab.state().naive_balances(), [(ACCOUNT.to_owned(), 20)]);
    assert_eq!(lab.state().store().balance(ACCOUNT), 70);
    lab.dispatch(Action::Restart).unwrap();
    assert_eq!(lab.state().naive_balances(), []);
    assert_eq!(lab.state().world().naive_store().balances(), []);
    assert_eq!(lab.state().store().balances(), []);
}

// ---------------------------------------------------------------------------------
// Undo and redo
// ---------------------------------------------------------------------------------

#[test]
fn undo_and_redo_return_byte_identical_states() {
    let mut lab = lab_of(&rich_history());
    let mut states = vec![snapshot(&lab)];
    let mut undone = 0;
    while lab.can_undo() {
        lab.undo().unwrap();
        undone += 1;
        // Each undo is the history's prefix, replayed.
        let cut = lab.history().actions.len();
        assert_eq!(snapshot(&lab), snapshot(&lab.rewound(cut)));
        states.push(snapshot(&lab));
        assert!(lab.can_redo());
    }
    let non_waits = rich_history()
        .iter()
        .filter(|a| !matches!(a, Action::Wait { .. }))
        .count();
    // Every action, the lab's first (a transit of 0) included.
    assert_eq!(undone, non_waits + 1);
    assert!(lab.history().actions.is_empty());
    assert!(lab.state().world().events().is_empty());
    assert_eq!(
        lab.undo(),
        Err(LabError::NothingToUndo),
        "undo to nothing is refused"
    );
    assert_eq!(states.last().unwrap(), &snapshot(&Lab::new()));

    states.pop();
    while let Some(expected) = states.pop() {
        lab.redo().unwrap();
        assert_eq!(snapshot(&lab), expected);
    }
    assert_eq!(lab.redo(), Err(LabError::NothingToRedo));
    assert!(!lab.can_redo());
    assert_eq!(snapshot(&lab), snapshot(&lab_of(&rich_history())));
}

#[test]
fn undo_takes_back_the_last_act_with_the_time_that_passed_after_it() {
    let mut lab = lab_of(&[
        send("order-1042", 100, true),
        Action::Wait { ms: 3_000 },
        retry_same(false),
        Action::Wait { ms: 100 },
    ]);
    let before = snapshot(&lab);
    lab.undo().unwrap();
    assert_eq!(
        lab.history().actions[1..],
        [send("order-1042", 100, true), Action::Wait { ms: 3_000 }]
    );
    assert_eq!(lab.state().now(), 3_000);
    assert_eq!(lab.state().timeline().len(), 1);
    lab.redo().unwrap();
    assert_eq!(snapshot(&lab), before);

    // Anything new after an undo makes the undone unreachable, time included.
    lab.undo().unwrap();
    lab.dispatch(Action::Wait { ms: 1 }).unwrap();
    assert!(!lab.can_redo());
    assert_eq!(lab.redo(), Err(LabError::NothingToRedo));

    // A history of waits alone has nothing to undo.
    let mut idle = Lab::new();
    idle.dispatch(Action::Wait { ms: 5 }).unwrap();
    assert!(!idle.can_undo());
    assert_eq!(idle.undo(), Err(LabError::NothingToUndo));
    assert_eq!(idle.history().actions, [Action::Wait { ms: 5 }]);
}

#[test]
fn the_naive_side_refuses_what_any_store_refuses_and_reports_no_balance_for_it() {
    let mut lab = lab_of(&[
        Action::Set(Setting::Naive(true)),
        send("zero", 0, false),
        Action::Send {
            grant: GrantPoints::new("k", "other", 5),
            lose_acknowledgement: false,
        },
    ]);
    lab.skip_to_idle().unwrap();
    assert_eq!(lab.state().naive_balances(), [("other".to_owned(), 5)]);
    assert_eq!(
        lab.state().naive_balances(),
        &lab.state().world().naive_store().balances()[..]
    );
    let naive: Vec<u64> = events(&lab)
        .iter()
        .filter_map(|e| match e.what {
            Happening::NaiveHandled { attempt, .. } => Some(attempt),
            _ => None,
        })
        .collect();
    assert_eq!(naive, [2], "only the copy it applied");
}

#[test]
fn waits_coalesce_only_into_waits_the_lab_accepts_so_the_history_replays() {
    use idempotency_lab::lab::MAX_WAIT_MS;
    let mut lab = Lab::new();
    lab.dispatch(Action::Wait { ms: MAX_WAIT_MS }).unwrap();
    lab.dispatch(Action::Wait { ms: MAX_WAIT_MS }).unwrap();
    lab.dispatch(Action::Wait { ms: 5 }).unwrap();
    assert_eq!(
        lab.history().actions,
        vec![
            Action::Wait { ms: MAX_WAIT_MS },
            Action::Wait { ms: MAX_WAIT_MS },
            Action::Wait { ms: 5 },
        ]
    );
    let copy = Lab::replay(lab.history()).expect("every recorded wait is one the lab accepts");
    assert_eq!(copy.state().now(), 2 * MAX_WAIT_MS + 5);
}

#[test]
fn a_timed_out_retry_that_got_the_stored_receipt_is_not_called_applied() {
    // The first attempt is still being worked on when its caller gives up; the
    // retry queues behind it, times out too, and the store answers it with the
    // stored receipt.
    let mut lab = lab_of(&[
        Action::Set(Setting::CallerTimeoutMs(1_000)),
        Action::Set(Setting::ProcessingMs(2_000)),
        send("k", 100, false),
        Action::Wait { ms: 1_000 },
        retry_same(false),
    ]);
    lab.skip_to_idle().unwrap();
    let truths: Vec<Option<Truth>> = lab.state().timeline().iter().map(|r| r.truth()).collect();
    assert_eq!(
        truths,
        vec![
            Some(Truth::AppliedAfterTimeout),
            Some(Truth::ReturnedReceipt)
        ]
    );
    let retry = &lab.state().timeline()[1];
    assert_eq!(retry.outcome(), Outcome::Timeout);
    assert_eq!(retry.truth().unwrap().code(), "never-applied");
    assert_eq!(lab.state().store().balance("account-7"), 100);
}

#[test]
fn a_caller_that_gives_up_waiting_for_room_takes_its_naive_copy_back_too() {
    let mut lab = lab_of(&[
        Action::Set(Setting::Naive(true)),
        Action::Set(Setting::CallerTimeoutMs(1_000)),
        Action::Set(Setting::Paused(true)),
        Action::Burst {
            account_id: "account-7".into(),
            points: 1,
            count: 20,
        },
        Action::Wait { ms: 1_000 },
        Action::Set(Setting::Paused(false)),
    ]);
    lab.skip_to_idle().unwrap();
    // 16 were queued on each side; the 4 still waiting for room were withdrawn.
    assert_eq!(lab.state().store().balance("account-7"), 16);
    assert_eq!(
        lab.state().naive_balances(),
        &[("account-7".to_string(), 16)],
        "the naive side got only what the callers really sent"
    );
}

#[test]
fn a_patient_caller_whose_answer_is_lost_hears_the_timeout_instead_of_waiting_forever() {
    let mut world = World::new();
    world.send(grant("k", 100), true, true, Origin::Send);
    while let Some(next) = world.until_next() {
        world.advance(next);
    }
    let answers: Vec<Happening> = world
        .events()
        .iter()
        .filter(|e| {
            matches!(
                e.what,
                Happening::Answered { .. } | Happening::TimedOut { .. }
            )
        })
        .map(|e| e.what.clone())
        .collect();
    assert_eq!(
        answers,
        vec![Happening::Answered {
            attempt: 1,
            answer: Err(GrantError::Timeout),
            balance: 100,
        }]
    );
    assert_eq!(world.store().balance(ACCOUNT), 100);
}

#[test]
fn waits_that_fit_the_limit_together_stay_one_entry() {
    use idempotency_lab::lab::MAX_WAIT_MS;
    let mut lab = Lab::new();
    lab.dispatch(Action::Wait {
        ms: MAX_WAIT_MS - 10,
    })
    .unwrap();
    lab.dispatch(Action::Wait { ms: 10 }).unwrap();
    assert_eq!(
        lab.history().actions,
        vec![Action::Wait { ms: MAX_WAIT_MS }]
    );
}
