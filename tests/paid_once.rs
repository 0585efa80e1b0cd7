#![cfg(not(target_arch = "wasm32"))]
//! "Each purchase is paid once": the promise the customer cares about, which no
//! store keeps alone. A retry under a fresh key is a new operation to the
//! store, so "at most once" holds while the purchase is paid twice; a retry
//! under the same key keeps both.

use idempotency_lab::lab::{Action, Invariant, Lab};
use idempotency_lab::GrantPoints;

fn send(lab: &mut Lab, key: &str, points: i32, lose: bool) {
    lab.dispatch(Action::Send {
        grant: GrantPoints::new(key, "account-7", points),
        lose_acknowledgement: lose,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
}

fn retry(lab: &mut Lab, fresh: bool) {
    let action = if fresh {
        Action::RetryFresh {
            lose_acknowledgement: false,
        }
    } else {
        Action::RetrySame {
            lose_acknowledgement: false,
        }
    };
    lab.dispatch(action).unwrap();
    lab.skip_to_idle().unwrap();
}

fn holds(lab: &Lab, invariant: Invariant) -> bool {
    lab.state().invariants().holds(invariant)
}

#[test]
fn a_fresh_key_pays_the_purchase_again_and_the_row_says_so() {
    let mut lab = Lab::new();
    send(&mut lab, "order-1042", 100, true);
    retry(&mut lab, true);
    let state = lab.state();
    assert_eq!(state.store().balance("account-7"), 200);
    assert!(
        holds(&lab, Invariant::AtMostOnce),
        "two keys, two operations"
    );
    let broke = state.invariants().first_break(Invariant::PaidOnce);
    assert_eq!(
        broke.map(|b| b.attempt),
        Some(2),
        "the fresh retry paid again"
    );
    let row = state.row_of(2).expect("the retry's row");
    let handled = row.handled.as_ref().expect("handled");
    assert_eq!(handled.paid_before_by, Some(1));
    assert_eq!(handled.granted_before_by, None, "not the same operation");
    assert_eq!(state.invariants().purchase_of(2), 1);
    assert!(row.applied_again(), "never read as a plain success");
    assert!(!state.row_of(1).unwrap().applied_again(), "the first grant");
}

#[test]
fn the_same_key_keeps_the_purchase_paid_once() {
    let mut lab = Lab::new();
    send(&mut lab, "order-1042", 100, true);
    retry(&mut lab, false);
    retry(&mut lab, false);
    assert_eq!(lab.state().store().balance("account-7"), 100);
    for invariant in Invariant::ALL {
        assert!(holds(&lab, invariant), "{invariant:?}");
    }
    assert_eq!(lab.state().invariants().purchase_of(3), 1);
    let row = lab.state().row_of(2).unwrap();
    assert_eq!(row.handled.as_ref().unwrap().paid_before_by, None);
    assert!(!row.applied_again(), "a stored receipt is no grant");
}

#[test]
fn a_retry_after_a_fresh_one_still_pays_for_the_first_purchase() {
    let mut lab = Lab::new();
    send(&mut lab, "order-1042", 100, true);
    retry(&mut lab, true);
    // The same key as the fresh retry: its receipt answers, nothing is added.
    retry(&mut lab, false);
    let state = lab.state();
    assert_eq!(state.invariants().purchase_of(3), 1);
    assert_eq!(state.invariants().break_count(Invariant::PaidOnce), 1);
    assert_eq!(state.store().balance("account-7"), 200);
}

#[test]
fn separate_purchases_each_paid_once() {
    let mut lab = Lab::new();
    send(&mut lab, "order-1", 100, false);
    send(&mut lab, "order-2", 100, false);
    // Sent again by hand under a used key: the same purchase, the receipt answers.
    send(&mut lab, "order-1", 100, false);
    let state = lab.state();
    assert_eq!(state.invariants().purchase_of(2), 2);
    assert_eq!(state.invariants().purchase_of(3), 1);
    assert!(holds(&lab, Invariant::PaidOnce));
    assert_eq!(state.store().balance("account-7"), 200);
}

#[test]
fn a_forgetful_store_pays_one_purchase_twice_under_one_key() {
    let mut lab = Lab::new();
    send(&mut lab, "order-1042", 100, true);
    // The memory store forgets the receipt with the process: granted again.
    lab.dispatch(Action::Restart).unwrap();
    retry(&mut lab, false);
    let invariants = lab.state().invariants();
    let at_most_once = invariants.first_break(Invariant::AtMostOnce);
    assert!(at_most_once.is_some());
    assert_eq!(invariants.first_break(Invariant::PaidOnce), at_most_once);
    let row = lab.state().row_of(2).unwrap();
    assert_eq!(row.handled.as_ref().unwrap().paid_before_by, None);
    assert!(row.applied_again(), "granted again for the same operation");
}

#[test]
fn a_refused_request_is_not_retried_and_starts_no_purchase() {
    let mut lab = Lab::new();
    send(&mut lab, "order-1", 100, false);
    // The same key for other points: refused; the retry buttons skip it.
    send(&mut lab, "order-1", 200, false);
    retry(&mut lab, true);
    let state = lab.state();
    let fresh = state.row_of(3).unwrap();
    assert_eq!(
        fresh.attempt.grant.points, 100,
        "the retry resends the last request not refused"
    );
    assert_eq!(state.invariants().purchase_of(3), 1);
    assert_eq!(
        state
            .invariants()
            .first_break(Invariant::PaidOnce)
            .map(|b| b.attempt),
        Some(3)
    );
    assert!(!state.row_of(2).unwrap().applied_again());
}

#[test]
fn a_second_payment_whose_answer_is_lost_reads_as_the_timeout_it_is() {
    let mut lab = Lab::new();
    send(&mut lab, "order-1042", 100, true);
    lab.dispatch(Action::RetryFresh {
        lose_acknowledgement: true,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    let row = lab.state().row_of(2).unwrap();
    // Paid again, but its caller heard a timeout: the row says that first.
    assert_eq!(row.handled.as_ref().unwrap().paid_before_by, Some(1));
    assert!(!row.applied_again());
}
