//! Each attempt row says how the durable store wrote its grant: one commit, or
//! two writes in the store's order; nothing for memory or for a lost race.

mod common;

use common::lab_of;
use idempotency_lab::lab::{Action, DurableWrites, Lab, Setting};
use idempotency_lab::sim::StoreKind;
use idempotency_lab::GrantPoints;

fn sent_once(kind: StoreKind) -> Lab {
    let mut lab = lab_of(&[
        Action::Set(Setting::Store(kind)),
        Action::Send {
            grant: GrantPoints::new("order-1042", "account-7", 100),
            lose_acknowledgement: false,
        },
    ]);
    lab.skip_to_idle().unwrap();
    lab
}

fn writes(lab: &Lab, attempt: u64) -> Option<DurableWrites> {
    let row = lab
        .state()
        .timeline()
        .iter()
        .find(|r| r.attempt.id == attempt)
        .unwrap();
    row.handled.as_ref().unwrap().durable_writes
}

#[test]
fn each_write_order_is_named_on_its_row() {
    let cases = [
        (StoreKind::InMemory, None),
        (
            StoreKind::ReceiptFirst,
            Some(DurableWrites::ReceiptThenBalance),
        ),
        (
            StoreKind::BalanceFirst,
            Some(DurableWrites::BalanceThenReceipt),
        ),
        (StoreKind::OneTransaction, Some(DurableWrites::OneCommit)),
    ];
    for (kind, expected) in cases {
        assert_eq!(writes(&sent_once(kind), 1), expected, "{kind:?}");
    }
    assert_eq!(DurableWrites::OneCommit.code(), "one-commit");
    assert_eq!(
        DurableWrites::ReceiptThenBalance.code(),
        "receipt-then-balance"
    );
    assert_eq!(
        DurableWrites::BalanceThenReceipt.code(),
        "balance-then-receipt"
    );
}

#[test]
fn a_replay_or_a_lost_race_wrote_nothing() {
    let mut lab = sent_once(StoreKind::OneTransaction);
    lab.dispatch(Action::RetrySame {
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    assert_eq!(writes(&lab, 2), None, "a replay");
    for kind in [
        StoreKind::OneTransaction,
        StoreKind::ReceiptFirst,
        StoreKind::BalanceFirst,
    ] {
        let mut lab = lab_of(&[
            Action::Set(Setting::Store(kind)),
            Action::Set(Setting::Processes(2)),
            Action::Set(Setting::ProcessingMs(1_000)),
            Action::Send {
                grant: GrantPoints::new("order-1042", "account-7", 100),
                lose_acknowledgement: false,
            },
            Action::RetrySame {
                lose_acknowledgement: false,
            },
        ]);
        lab.skip_to_idle().unwrap();
        assert!(writes(&lab, 1).is_some(), "{kind:?}: the winner wrote");
        assert_eq!(
            writes(&lab, 2),
            None,
            "{kind:?}: the loser's writes are not whole"
        );
    }
}
