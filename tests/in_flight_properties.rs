#![cfg(not(target_arch = "wasm32"))]
//! Property tests of in-progress records: random histories of sends and
//! retries of a few operations, slow or quick work, short or long caller
//! deadlines, lost acknowledgements, restarts, one or two processes, routing,
//! and either policy (wait for the first, or retry later).
//!
//! With a record kept in the store every process shares (or one process with
//! its memory, and no restart in between), no operation is granted twice, even
//! by a store written balance first that races without one. And a duplicate is
//! only ever told "in progress" while the attempt holding the record really is
//! in flight: sent, and not yet handled, nor lost with its process.
//!
//! The number of cases comes from `PROPTEST_CASES` (default 10,000).

mod common;

use std::collections::{BTreeMap, BTreeSet};

use idempotency_lab::lab::{Action, Invariant, Lab, Setting};
use idempotency_lab::sim::{AttemptId, Happening, Millis, Routing, StoreKind};
use idempotency_lab::{GrantError, GrantPoints, InFlightPolicy, StoreStep, Table};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

const KEYS: [&str; 3] = ["k0", "k1", "k2"];
const ACCOUNT: &str = "alice";

/// Where records are kept so that every attempt of an operation meets them.
#[derive(Debug, Clone, Copy)]
enum Setup {
    /// A durable store, one or two processes; restarts allowed (records of a
    /// dead process lapse, and its work in hand had written nothing).
    Durable(StoreKind, u8),
    /// One process in memory, and no restart (which would forget the receipts).
    Memory,
}

fn setup() -> impl Strategy<Value = Setup> {
    prop_oneof![
        3 => (
            proptest::sample::select(&[
                StoreKind::BalanceFirst,
                StoreKind::ReceiptFirst,
                StoreKind::OneTransaction,
            ][..]),
            1..=2u8
        )
            .prop_map(|(kind, count)| Setup::Durable(kind, count)),
        1 => Just(Setup::Memory),
    ]
}

fn step(restarts: bool) -> impl Strategy<Value = Action> {
    let send = (0..KEYS.len(), any::<bool>()).prop_map(|(k, lose)| Action::Send {
        grant: GrantPoints::new(KEYS[k], ACCOUNT, 100),
        lose_acknowledgement: lose,
    });
    let retry = any::<bool>().prop_map(|lose| Action::RetrySame {
        lose_acknowledgement: lose,
    });
    let wait = prop_oneof![Just(10u64), Just(150), Just(1_000), Just(5_000)]
        .prop_map(|ms| Action::Wait { ms });
    let work = prop_oneof![Just(0u64), Just(100), Just(1_000), Just(4_000)]
        .prop_map(|ms| Action::Set(Setting::ProcessingMs(ms)));
    let deadline = prop_oneof![Just(200u64), Just(3_000)]
        .prop_map(|ms| Action::Set(Setting::CallerTimeoutMs(ms)));
    let routing = prop_oneof![
        Just(Routing::RoundRobin),
        Just(Routing::KeyHash),
        Just(Routing::Only(2)),
    ]
    .prop_map(|routing| Action::Set(Setting::Routing(routing)));
    let policy = prop_oneof![Just(InFlightPolicy::Wait), Just(InFlightPolicy::RetryLater)]
        .prop_map(|policy| Action::Set(Setting::InFlight(policy)));
    let restart = if restarts {
        Just(Action::Restart).boxed()
    } else {
        Just(Action::Wait { ms: 1 }).boxed()
    };
    prop_oneof![
        6 => send,
        6 => retry,
        3 => wait,
        2 => work,
        1 => deadline,
        1 => routing,
        1 => policy,
        1 => restart,
    ]
}

fn history() -> impl Strategy<Value = (Setup, InFlightPolicy, Vec<Action>)> {
    (
        setup(),
        prop_oneof![Just(InFlightPolicy::Wait), Just(InFlightPolicy::RetryLater)],
    )
        .prop_flat_map(|(setup, policy)| {
            let restarts = matches!(setup, Setup::Durable(..));
            (Just(setup), Just(policy), vec(step(restarts), 1..30))
        })
}

fn run(setup: Setup, policy: InFlightPolicy, actions: &[Action]) -> Lab {
    let mut lab = Lab::new();
    let mut all = vec![Action::Set(Setting::InFlight(policy))];
    if let Setup::Durable(kind, count) = setup {
        all.push(Action::Set(Setting::Store(kind)));
        all.push(Action::Set(Setting::Processes(count)));
    }
    all.extend_from_slice(actions);
    for action in &all {
        // A retry before any send is refused; everything else is accepted.
        let _ = lab.dispatch(action.clone());
    }
    lab.skip_to_idle().unwrap();
    lab
}

fn check(lab: &Lab) -> Result<(), TestCaseError> {
    let log = lab.state().world().events();
    // Read straight from the store's steps: each operation's points added once.
    let mut grants: BTreeMap<String, u32> = BTreeMap::new();
    let mut key_of: BTreeMap<AttemptId, String> = BTreeMap::new();
    let mut sent: BTreeSet<AttemptId> = BTreeSet::new();
    let mut finished: BTreeMap<AttemptId, Millis> = BTreeMap::new();
    let mut process_of: BTreeMap<AttemptId, u32> = BTreeMap::new();
    let mut ended: BTreeMap<u32, Millis> = BTreeMap::new();
    let mut told_later: BTreeSet<AttemptId> = BTreeSet::new();
    for event in log.iter() {
        match &event.what {
            Happening::Sent {
                attempt,
                grant,
                process,
                ..
            } => {
                sent.insert(*attempt);
                key_of.insert(*attempt, grant.key.clone());
                process_of.insert(*attempt, *process);
            }
            Happening::Store {
                attempt,
                step: StoreStep::WroteBoth | StoreStep::Wrote(Table::Balance) | StoreStep::Committed,
                ..
            } => {
                *grants.entry(key_of[attempt].clone()).or_default() += 1;
            }
            Happening::Handled { attempt, .. } => {
                finished.entry(*attempt).or_insert(event.at);
            }
            Happening::ProcessEnded { process } => {
                ended.entry(*process).or_insert(event.at);
            }
            Happening::InProgress {
                attempt,
                holder,
                waits,
            } => {
                // The holder is a real attempt of the same operation, in flight now.
                prop_assert!(sent.contains(holder), "holder #{holder} was never sent");
                prop_assert_eq!(&key_of[holder], &key_of[attempt]);
                prop_assert!(
                    !finished.contains_key(holder),
                    "#{} told in progress after #{} was handled",
                    attempt,
                    holder
                );
                prop_assert!(
                    !ended.contains_key(&process_of[holder]),
                    "#{} held a record of a process that had ended",
                    holder
                );
                if !waits {
                    told_later.insert(*attempt);
                }
            }
            _ => {}
        }
    }
    for (key, count) in &grants {
        prop_assert_eq!(*count, 1, "{} granted {} times", key, count);
    }
    prop_assert!(lab.state().invariants().holds(Invariant::AtMostOnce));
    // Told to retry later: the caller heard exactly that (unless it had given up
    // before that answer came back across the network), nobody else heard it,
    // and the store never saw it.
    for row in lab.state().timeline() {
        let told = told_later.contains(&row.attempt.id);
        let heard_later = row.caller == Some(Err(GrantError::InProgress));
        prop_assert!(
            !heard_later || told,
            "#{} heard a telling nobody gave",
            row.attempt.id
        );
        if told {
            prop_assert!(heard_later || row.caller == Some(Err(GrantError::Timeout)));
            prop_assert!(row.handled.is_none() && row.never_handled);
        }
    }
    // Once everything is done, no record is left behind.
    prop_assert!(lab.state().world().in_progress_records().is_empty());
    Ok(())
}

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn in_progress_records_never_let_an_operation_be_granted_twice(
        (setup, policy, actions) in history()
    ) {
        check(&run(setup, policy, &actions))?;
    }
}

/// The same histories with no record kept do grant twice: the property above
/// is about the records, not about histories too tame to race.
#[test]
fn without_records_the_same_kind_of_history_does_grant_twice() {
    let lab = run(
        Setup::Durable(StoreKind::BalanceFirst, 2),
        InFlightPolicy::NoRecord,
        &[
            Action::Set(Setting::ProcessingMs(1_000)),
            Action::Send {
                grant: GrantPoints::new("k0", ACCOUNT, 100),
                lose_acknowledgement: false,
            },
            Action::RetrySame {
                lose_acknowledgement: false,
            },
        ],
    );
    assert!(check(&lab).is_err());
}
