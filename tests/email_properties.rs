#![cfg(not(target_arch = "wasm32"))]
//! Property test of the outbox: random histories of sends, retries, lost
//! acknowledgements, crashes at every point, restarts, redelivered messages,
//! one or two processes and every store. With emails through the outbox, the
//! inbox holds exactly one email per operation that was granted (however many
//! times it was granted, and however often its row was relayed), and none for
//! an operation never granted.
//!
//! The number of cases comes from `PROPTEST_CASES` (default 10,000).

mod common;

use std::collections::{BTreeMap, BTreeSet};

use idempotency_lab::lab::{Action, Lab, Setting};
use idempotency_lab::sim::{AttemptId, Happening, StoreKind};
use idempotency_lab::{CrashPoint, EmailVia, GrantPoints, StoreStep, Table};
use proptest::collection::vec;
use proptest::prelude::*;

const KEYS: [&str; 3] = ["k0", "k1", "k2"];

fn step() -> impl Strategy<Value = Action> {
    let send = (0..KEYS.len(), any::<bool>()).prop_map(|(k, lose)| Action::Send {
        grant: GrantPoints::new(KEYS[k], "alice", 100),
        lose_acknowledgement: lose,
    });
    let retry = any::<bool>().prop_map(|lose| Action::RetrySame {
        lose_acknowledgement: lose,
    });
    let wait = prop_oneof![Just(10u64), Just(150), Just(1_000)].prop_map(|ms| Action::Wait { ms });
    let crash = proptest::sample::select(&CrashPoint::ALL[..])
        .prop_map(|p| Action::SetCrashPoint { point: Some(p) });
    let store = proptest::sample::select(&StoreKind::ALL[..])
        .prop_map(|kind| Action::Set(Setting::Store(kind)));
    prop_oneof![
        5 => send,
        4 => retry,
        3 => wait,
        2 => crash,
        1 => store,
        1 => Just(Action::Restart),
        1 => Just(Action::SetRedeliver { on: true }),
        1 => (1..=2u8).prop_map(|count| Action::Set(Setting::Processes(count))),
    ]
}

fn run(actions: &[Action]) -> Lab {
    let mut lab = Lab::new();
    let setup = [
        Action::Set(Setting::Email(true)),
        Action::Set(Setting::EmailVia(EmailVia::Outbox)),
    ];
    for action in setup.iter().chain(actions) {
        let _ = lab.dispatch(action.clone());
    }
    lab.skip_to_idle().unwrap();
    lab
}

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn through_the_outbox_each_granted_operation_gets_exactly_one_email(
        actions in vec(step(), 1..30)
    ) {
        let lab = run(&actions);
        let log = lab.state().world().events();
        let mut key_of: BTreeMap<AttemptId, String> = BTreeMap::new();
        let mut granted: BTreeSet<String> = BTreeSet::new();
        for event in log.iter() {
            match &event.what {
                Happening::Sent { attempt, grant, .. } => {
                    key_of.insert(*attempt, grant.key.clone());
                }
                Happening::Store {
                    attempt,
                    step: StoreStep::WroteBoth | StoreStep::Wrote(Table::Balance) | StoreStep::Committed,
                    ..
                } => {
                    granted.insert(key_of[attempt].clone());
                }
                _ => {}
            }
        }
        let (inbox, _) = lab.state().world().inbox();
        let mut emailed: Vec<String> = inbox.into_iter().map(|e| e.key).collect();
        emailed.sort();
        prop_assert_eq!(emailed, granted.into_iter().collect::<Vec<_>>());
        prop_assert_eq!(lab.state().world().outbox_pending(), 0);
    }
}
