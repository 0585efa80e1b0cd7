//! The explorer's fixture, shared by the native test (tests/explorer.rs) and
//! the browser test (tests/browser.rs): a search from a fixed seed, what it
//! found and the session its replay makes, so both platforms are held to one
//! file.

use idempotency_lab::lab::explore::{Search, Verdict, DEFAULT_MAX_STEPS};
use idempotency_lab::lab::{Setting, Settings, StoreKind};

/// Where it is kept (the browser test includes it at build time instead).
#[allow(dead_code)]
pub const FILE: &str = "tests/fixtures/explorer/balance-first-two-processes-seed-11.json";

/// What the search finds, as the fixture holds it.
pub fn found_record() -> String {
    let settings = Settings::default()
        .with(Setting::Store(StoreKind::BalanceFirst))
        .with(Setting::Processes(2));
    let mut search = Search::new(&settings, 11, 1_000, DEFAULT_MAX_STEPS);
    let Verdict::Broken(found) = search.finish().clone() else {
        panic!("not broken");
    };
    let session: serde_json::Value =
        serde_json::from_str(&idempotency_lab::lab::to_json(&search.replay(&found))).unwrap();
    let record = serde_json::json!({
        "promise": found.promise.code(),
        "tried": found.tried,
        "session": session,
    });
    serde_json::to_string_pretty(&record).unwrap() + "\n"
}
