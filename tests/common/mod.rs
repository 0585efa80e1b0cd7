//! Helpers shared by the integration tests that drive a whole lab.
// Each test crate uses some of these helpers, not all.
#![allow(dead_code)]

use idempotency_lab::lab::{Action, Lab};
use idempotency_lab::GrantPoints;

/// A new lab whose messages arrive at once: the world these tests were
/// written for, where a request is queued the moment it is sent and its
/// answer heard the moment the store answers. How messages travel, when they
/// take time, is `tests/transit.rs`'s.
pub fn instant_lab() -> Lab {
    let mut lab = Lab::new();
    lab.dispatch(idempotency_lab::lab::before_transit())
        .expect("0 ms is a valid transit");
    lab
}

/// A lab whose messages arrive at once that has carried out `actions`, each
/// of which must be accepted.
pub fn lab_of(actions: &[Action]) -> Lab {
    let mut lab = instant_lab();
    for action in actions {
        lab.dispatch(action.clone())
            .unwrap_or_else(|e| panic!("{action:?}: {e}"));
    }
    lab
}

/// The world's whole event log, as text to compare.
pub fn event_log(lab: &Lab) -> String {
    serde_json::to_string(&*lab.state().world().events()).unwrap()
}

/// Property tests run `PROPTEST_CASES` cases (10,000 unless set).
#[cfg(not(target_arch = "wasm32"))]
pub fn proptest_config() -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(10_000),
        ..proptest::test_runner::Config::default()
    }
}

/// A person's Send of `key` for `points` to account-7, acknowledged.
pub fn send(key: &str, points: i32) -> Action {
    Action::Send {
        grant: GrantPoints::new(key, "account-7", points),
        lose_acknowledgement: false,
    }
}

/// Retry (same key), acknowledged.
pub fn retry() -> Action {
    Action::RetrySame {
        lose_acknowledgement: false,
    }
}

/// The lab after everything due has happened.
pub fn idle(mut lab: Lab) -> Lab {
    lab.skip_to_idle().unwrap();
    lab
}

/// An attempt's timeline row, by its number.
pub fn row(lab: &Lab, attempt: u64) -> &idempotency_lab::lab::AttemptRow {
    lab.state()
        .timeline()
        .iter()
        .find(|r| r.attempt.id == attempt)
        .unwrap_or_else(|| panic!("attempt {attempt} has no row"))
}
