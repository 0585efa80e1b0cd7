#![cfg(not(target_arch = "wasm32"))]
//! A receipt drawn in a store leads to the timeline row that wrote it, and a
//! row leads back to its operation's receipt.

mod common;

use common::lab_of;
use idempotency_lab::core::CrashPoint;
use idempotency_lab::lab::{Action, Lab, Setting};
use idempotency_lab::sim::StoreKind;
use idempotency_lab::GrantPoints;

fn send(account: &str, key: &str) -> Action {
    Action::Send {
        grant: GrantPoints::new(key, account, 100),
        lose_acknowledgement: false,
    }
}

fn settled(actions: &[Action]) -> Lab {
    let mut lab = lab_of(actions);
    lab.skip_to_idle().unwrap();
    lab
}

#[test]
fn a_receipt_leads_to_the_attempt_that_wrote_it_not_to_a_later_replay() {
    let lab = settled(&[
        send("bob", "order-1"),
        send("alice", "order-1"),
        send("alice", "order-1"),
    ]);
    let state = lab.state();
    // Attempt 3 was answered with attempt 2's receipt: 2 wrote it.
    assert_eq!(state.receipt_row(Some(1), "alice", "order-1"), Some(2));
    assert_eq!(state.receipt_row(None, "alice", "order-1"), Some(2));
    // One key, two accounts: two operations, two receipts.
    assert_eq!(state.receipt_row(Some(1), "bob", "order-1"), Some(1));
    assert_eq!(state.receipt_row(Some(1), "alice", "order-2"), None);
    assert_eq!(
        state.operation_of(3),
        Some(("alice".to_string(), "order-1".to_string()))
    );
    assert_eq!(state.operation_of(4), None);
}

#[test]
fn a_memory_receipt_leads_to_the_attempt_its_own_process_applied() {
    let lab = settled(&[
        send("alice", "order-1"),
        Action::Wait { ms: 10_000 },
        Action::Restart,
        send("alice", "order-1"),
    ]);
    let state = lab.state();
    // The restart forgot attempt 1's receipt; process 2 wrote its own with 2.
    assert_eq!(state.receipt_row(Some(2), "alice", "order-1"), Some(2));
    assert_eq!(state.receipt_row(Some(1), "alice", "order-1"), Some(1));
    // Seen from no process in particular, the newest writer.
    assert_eq!(state.receipt_row(None, "alice", "order-1"), Some(2));
}

#[test]
fn a_receipt_whose_attempt_crashed_before_the_balance_leads_to_that_attempt() {
    let lab = settled(&[
        Action::Set(Setting::Store(StoreKind::ReceiptFirst)),
        Action::SetCrashPoint {
            point: Some(CrashPoint::BetweenWrites),
        },
        send("alice", "order-1"),
    ]);
    let state = lab.state();
    let row = &state.timeline()[0];
    assert!(
        row.handled.is_none(),
        "the crash left it unhandled: {row:?}"
    );
    assert_eq!(state.receipt_row(None, "alice", "order-1"), Some(1));
}
