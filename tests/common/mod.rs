//! Helpers shared by the integration tests that drive a whole lab.
// Each test crate uses some of these helpers, not all.
#![allow(dead_code)]

use idempotency_lab::lab::{Action, Lab};

/// A lab that has carried out `actions`, each of which must be accepted.
pub fn lab_of(actions: &[Action]) -> Lab {
    let mut lab = Lab::new();
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
