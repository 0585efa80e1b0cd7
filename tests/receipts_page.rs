#![cfg(not(target_arch = "wasm32"))]
//! A page of a store's receipts is the first ones in (account, key) order,
//! whatever was written and swept before: the page each store keeps up to date
//! equals the whole table sorted.

use std::cell::Cell;

use futures::executor::block_on;
use idempotency_lab::{DurableStore, GrantPoints, GrantResult, Pace, PointStore, WriteOrder};
use proptest::prelude::*;

/// Dates receipts with the time it is given.
struct At(Cell<u64>);

impl Pace for At {
    async fn work(&self) {}
    async fn reach(&self, _point: idempotency_lab::CrashPoint) {}
    fn now(&self) -> u64 {
        self.0.get()
    }
}

#[derive(Debug, Clone)]
enum Op {
    /// Grant (account, key); the durable store dates it at the step's time.
    Grant(u8, u16),
    /// The sweeper deletes receipts written at or before this many steps ago.
    Sweep(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (0u8..4, 0u16..120).prop_map(|(a, k)| Op::Grant(a, k)),
        1 => (0u8..40).prop_map(Op::Sweep),
    ]
}

/// Names whose numbers sort as numbers, and a few that differ by case and zeros.
fn names(a: u8, k: u16) -> (String, String) {
    let account = ["alice", "bob", "account-7", "account-10"][a as usize].to_string();
    let key = match k % 3 {
        0 => format!("k-{k}"),
        1 => format!("k-0{k}"),
        _ => format!("K{k}"),
    };
    (account, key)
}

/// Every page a view may ask for equals the start of the whole sorted table.
fn pages_agree(page: impl Fn(usize) -> (Vec<GrantResult>, usize)) -> Result<(), TestCaseError> {
    let (all, total) = page(usize::MAX);
    prop_assert_eq!(all.len(), total);
    for limit in [0, 1, 5, 12, 31, 32, 33, 100] {
        let (first, count) = page(limit);
        prop_assert_eq!(count, total);
        prop_assert_eq!(&first[..], &all[..limit.min(total)], "limit {}", limit);
    }
    Ok(())
}

proptest! {
    #[test]
    fn the_memory_store_page_is_the_start_of_its_sorted_receipts(ops in prop::collection::vec(op(), 0..160)) {
        let store = PointStore::new();
        for (i, op) in ops.iter().enumerate() {
            if let Op::Grant(a, k) = op {
                let (account, key) = names(*a, *k);
                let _ = store.apply(&GrantPoints::new(&key, &account, 1));
            }
            // Read between writes too: a page read once is kept up to date.
            if i % 7 == 0 {
                store.receipts_page(5);
            }
        }
        pages_agree(|limit| store.receipts_page(limit))?;
    }

    #[test]
    fn the_durable_store_page_is_the_start_of_its_sorted_receipts(ops in prop::collection::vec(op(), 0..160)) {
        let store = DurableStore::new();
        let pace = At(Cell::new(0));
        for (i, op) in ops.iter().enumerate() {
            pace.0.set(i as u64 * 10);
            match op {
                Op::Grant(a, k) => {
                    let (account, key) = names(*a, *k);
                    let grant = GrantPoints::new(&key, &account, 1);
                    let _ = block_on(store.apply_paced(WriteOrder::OneTransaction, false, &grant, &pace));
                }
                Op::Sweep(ago) => {
                    let cutoff = (i as u64).saturating_sub(u64::from(*ago)) * 10;
                    store.sweep(cutoff);
                }
            }
            if i % 7 == 0 {
                store.receipts_page(5);
            }
        }
        pages_agree(|limit| store.receipts_page(limit))?;
    }
}

#[test]
fn a_page_read_first_follows_what_is_written_and_swept_after() {
    let store = DurableStore::new();
    let pace = At(Cell::new(0));
    let grant = |key: &str, at: u64| {
        pace.0.set(at);
        block_on(store.apply_paced(
            WriteOrder::OneTransaction,
            false,
            &GrantPoints::new(key, "alice", 1),
            &pace,
        ))
        .unwrap();
    };
    let keys = |limit| {
        store
            .receipts_page(limit)
            .0
            .into_iter()
            .map(|r| r.key)
            .collect::<Vec<_>>()
    };
    grant("k-10", 0);
    grant("k-2", 10);
    assert_eq!(keys(5), ["k-2", "k-10"]);
    grant("k-1", 20);
    assert_eq!(keys(2), ["k-1", "k-2"]);
    // The first one swept: the next one in order takes its place.
    store.sweep(0);
    assert_eq!(keys(5), ["k-1", "k-2"]);
    store.sweep(20);
    assert_eq!(keys(5), Vec::<String>::new());
    grant("k-3", 30);
    assert_eq!(keys(5), ["k-3"]);
}

#[test]
fn both_stores_list_balances_as_a_person_reads_the_names() {
    let memory = PointStore::new();
    let durable = DurableStore::new();
    let pace = At(Cell::new(0));
    for account in ["account-10", "account-7", "Bob", "account-9"] {
        let grant = GrantPoints::new("k", account, 1);
        memory.apply(&grant).unwrap();
        block_on(durable.apply_paced(WriteOrder::OneTransaction, false, &grant, &pace)).unwrap();
    }
    let names = |b: Vec<(String, i32)>| b.into_iter().map(|(a, _)| a).collect::<Vec<_>>();
    let expected = ["Bob", "account-7", "account-9", "account-10"];
    assert_eq!(names(memory.balances()), expected);
    assert_eq!(names(durable.balances()), expected);
}
