#![cfg(not(target_arch = "wasm32"))]
//! Property tests of at-least-once delivery: random histories of sends and
//! retries, messages delivered twice, acknowledgement before or after the work,
//! crashes at every point, restarts, one or two processes, on the durable store
//! written in one transaction.
//!
//! (a) No operation is granted twice, however often its message is delivered.
//! (b) Acknowledged after the work, no message that reached a queue is lost,
//!     nor any copy the queue made: it was handled, or the queue delivered it
//!     again (and that copy was handled, or delivered again in turn).
//!
//! The number of cases comes from `PROPTEST_CASES` (default 10,000).

mod common;

use std::collections::{BTreeMap, BTreeSet};

use idempotency_lab::lab::{Action, Invariant, Lab, Setting};
use idempotency_lab::sim::{Acknowledge, AttemptId, Happening, Routing, StoreKind};
use idempotency_lab::{CrashPoint, GrantPoints, StoreStep};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

const KEYS: [&str; 3] = ["k0", "k1", "k2"];

fn step() -> impl Strategy<Value = Action> {
    let send = (0..KEYS.len(), any::<bool>()).prop_map(|(k, lose)| Action::Send {
        grant: GrantPoints::new(KEYS[k], "alice", 100),
        lose_acknowledgement: lose,
    });
    let retry = Just(Action::RetrySame {
        lose_acknowledgement: false,
    });
    let wait = prop_oneof![Just(10u64), Just(150), Just(1_000)].prop_map(|ms| Action::Wait { ms });
    let work = prop_oneof![Just(0u64), Just(100), Just(1_000)]
        .prop_map(|ms| Action::Set(Setting::ProcessingMs(ms)));
    let crash = proptest::sample::select(&CrashPoint::ALL[..])
        .prop_map(|p| Action::SetCrashPoint { point: Some(p) });
    let routing = prop_oneof![Just(Routing::RoundRobin), Just(Routing::KeyHash)]
        .prop_map(|routing| Action::Set(Setting::Routing(routing)));
    prop_oneof![
        5 => send,
        3 => retry,
        3 => wait,
        1 => work,
        2 => crash,
        2 => Just(Action::SetRedeliver { on: true }),
        1 => Just(Action::Restart),
        1 => Just(Action::Set(Setting::Paused(true))),
        1 => Just(Action::Set(Setting::Paused(false))),
        1 => (1..=2u8).prop_map(|count| Action::Set(Setting::Processes(count))),
        1 => routing,
        // Enough to fill a queue, so that copies wait for room too.
        1 => Just(Action::Burst {
            account_id: "bob".into(),
            points: 1,
            count: 17,
        }),
    ]
}

fn history() -> impl Strategy<Value = (Acknowledge, Vec<Action>)> {
    (
        proptest::sample::select(&Acknowledge::ALL[..]),
        vec(step(), 1..30),
    )
}

fn run(ack: Acknowledge, actions: &[Action]) -> Lab {
    let mut lab = Lab::new();
    let setup = [
        Action::Set(Setting::Store(StoreKind::OneTransaction)),
        Action::Set(Setting::Acknowledge(ack)),
    ];
    for action in setup.iter().chain(actions) {
        let _ = lab.dispatch(action.clone());
    }
    lab.dispatch(Action::Set(Setting::Paused(false))).unwrap();
    lab.skip_to_idle().unwrap();
    lab
}

fn check(ack: Acknowledge, lab: &Lab) -> Result<(), TestCaseError> {
    let log = lab.state().world().events();
    let mut key_of: BTreeMap<AttemptId, String> = BTreeMap::new();
    let mut commits: BTreeMap<String, u32> = BTreeMap::new();
    let mut queued: BTreeSet<AttemptId> = BTreeSet::new();
    let mut handled: BTreeSet<AttemptId> = BTreeSet::new();
    let mut copied: BTreeSet<AttemptId> = BTreeSet::new();
    let mut copies: BTreeSet<AttemptId> = BTreeSet::new();
    for event in log.iter() {
        match &event.what {
            Happening::Sent {
                attempt,
                grant,
                redelivery_of,
                ..
            } => {
                key_of.insert(*attempt, grant.key.clone());
                if let Some(original) = redelivery_of {
                    prop_assert_eq!(&key_of[original], &grant.key);
                    copied.insert(*original);
                    copies.insert(*attempt);
                }
            }
            Happening::Queued { attempt } => {
                queued.insert(*attempt);
            }
            Happening::Handled { attempt, .. } => {
                handled.insert(*attempt);
            }
            Happening::Store {
                attempt,
                step: StoreStep::Committed,
                ..
            } => *commits.entry(key_of[attempt].clone()).or_default() += 1,
            _ => {}
        }
    }
    for (key, n) in &commits {
        prop_assert_eq!(*n, 1, "{} committed {} times", key, n);
    }
    prop_assert!(lab.state().invariants().holds(Invariant::AtMostOnce));
    if ack == Acknowledge::AfterWork {
        // A caller's message once it reached a queue, and a copy of the
        // queue's own from the moment it exists (nobody else would resend it).
        for attempt in queued.union(&copies) {
            prop_assert!(
                handled.contains(attempt) || copied.contains(attempt),
                "#{} reached a queue and was neither handled nor delivered again",
                attempt
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn redelivery_never_grants_twice_and_late_acknowledgement_loses_nothing(
        (ack, actions) in history()
    ) {
        check(ack, &run(ack, &actions))?;
    }
}

/// Acknowledged before the work, a crash does lose a message: (b) is about
/// the acknowledgement, not about histories too tame to lose one.
#[test]
fn acknowledged_before_the_work_a_crash_loses_what_was_in_hand() {
    let actions = [
        Action::SetCrashPoint {
            point: Some(CrashPoint::BeforeWrites),
        },
        Action::Send {
            grant: GrantPoints::new("k0", "alice", 100),
            lose_acknowledgement: false,
        },
    ];
    let lab = run(Acknowledge::BeforeWork, &actions);
    assert!(check(Acknowledge::AfterWork, &lab).is_err());
    assert!(check(
        Acknowledge::AfterWork,
        &run(Acknowledge::AfterWork, &actions)
    )
    .is_ok());
}
