#![cfg(not(target_arch = "wasm32"))]
//! What the explorer says, natively: each step of a found history and what it
//! did in English with its values in place, every case said apart from the
//! others in each language, and the promises' names.

use std::collections::BTreeSet;

use idempotency_lab::core::{CrashPoint, GrantPoints, Language};
use idempotency_lab::i18n::Lang;
use idempotency_lab::lab::explore::{Promise, Said};
use idempotency_lab::lab::{Action, Invariant, Setting, StoreKind, HOUR_MS};

/// Without the marks that keep a name or a number whole in either direction.
fn plain(text: String) -> String {
    text.replace(['\u{2068}', '\u{2069}'], "")
}

fn every_step() -> Vec<Action> {
    let send = |lose| Action::Send {
        grant: GrantPoints::new("order-1", "alice", 100),
        lose_acknowledgement: lose,
    };
    vec![
        send(false),
        send(true),
        Action::RetrySame {
            lose_acknowledgement: false,
        },
        Action::RetrySame {
            lose_acknowledgement: true,
        },
        Action::RetryFresh {
            lose_acknowledgement: false,
        },
        Action::Burst {
            account_id: "bob".into(),
            points: 1,
            count: 3,
        },
        Action::Step,
        Action::Wait { ms: 1_500 },
        Action::CheckBalance {
            account_id: "bob".into(),
        },
        Action::Restart,
        Action::Set(Setting::Paused(true)),
        Action::Set(Setting::Paused(false)),
        Action::Set(Setting::Store(StoreKind::BalanceFirst)),
        Action::SetCrashPoint { point: None },
        Action::SetCrashPoint {
            point: Some(CrashPoint::BetweenWrites),
        },
        Action::MoveClock { ms: 25 * HOUR_MS },
        Action::SetRedeliver { on: true },
        Action::SetRedeliver { on: false },
        Action::SignIn {
            account_id: Some("bob".into()),
        },
        Action::SignIn { account_id: None },
        Action::SetPreferredLanguage {
            account_id: "bob".into(),
            language: Language::Persian,
        },
    ]
}

fn every_clause() -> Vec<Said> {
    vec![
        Said::Applied {
            attempt: 1,
            points: 100,
            account: "alice".into(),
            balance: 200,
        },
        Said::Replayed { attempt: 2 },
        Said::Refused { attempt: 3 },
        Said::AckLost { attempt: 4 },
        Said::TimedOut { attempt: 5 },
        Said::Crashed {
            attempt: 6,
            point: CrashPoint::AfterCommit,
        },
        Said::Ended { process: 7 },
        Said::Redelivered { attempt: 9, of: 8 },
        Said::Expired {
            key: "order-1".into(),
        },
        Said::Emailed {
            account: "alice".into(),
        },
        Said::Forbidden { attempt: 10 },
        Said::Broke(Promise::OneEmail),
    ]
}

#[test]
fn the_explorer_says_each_value_in_its_place() {
    let t = Lang::En.texts();
    let steps: Vec<String> = every_step()
        .iter()
        .map(|s| plain(t.explorer_step(s)))
        .collect();
    assert_eq!(steps[0], "Send 100 points to alice under key order-1");
    assert_eq!(
        steps[1],
        "Send 100 points to alice under key order-1, and its acknowledgement is lost"
    );
    assert_eq!(
        steps[3],
        "Retry the last request with the same key, and its acknowledgement is lost"
    );
    assert_eq!(steps[5], "A burst: 3 grants to bob, each under its own key");
    assert_eq!(steps[7], "Wait 1.5 seconds");
    assert_eq!(steps[14], "Arm a crash: Between the two writes");
    assert_eq!(steps[15], "Move the clock 1 day 1 hour on");
    assert_eq!(steps[18], "Sign in as bob");
    let said: Vec<String> = every_clause()
        .iter()
        .map(|c| plain(t.explorer_did(std::slice::from_ref(c))))
        .collect();
    assert_eq!(
        said[0],
        "the store adds 100 points to alice for #1 (balance 200)"
    );
    assert_eq!(
        said[5],
        "the process crashes while handling #6 (After commit, before acknowledgement)"
    );
    assert_eq!(said[6], "process 7 ends: its queue and memory are gone");
    assert_eq!(said[7], "the queue delivers #8’s message again, as #9");
    assert_eq!(
        said[11],
        "this breaks “Each operation’s customer gets at most one email”"
    );
    assert_eq!(
        plain(t.explorer_did(&every_clause()[..2])),
        format!("{}; {}", said[0], said[1])
    );
    assert_eq!(t.explorer_did(&[]), "nothing visible happens yet");
    assert_eq!(
        plain(t.explorer.broken("P", 1_234, 3)),
        "Broken: “P”, by history 1,234, cut down to 3 steps:"
    );
    assert_eq!(
        plain(t.explorer.broken("P", 7, 1)),
        "Broken: “P”, by history 7, cut down to 1 step:"
    );
    assert_eq!(
        plain(t.explorer.held(10_000, 12, 1)),
        "No promise broken in 10,000 histories of up to 12 steps (seed 1). Not a proof, but a strong hint."
    );
    assert_eq!(
        plain(t.explorer.running(2_500, 1_250)),
        "2,500 histories tried in 1.3 s, no promise broken yet"
    );
    assert_eq!(
        plain(t.explorer.shrinking(12, "P")),
        "History 12 broke “P”: cutting it down to its fewest steps…"
    );
    assert_eq!(
        plain(t.explorer.cancelled(40)),
        "Stopped after 40 histories; none had broken a promise."
    );
    assert_eq!(
        plain(t.explorer.histories_range(0, 1_000_000)),
        "A search tries 1 to 1,000,000 histories, not 0."
    );
    // A negative number gets the range's message too, grouped.
    assert_eq!(
        plain(t.explorer.histories_range(-1_500, 1_000_000)),
        "A search tries 1 to 1,000,000 histories, not -1,500."
    );
    assert_eq!(
        plain(t.explorer.guest_setup("P")),
        "The lab with the settings the search ran under; nothing has happened yet. Step through \
         the shortest history that breaks “P” and watch where it breaks."
    );
    assert_eq!(
        plain(t.explorer.safety_running(3, 192, 3_000, 500)),
        "3 of 192 rows, 3,000 histories, 0.5 s"
    );
    assert_eq!(
        plain(t.explorer.safety_done(192_000, 16_000, 12, 192)),
        "Done: 192,000 histories in 16.0 s. 12 of 192 rows keep every promise."
    );
    assert_eq!(
        plain(t.explorer.safety_cancelled(5)),
        "Stopped after 5 rows."
    );
    assert_eq!(
        plain(t.explorer.safety_held(1_000)),
        "kept in 1,000 histories"
    );
    assert_eq!(plain(t.explorer.safety_broken(7)), "broken by history 7");
    assert!(plain(t.explorer.safety_intro(1_000)).contains("up to 1,000 histories"));
    assert_eq!(
        plain(
            t.explorer
                .guest_step("Restart the process", "process 1 ends")
        ),
        "Restart the process. Then process 1 ends."
    );
    assert_eq!(t.explorer.yes_no(true), "yes");
    assert_eq!(t.explorer.yes_no(false), "no");
}

#[test]
fn every_case_of_the_explorer_is_said_apart_in_each_language() {
    for lang in [Lang::En, Lang::Fa] {
        let t = lang.texts();
        let steps: BTreeSet<String> = every_step().iter().map(|s| t.explorer_step(s)).collect();
        assert_eq!(steps.len(), every_step().len(), "{lang:?}: {steps:?}");
        let said: BTreeSet<String> = every_clause()
            .iter()
            .map(|c| t.explorer_did(std::slice::from_ref(c)))
            .collect();
        assert_eq!(said.len(), every_clause().len(), "{lang:?}");
        let names: BTreeSet<&str> = Promise::ALL.iter().map(|p| t.promise(*p)).collect();
        assert_eq!(names.len(), Promise::ALL.len());
        let short: BTreeSet<&str> = Promise::ALL.iter().map(|p| t.explorer.short(*p)).collect();
        assert_eq!(short.len(), Promise::ALL.len());
        assert!(steps
            .iter()
            .chain(&said)
            .all(|text| !text.trim().is_empty()));
        assert_eq!(
            t.promise(Promise::Kept(Invariant::AtMostOnce)),
            t.invariant(Invariant::AtMostOnce)
        );
        assert_ne!(t.explorer.yes_no(true), t.explorer.yes_no(false));
    }
    let fa = Lang::Fa.texts();
    assert!(plain(fa.explorer.held(10_000, 12, 1)).contains("۱۰٬۰۰۰"));
}
