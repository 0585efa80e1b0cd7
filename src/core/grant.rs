//! The request, its receipt, and what the store did with it, as plain data.

use serde::{Deserialize, Serialize};

/// A request to add `points` to `account_id`, named by the caller's idempotency `key`.
///
/// The key names the *operation*: a retry keeps it, a new purchase gets a new one.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GrantPoints {
    pub key: String,
    pub account_id: String,
    pub points: i32,
}

impl GrantPoints {
    pub fn new(key: impl Into<String>, account_id: impl Into<String>, points: i32) -> Self {
        Self {
            key: key.into(),
            account_id: account_id.into(),
            points,
        }
    }

    /// The same request under another key: what a careless caller does on retry.
    pub fn with_key(&self, key: impl Into<String>) -> Self {
        Self {
            key: key.into(),
            ..self.clone()
        }
    }
}

/// The receipt: what the store recorded when it first applied a grant.
///
/// `balance` is the account's balance *right after that grant*, not the current
/// balance: a later grant moves the account on, the receipt stays as it was.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GrantResult {
    pub key: String,
    pub account_id: String,
    pub points: i32,
    pub balance: i32,
}

/// What the store did with a grant, as opposed to what the caller eventually hears.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StoreOutcome {
    /// First time this (account, key) was seen: points added, receipt stored.
    Applied(GrantResult),
    /// A repeat of a grant already applied: the stored receipt, nothing changed.
    Replayed(GrantResult),
}

impl StoreOutcome {
    pub fn receipt(&self) -> &GrantResult {
        match self {
            StoreOutcome::Applied(r) | StoreOutcome::Replayed(r) => r,
        }
    }

    pub fn into_receipt(self) -> GrantResult {
        match self {
            StoreOutcome::Applied(r) | StoreOutcome::Replayed(r) => r,
        }
    }
}
