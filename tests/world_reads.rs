#![cfg(not(target_arch = "wasm32"))]
//! What the page reads of the world through the lab: processes, a process's
//! memory, the in-progress records with where each is kept, and the inboxes.

mod common;

use common::{idle, lab_of, send};
use idempotency_lab::lab::{Action, Setting, StoreKind};
use idempotency_lab::{EmailVia, InFlightPolicy};

#[test]
fn a_record_says_which_process_keeps_it_or_that_the_durable_store_does() {
    let mut lab = lab_of(&[
        Action::Set(Setting::InFlight(InFlightPolicy::Wait)),
        Action::Set(Setting::ProcessingMs(1_000)),
        Action::Set(Setting::Processes(2)),
        Action::Set(Setting::Routing(idempotency_lab::lab::Routing::Only(2))),
        send("order-1042", 100),
    ]);
    assert_eq!(lab.state().process_numbers(), [1, 2]);
    let records = lab.state().in_progress_records();
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0].0.key, "order-1042");
    assert_eq!(records[0].1, Some(2), "kept in process 2's memory");
    lab.dispatch(Action::Set(Setting::Store(StoreKind::OneTransaction)))
        .unwrap();
    let records = lab.state().in_progress_records();
    assert_eq!(
        records[0].1, None,
        "moved with the store into the durable one"
    );
    let lab = idle(lab);
    assert!(lab.state().in_progress_records().is_empty());
    assert!(lab.state().memory_store(1).is_some() && lab.state().memory_store(3).is_none());
}

#[test]
fn the_inbox_shows_the_newest_and_counts_them_all() {
    let lab = idle(lab_of(&[
        Action::Set(Setting::Email(true)),
        send("a", 1),
        send("b", 2),
        send("c", 3),
    ]));
    let (newest, total, dropped) = lab.state().inbox_newest(2);
    let keys: Vec<&str> = newest.iter().map(|e| e.key.as_str()).collect();
    assert_eq!((keys, total, dropped), (vec!["b", "c"], 3, 0));
    // Through the outbox the relay sends each row twice; the service drops the copy.
    let lab = idle(lab_of(&[
        Action::Set(Setting::Email(true)),
        Action::Set(Setting::EmailVia(EmailVia::Outbox)),
        send("a", 1),
    ]));
    let (newest, total, dropped) = lab.state().inbox_newest(5);
    assert_eq!((newest.len(), total, dropped), (1, 1, 1));
}
