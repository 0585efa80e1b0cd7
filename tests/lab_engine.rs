#![cfg(not(target_arch = "wasm32"))]
//! The lab engine: the article's walk, the queue, and replay of a history.

use idempotency_lab::lab::{
    parse_points, read_request, Action, FieldError, History, Lab, LabError, Origin, Outcome,
};
use idempotency_lab::{GrantError, GrantPoints, PointWorker};

fn send(lab: &mut Lab, points: i32, key: &str, lose: bool) {
    lab.dispatch(Action::Send {
        grant: GrantPoints::new(key, "account-7", points),
        lose_acknowledgement: lose,
    })
    .unwrap();
    lab.drain();
}

fn last_outcome(lab: &Lab) -> Outcome {
    lab.state().timeline().last().unwrap().outcome()
}

#[test]
fn the_article_walk_gives_timeout_then_receipt_then_rejection_then_new_grant() {
    let mut lab = Lab::new();
    send(&mut lab, 100, "order-1042", true);
    assert_eq!(last_outcome(&lab), Outcome::TimeoutApplied);
    assert_eq!(lab.state().store().balance("account-7"), 100);

    lab.dispatch(Action::RetrySame {
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.drain();
    let row = lab.state().timeline().last().unwrap();
    assert_eq!(row.outcome(), Outcome::Replayed);
    assert_eq!(row.caller_receipt().unwrap().balance, 100);
    assert_eq!(row.attempt.attempt_of_key, 2);
    assert_eq!(row.attempt.origin, Origin::RetrySame);

    send(&mut lab, 200, "order-1042", false);
    let row = lab.state().timeline().last().unwrap();
    assert_eq!(row.outcome(), Outcome::Rejected);
    assert!(matches!(
        row.store_error(),
        Some(GrantError::PayloadMismatch { .. })
    ));
    assert_eq!(row.balance_after, 100);

    lab.dispatch(Action::RetryFresh {
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.drain();
    let row = lab.state().timeline().last().unwrap();
    assert_eq!(row.outcome(), Outcome::Applied);
    assert_eq!(row.attempt.grant.key, "order-1042-retry-2");
    assert_eq!(
        row.attempt.grant.points, 100,
        "a retry repeats the last request the store did not refuse"
    );
    assert_eq!(lab.state().store().balance("account-7"), 200);
}

#[test]
fn a_receipt_keeps_its_balance_while_the_account_moves_on() {
    let mut lab = Lab::new();
    send(&mut lab, 100, "order-1042", false);
    send(&mut lab, 25, "order-1043", false);
    send(&mut lab, 100, "order-1042", false);
    let row = lab.state().timeline().last().unwrap();
    assert_eq!(row.outcome(), Outcome::Replayed);
    assert_eq!(row.caller_receipt().unwrap().balance, 100);
    assert_eq!(row.balance_after, 125);
    lab.dispatch(Action::CheckBalance {
        account_id: "account-7".into(),
    })
    .unwrap();
    assert_eq!(lab.state().last_read().unwrap().balance, 125);
}

#[test]
fn a_retry_while_the_request_is_still_queued_repeats_it() {
    let mut lab = Lab::new();
    send(&mut lab, 100, "a", false);
    lab.dispatch(Action::SetPaused { paused: true }).unwrap();
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
    lab.dispatch(Action::SetPaused { paused: false }).unwrap();
    lab.drain();
    let outcomes: Vec<Outcome> = lab.state().timeline().iter().map(|r| r.outcome()).collect();
    assert_eq!(outcomes.last(), Some(&Outcome::Replayed));
    assert_eq!(lab.state().store().balance("account-7"), 100 + 7 + 3);
}

#[test]
fn lost_acknowledgement_on_a_repeat_is_a_plain_timeout() {
    let mut lab = Lab::new();
    send(&mut lab, 100, "k", false);
    send(&mut lab, 100, "k", true);
    assert_eq!(last_outcome(&lab), Outcome::Timeout);
    assert_eq!(lab.state().store().balance("account-7"), 100);
}

#[test]
fn retry_before_any_send_is_refused_and_not_recorded() {
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
    assert_eq!(
        lab.dispatch(Action::Advance { steps: 1 }),
        Err(LabError::Idle)
    );
    assert!(lab.history().actions.is_empty());
}

#[test]
fn a_paused_consumer_fills_the_queue_then_makes_producers_wait_and_loses_nothing() {
    let mut lab = Lab::new();
    lab.dispatch(Action::SetPaused { paused: true }).unwrap();
    lab.dispatch(Action::Burst {
        account_id: "a".into(),
        points: 1,
        count: 40,
    })
    .unwrap();
    lab.drain();
    assert_eq!(lab.state().queue().len(), PointWorker::CAPACITY);
    assert_eq!(lab.state().waiting().len(), 40 - PointWorker::CAPACITY);
    assert!(lab.state().timeline().is_empty());

    lab.dispatch(Action::SetPaused { paused: false }).unwrap();
    lab.dispatch(Action::Advance { steps: 1 }).unwrap();
    assert!(lab.state().in_hand().is_some());
    assert_eq!(
        lab.state().queue().len(),
        PointWorker::CAPACITY,
        "a waiting producer took the freed slot"
    );
    assert_eq!(lab.state().waiting().len(), 40 - PointWorker::CAPACITY - 1);

    lab.drain();
    let ids: Vec<u64> = lab
        .state()
        .timeline()
        .iter()
        .map(|r| r.attempt.id)
        .collect();
    assert_eq!(
        ids,
        (1..=40).collect::<Vec<_>>(),
        "all answered, in sending order"
    );
    assert_eq!(lab.state().store().balance("a"), 40);
    assert_eq!(lab.state().in_flight(), 0);
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
}

#[test]
fn replaying_the_history_rebuilds_the_same_lab_and_step_back_is_a_prefix() {
    let mut lab = Lab::new();
    send(&mut lab, 100, "order-1042", true);
    lab.dispatch(Action::SetPaused { paused: true }).unwrap();
    lab.dispatch(Action::Burst {
        account_id: "account-7".into(),
        points: 5,
        count: 20,
    })
    .unwrap();
    lab.dispatch(Action::SetPaused { paused: false }).unwrap();
    lab.dispatch(Action::Advance { steps: 3 }).unwrap();
    lab.dispatch(Action::Advance { steps: 2 }).unwrap();
    lab.dispatch(Action::RetrySame {
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.drain();

    let json = serde_json::to_string(lab.history()).unwrap();
    let history: History = serde_json::from_str(&json).unwrap();
    let copy = Lab::replay(&history).unwrap();
    assert_eq!(copy.state().timeline(), lab.state().timeline());
    assert_eq!(
        copy.state().store().receipts(),
        lab.state().store().receipts()
    );
    assert_eq!(copy.history(), lab.history());

    let first = lab.rewound(1);
    assert_eq!(first.state().in_flight(), 1);
    assert!(first.state().timeline().is_empty());
    assert_eq!(lab.rewound(0).state().store().balance("account-7"), 0);
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

#[test]
fn what_a_retry_resends_does_not_depend_on_how_far_the_consumer_got() {
    for pause in [false, true] {
        let mut lab = Lab::new();
        lab.dispatch(Action::SetPaused { paused: pause }).unwrap();
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
        lab.drain();
        assert_eq!(
            lab.state().retry_target(),
            Some(GrantPoints::new("k", "account-7", 100)),
            "neither the changed payload nor the invalid key is a retry target (paused: {pause})"
        );
    }
}

#[test]
fn a_fresh_key_stays_within_the_form_limit() {
    let mut lab = Lab::new();
    let long_key = "k".repeat(idempotency_lab::lab::MAX_FIELD_CHARS);
    send(&mut lab, 1, &long_key, false);
    for _ in 0..3 {
        lab.dispatch(Action::RetryFresh {
            lose_acknowledgement: false,
        })
        .unwrap();
    }
    lab.drain();
    let keys: Vec<&str> = lab
        .state()
        .timeline()
        .iter()
        .map(|r| r.attempt.grant.key.as_str())
        .collect();
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
    let mut lab = Lab::new();
    lab.dispatch(Action::SetPaused { paused: true }).unwrap();
    lab.dispatch(Action::Burst {
        account_id: "a".into(),
        points: 2,
        count: 25,
    })
    .unwrap();
    lab.dispatch(Action::SetPaused { paused: false }).unwrap();
    lab.dispatch(Action::Advance { steps: 5 }).unwrap();
    lab.dispatch(Action::CheckBalance {
        account_id: "a".into(),
    })
    .unwrap();
    lab.dispatch(Action::SetPaused { paused: true }).unwrap();
    let copy = Lab::replay(lab.history()).unwrap();
    let ids = |q: &std::collections::VecDeque<idempotency_lab::lab::Attempt>| {
        q.iter().map(|a| a.id).collect::<Vec<_>>()
    };
    let (a, b) = (lab.state(), copy.state());
    assert_eq!(ids(a.queue()), ids(b.queue()));
    assert_eq!(ids(a.waiting()), ids(b.waiting()));
    assert_eq!(a.in_hand(), b.in_hand());
    assert!(a.in_hand().is_some(), "stopped while holding a delivery");
    assert_eq!(a.paused(), b.paused());
    assert_eq!(a.last_read(), b.last_read());
    assert_eq!(a.last_read().unwrap().balance, 4);
    assert_eq!(a.timeline(), b.timeline());
}
