//! A caller that retries by itself: bounded attempts, exponential backoff with
//! jitter from a recorded seed, only after what may go away, and a lookup by
//! key when the attempts run out with the outcome unknown.

mod common;

use common::{idle, lab_of, row, send};
use idempotency_lab::lab::{Action, LabError, MarkerKind, Origin, Outcome, Setting, SettingError};
use idempotency_lab::{GrantPoints, InFlightPolicy, RetryPolicy};

fn retries(max_attempts: u32) -> Action {
    Action::Set(Setting::AutoRetry(Some(RetryPolicy {
        max_attempts,
        seed: 7,
    })))
}

fn backoffs(lab: &idempotency_lab::lab::Lab) -> Vec<(u64, u64, u32)> {
    lab.state()
        .markers()
        .iter()
        .filter_map(|m| match m.kind {
            MarkerKind::Backoff {
                attempt,
                wait,
                retry,
            } => Some((attempt, wait, retry)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_lost_acknowledgement_is_retried_after_a_backoff_and_the_receipt_comes_back() {
    let lab = idle(lab_of(&[
        retries(3),
        Action::Send {
            grant: GrantPoints::new("order-1042", "account-7", 100),
            lose_acknowledgement: true,
        },
    ]));
    assert_eq!(row(&lab, 1).outcome(), Outcome::TimeoutApplied);
    let retry = row(&lab, 2);
    assert_eq!(retry.attempt.origin, Origin::AutoRetry);
    assert_eq!(retry.attempt.retry_of, Some(1));
    assert_eq!(retry.outcome(), Outcome::Replayed);
    let waits = backoffs(&lab);
    assert_eq!(waits.len(), 1);
    let (low, high) = RetryPolicy::range(1);
    assert!((low..=high).contains(&waits[0].1), "{waits:?}");
    // Sent exactly one backoff after the timeout.
    assert_eq!(retry.attempt.sent_at, 3_000 + waits[0].1);
    assert_eq!(lab.state().store().balance("account-7"), 100);
}

#[test]
fn out_of_attempts_the_caller_looks_the_operation_up() {
    // Work slower than the deadline: every attempt times out.
    let lab = idle(lab_of(&[
        retries(3),
        Action::Set(Setting::CallerTimeoutMs(100)),
        Action::Set(Setting::ProcessingMs(2_000)),
        send("order-1042", 100),
    ]));
    let rows: Vec<_> = lab
        .state()
        .timeline()
        .iter()
        .map(|r| r.attempt.id)
        .collect();
    assert_eq!(rows.len(), 3, "three attempts, no more");
    let last = row(&lab, 3);
    assert_eq!(last.outcome(), Outcome::GaveUpLookedUp);
    // Looked up while the first was still at work: not found.
    assert_eq!(last.looked_up.as_ref().unwrap().receipt, None);
    assert_eq!(
        backoffs(&lab).iter().map(|b| b.2).collect::<Vec<_>>(),
        vec![1, 2]
    );
    // What the chart marks: the last caller's waits, by retry.
    let waits: Vec<(u32, u64)> = backoffs(&lab).iter().map(|b| (b.2, b.1)).collect();
    assert_eq!(lab.state().last_waits(), waits.as_slice());
    // With work that ends before the last deadline, the lookup finds the receipt.
    let lab = idle(lab_of(&[
        retries(4),
        Action::Set(Setting::CallerTimeoutMs(100)),
        Action::Set(Setting::ProcessingMs(300)),
        send("order-1042", 100),
    ]));
    let last = lab.state().timeline().last().unwrap();
    if last.outcome() == Outcome::GaveUpLookedUp {
        let found = last.looked_up.as_ref().unwrap().receipt.as_ref();
        assert_eq!(found.map(|r| r.points), Some(100));
    } else {
        assert_eq!(last.outcome(), Outcome::Replayed);
    }
    assert_eq!(lab.state().store().balance("account-7"), 100);
}

#[test]
fn a_changed_payload_is_never_retried() {
    let mut lab = idle(lab_of(&[retries(5), send("order-1042", 100)]));
    lab.dispatch(send("order-1042", 200)).unwrap();
    let lab = idle(lab);
    assert_eq!(lab.state().timeline().len(), 2);
    assert_eq!(row(&lab, 2).outcome(), Outcome::Rejected);
    assert!(backoffs(&lab).is_empty());
}

#[test]
fn in_progress_is_retried_until_the_receipt_is_there() {
    let lab = idle(lab_of(&[
        retries(6),
        Action::Set(Setting::InFlight(InFlightPolicy::RetryLater)),
        Action::Set(Setting::ProcessingMs(500)),
        send("order-1042", 100),
        send("order-1042", 100),
    ]));
    assert_eq!(row(&lab, 2).outcome(), Outcome::InProgress);
    let last = lab.state().timeline().last().unwrap();
    assert_eq!(last.attempt.origin, Origin::AutoRetry);
    assert_eq!(last.outcome(), Outcome::Replayed);
    assert_eq!(lab.state().store().balance("account-7"), 100);
}

#[test]
fn the_backoff_grows_is_jittered_from_the_seed_and_replays_the_same() {
    for n in 1..=10 {
        let (low, high) = RetryPolicy::range(n);
        assert!(low <= high && high <= idempotency_lab::MAX_BACKOFF_MS);
        if n > 1 {
            assert!(high >= RetryPolicy::range(n - 1).1, "never shrinks");
        }
        for first in 1..50 {
            let wait = RetryPolicy {
                max_attempts: 10,
                seed: 3,
            }
            .backoff(first, n);
            assert!((low..=high).contains(&wait));
        }
    }
    let waits = |seed| -> Vec<u64> {
        (1..40)
            .map(|first| {
                RetryPolicy {
                    max_attempts: 5,
                    seed,
                }
                .backoff(first, 3)
            })
            .collect()
    };
    assert_eq!(waits(1), waits(1));
    assert_ne!(waits(1), waits(2), "the seed draws the jitter");
    assert!(
        waits(1)
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
            .len()
            > 10
    );
}

#[test]
fn attempts_out_of_range_are_refused() {
    let mut lab = idempotency_lab::lab::Lab::new();
    for n in [0, 11, u32::MAX] {
        assert_eq!(
            lab.dispatch(retries(n)),
            Err(LabError::Setting(SettingError::MaxAttempts(n.into())))
        );
    }
    assert!(lab.history().actions.is_empty());
    assert!(lab.dispatch(retries(10)).is_ok());
    assert!(lab.dispatch(Action::Set(Setting::AutoRetry(None))).is_ok());
    assert_eq!(lab.state().settings().auto_retry, None);
}

#[test]
fn each_step_doubles_from_200_ms_and_the_jitter_covers_its_upper_half() {
    assert_eq!(RetryPolicy::range(1), (100, 200));
    assert_eq!(RetryPolicy::range(2), (200, 400));
    assert_eq!(RetryPolicy::range(3), (400, 800));
    // Capped at 5 s, however many retries.
    assert_eq!(RetryPolicy::range(6), (2_500, 5_000));
    assert_eq!(RetryPolicy::range(10), (2_500, 5_000));
    // Every seed gives its own wait: no bit of the seed is lost in the mixing.
    let waits: std::collections::BTreeSet<u64> = (0..64)
        .map(|seed| {
            RetryPolicy {
                max_attempts: 5,
                seed,
            }
            .backoff(1, 3)
        })
        .collect();
    assert!(waits.len() > 40, "only {} distinct waits", waits.len());
}
