#![cfg(not(target_arch = "wasm32"))]
//! The lab engine: the article's walk, the queue, and replay of a history, run in
//! the simulated world (default caller timeout 3,000 ms, processing 100 ms).

mod common;
use common::instant_lab;

use idempotency_lab::lab::{
    parse_points, read_request, Action, FieldError, History, Lab, LabError, Origin, Outcome,
    Setting, SettingError, Truth, MAX_CLOCK_MOVE_MS, MAX_SETTING_MS, MAX_WAIT_MS,
};
use idempotency_lab::sim::{DEFAULT_CALLER_TIMEOUT_MS, DEFAULT_PROCESSING_MS};
use idempotency_lab::{GrantError, GrantPoints, PointWorker, StoreOutcome};

fn send(lab: &mut Lab, points: i32, key: &str, lose: bool) {
    lab.dispatch(Action::Send {
        grant: GrantPoints::new(key, "account-7", points),
        lose_acknowledgement: lose,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
}

fn last_outcome(lab: &Lab) -> Outcome {
    lab.state().timeline().last().unwrap().outcome()
}

fn event_log(lab: &Lab) -> String {
    serde_json::to_string(&*lab.state().world().events()).unwrap()
}

fn ids(attempts: &[&idempotency_lab::lab::Attempt]) -> Vec<u64> {
    attempts.iter().map(|a| a.id).collect()
}

#[test]
fn the_defaults_let_the_article_walk_run_as_before() {
    assert_eq!(DEFAULT_CALLER_TIMEOUT_MS, 3_000);
    assert_eq!(DEFAULT_PROCESSING_MS, 100);
    let lab = instant_lab();
    assert_eq!(lab.state().world().settings().caller_timeout_ms, 3_000);
    assert_eq!(lab.state().world().settings().processing_ms, 100);
    assert_eq!(lab.state().now(), 0);
    assert_eq!(lab.state().process_number(), 1);
    assert!(!lab.state().world().settings().naive);
    assert_eq!(lab.state().until_next(), None, "a new world is idle");
}

#[test]
fn the_article_walk_gives_timeout_then_receipt_then_rejection_then_new_grant() {
    let mut lab = instant_lab();
    send(&mut lab, 100, "order-1042", true);
    assert_eq!(last_outcome(&lab), Outcome::TimeoutApplied);
    let row = lab.state().timeline().last().unwrap();
    // Applied after its 100 ms of work; the caller only learns at its deadline.
    assert_eq!(row.handled.as_ref().unwrap().at, 100);
    assert_eq!(row.answered_at, Some(3_000));
    assert_eq!(row.truth(), Some(Truth::AppliedBeforeTimeout));
    assert_eq!(row.caller, Some(Err(GrantError::Timeout)));
    assert_eq!(row.attempt.attempt_of_request, 1);
    assert_eq!(lab.state().store().balance("account-7"), 100);
    assert_eq!(lab.state().now(), 3_000);

    lab.dispatch(Action::RetrySame {
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    let row = lab.state().timeline().last().unwrap();
    assert_eq!(row.outcome(), Outcome::Replayed);
    assert_eq!(row.truth(), None, "only a timeout has a hidden truth");
    assert_eq!(row.caller_receipt().unwrap().balance, 100);
    assert_eq!(row.attempt.attempt_of_request, 2);
    assert!(
        !row.attempt.reuses_key,
        "a retry is a retry, not a reused key"
    );
    assert_eq!(row.attempt.origin, Origin::RetrySame);
    assert_eq!((row.attempt.sent_at, row.answered_at), (3_000, Some(3_100)));

    send(&mut lab, 200, "order-1042", false);
    let row = lab.state().timeline().last().unwrap();
    assert_eq!(row.outcome(), Outcome::Rejected);
    assert!(matches!(
        row.store_error(),
        Some(GrantError::PayloadMismatch { .. })
    ));
    assert_eq!(
        row.attempt.attempt_of_request, 1,
        "other points under the same key are another request, not a retry"
    );
    assert!(
        row.attempt.reuses_key,
        "nor a first attempt: it reuses a key, and its row says so"
    );
    assert_eq!(row.balance_after, 100);

    lab.dispatch(Action::RetryFresh {
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    let row = lab.state().timeline().last().unwrap();
    assert_eq!(row.outcome(), Outcome::Applied);
    assert_eq!(row.attempt.grant.key, "order-1042-fresh-1");
    assert_eq!(
        row.attempt.grant.points, 100,
        "a retry repeats the last request the store did not refuse"
    );
    assert_eq!(row.attempt.attempt_of_request, 1);
    assert!(!row.attempt.reuses_key, "a fresh key is new");
    assert_eq!(lab.state().store().balance("account-7"), 200);
    let codes: Vec<&str> = lab
        .state()
        .timeline()
        .iter()
        .map(|r| r.outcome().code())
        .collect();
    assert_eq!(
        codes,
        ["timeout-applied", "replayed", "rejected", "applied"]
    );
    assert_eq!(lab.state().now(), 3_300);
}

#[test]
fn a_receipt_keeps_its_balance_while_the_account_moves_on() {
    let mut lab = instant_lab();
    send(&mut lab, 100, "order-1042", false);
    send(&mut lab, 25, "order-1043", false);
    send(&mut lab, 100, "order-1042", false);
    let row = lab.state().timeline().last().unwrap();
    assert_eq!(row.outcome(), Outcome::Replayed);
    assert_eq!(row.caller_receipt().unwrap().balance, 100);
    assert_eq!(row.balance_after, 125);
    assert_eq!(row.attempt.attempt_of_request, 2);
    lab.dispatch(Action::CheckBalance {
        account_id: "account-7".into(),
    })
    .unwrap();
    let read = lab.state().last_read().unwrap();
    assert_eq!(read.balance, Ok(125));
    assert_eq!(read.after_attempts, 3);
    assert_eq!(read.at, 300);
}

#[test]
fn a_retry_while_the_request_is_still_queued_repeats_it() {
    let mut lab = instant_lab();
    send(&mut lab, 100, "a", false);
    lab.dispatch(Action::Set(Setting::Paused(true))).unwrap();
    lab.dispatch(Action::Send {
        grant: GrantPoints::new("b", "account-7", 7),
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.dispatch(Action::Burst {
        account_id: "account-7".into(),
        points: 1,
        count: 3,
    })
    .unwrap();
    assert_eq!(
        lab.state().retry_target().unwrap().key,
        "b",
        "bursts are not retried"
    );
    lab.dispatch(Action::RetrySame {
        lose_acknowledgement: false,
    })
    .unwrap();
    assert_eq!(ids(&lab.state().queue()), [2, 3, 4, 5, 6]);
    lab.dispatch(Action::Set(Setting::Paused(false))).unwrap();
    lab.skip_to_idle().unwrap();
    let outcomes: Vec<Outcome> = lab.state().timeline().iter().map(|r| r.outcome()).collect();
    assert_eq!(
        outcomes,
        [
            Outcome::Applied,
            Outcome::Applied,
            Outcome::Applied,
            Outcome::Applied,
            Outcome::Applied,
            Outcome::Replayed
        ]
    );
    let retry = lab.state().timeline().last().unwrap();
    assert_eq!(retry.attempt.id, 6);
    assert_eq!(retry.attempt.attempt_of_request, 2);
    assert_eq!(retry.attempt.origin, Origin::RetrySame);
    assert_eq!(lab.state().store().balance("account-7"), 100 + 7 + 3);
}

#[test]
fn lost_acknowledgement_on_a_repeat_is_a_plain_timeout() {
    let mut lab = instant_lab();
    send(&mut lab, 100, "k", false);
    send(&mut lab, 100, "k", true);
    assert_eq!(last_outcome(&lab), Outcome::Timeout);
    let row = lab.state().timeline().last().unwrap();
    assert!(matches!(
        row.handled.as_ref().unwrap().store,
        Ok(StoreOutcome::Replayed(_))
    ));
    assert!(row.handled.as_ref().unwrap().acknowledgement_lost);
    assert_eq!(
        row.truth(),
        Some(Truth::ReturnedReceipt),
        "a repeat adds nothing, whatever the caller heard"
    );
    assert_eq!(row.answered_at, Some(100 + 3_000));
    assert_eq!(lab.state().store().balance("account-7"), 100);
}

#[test]
fn refused_actions_change_nothing_and_are_not_recorded() {
    let mut lab = Lab::new();
    assert_eq!(
        lab.dispatch(Action::RetrySame {
            lose_acknowledgement: false
        }),
        Err(LabError::NothingToRetry)
    );
    assert_eq!(
        lab.dispatch(Action::RetryFresh {
            lose_acknowledgement: false
        }),
        Err(LabError::NothingToRetry)
    );
    for (action, error) in [
        (Action::Wait { ms: 0 }, LabError::WaitLength(0)),
        (
            Action::Wait {
                ms: MAX_WAIT_MS + 1,
            },
            LabError::WaitLength(MAX_WAIT_MS + 1),
        ),
        (
            Action::Set(Setting::CallerTimeoutMs(0)),
            LabError::Setting(SettingError::CallerTimeout(0)),
        ),
        (
            Action::Set(Setting::CallerTimeoutMs(MAX_SETTING_MS + 1)),
            LabError::Setting(SettingError::CallerTimeout(MAX_SETTING_MS + 1)),
        ),
        (
            Action::Set(Setting::ProcessingMs(MAX_SETTING_MS + 1)),
            LabError::Setting(SettingError::ProcessingTime(MAX_SETTING_MS + 1)),
        ),
        (Action::MoveClock { ms: 0 }, LabError::ClockMove(0)),
        (
            Action::MoveClock {
                ms: MAX_CLOCK_MOVE_MS + 1,
            },
            LabError::ClockMove(MAX_CLOCK_MOVE_MS + 1),
        ),
    ] {
        assert_eq!(
            lab.dispatch(action.clone()),
            Err(error.clone()),
            "{action:?}"
        );
        assert!(!error.to_string().is_empty());
    }
    assert_eq!(lab.undo(), Err(LabError::NothingToUndo));
    assert_eq!(lab.redo(), Err(LabError::NothingToRedo));
    assert!(lab.history().actions.is_empty());
    assert!(lab.state().world().events().is_empty());
    assert_eq!(lab.state().now(), 0);
    // The limits themselves are accepted.
    for action in [
        Action::Wait { ms: MAX_WAIT_MS },
        Action::Set(Setting::CallerTimeoutMs(1)),
        Action::Set(Setting::CallerTimeoutMs(MAX_SETTING_MS)),
        Action::Set(Setting::ProcessingMs(0)),
        Action::Set(Setting::ProcessingMs(MAX_SETTING_MS)),
    ] {
        assert_eq!(lab.dispatch(action.clone()), Ok(()), "{action:?}");
    }
    assert_eq!(lab.state().now(), MAX_WAIT_MS);
    assert_eq!(
        lab.state().world().settings().caller_timeout_ms,
        MAX_SETTING_MS
    );
    assert_eq!(lab.state().world().settings().processing_ms, MAX_SETTING_MS);
}

#[test]
fn a_paused_consumer_fills_the_queue_then_makes_producers_wait_and_loses_nothing() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Set(Setting::Paused(true))).unwrap();
    lab.dispatch(Action::Burst {
        account_id: "a".into(),
        points: 1,
        count: 40,
    })
    .unwrap();
    assert_eq!(ids(&lab.state().queue()), (1..=16).collect::<Vec<_>>());
    assert_eq!(lab.state().queue().len(), PointWorker::CAPACITY);
    assert_eq!(lab.state().waiting(), 40 - PointWorker::CAPACITY);
    assert_eq!(lab.state().in_hand(), None);
    let waiting_rows = lab.state().timeline().iter();
    assert_eq!(
        waiting_rows.map(|r| r.outcome()).collect::<Vec<_>>(),
        [Outcome::Pending; 40],
        "a row for each, from the moment it is sent"
    );
    assert_eq!(lab.state().in_flight(), 40);

    lab.dispatch(Action::Set(Setting::Paused(false))).unwrap();
    assert_eq!(lab.state().in_hand().unwrap().id, 1, "taken at once");
    assert_eq!(
        ids(&lab.state().queue()),
        (2..=17).collect::<Vec<_>>(),
        "a waiting producer took the freed slot"
    );
    assert_eq!(lab.state().waiting(), 40 - PointWorker::CAPACITY - 1);
    assert_eq!(lab.state().now(), 0);

    assert_eq!(
        lab.skip_to_idle().unwrap(),
        4_000,
        "40 deliveries of 100 ms"
    );
    // The article's worker lets waiting producers in through async-channel, which
    // does not keep them in line: a producer woken for room that another producer
    // has just taken goes to the back. So the 18th is overtaken by every odd one.
    let order: Vec<u64> = (1..=17)
        .chain((19..=39).step_by(2))
        .chain([18])
        .chain((20..=40).step_by(2))
        .collect();
    let rows = lab.state().timeline();
    assert_eq!(
        rows.iter().map(|r| r.attempt.id).collect::<Vec<_>>(),
        (1..=40).collect::<Vec<_>>(),
        "rows are in sending order"
    );
    let mut timeline: Vec<_> = rows.iter().collect();
    // In the order their callers heard back (those that gave up together, at
    // 3,000 ms, in sending order).
    timeline.sort_by_key(|r| r.answered_at);
    assert_eq!(
        timeline.iter().map(|r| r.attempt.id).collect::<Vec<_>>(),
        order
    );
    // 29 deliveries finish within the 3,000 ms deadline; the 11 still queued or in
    // hand then are applied afterwards. Nothing is lost.
    for (i, row) in timeline.iter().enumerate() {
        if i < 29 {
            assert_eq!(row.outcome(), Outcome::Applied, "row {i}");
            assert_eq!(row.answered_at, Some(100 * (i as u64 + 1)));
            assert_eq!(row.caller_receipt().unwrap().balance, i as i32 + 1);
        } else {
            assert_eq!(row.outcome(), Outcome::TimeoutApplied, "row {i}");
            assert_eq!(row.truth(), Some(Truth::AppliedAfterTimeout));
            assert_eq!(row.answered_at, Some(3_000));
            assert!(row.handled.as_ref().unwrap().at >= 3_000);
        }
    }
    assert_eq!(lab.state().store().balance("a"), 40);
    assert_eq!(lab.state().store().receipts().len(), 40);
    assert_eq!(lab.state().in_flight(), 0);
    assert!(lab.state().queue().is_empty());
    assert_eq!(lab.state().waiting(), 0);
}

#[test]
fn a_burst_outside_its_limits_is_refused() {
    let mut lab = Lab::new();
    for count in [0, idempotency_lab::lab::MAX_BURST + 1] {
        assert_eq!(
            lab.dispatch(Action::Burst {
                account_id: "a".into(),
                points: 1,
                count
            }),
            Err(LabError::BurstSize(count))
        );
    }
    assert_eq!(lab.state().in_flight(), 0);
    assert!(lab.history().actions.is_empty());
}

#[test]
fn replaying_the_history_rebuilds_the_same_lab_and_step_back_is_a_prefix() {
    // Its first action makes messages arrive at once: the rest counts from 1.
    let mut lab = instant_lab();
    send(&mut lab, 100, "order-1042", true);
    lab.dispatch(Action::Set(Setting::Paused(true))).unwrap();
    lab.dispatch(Action::Burst {
        account_id: "account-7".into(),
        points: 5,
        count: 20,
    })
    .unwrap();
    lab.dispatch(Action::Set(Setting::Paused(false))).unwrap();
    lab.dispatch(Action::Wait { ms: 300 }).unwrap();
    lab.dispatch(Action::Wait { ms: 200 }).unwrap();
    lab.dispatch(Action::RetrySame {
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    assert_eq!(
        lab.history().actions[6],
        Action::Wait { ms: 500 },
        "a run of waits is one entry"
    );
    assert_eq!(lab.history().actions.len(), 9);

    let json = serde_json::to_string(lab.history()).unwrap();
    let history: History = serde_json::from_str(&json).unwrap();
    let copy = Lab::replay(&history).unwrap();
    assert_eq!(copy.state().timeline(), lab.state().timeline());
    assert_eq!(
        copy.state().store().receipts(),
        lab.state().store().receipts()
    );
    assert_eq!(copy.history(), lab.history());
    assert_eq!(event_log(&copy), event_log(&lab));
    assert_eq!(lab.state().store().balance("account-7"), 100 + 5 * 20);
    assert_eq!(lab.state().timeline().len(), 22);
    assert_eq!(
        lab.state().timeline().last().unwrap().outcome(),
        Outcome::Replayed
    );

    let first = lab.rewound(2);
    assert_eq!(first.state().in_flight(), 1);
    let first_rows = first.state().timeline();
    assert_eq!(first_rows.len(), 1);
    assert_eq!(first_rows[0].outcome(), Outcome::Pending);
    assert_eq!(first.state().in_hand().unwrap().id, 1);
    let after_timeout = lab.rewound(3);
    assert_eq!(after_timeout.state().timeline().len(), 1);
    assert!(after_timeout.state().timeline()[0].answered());
    assert_eq!(after_timeout.state().now(), 3_000);
    assert_eq!(lab.rewound(1).state().store().balance("account-7"), 0);
    assert!(lab.rewound(1).state().world().events().is_empty());
}

#[test]
fn a_history_with_a_bad_action_is_refused_at_that_action() {
    let history = History {
        actions: vec![
            Action::CheckBalance {
                account_id: "a".into(),
            },
            Action::RetrySame {
                lose_acknowledgement: false,
            },
        ],
    };
    let error = Lab::replay(&history).unwrap_err();
    assert_eq!(error.index, 1);
    assert_eq!(error.error, LabError::NothingToRetry);

    let history = History {
        actions: vec![Action::Restart, Action::Wait { ms: 0 }],
    };
    let error = Lab::replay(&history).unwrap_err();
    assert_eq!(error.index, 1);
    assert_eq!(error.error, LabError::WaitLength(0));
}

#[test]
fn the_form_refuses_every_bad_field_and_reads_a_good_one() {
    let errors = read_request("  ", "", "abc").unwrap_err();
    assert_eq!(errors.account, Some(FieldError::Empty));
    assert_eq!(errors.key, Some(FieldError::Empty));
    assert_eq!(errors.points, Some(FieldError::NotANumber));
    assert_eq!(parse_points("0"), Err(FieldError::NotPositive));
    assert_eq!(parse_points("-5"), Err(FieldError::NotPositive));
    assert_eq!(parse_points("1.5"), Err(FieldError::NotANumber));
    assert_eq!(parse_points("2147483648"), Err(FieldError::TooLarge));
    assert_eq!(
        parse_points("99999999999999999999999"),
        Err(FieldError::TooLarge)
    );
    assert_eq!(parse_points("2147483647"), Ok(i32::MAX));
    assert_eq!(parse_points(" ۱۰۰ "), Ok(100));
    assert_eq!(parse_points(""), Err(FieldError::Empty));
    let long = "x".repeat(idempotency_lab::lab::MAX_FIELD_CHARS + 1);
    assert_eq!(
        read_request(&long, "k", "1").unwrap_err().account,
        Some(FieldError::TooLong)
    );
    assert_eq!(
        read_request("account-7", "order-1042", "100"),
        Ok(GrantPoints::new("order-1042", "account-7", 100))
    );
}

#[test]
fn the_timeline_window_follows_the_newest_rows_or_stays_where_it_was_anchored() {
    use idempotency_lab::lab::page_window;
    assert_eq!(page_window(0, None, 25), 0..0);
    assert_eq!(page_window(10, None, 25), 0..10);
    assert_eq!(page_window(120, None, 25), 95..120);
    assert_eq!(page_window(120, Some(95), 25), 70..95);
    assert_eq!(
        page_window(500, Some(95), 25),
        70..95,
        "an anchored page ignores new rows"
    );
    assert_eq!(
        page_window(120, Some(10), 25),
        0..25,
        "never shorter than a page"
    );
    assert_eq!(page_window(120, Some(999), 25), 95..120);
    assert_eq!(page_window(10, Some(3), 25), 0..10);
}

/// The retry target is what actually happened, not a prediction: while the store
/// has not seen the newest request, nobody knows it will be refused, so it is the
/// target; once the store has refused it, the newest request it did not refuse is.
#[test]
fn the_retry_target_is_taken_from_what_the_store_did() {
    for pause in [false, true] {
        let mut lab = instant_lab();
        lab.dispatch(Action::Set(Setting::Paused(pause))).unwrap();
        for points in [100, 200] {
            lab.dispatch(Action::Send {
                grant: GrantPoints::new("k", "account-7", points),
                lose_acknowledgement: false,
            })
            .unwrap();
        }
        lab.dispatch(Action::Send {
            grant: GrantPoints::new(" ", "account-7", 5),
            lose_acknowledgement: false,
        })
        .unwrap();
        lab.skip_to_idle().unwrap();
        if pause {
            // Every caller timed out at 3,000 ms; the store has seen nothing.
            assert_eq!(lab.state().now(), 3_000);
            assert_eq!(ids(&lab.state().queue()), [1, 2, 3]);
            assert!(lab
                .state()
                .timeline()
                .iter()
                .all(|r| r.truth() == Some(Truth::Pending)));
            assert_eq!(
                lab.state().retry_target(),
                Some(GrantPoints::new(" ", "account-7", 5)),
                "not yet refused, so still the target"
            );
            lab.dispatch(Action::Set(Setting::Paused(false))).unwrap();
            lab.skip_to_idle().unwrap();
            let truths: Vec<Option<Truth>> =
                lab.state().timeline().iter().map(|r| r.truth()).collect();
            assert_eq!(
                truths,
                [
                    Some(Truth::AppliedAfterTimeout),
                    Some(Truth::NeverApplied),
                    Some(Truth::NeverApplied)
                ]
            );
        } else {
            let codes: Vec<&str> = lab
                .state()
                .timeline()
                .iter()
                .map(|r| r.outcome().code())
                .collect();
            assert_eq!(codes, ["applied", "rejected", "rejected"]);
        }
        assert_eq!(
            lab.state().retry_target(),
            Some(GrantPoints::new("k", "account-7", 100)),
            "neither the changed payload nor the invalid key is a retry target (paused: {pause})"
        );
        assert_eq!(
            lab.state().last_request(),
            Some(&GrantPoints::new(" ", "account-7", 5))
        );
    }
}

/// The point 8: a refused request is not what "retry" resends, and a
/// request with other points under a refused key is not a retry of it.
#[test]
fn after_an_overflow_the_next_request_under_that_key_is_its_own_first_attempt() {
    let mut lab = instant_lab();
    send(&mut lab, 100, "order-1042", false);
    send(&mut lab, i32::MAX, "big", false);
    assert_eq!(last_outcome(&lab), Outcome::Rejected);
    assert_eq!(
        lab.state().timeline().last().unwrap().store_error(),
        Some(&GrantError::Overflow)
    );
    assert_eq!(
        lab.state().retry_target(),
        Some(GrantPoints::new("order-1042", "account-7", 100))
    );
    send(&mut lab, 5, "big", false);
    let row = lab.state().timeline().last().unwrap();
    assert_eq!(row.outcome(), Outcome::Applied);
    assert_eq!(row.attempt.attempt_of_request, 1);
    lab.dispatch(Action::RetrySame {
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    let row = lab.state().timeline().last().unwrap();
    assert_eq!(row.attempt.grant, GrantPoints::new("big", "account-7", 5));
    assert_eq!(row.attempt.attempt_of_request, 2);
    assert_eq!(row.outcome(), Outcome::Replayed);
    assert_eq!(lab.state().store().balance("account-7"), 105);
}

#[test]
fn a_fresh_key_stays_within_the_form_limit() {
    let mut lab = instant_lab();
    let long_key = "k".repeat(idempotency_lab::lab::MAX_FIELD_CHARS);
    send(&mut lab, 1, &long_key, false);
    for _ in 0..3 {
        lab.dispatch(Action::RetryFresh {
            lose_acknowledgement: false,
        })
        .unwrap();
    }
    lab.skip_to_idle().unwrap();
    let keys: Vec<&str> = lab
        .state()
        .timeline()
        .iter()
        .map(|r| r.attempt.grant.key.as_str())
        .collect();
    let stem = "k".repeat(idempotency_lab::lab::MAX_FIELD_CHARS - 16);
    assert_eq!(
        keys[1..],
        [
            format!("{stem}-fresh-1"),
            format!("{stem}-fresh-2"),
            format!("{stem}-fresh-3")
        ]
    );
    assert!(keys[1..]
        .iter()
        .all(|k| k.chars().count() <= idempotency_lab::lab::MAX_FIELD_CHARS));
    assert_eq!(
        lab.state().store().balance("account-7"),
        4,
        "each fresh key is new"
    );
}

#[test]
fn a_history_stopped_mid_queue_replays_to_the_same_queue() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Set(Setting::Paused(true))).unwrap();
    lab.dispatch(Action::Burst {
        account_id: "a".into(),
        points: 2,
        count: 25,
    })
    .unwrap();
    lab.dispatch(Action::Set(Setting::Paused(false))).unwrap();
    // Two deliveries done (100 and 200 ms), the third in hand.
    lab.dispatch(Action::Wait { ms: 250 }).unwrap();
    lab.dispatch(Action::CheckBalance {
        account_id: "a".into(),
    })
    .unwrap();
    lab.dispatch(Action::Set(Setting::Paused(true))).unwrap();
    let copy = Lab::replay(lab.history()).unwrap();
    let (a, b) = (lab.state(), copy.state());
    assert_eq!(ids(&a.queue()), ids(&b.queue()));
    assert_eq!(
        ids(&a.queue()),
        [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 21]
    );
    assert_eq!(a.waiting(), b.waiting());
    assert_eq!(a.waiting(), 25 - 16 - 3);
    assert_eq!(a.in_hand(), b.in_hand());
    assert_eq!(
        a.in_hand().map(|x| x.id),
        Some(3),
        "stopped while holding a delivery"
    );
    assert_eq!(a.settings(), b.settings());
    assert!(a.settings().paused);
    assert_eq!(a.last_read(), b.last_read());
    assert_eq!(a.last_read().unwrap().balance, Ok(4));
    assert_eq!(a.last_read().unwrap().at, 250);
    assert_eq!(a.timeline(), b.timeline());
    assert_eq!(a.timeline().len(), 25, "every attempt sent has its row");
    assert_eq!(a.timeline().iter().filter(|r| r.answered()).count(), 2);
    assert_eq!(a.answered(), 2);
    assert_eq!(event_log(&lab), event_log(&copy));

    // The pause holds the next delivery back, but the one in hand is finished.
    lab.dispatch(Action::Wait { ms: 50 }).unwrap();
    assert_eq!(lab.state().in_hand(), None);
    assert_eq!(lab.state().store().balance("a"), 6);
    assert_eq!(lab.state().queue().len(), 16);
    assert_eq!(lab.state().until_next(), Some(3_000 - 300), "the deadlines");
}

#[test]
fn a_stress_run_of_only_duplicates_grants_its_one_operation_once() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Stress {
        account_id: "a".into(),
        points: 7,
        count: 5,
        duplicate_percent: 100,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    let rows = lab.state().timeline();
    assert_eq!(rows.len(), 5);
    assert!(rows.iter().all(|r| r.attempt.grant.key == "stress-1-0"));
    let outcomes: Vec<Outcome> = rows.iter().map(|r| r.outcome()).collect();
    assert_eq!(
        outcomes.iter().filter(|o| **o == Outcome::Applied).count(),
        1
    );
    assert_eq!(
        outcomes.iter().filter(|o| **o == Outcome::Replayed).count(),
        4
    );
    assert_eq!(lab.state().store().balance("a"), 7);
}

#[test]
fn the_lab_and_the_worker_describe_themselves_for_debugging() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Wait { ms: 250 }).unwrap();
    let described = format!("{:?}", lab.state());
    assert!(described.starts_with("LabState"), "{described}");
    assert!(described.contains("now: 250"), "{described}");
    let (worker, _consumer) = PointWorker::new(idempotency_lab::PointStore::new());
    let described = format!("{worker:?}");
    assert_eq!(described, "PointWorker { queued: 0, stopped: false }");
}

#[test]
fn a_setting_reads_whole_milliseconds_in_any_digits_the_form_takes() {
    use idempotency_lab::lab::parse_millis;
    assert_eq!(parse_millis("250"), Ok(250));
    assert_eq!(parse_millis(" ۵۰۰ "), Ok(500));
    assert_eq!(parse_millis("٣٠"), Ok(30));
    assert_eq!(parse_millis("0"), Ok(0));
    assert_eq!(parse_millis(""), Err(FieldError::Empty));
    assert_eq!(parse_millis("   "), Err(FieldError::Empty));
    assert_eq!(parse_millis("1.5"), Err(FieldError::NotANumber));
    assert_eq!(parse_millis("-5"), Err(FieldError::Negative));
    assert_eq!(parse_millis("\u{2212}۵"), Err(FieldError::Negative));
    assert_eq!(parse_millis("12ms"), Err(FieldError::NotANumber));
    assert_eq!(
        parse_millis("99999999999999999999999"),
        Ok(u64::MAX),
        "too long for u64 is still a number, out of range for the lab"
    );
}

#[test]
fn a_row_answered_by_the_store_shows_the_balance_right_after_its_own_grant() {
    // With no processing time the consumer works off the whole queue in one
    // instant; each row still shows the balance its own grant left.
    let mut lab = instant_lab();
    lab.dispatch(Action::Set(Setting::ProcessingMs(0))).unwrap();
    lab.dispatch(Action::Stress {
        account_id: "a".into(),
        points: 5,
        count: 3,
        duplicate_percent: 0,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    let balances: Vec<i32> = lab
        .state()
        .timeline()
        .iter()
        .map(|r| r.balance_after)
        .collect();
    assert_eq!(balances, vec![5, 10, 15]);
    let row = &lab.state().timeline()[0];
    assert_eq!(row.caller_error(), None);
    assert_eq!(row.caller_receipt().map(|r| r.balance), Some(5));
}

#[test]
fn a_timed_out_row_names_the_timeout_as_what_the_caller_got() {
    let mut lab = instant_lab();
    send(&mut lab, 100, "k", true);
    let row = lab.state().timeline().last().unwrap();
    assert_eq!(row.caller_error(), Some(&GrantError::Timeout));
    assert_eq!(row.caller_receipt(), None);
}

#[test]
fn a_lost_acknowledgement_has_its_row_from_the_moment_it_is_sent() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Send {
        grant: GrantPoints::new("order-1042", "account-7", 100),
        lose_acknowledgement: true,
    })
    .unwrap();
    // Sent: nothing is known yet but that it waits.
    let row = &lab.state().timeline()[0];
    assert_eq!(row.outcome(), Outcome::Pending);
    assert_eq!(row.outcome().code(), "pending");
    assert!(!row.balance_known() && row.answered_at.is_none() && row.caller.is_none());
    // The store applied it at 100 ms; its caller still waits, and the row says
    // what the store did.
    lab.dispatch(Action::Wait { ms: 200 }).unwrap();
    let rows = lab.state().timeline();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].outcome(), Outcome::Pending);
    assert!(rows[0].balance_known());
    assert_eq!(rows[0].balance_after, 100);
    assert!(rows[0].handled.as_ref().unwrap().applied());
    assert_eq!(lab.state().in_flight(), 1);
    // At the deadline its caller gives up: the same row, now answered.
    lab.skip_to_idle().unwrap();
    let rows = lab.state().timeline();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].outcome(), Outcome::TimeoutApplied);
    assert_eq!(rows[0].answered_at, Some(DEFAULT_CALLER_TIMEOUT_MS));
    assert_eq!(lab.state().in_flight(), 0);
}

#[test]
fn a_stress_run_reports_its_progress_until_every_caller_has_heard_back() {
    let mut lab = instant_lab();
    assert_eq!(lab.state().stress_progress(), None);
    let stress = Action::Stress {
        account_id: "account-7".into(),
        points: 1,
        count: 60,
        duplicate_percent: 30,
    };
    lab.dispatch(stress.clone()).unwrap();
    let at_start = lab.state().stress_progress().unwrap();
    assert_eq!((at_start.answered, at_start.total), (0, 60));
    lab.dispatch(Action::Wait { ms: 1_000 }).unwrap();
    let later = lab.state().stress_progress().unwrap();
    let answered = lab
        .state()
        .timeline()
        .iter()
        .filter(|r| r.answered())
        .count() as u32;
    assert!(later.answered > 0 && later.answered < 60, "{later:?}");
    assert_eq!(later.answered, answered);
    assert_eq!(lab.state().answered(), answered as usize);
    lab.skip_to_idle().unwrap();
    assert_eq!(lab.state().stress_progress(), None, "done");
    // A second run counts only its own callers.
    send(&mut lab, 100, "order-1042", false);
    lab.dispatch(stress).unwrap();
    let second = lab.state().stress_progress().unwrap();
    assert_eq!((second.answered, second.total), (0, 60));
}

#[test]
fn a_retention_out_of_range_is_refused_with_the_hours_as_typed() {
    use idempotency_lab::lab::{LabError, MAX_RETENTION_HOURS};
    let mut lab = Lab::new();
    for hours in [0, MAX_RETENTION_HOURS + 1, u32::MAX] {
        assert_eq!(
            lab.dispatch(Action::Set(Setting::RetentionHours(hours))),
            Err(LabError::Setting(SettingError::Retention(hours.into())))
        );
    }
    assert!(lab.history().actions.is_empty(), "nothing recorded");
    for hours in [1, MAX_RETENTION_HOURS] {
        assert_eq!(
            lab.dispatch(Action::Set(Setting::RetentionHours(hours))),
            Ok(())
        );
        assert_eq!(lab.state().settings().retention_hours, hours);
    }
}

#[test]
fn the_fresh_retry_said_beside_the_button_is_the_one_sent() {
    let mut lab = instant_lab();
    assert_eq!(
        lab.state().fresh_retry_target(),
        None,
        "nothing to retry yet"
    );
    send(&mut lab, 100, "order-1042", true);
    for n in 1..=2 {
        let said = lab.state().fresh_retry_target().unwrap();
        assert_eq!(said.key, format!("order-1042-fresh-{n}"));
        lab.dispatch(Action::RetryFresh {
            lose_acknowledgement: false,
        })
        .unwrap();
        lab.skip_to_idle().unwrap();
        let sent = &lab.state().timeline().last().unwrap().attempt.grant;
        assert_eq!(*sent, said);
    }
    let texts = idempotency_lab::i18n::Lang::Fa.texts();
    assert!(texts
        .fresh_sends("order-1042-fresh-3")
        .contains("order-1042-fresh-3"));
}
