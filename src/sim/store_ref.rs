//! What a reader of balances and receipts looks at: a process's memory store,
//! or the durable store.

use crate::core::{DurableStore, GrantResult, PointStore};

/// The store a reader looks at: a process's memory, or the durable store.
#[derive(Debug, Clone, Copy)]
pub enum StoreRef<'a> {
    Memory(&'a PointStore),
    Durable(&'a DurableStore),
}

impl StoreRef<'_> {
    pub fn balance(&self, account_id: &str) -> i32 {
        match self {
            StoreRef::Memory(s) => s.balance(account_id),
            StoreRef::Durable(s) => s.balance(account_id),
        }
    }

    pub fn balances(&self) -> Vec<(String, i32)> {
        match self {
            StoreRef::Memory(s) => s.balances(),
            StoreRef::Durable(s) => s.balances(),
        }
    }

    pub fn receipt(&self, account_id: &str, key: &str) -> Option<GrantResult> {
        match self {
            StoreRef::Memory(s) => s.receipt(account_id, key),
            StoreRef::Durable(s) => s.receipt(account_id, key),
        }
    }

    pub fn receipts(&self) -> Vec<GrantResult> {
        self.receipts_page(usize::MAX).0
    }

    pub fn receipts_page(&self, limit: usize) -> (Vec<GrantResult>, usize) {
        match self {
            StoreRef::Memory(s) => s.receipts_page(limit),
            StoreRef::Durable(s) => s.receipts_page(limit),
        }
    }
}
