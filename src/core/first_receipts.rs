//! The first receipts of a store in (account, key) order, kept up to date as
//! receipts are written and deleted: a page of a table of 10,000 receipts,
//! read at every frame of the picture, costs no sort of the whole table.

use std::cmp::Ordering;

use super::natural_order::operation_order;

/// How many of the first receipts are kept: more than any view shows.
const KEPT: usize = 32;

/// The first `limit` operations of `all`, in order: only those are sorted.
fn first_of<'a>(mut all: Vec<(&'a str, &'a str)>, limit: usize) -> Vec<(&'a str, &'a str)> {
    let order = |a: &(&str, &str), b: &(&str, &str)| operation_order(*a, *b);
    if limit < all.len() {
        all.select_nth_unstable_by(limit, order);
        all.truncate(limit);
    }
    all.sort_unstable_by(order);
    all
}

/// The first `KEPT` operations that hold a receipt, once read.
#[derive(Debug, Default)]
pub struct FirstReceipts {
    /// While `known`: exactly the first `KEPT` operations with a receipt (all
    /// of them, when there are fewer), in order.
    first: Vec<(String, String)>,
    known: bool,
}

impl FirstReceipts {
    /// A receipt was written for (`account`, `key`).
    pub fn written(&mut self, account: &str, key: &str) {
        if !self.known {
            return;
        }
        let at = self
            .first
            .partition_point(|(a, k)| operation_order((a, k), (account, key)) == Ordering::Less);
        // Past the kept ones of a full page, it changes nothing they show.
        if at < KEPT {
            self.first.insert(at, (account.to_owned(), key.to_owned()));
            self.first.truncate(KEPT);
        }
    }

    /// The receipt of (`account`, `key`) was deleted.
    pub fn deleted(&mut self, account: &str, key: &str) {
        // One of the kept: the next one in order is not known, read them again.
        if self.first.iter().any(|(a, k)| a == account && k == key) {
            self.known = false;
            self.first.clear();
        }
    }

    /// The first `limit` receipts, each made by `receipt` from its operation:
    /// a page of at most `KEPT` from the kept ones (reading `all` operations
    /// only when they are not known), a longer one sorted from `all`.
    pub fn page<'b, T>(
        &mut self,
        limit: usize,
        all: impl FnOnce() -> Vec<(&'b str, &'b str)>,
        receipt: impl Fn((&str, &str)) -> T,
    ) -> Vec<T> {
        if limit > KEPT {
            return first_of(all(), limit).into_iter().map(receipt).collect();
        }
        if !self.known {
            self.first = first_of(all(), KEPT)
                .into_iter()
                .map(|(a, k)| (a.to_owned(), k.to_owned()))
                .collect();
            self.known = true;
        }
        self.first
            .iter()
            .take(limit)
            .map(|(a, k)| receipt((a, k)))
            .collect()
    }
}
