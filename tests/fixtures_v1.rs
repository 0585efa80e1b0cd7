#![cfg(not(target_arch = "wasm32"))]
//! Sessions saved by the build before the simulated world (version 1: no clock, the
//! consumer moved in counted steps) still open, and show what that build showed.
//!
//! `tests/fixtures/sessions-v1/v1-outcomes.txt` is what the old build printed for
//! each file. Every session must give exactly those lines today, except:
//! - `overflow-then-retry`, where the old build guessed wrong (the point
//!   8): `big` +5 after the refused `big` +2147483647 is the first attempt of its
//!   own request, and "Retry (same key)" resends `big` +5, which the store replays;
//! - the attempt number, which now counts attempts of the exact request (see
//!   `CHANGES`);
//! - `stress-small`, whose duplicates now race (a stress run keeps many calls
//!   open at once): everything but the order of answers and which copy of a key
//!   came first is still exactly as before.

use std::collections::BTreeMap;

use idempotency_lab::lab::{
    from_json, from_link_token, to_json, to_link_token, Action, Lab, Outcome, SessionError,
    Setting, Truth, SESSION_VERSION,
};
use idempotency_lab::GrantPoints;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/sessions-v1");
const NAMES: [&str; 5] = [
    "article-walk",
    "receipt-vs-balance",
    "burst-paused",
    "overflow-then-retry",
    "stress-small",
];

fn read(name: &str) -> String {
    std::fs::read_to_string(format!("{DIR}/{name}"))
        .unwrap_or_else(|e| panic!("fixture {name}: {e}"))
}

fn open(name: &str) -> Lab {
    from_json(&read(&format!("{name}.json"))).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// What the old build printed, by session name.
fn old_outcomes() -> BTreeMap<String, Vec<String>> {
    let mut sections: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut current = None;
    for line in read("v1-outcomes.txt").lines() {
        if let Some(name) = line.strip_prefix("== ") {
            current = Some(name.to_owned());
            sections.insert(name.to_owned(), Vec::new());
        } else if !line.trim().is_empty() {
            let name = current.as_ref().expect("a section header first");
            sections.get_mut(name).unwrap().push(line.trim().to_owned());
        }
    }
    sections
}

/// The lab's state in the old build's words (`of_key` is now the attempt of the
/// exact request; the balance read is printed without its new time stamp).
fn describe(lab: &Lab) -> Vec<String> {
    let state = lab.state();
    // The old build listed only attempts whose caller had heard something; the
    // rows still waiting are checked on their own.
    let mut lines: Vec<String> = state
        .timeline()
        .iter()
        .filter(|row| row.answered())
        .map(|row| {
            format!(
                "#{} {} {} +{} of_key={} {} caller={:?} bal={}",
                row.attempt.id,
                row.attempt.grant.account_id,
                row.attempt.grant.key,
                row.attempt.grant.points,
                row.attempt.attempt_of_request,
                row.outcome().code(),
                row.caller_receipt().map(|r| r.balance),
                row.balance_after
            )
        })
        .collect();
    let read = state.last_read().map(|r| {
        format!(
            "BalanceRead {{ account_id: {:?}, balance: {}, after_attempts: {} }}",
            r.account_id,
            r.balance.as_ref().unwrap(),
            r.after_attempts
        )
    });
    lines.push(format!(
        "balances {:?} queue {} waiting {} in_hand {:?} paused {} retry {:?} read {}",
        state.store().balances(),
        state.queue().len(),
        state.waiting(),
        state.in_hand().map(|a| a.id),
        state.settings().paused,
        state.retry_target(),
        read.map_or("None".to_owned(), |r| format!("Some({r})"))
    ));
    lines
}

fn codes(lab: &Lab) -> Vec<&'static str> {
    lab.state()
        .timeline()
        .iter()
        .map(|r| r.outcome().code())
        .collect()
}

fn event_log(lab: &Lab) -> String {
    serde_json::to_string(&*lab.state().world().events()).unwrap()
}

#[test]
fn every_fixture_is_described_in_the_old_outcomes() {
    let old = old_outcomes();
    assert_eq!(old.keys().map(String::as_str).collect::<Vec<_>>(), {
        let mut names = NAMES.to_vec();
        names.sort_unstable();
        names
    });
}

/// Where today's build differs from the old one on purpose, as (session, line,
/// old line, new line). Everything else must be the same, line for line.
///
/// The attempt number now counts attempts of the exact request (account, key and
/// points): `order-1042` +200 in the article's walk is not a third try of the +100
/// grant but the first of another request, which the store refuses. And a fresh
/// key is named for what it is, a new operation: `order-1042-fresh-1`, the first
/// one, where the old build said `order-1042-retry-2`.
const CHANGES: [(&str, usize, &str, &str); 3] = [
    (
        "article-walk",
        2,
        "#3 account-7 order-1042 +200 of_key=3 rejected caller=None bal=100",
        "#3 account-7 order-1042 +200 of_key=1 rejected caller=None bal=100",
    ),
    (
        "article-walk",
        3,
        "#4 account-7 order-1042-retry-2 +100 of_key=1 applied caller=Some(200) bal=200",
        "#4 account-7 order-1042-fresh-1 +100 of_key=1 applied caller=Some(200) bal=200",
    ),
    (
        "article-walk",
        4,
        "balances [(\"account-7\", 200)] queue 0 waiting 0 in_hand None paused false retry Some(GrantPoints { key: \"order-1042-retry-2\", account_id: \"account-7\", points: 100 }) read None",
        "balances [(\"account-7\", 200)] queue 0 waiting 0 in_hand None paused false retry Some(GrantPoints { key: \"order-1042-fresh-1\", account_id: \"account-7\", points: 100 }) read None",
    ),
];

/// The old build's lines for `name`, with the deliberate changes made.
fn expected(name: &str) -> Vec<String> {
    let mut lines = old_outcomes()[name].clone();
    for (session, index, old, new) in CHANGES {
        if session == name {
            assert_eq!(lines[index], old, "{name}: the old line");
            lines[index] = new.to_owned();
        }
    }
    lines
}

#[test]
fn each_v1_session_shows_what_the_old_build_showed() {
    for name in ["article-walk", "receipt-vs-balance", "burst-paused"] {
        assert_eq!(describe(&open(name)), expected(name), "{name}");
    }
    assert_eq!(
        expected("receipt-vs-balance"),
        old_outcomes()["receipt-vs-balance"]
    );
    assert_eq!(expected("burst-paused"), old_outcomes()["burst-paused"]);
}

/// A stress run is now a batch job that keeps `STRESS_CONCURRENCY` calls open, so
/// the copies of a duplicated key race through the queue, and the answers come
/// back in the order the store dealt with them. What the old build fixed still
/// holds exactly: the same 201 requests with the same attempt numbers, each key
/// granted once, every copy answered with that grant's receipt, the same counts,
/// balance and final state.
#[test]
fn stress_small_sends_the_same_requests_and_grants_each_key_once() {
    let lab = open("stress-small");
    let old = &old_outcomes()["stress-small"];
    let now = describe(&lab);
    assert_eq!(now.len(), old.len());
    assert_eq!(now.last(), old.last(), "the final state");
    // "#id account key +points of_key=n": who asked for what, in sending order.
    let request = |line: &String| line.split(' ').take(5).collect::<Vec<_>>().join(" ");
    let mut sent: Vec<(u64, String)> = lab
        .state()
        .timeline()
        .iter()
        .zip(&now)
        .map(|(row, line)| (row.attempt.id, request(line)))
        .collect();
    sent.sort_unstable();
    let old_requests: Vec<String> = old[..old.len() - 1].iter().map(request).collect();
    assert_eq!(
        sent.into_iter().map(|(_, r)| r).collect::<Vec<_>>(),
        old_requests
    );

    let rows = lab.state().timeline();
    let mut by_key: BTreeMap<&str, Vec<&idempotency_lab::lab::AttemptRow>> = BTreeMap::new();
    for row in rows {
        by_key.entry(&row.attempt.grant.key).or_default().push(row);
    }
    assert_eq!(by_key.len(), 153);
    for (key, copies) in &by_key {
        let applied: Vec<_> = copies
            .iter()
            .filter(|r| r.outcome() == Outcome::Applied)
            .collect();
        assert_eq!(applied.len(), 1, "{key}");
        let receipt = applied[0].caller_receipt().unwrap();
        for copy in copies {
            assert_eq!(copy.caller_receipt(), Some(receipt), "{key}");
        }
        let old_copies = old_requests
            .iter()
            .filter(|r| r.split(' ').nth(2) == Some(*key))
            .count();
        assert_eq!(copies.len(), old_copies, "{key}");
    }
    let count = |o: Outcome| rows.iter().filter(|r| r.outcome() == o).count();
    assert_eq!(count(Outcome::Applied), 153);
    assert_eq!(count(Outcome::Replayed), 48);
    assert_eq!(
        old.iter().filter(|l| l.contains(" applied ")).count(),
        153,
        "as the old build counted"
    );
    // Each grant's receipt is a step of 2 on the way to 304, then k's 3.
    let mut balances: Vec<i32> = by_key
        .values()
        .map(|copies| copies[0].caller_receipt().unwrap().balance)
        .collect();
    balances.sort_unstable();
    assert_eq!(
        balances,
        (1..=152).map(|n| 2 * n).chain([307]).collect::<Vec<_>>()
    );
    assert_eq!(lab.state().store().balance("account-9"), 307);
    assert_eq!(lab.state().store().receipts().len(), 153);
}

#[test]
fn overflow_then_retry_no_longer_guesses_the_retry() {
    let old = &old_outcomes()["overflow-then-retry"];
    let expected = [
        "#1 account-7 order-1042 +100 of_key=1 applied caller=Some(100) bal=100",
        "#2 account-7 big +2147483647 of_key=1 rejected caller=None bal=100",
        "#3 account-7 big +5 of_key=1 applied caller=Some(105) bal=105",
        "#4 account-7 big +5 of_key=2 replayed caller=Some(105) bal=105",
        "balances [(\"account-7\", 105)] queue 0 waiting 0 in_hand None paused false \
         retry Some(GrantPoints { key: \"big\", account_id: \"account-7\", points: 5 }) read None",
    ];
    let lab = open("overflow-then-retry");
    assert_eq!(describe(&lab), expected);
    // What changed, line by line: the third attempt's number, the retry's request
    // and outcome, and the retry target. The first two rows are as before.
    assert_eq!(old[..2], expected[..2]);
    assert_eq!(
        old[2],
        "#3 account-7 big +5 of_key=2 applied caller=Some(105) bal=105"
    );
    assert_eq!(
        old[3],
        "#4 account-7 big +2147483647 of_key=3 rejected caller=None bal=105"
    );
    let row = &lab.state().timeline()[1];
    assert_eq!(
        row.store_error(),
        Some(&idempotency_lab::GrantError::Overflow)
    );
    let retry = &lab.state().timeline()[3];
    assert_eq!(
        retry.attempt.origin,
        idempotency_lab::lab::Origin::RetrySame
    );
    assert_eq!(retry.attempt.grant, GrantPoints::new("big", "account-7", 5));
}

#[test]
fn the_article_walk_opens_from_its_file_and_from_its_link_alike() {
    let from_file = open("article-walk");
    let from_link = from_link_token(read("article-walk.link").trim()).unwrap();
    assert_eq!(from_link.history(), from_file.history());
    assert_eq!(event_log(&from_link), event_log(&from_file));
    assert_eq!(describe(&from_link), expected("article-walk"));

    let lab = from_file;
    assert_eq!(
        codes(&lab),
        ["timeout-applied", "replayed", "rejected", "applied"]
    );
    let rows = lab.state().timeline();
    let attempts: Vec<u32> = rows.iter().map(|r| r.attempt.attempt_of_request).collect();
    assert_eq!(attempts, [1, 2, 1, 1]);
    // The old lab had no clock: work takes no time, and the lost acknowledgement
    // is found out at the caller's deadline, when the consumer's moves ran.
    assert_eq!(rows[0].truth(), Some(Truth::AppliedBeforeTimeout));
    assert_eq!(rows[0].handled.as_ref().unwrap().at, 0);
    assert_eq!(rows[0].answered_at, Some(3_000));
    assert!(rows[1..].iter().all(|r| r.answered_at == Some(3_000)));
    assert_eq!(lab.state().now(), 3_000);
    assert_eq!(lab.state().in_flight(), 0);
    assert_eq!(lab.state().process_number(), 1);
    // Converted to today's actions: no processing time, messages that arrive
    // at once, and each run of consumer moves became "let the world run until
    // it is idle".
    assert_eq!(
        lab.history().actions,
        [
            Action::Set(Setting::ProcessingMs(0)),
            Action::Set(Setting::TransitMs(0)),
            Action::Send {
                grant: GrantPoints::new("order-1042", "account-7", 100),
                lose_acknowledgement: true
            },
            Action::Wait { ms: 3_000 },
            Action::RetrySame {
                lose_acknowledgement: false
            },
            Action::Send {
                grant: GrantPoints::new("order-1042", "account-7", 200),
                lose_acknowledgement: false
            },
            Action::RetryFresh {
                lose_acknowledgement: false
            },
        ]
    );
}

#[test]
fn receipt_vs_balance_reads_125_while_the_receipt_says_100() {
    let lab = open("receipt-vs-balance");
    assert_eq!(codes(&lab), ["applied", "applied", "replayed", "replayed"]);
    let rows = lab.state().timeline();
    assert_eq!(rows[3].caller_receipt().unwrap().balance, 100);
    assert_eq!(rows[3].balance_after, 125);
    let read = lab.state().last_read().unwrap();
    assert_eq!(
        (read.balance.clone(), read.after_attempts, read.at),
        (Ok(125), 4, 0)
    );
    assert_eq!(lab.state().now(), 0, "nothing waited on a clock");
}

#[test]
fn burst_paused_opens_with_the_queue_full_and_producers_waiting() {
    let lab = open("burst-paused");
    let state = lab.state();
    assert!(state.settings().paused);
    let queue: Vec<u64> = state.queue().iter().map(|a| a.id).collect();
    assert_eq!(queue, (1..=16).collect::<Vec<_>>());
    assert_eq!(state.waiting(), 4);
    assert_eq!(state.in_hand(), None);
    // Every one of the twenty has a row from the moment it was sent, waiting.
    let rows: Vec<(u64, &str)> = state
        .timeline()
        .iter()
        .map(|r| (r.attempt.id, r.outcome().code()))
        .collect();
    assert_eq!(rows, (1..=20).map(|id| (id, "pending")).collect::<Vec<_>>());
    assert_eq!(state.in_flight(), 20);
    assert_eq!(state.now(), 0);
    assert_eq!(state.retry_target(), None, "a burst is not retried");
    // The callers' clocks run from here: at their deadline they give up.
    assert_eq!(state.until_next(), Some(3_000));
}

#[test]
fn converted_sessions_are_saved_in_todays_version_and_replay_to_the_same_world() {
    for name in NAMES {
        let lab = open(name);
        let saved = to_json(lab.history());
        assert!(
            saved.contains(&format!("\"version\": {SESSION_VERSION}")),
            "{name}"
        );
        for copy in [
            from_json(&saved).unwrap(),
            from_link_token(&to_link_token(lab.history())).unwrap(),
            Lab::replay(lab.history()).unwrap(),
        ] {
            assert_eq!(copy.history(), lab.history(), "{name}");
            assert_eq!(event_log(&copy), event_log(&lab), "{name}");
            assert_eq!(describe(&copy), describe(&lab), "{name}");
        }
    }
}

#[test]
fn an_unknown_version_is_refused_with_a_clear_reason() {
    for name in NAMES {
        let text = read(&format!("{name}.json"));
        assert!(text.contains("\"version\": 1"), "{name}");
        for version in [0, SESSION_VERSION + 1, 99] {
            let changed = text.replace("\"version\": 1", &format!("\"version\": {version}"));
            let error = from_json(&changed).unwrap_err();
            assert_eq!(error, SessionError::UnsupportedVersion(version), "{name}");
            assert_eq!(
                error.to_string(),
                format!(
                    "session version {version} is not supported (this lab reads {SESSION_VERSION})"
                )
            );
        }
    }
    // The same through a link.
    use base64::Engine;
    let engine = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let text = engine
        .decode(read("article-walk.link").trim())
        .map(String::from_utf8)
        .unwrap()
        .unwrap();
    assert!(text.contains("\"version\":1"));
    let future = SESSION_VERSION + 1;
    let token = engine.encode(text.replace("\"version\":1", &format!("\"version\":{future}")));
    assert_eq!(
        from_link_token(&token).unwrap_err(),
        SessionError::UnsupportedVersion(future)
    );
}
