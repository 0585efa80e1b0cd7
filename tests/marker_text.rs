#![cfg(not(target_arch = "wasm32"))]
//! The words of the timeline's marker rows and of the promises panel: a crash is
//! told by what it left, as the article labels each write order; the other
//! markers say what happened; every text has its Persian.

mod common;

use common::{idle, lab_of, retry};
use idempotency_lab::i18n::Lang;
use idempotency_lab::lab::{Action, Invariant, Marker, MarkerKind, Setting};
use idempotency_lab::sim::{StoreKind, HOUR_MS};
use idempotency_lab::{CrashPoint, GrantPoints};

fn send(key: &str) -> Action {
    common::send(key, 100)
}

fn say(lang: Lang, marker: &Marker) -> String {
    lang.texts().marker_text(marker)
}

/// The crash row's English sentence after one send crashed at `point`.
fn crash_sentence(kind: StoreKind, point: CrashPoint) -> String {
    let lab = idle(lab_of(&[
        Action::Set(Setting::Store(kind)),
        Action::SetCrashPoint { point: Some(point) },
        send("order-1042"),
    ]));
    let marker = lab
        .state()
        .markers()
        .iter()
        .find(|m| matches!(m.kind, MarkerKind::Crash { .. }))
        .expect("a crash marker")
        .clone();
    say(Lang::En, &marker)
}

#[test]
fn a_crash_between_the_writes_is_told_by_what_each_write_order_left() {
    let between = |kind| crash_sentence(kind, CrashPoint::BetweenWrites);
    let cases = [
        (
            StoreKind::ReceiptFirst,
            "Process 1 crashed between the two writes while handling attempt #1: the receipt \
             was written, the points were not. Receipt first leaves a completion with no points",
        ),
        (
            StoreKind::BalanceFirst,
            "Process 1 crashed between the two writes while handling attempt #1: the points \
             were added, the receipt was not. Balance first leaves points with no receipt",
        ),
        (
            StoreKind::OneTransaction,
            "Process 1 crashed between the two writes while handling attempt #1: nothing is \
             half-done. In one transaction the staged writes are gone with the process",
        ),
        (
            StoreKind::InMemory,
            "Process 1 crashed between the two writes while handling attempt #1: its store was \
             its memory",
        ),
    ];
    for (kind, expected) in cases {
        let said = between(kind);
        assert!(said.starts_with(expected), "{kind:?}: {said}");
    }
}

#[test]
fn before_the_writes_nothing_stands_and_after_commit_only_the_answer_is_missing() {
    for kind in [
        StoreKind::ReceiptFirst,
        StoreKind::BalanceFirst,
        StoreKind::OneTransaction,
        StoreKind::InMemory,
    ] {
        let said = crash_sentence(kind, CrashPoint::BeforeWrites);
        assert!(
            said.ends_with("before anything was written while handling attempt #1: nothing was written, so a retry starts afresh."),
            "{kind:?}: {said}"
        );
    }
    for kind in [
        StoreKind::ReceiptFirst,
        StoreKind::BalanceFirst,
        StoreKind::OneTransaction,
    ] {
        let said = crash_sentence(kind, CrashPoint::AfterCommit);
        assert!(
            said.contains("after the commit, before the answer left while handling attempt #1: points and receipt were committed, the answer was never sent."),
            "{kind:?}: {said}"
        );
    }
}

#[test]
fn a_restart_a_second_process_a_conflict_an_expiry_and_a_clock_move_are_said_in_words() {
    let mut lab = idle(lab_of(&[
        Action::Set(Setting::Store(StoreKind::OneTransaction)),
        Action::Set(Setting::Processes(2)),
        Action::Set(Setting::ProcessingMs(1_000)),
        send("order-1042"),
        retry(),
    ]));
    lab.dispatch(Action::MoveClock { ms: 25 * HOUR_MS })
        .unwrap();
    lab.dispatch(Action::Restart).unwrap();
    let lab = idle(lab);
    let said: Vec<(&str, String)> = lab
        .state()
        .markers()
        .iter()
        .map(|m| (m.kind.code(), say(Lang::En, m)))
        .collect();
    let text = |code: &str| {
        said.iter()
            .find(|(c, _)| *c == code)
            .unwrap_or_else(|| panic!("no {code} marker in {said:?}"))
            .1
            .clone()
    };
    assert_eq!(
        text("process-started"),
        "Process 2 started as a second process, with its own queue and consumer."
    );
    assert_eq!(
        text("commit-conflict"),
        "Attempt #2 (process 2) lost the race: another attempt of the operation committed \
         first; its transaction rolled back and it returned the committed receipt."
    );
    assert_eq!(
        text("expired"),
        "The receipt for \u{2068}account-7\u{2069} · \u{2068}order-1042\u{2069} expired (retention 24 h)."
    );
    assert_eq!(text("clock"), "Clock moved forward by 1 day 1 hour.");
    assert_eq!(
        text("restart"),
        "Process 1 ended; process 3 took its place: memory, queue and work in hand are gone."
    );
}

#[test]
fn a_conflict_outside_a_transaction_says_whether_the_points_stay() {
    // Two processes, one operation sent twice at once: the second to write its
    // receipt meets the unique constraint.
    let race = |kind| {
        let lab = idle(lab_of(&[
            Action::Set(Setting::Store(kind)),
            Action::Set(Setting::Processes(2)),
            Action::Set(Setting::ProcessingMs(1_000)),
            Action::Send {
                grant: GrantPoints::new("order-1042", "account-7", 100),
                lose_acknowledgement: false,
            },
            retry(),
        ]));
        let marker = lab
            .state()
            .markers()
            .iter()
            .find(|m| m.kind.code() == "commit-conflict")
            .expect("a conflict")
            .clone();
        say(Lang::En, &marker)
    };
    assert!(race(StoreKind::BalanceFirst)
        .ends_with("the unique key refused this one's receipt, but the points it added stay."));
    assert!(race(StoreKind::ReceiptFirst).ends_with(
        "refused this one's receipt before it added anything, and it returned that receipt."
    ));
    assert!(race(StoreKind::OneTransaction)
        .ends_with("its transaction rolled back and it returned the committed receipt."));
}

#[test]
fn every_marker_and_promise_has_persian_words_of_its_own() {
    let lab = idle(lab_of(&[
        Action::Set(Setting::Store(StoreKind::BalanceFirst)),
        Action::SetCrashPoint {
            point: Some(CrashPoint::BetweenWrites),
        },
        send("order-1042"),
        Action::Wait { ms: 200 },
        send("order-1043"),
        Action::Wait { ms: 200 },
        Action::Set(Setting::Processes(2)),
        Action::MoveClock { ms: 30 * HOUR_MS },
        Action::Set(Setting::Processes(1)),
    ]));
    let markers = lab.state().markers();
    let codes: Vec<&str> = markers.iter().map(|m| m.kind.code()).collect();
    assert_eq!(
        codes,
        [
            "crash",
            "restart",
            "process-started",
            "expired",
            "clock",
            "process-ended"
        ]
    );
    for marker in markers {
        let (en, fa) = (say(Lang::En, marker), say(Lang::Fa, marker));
        assert!(!fa.is_empty() && fa != en, "{marker:?}");
        assert!(
            fa.chars().any(|c| ('\u{0600}'..='\u{06FF}').contains(&c)),
            "{fa}"
        );
    }
    for invariant in Invariant::ALL {
        for lang in Lang::ALL {
            let t = lang.texts();
            assert!(!t.invariant(invariant).is_empty());
            assert!(!t.broke_promise(invariant).is_empty());
            // The attempt as the timeline numbers it, in the page's digits.
            let two = format!("#{}", lang.number(2));
            assert!(t.announce_broken(invariant, 2, 3_100).contains(&two));
        }
    }
    assert_eq!(
        Lang::En.texts().broken_by(2, 3_100),
        "Broken by attempt #2 at 3.1 s"
    );
    assert_eq!(
        Lang::Fa.texts().broken_by(2, 3_100),
        "شکسته با تلاش \u{2066}#۲\u{2069} در ۳٫۱ ثانیه"
    );
}
