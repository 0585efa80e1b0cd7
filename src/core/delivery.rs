//! The fault model: what one delivery does to the store and what its caller hears.
//!
//! The async [`PointWorker`](super::PointWorker) applies every delivery through
//! it, in the tests and in the lab's simulated world alike.

use super::error::GrantError;
use super::grant::StoreOutcome;
use super::grant::{GrantPoints, GrantResult};
use super::store::PointStore;

/// The two sides of one delivery. The lesson lives in the gap between them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivered {
    /// What the store did: applied, replayed the receipt, or rejected.
    pub store: Result<StoreOutcome, GrantError>,
    /// What the caller got back: a receipt, a timeout, or the rejection.
    pub caller: Result<GrantResult, GrantError>,
}

/// Applies one delivery. With `lose_acknowledgement` the fault strikes right after a
/// successful apply: the change is made, but the caller only sees a timeout.
pub fn deliver(store: &PointStore, grant: &GrantPoints, lose_acknowledgement: bool) -> Delivered {
    answer(store.apply_detailed(grant), lose_acknowledgement)
}

/// What the caller hears of what the store did, with or without the fault.
pub fn answer(
    store_result: Result<StoreOutcome, GrantError>,
    lose_acknowledgement: bool,
) -> Delivered {
    let caller = match &store_result {
        Ok(_) if lose_acknowledgement => Err(GrantError::Timeout),
        Ok(outcome) => Ok(outcome.receipt().clone()),
        Err(error) => Err(error.clone()),
    };
    Delivered {
        store: store_result,
        caller,
    }
}
