#![cfg(not(target_arch = "wasm32"))]
//! The world's event log for a fixed history, byte for byte. The browser test
//! replays the same history in Wasm and compares it with the same file, so both
//! platforms are held to one log. `UPDATE_FIXTURES=1` rewrites the files.

mod common;
use common::instant_lab;

use idempotency_lab::lab::{from_json, to_json, Action, Lab, Setting};
use idempotency_lab::sim::{Acknowledge, Routing, StoreKind};
use idempotency_lab::{CrashPoint, EmailVia, GrantPoints, InFlightPolicy, Language};

const HISTORY: &str = "tests/fixtures/world/mixed-history.json";
const LOG: &str = "tests/fixtures/world/mixed-history.events.json";

/// A history that touches every part of the world: lost acknowledgements, slow
/// processing and timeouts, a paused burst that overflows the queue, a restart
/// with work in flight, the naive worker, and settings changed on the way.
fn mixed_history() -> Lab {
    let mut lab = instant_lab();
    let send = |lab: &mut Lab, key: &str, points: i32, lose: bool| {
        lab.dispatch(Action::Send {
            grant: GrantPoints::new(key, "account-7", points),
            lose_acknowledgement: lose,
        })
        .unwrap();
    };
    let wait = |lab: &mut Lab, ms: u64| lab.dispatch(Action::Wait { ms }).unwrap();
    lab.dispatch(Action::Set(Setting::Naive(true))).unwrap();
    send(&mut lab, "order-1042", 100, true);
    wait(&mut lab, 3_500);
    lab.dispatch(Action::RetrySame {
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.dispatch(Action::Set(Setting::ProcessingMs(1_500)))
        .unwrap();
    lab.dispatch(Action::Set(Setting::CallerTimeoutMs(1_000)))
        .unwrap();
    send(&mut lab, "order-1043", 25, false);
    wait(&mut lab, 1_200);
    lab.dispatch(Action::RetrySame {
        lose_acknowledgement: false,
    })
    .unwrap();
    wait(&mut lab, 4_000);
    lab.dispatch(Action::Set(Setting::ProcessingMs(50)))
        .unwrap();
    lab.dispatch(Action::Set(Setting::Paused(true))).unwrap();
    lab.dispatch(Action::Burst {
        account_id: "account-8".into(),
        points: 5,
        count: 20,
    })
    .unwrap();
    wait(&mut lab, 400);
    lab.dispatch(Action::Set(Setting::Paused(false))).unwrap();
    wait(&mut lab, 120);
    lab.dispatch(Action::Restart).unwrap();
    lab.dispatch(Action::RetryFresh {
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.dispatch(Action::CheckBalance {
        account_id: "account-7".into(),
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    lab
}

fn log_of(lab: &Lab) -> String {
    serde_json::to_string_pretty(&*lab.state().world().events()).unwrap() + "\n"
}

/// Checks `lab` against its recorded history and event log (rewritten with
/// `UPDATE_FIXTURES=1`), and that a replay of the file logs the same.
fn check_against(lab: &Lab, history_file: &str, log_file: &str) {
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        std::fs::write(history_file, to_json(lab.history())).unwrap();
        std::fs::write(log_file, log_of(lab)).unwrap();
    }
    let history = std::fs::read_to_string(history_file).unwrap();
    assert_eq!(
        to_json(lab.history()),
        history,
        "the history file is this history"
    );
    let replayed = from_json(&history).unwrap();
    let recorded = std::fs::read_to_string(log_file).unwrap();
    assert_eq!(log_of(lab), recorded);
    assert_eq!(
        log_of(&replayed),
        recorded,
        "a replay logs the same, byte for byte"
    );
    // The same history as the lab saved it in format 2, before the settings
    // became one value: it opens to the same actions and the same log.
    let v2_file = history_file.replace(".json", ".v2.json");
    let v2 = from_json(&std::fs::read_to_string(&v2_file).unwrap()).unwrap();
    assert_eq!(v2.history(), lab.history(), "{v2_file}");
    assert_eq!(log_of(&v2), recorded, "{v2_file}: a replay logs the same");
}

#[test]
fn the_fixed_history_gives_the_recorded_event_log() {
    check_against(&mixed_history(), HISTORY, LOG);
}

/// Callers, the queue and effects: duplicates waiting on in-progress records
/// whose holder's process crashes (the order they wake in), a message
/// delivered twice, acknowledgement after the work across a restart, a request
/// refused for naming another account, emails through the outbox, and a
/// preference set twice.
fn callers_history() -> Lab {
    let send = |account: &str, key: &str, lose: bool| Action::Send {
        grant: GrantPoints::new(key, account, 10),
        lose_acknowledgement: lose,
    };
    let mut lab = instant_lab();
    let actions = [
        Action::Set(Setting::Email(true)),
        Action::Set(Setting::EmailVia(EmailVia::Outbox)),
        Action::Set(Setting::InFlight(InFlightPolicy::Wait)),
        Action::Set(Setting::Store(StoreKind::OneTransaction)),
        Action::Set(Setting::Processes(2)),
        Action::Set(Setting::Paused(true)),
        Action::Set(Setting::Routing(Routing::Only(1))),
        send("account-7", "k-b", false),
        send("account-7", "k-a", true),
        Action::Set(Setting::Routing(Routing::Only(2))),
        send("account-7", "k-a", false),
        send("account-7", "k-b", false),
        Action::SetCrashPoint {
            point: Some(CrashPoint::BeforeWrites),
        },
        Action::Set(Setting::Paused(false)),
        Action::Wait { ms: 2_000 },
        Action::Set(Setting::Acknowledge(Acknowledge::AfterWork)),
        Action::SetRedeliver { on: true },
        Action::Set(Setting::ProcessingMs(500)),
        send("account-7", "k-c", false),
        Action::Wait { ms: 100 },
        Action::Restart,
        Action::SignIn {
            account_id: Some("account-8".into()),
        },
        send("account-7", "k-a", false),
        Action::SetPreferredLanguage {
            account_id: "account-8".into(),
            language: Language::English,
        },
        Action::SetPreferredLanguage {
            account_id: "account-8".into(),
            language: Language::English,
        },
    ];
    for action in actions {
        lab.dispatch(action).unwrap();
    }
    lab.skip_to_idle().unwrap();
    lab
}

#[test]
fn the_callers_history_gives_the_recorded_event_log() {
    check_against(
        &callers_history(),
        "tests/fixtures/world/callers-history.json",
        "tests/fixtures/world/callers-history.events.json",
    );
}

/// The logs as they were before each `sent` named its origin: the new logs are
/// those, byte for byte, with that one field added. (Kept as they were; the
/// origin replaces a table the lab kept beside the world.)
#[test]
fn the_logs_are_the_earlier_ones_with_each_sent_naming_its_origin() {
    for name in ["mixed-history", "callers-history"] {
        let now =
            std::fs::read_to_string(format!("tests/fixtures/world/{name}.events.json")).unwrap();
        let before = std::fs::read_to_string(format!(
            "tests/fixtures/world/{name}.events.without-origin.json"
        ))
        .unwrap();
        let (origins, rest): (Vec<&str>, Vec<&str>) = now
            .split_inclusive('\n')
            .partition(|line| line.trim_start().starts_with("\"origin\": "));
        assert_eq!(rest.concat(), before, "{name}: only the origins were added");
        let sent = now.matches("\"event\": \"sent\"").count();
        assert_eq!(
            origins.len(),
            sent,
            "{name}: every sent names its origin, once"
        );
        assert!(sent > 0, "{name}");
    }
}
