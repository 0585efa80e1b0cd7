#![cfg(not(target_arch = "wasm32"))]
//! Property test of the automatic retry policy, over random histories of sends,
//! changed payloads, bad input, lost acknowledgements, slow work and short
//! deadlines, in-progress records, restarts and every store:
//!
//! - a retry follows only an answer that may go away (a timeout, in progress),
//!   never a changed payload, bad input or anything else;
//! - a caller makes at most its policy's attempts, each retry after a backoff
//!   within the policy's range;
//! - every caller ends: with an answer, with an error not worth retrying, or,
//!   out of attempts with a retryable one, with a lookup of its operation.
//!
//! The number of cases comes from `PROPTEST_CASES` (default 10,000).

mod common;

use std::collections::BTreeMap;

use idempotency_lab::lab::{Action, Lab, Setting};
use idempotency_lab::sim::{AttemptId, Happening, StoreKind};
use idempotency_lab::{GrantError, GrantPoints, InFlightPolicy, RetryPolicy};
use proptest::collection::vec;
use proptest::prelude::*;

fn step() -> impl Strategy<Value = Action> {
    let send = (
        0..3usize,
        prop_oneof![Just(100), Just(25), Just(0)],
        any::<bool>(),
    )
        .prop_map(|(k, points, lose)| Action::Send {
            grant: GrantPoints::new(format!("k{k}"), "alice", points),
            lose_acknowledgement: lose,
        });
    let retry = any::<bool>().prop_map(|lose| Action::RetrySame {
        lose_acknowledgement: lose,
    });
    let wait = prop_oneof![Just(50u64), Just(500), Just(3_000)].prop_map(|ms| Action::Wait { ms });
    let work = prop_oneof![Just(0u64), Just(150), Just(1_500)]
        .prop_map(|ms| Action::Set(Setting::ProcessingMs(ms)));
    let deadline = prop_oneof![Just(100u64), Just(3_000)]
        .prop_map(|ms| Action::Set(Setting::CallerTimeoutMs(ms)));
    let policy = proptest::sample::select(&InFlightPolicy::ALL[..])
        .prop_map(|policy| Action::Set(Setting::InFlight(policy)));
    let store = proptest::sample::select(&StoreKind::ALL[..])
        .prop_map(|kind| Action::Set(Setting::Store(kind)));
    prop_oneof![
        5 => send,
        3 => retry,
        3 => wait,
        2 => work,
        2 => deadline,
        1 => policy,
        1 => store,
        1 => Just(Action::Restart),
        1 => Just(Action::Set(Setting::Paused(true))),
        1 => Just(Action::Set(Setting::Paused(false))),
    ]
}

fn run(policy: RetryPolicy, actions: &[Action]) -> Lab {
    let mut lab = Lab::new();
    let _ = lab.dispatch(Action::Set(Setting::AutoRetry(Some(policy))));
    for action in actions {
        let _ = lab.dispatch(action.clone());
    }
    lab.dispatch(Action::Set(Setting::Paused(false))).unwrap();
    lab.skip_to_idle().unwrap();
    lab
}

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn retries_follow_only_what_may_go_away_are_bounded_and_always_end(
        max_attempts in 1..=5u32,
        seed in any::<u64>(),
        actions in vec(step(), 1..25),
    ) {
        let policy = RetryPolicy { max_attempts, seed };
        let lab = run(policy, &actions);
        let log = lab.state().world().events();
        // For each attempt: the caller's first attempt, and its place in the chain.
        let mut chain: BTreeMap<AttemptId, (AttemptId, u32)> = BTreeMap::new();
        let mut heard: BTreeMap<AttemptId, Result<(), GrantError>> = BTreeMap::new();
        let mut backoff: BTreeMap<AttemptId, (u64, u32, u64)> = BTreeMap::new();
        let mut looked_up: BTreeMap<AttemptId, u64> = BTreeMap::new();
        let mut retried: BTreeMap<AttemptId, AttemptId> = BTreeMap::new();
        for event in log.iter() {
            match &event.what {
                Happening::Sent { attempt, retry_of, redelivery_of: None, .. } => {
                    let place = match retry_of {
                        None => (*attempt, 1),
                        Some(prev) => {
                            retried.insert(*prev, *attempt);
                            let (first, n) = chain[prev];
                            // Only after what may go away, and after its backoff.
                            let before = heard.get(prev).cloned();
                            prop_assert!(
                                matches!(before, Some(Err(ref e)) if RetryPolicy::retries(e)),
                                "#{} retried #{} after {:?}", attempt, prev, before
                            );
                            let (at, retry, wait) = backoff[prev];
                            prop_assert_eq!(retry, n);
                            let (low, high) = RetryPolicy::range(n);
                            prop_assert!((low..=high).contains(&wait));
                            prop_assert_eq!(event.at, at + wait);
                            (first, n + 1)
                        }
                    };
                    prop_assert!(place.1 <= max_attempts, "more attempts than the policy allows");
                    chain.insert(*attempt, place);
                }
                Happening::Answered { attempt, answer, .. } => {
                    heard.insert(*attempt, answer.clone().map(|_| ()));
                }
                Happening::TimedOut { attempt, .. } => {
                    heard.insert(*attempt, Err(GrantError::Timeout));
                }
                Happening::Backoff { attempt, wait, retry } => {
                    backoff.insert(*attempt, (event.at, *retry, *wait));
                }
                Happening::LookedUp { attempt, .. } => {
                    looked_up.insert(*attempt, event.at);
                }
                _ => {}
            }
        }
        // Every caller ended, and ended as the policy says.
        for (attempt, (_, n)) in &chain {
            let Some(answer) = heard.get(attempt) else {
                return Err(TestCaseError::fail(format!("#{attempt} never heard back")));
            };
            let next = retried.get(attempt);
            match answer {
                Err(e) if RetryPolicy::retries(e) => {
                    if *n < max_attempts {
                        prop_assert!(next.is_some(), "#{} not retried after {:?}", attempt, e);
                    } else {
                        prop_assert!(looked_up.contains_key(attempt), "#{} gave up without a lookup", attempt);
                    }
                }
                _ => {
                    prop_assert!(next.is_none() && !looked_up.contains_key(attempt));
                }
            }
        }
    }
}
