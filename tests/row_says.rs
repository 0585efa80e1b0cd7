#![cfg(not(target_arch = "wasm32"))]
//! What a timeline row says, case by case, read natively: the page only turns
//! each case into its language's words.

mod common;

use common::{idle, lab_of, retry, send};
use idempotency_lab::core::{StoreStep, Table};
use idempotency_lab::lab::{
    Action, AttemptSays, CallerSays, CrashLeft, KnownBy, Lab, RowSays, Setting, StoreKind,
    StoreSays, HOUR_MS,
};
use idempotency_lab::{CrashPoint, GrantError, GrantPoints, RetryPolicy};

fn says(lab: &Lab, attempt: u64) -> RowSays {
    common::row(lab, attempt).says()
}

#[test]
fn a_grant_its_retry_and_a_new_request_under_a_used_key() {
    let mut lab = lab_of(&[send("order-1042", 100)]);
    assert_eq!(
        says(&lab, 1),
        RowSays {
            store: StoreSays::NotYet,
            caller: CallerSays::Waiting,
            attempt: AttemptSays::Nth(1),
            known_by: None,
        },
        "on its way"
    );
    lab = idle(lab);
    lab.dispatch(retry()).unwrap();
    lab.dispatch(send("order-1042", 5)).unwrap();
    let lab = idle(lab);
    assert_eq!(
        says(&lab, 1),
        RowSays {
            store: StoreSays::Applied { points: 100 },
            caller: CallerSays::Receipt { balance: 100 },
            attempt: AttemptSays::Nth(1),
            known_by: None,
        }
    );
    assert_eq!(says(&lab, 2).store, StoreSays::Replayed);
    assert_eq!(says(&lab, 2).attempt, AttemptSays::Nth(2));
    let reused = says(&lab, 3);
    assert_eq!(reused.attempt, AttemptSays::KeyReused);
    assert!(matches!(
        reused.store,
        StoreSays::Rejected(GrantError::PayloadMismatch { .. })
    ));
    assert!(matches!(
        reused.caller,
        CallerSays::Error(GrantError::PayloadMismatch { .. })
    ));
}

#[test]
fn a_lost_answer_is_a_timeout_and_a_restart_ends_what_waits() {
    let lab = idle(lab_of(&[Action::Send {
        grant: GrantPoints::new("k", "account-7", 1),
        lose_acknowledgement: true,
    }]));
    assert_eq!(says(&lab, 1).caller, CallerSays::Timeout);
    assert_eq!(says(&lab, 1).store, StoreSays::Applied { points: 1 });
    let lab = lab_of(&[
        Action::Set(Setting::Paused(true)),
        send("k", 1),
        Action::Restart,
    ]);
    assert_eq!(says(&lab, 1).caller, CallerSays::ProcessEnded);
    assert_eq!(says(&lab, 1).store, StoreSays::Never);
}

#[test]
fn a_crash_a_copy_from_the_queue_and_a_retry_by_policy() {
    let lab = idle(lab_of(&[
        Action::Set(Setting::Store(StoreKind::BalanceFirst)),
        Action::SetCrashPoint {
            point: Some(CrashPoint::BetweenWrites),
        },
        send("k", 1),
    ]));
    assert_eq!(
        says(&lab, 1).store,
        StoreSays::CrashedAt(CrashPoint::BetweenWrites)
    );
    let lab = idle(lab_of(&[Action::SetRedeliver { on: true }, send("k", 1)]));
    assert_eq!(says(&lab, 2).caller, CallerSays::Queue);
    assert_eq!(says(&lab, 2).attempt, AttemptSays::RedeliveryOf(1));
    let lab = idle(lab_of(&[
        Action::Set(Setting::AutoRetry(Some(RetryPolicy {
            max_attempts: 2,
            seed: 1,
        }))),
        Action::Send {
            grant: GrantPoints::new("k", "account-7", 1),
            lose_acknowledgement: true,
        },
    ]));
    assert_eq!(says(&lab, 2).attempt, AttemptSays::RetryOf(1));
}

#[test]
fn how_the_store_knew_the_operation() {
    // The same key sent again from the second process while the first is
    // still being handled, with `points`.
    let race = |kind, points| {
        idle(lab_of(&[
            Action::Set(Setting::Store(kind)),
            Action::Set(Setting::Processes(2)),
            Action::Set(Setting::ProcessingMs(1_000)),
            send("order-1042", 100),
            Action::Wait { ms: 10 },
            send("order-1042", points),
        ]))
    };
    for kind in [
        StoreKind::OneTransaction,
        StoreKind::BalanceFirst,
        StoreKind::ReceiptFirst,
    ] {
        // The same request loses the race and returns the winner's receipt.
        let same = says(&race(kind, 100), 2);
        assert_eq!(same.known_by, Some(KnownBy::LostRaceReceipt), "{kind:?}");
        // Written balance first, its points stand all the same.
        let points_stand = kind == StoreKind::BalanceFirst;
        assert_eq!(
            same.store,
            if points_stand {
                StoreSays::Applied { points: 100 }
            } else {
                StoreSays::Replayed
            },
            "{kind:?}"
        );
        // Other points under the key lose the race and are refused.
        let other = says(&race(kind, 5), 2);
        assert_eq!(other.known_by, Some(KnownBy::LostRace), "{kind:?}");
        assert!(
            matches!(
                other.store,
                StoreSays::Rejected(GrantError::PayloadMismatch { .. })
            ),
            "{kind:?}"
        );
    }
    let mut lab = idle(lab_of(&[
        Action::Set(Setting::Store(StoreKind::OneTransaction)),
        Action::Set(Setting::LedgerCheck(true)),
        send("order-1042", 100),
        Action::MoveClock { ms: 25 * HOUR_MS },
    ]));
    lab.dispatch(retry()).unwrap();
    let lab = idle(lab);
    assert_eq!(says(&lab, 2).known_by, Some(KnownBy::Ledger));
    assert_eq!(says(&lab, 1).known_by, None);
}

#[test]
fn what_a_crash_left_of_its_writes() {
    use CrashPoint::{AfterCommit, BeforeWrites, BetweenWrites};
    let balance = StoreStep::Wrote(Table::Balance);
    let receipt = StoreStep::Wrote(Table::Receipt);
    let cases: [(CrashPoint, Vec<StoreStep>, bool, CrashLeft); 8] = [
        (BeforeWrites, vec![], true, CrashLeft::Nothing),
        (BeforeWrites, vec![], false, CrashLeft::Nothing),
        (BetweenWrites, vec![], true, CrashLeft::StagedGone),
        (BetweenWrites, vec![receipt], true, CrashLeft::ReceiptOnly),
        (BetweenWrites, vec![balance], true, CrashLeft::PointsOnly),
        (
            AfterCommit,
            vec![StoreStep::Committed],
            true,
            CrashLeft::Committed,
        ),
        (
            AfterCommit,
            vec![balance, receipt],
            true,
            CrashLeft::Committed,
        ),
        (
            AfterCommit,
            vec![StoreStep::WroteBoth],
            false,
            CrashLeft::MemoryGone,
        ),
    ];
    for (point, wrote, durable, left) in cases {
        assert_eq!(
            CrashLeft::of(point, &wrote, durable),
            left,
            "{point:?} {wrote:?} durable {durable}"
        );
    }
}
