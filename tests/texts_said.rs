#![cfg(not(target_arch = "wasm32"))]
//! What each message the page's components ask for says, natively: the
//! English words with their values in place, and every case of a choice said
//! apart from the others in each language. (The components themselves are
//! tested in the browser; this pins the words they are given.)

use std::collections::BTreeSet;

use idempotency_lab::core::{
    CrashPoint, EmailVia, GrantError, GrantPoints, GrantResult, InFlightPolicy, Language,
};
use idempotency_lab::embed_code::SizeError;
use idempotency_lab::i18n::Lang;
use idempotency_lab::lab::{DurableWrites, FieldError, RegrantCause, MAX_FIELD_CHARS};
use idempotency_lab::sim::{Acknowledge, Routing, StoreKind};
use idempotency_lab::walkthrough::{ProgressError, Standing};

fn account_7() -> (GrantPoints, GrantResult) {
    let grant = GrantPoints {
        key: "order-1042".into(),
        account_id: "account-7".into(),
        points: 100,
    };
    let receipt = GrantResult {
        key: "order-1042".into(),
        account_id: "account-7".into(),
        points: 100,
        balance: 100,
    };
    (grant, receipt)
}

#[test]
fn the_lab_says_each_value_in_its_place() {
    let t = Lang::En.texts();
    let (grant, receipt) = account_7();
    let said = [
        (t.burst(20), "Burst: 20 grants at once".to_string()),
        (t.queue_slots(3, 16), "3 of 16 slots taken".into()),
        (t.attempt_number(12), "attempt 12".into()),
        (t.producers_waiting(2), "2 producers waiting for room".into()),
        (
            t.balance_read_stale(125),
            "Out of date: the balance is 125 now. Press “Check balance” to read it again.".into(),
        ),
        (
            t.field_error(FieldError::TooLong),
            format!("Too long: at most {MAX_FIELD_CHARS} characters."),
        ),
        (t.field_error(FieldError::TooLarge), "Too large: at most 2,147,483,647.".into()),
        (
            t.size_error(SizeError::Range { min: 480, max: 4000 }),
            "a whole number from 480 to 4,000".into(),
        ),
        (t.size_error(SizeError::Field(FieldError::TooLarge)), "Too large: at most 2,147,483,647.".into()),
        (
            t.grant_error_short(&GrantError::PayloadMismatch {
                stored: receipt.clone(),
                rejected: GrantPoints { points: 200, ..grant.clone() },
            }),
            "key already used for 100 points".into(),
        ),
        (t.grant_error_short(&GrantError::Timeout), "timeout".into()),
        (t.imported(1), "Session imported: 1 action replayed.".into()),
        (t.imported(3), "Session imported: 3 actions replayed.".into()),
        (t.stress(10_000, 30), "Stress: 10,000 grants, 30% duplicates".into()),
        (t.rows_range(1, 20, 31), "Attempts 1–20 of 31".into()),
        (t.receipts_more(4), "… and 4 more".into()),
        (t.chart_recent(50), "last 50 attempts".into()),
        (
            t.time_not_after_now(3_100),
            "That time is not after now (3.1 s): the clock only moves forward. Nothing changed."
                .into(),
        ),
        (t.routing(Routing::Only(2)), "Always process 2".into()),
        (t.routing(Routing::RoundRobin), "Round robin".into()),
        (t.retention_unchanged(1), "Nothing changed: receipts are still kept 1 hour.".into()),
        (t.retention_unchanged(24), "Nothing changed: receipts are still kept 24 hours.".into()),
        (t.process_heading(3), "Process 3".into()),
        (
            t.store_shows_memory(1),
            "The article's in-memory store, inside process 1: lost when that process ends.".into(),
        ),
        (
            t.store_shows_memories(1, 2),
            "Each process has its own memory: process 1's first, then process 2's. Neither knows what the other granted.".into(),
        ),
        (t.memory_of(2), "Process 2's memory".into()),
        (t.store_title_memory(2), "Store: process 2's memory".into()),
        (t.at_time(1_200), "at 1.2 s".into()),
        (t.process_marker(2), "process 2".into()),
        (
            t.granted_again(3, 1, RegrantCause::Restart),
            "granted again: process 1 had applied this operation, and the restart forgot its receipt".into(),
        ),
        (
            t.granted_again(3, 2, RegrantCause::Race),
            "granted again: attempt #3 (process 2) was applying this operation at the same moment, and neither found a receipt".into(),
        ),
        (t.show_attempt(2), "Show attempt #2 in the timeline".into()),
        (t.markers_more(1), "… and 1 more event here, not shown".into()),
        (t.markers_more(5), "… and 5 more events here, not shown".into()),
        (
            t.in_progress_record(4, 1_000, None),
            "held by attempt #4 since 1.0 s, in the durable store".into(),
        ),
        (
            t.in_progress_record(4, 1_000, Some(2)),
            "held by attempt #4 since 1.0 s, in process 2's memory".into(),
        ),
        (t.met_in_progress(4, true), "found attempt #4 in progress and waited for it".into()),
        (
            t.met_in_progress(4, false),
            "found attempt #4 in progress: told to retry later".into(),
        ),
        (t.redelivery_of(5), "the queue delivered #5 again".into()),
        (
            t.would_leak(&receipt),
            "a store that trusted the request would have handed over \u{2068}account-7\u{2069}'s receipt: +100, balance 100".into(),
        ),
        (
            t.would_grant(&grant),
            "a store that trusted the request would have added 100 points to \u{2068}account-7\u{2069}".into(),
        ),
        (
            t.email_line("account-7", "order-1042", 100),
            "To \u{2068}account-7\u{2069}: 100 points added (\u{2068}order-1042\u{2069})".into(),
        ),
        (
            t.inbox_dropped(1),
            "The mail service dropped 1 copy with an operation id it had already delivered.".into(),
        ),
        (
            t.inbox_dropped(2),
            "The mail service dropped 2 copies with operation ids it had already delivered.".into(),
        ),
        (t.backoff_row(1, 100, 200), "retry 1: waits 100–200 ms".into()),
        (t.retry_of(3), "automatic retry after #3".into()),
        (
            t.looked_up(Some(&receipt)),
            "out of attempts; looked up \u{2068}order-1042\u{2069}: it was applied (+100, balance 100)".into(),
        ),
        (
            t.looked_up(None),
            "out of attempts; looked it up: not found, no grant so far".into(),
        ),
    ];
    for (got, want) in said {
        assert_eq!(got, want);
    }
}

#[test]
fn the_walkthrough_says_each_value_in_its_place() {
    let w = Lang::En.walk();
    assert_eq!(w.section_of(2, 11), "Section 2 of 11");
    assert_eq!(w.step_of(4, 8), "Step 4 of 8");
    assert_eq!(w.bad_answer(FieldError::Empty), "Type a number first.");
    assert_eq!(
        w.bad_answer(FieldError::NotANumber),
        "That is not a whole number."
    );
    assert_eq!(
        w.unknown_scenario("s99", 11),
        "There is no scenario “s99” to open: the walkthrough has s1 to s11. The lab is as it was."
    );
    assert_eq!(
        w.progress_failed(&ProgressError::Version(9)),
        "Progress not imported: it comes from a newer lab (version 9)."
    );
    assert_eq!(w.paces(), ["Slow", "Normal", "Fast"]);
    // A presentation clicker's Page Down steps too, on over a section's end.
    assert_eq!(
        w.keys_list(false)[0],
        (
            "→ · Page Down",
            "Next step, on into the next section (← in Persian)"
        )
    );
    assert_eq!(
        w.course_done,
        "That was the course's last step: the course is done."
    );
    assert_eq!(w.keys_list(false)[1].0, "← · Page Up");
    assert_eq!(w.keys_list(false).len(), 8);
    // An embedded lesson leaves Page Down, Page Up and Space to the docs page,
    // and has no presenter mode: its list does not name them.
    let lesson = w.keys_list(true);
    assert_eq!(lesson[0].0, "→");
    assert_eq!(lesson[1].0, "←");
    for (key, does) in &lesson {
        assert!(
            !key.contains("Page") && !key.contains("Space") && !key.contains('P'),
            "{key}"
        );
        assert!(!does.contains("presenter"), "{does}");
    }
    let fa = Lang::Fa.walk();
    assert_eq!(fa.step_of(4, 8), "گام ۴ از ۸");
    assert_eq!(
        fa.keys_list(false)[0].0,
        "← یا Page Down",
        "Persian's next step is to the left"
    );
    assert_eq!(fa.keys_list(true)[0].0, "←");
}

/// Every case of a choice in its own words, in each language.
#[test]
fn every_case_of_a_choice_is_said_apart() {
    for lang in Lang::ALL {
        let t = lang.texts();
        let cases: Vec<Vec<String>> = vec![
            [
                StoreKind::InMemory,
                StoreKind::ReceiptFirst,
                StoreKind::BalanceFirst,
                StoreKind::OneTransaction,
            ]
            .iter()
            .flat_map(|k| {
                [
                    t.store_kind(*k).to_string(),
                    t.store_kind_hint(*k).to_string(),
                ]
            })
            .collect(),
            [
                None,
                Some(CrashPoint::BeforeWrites),
                Some(CrashPoint::BetweenWrites),
                Some(CrashPoint::AfterCommit),
            ]
            .iter()
            .map(|p| t.crash_point(*p).to_string())
            .chain(
                [
                    CrashPoint::BeforeWrites,
                    CrashPoint::BetweenWrites,
                    CrashPoint::AfterCommit,
                ]
                .map(|p| t.crashed_at(p).to_string()),
            )
            .collect(),
            [Routing::RoundRobin, Routing::KeyHash, Routing::Only(1)]
                .iter()
                .flat_map(|r| [t.routing(*r), t.routing_hint(*r).to_string()])
                .collect(),
            [
                DurableWrites::OneCommit,
                DurableWrites::ReceiptThenBalance,
                DurableWrites::BalanceThenReceipt,
            ]
            .map(|w| t.durable_writes(w).to_string())
            .into(),
            [
                InFlightPolicy::NoRecord,
                InFlightPolicy::Wait,
                InFlightPolicy::RetryLater,
            ]
            .iter()
            .flat_map(|p| {
                [
                    t.in_flight_policy(*p).to_string(),
                    t.in_flight_hint(*p).to_string(),
                ]
            })
            .collect(),
            [Language::English, Language::Persian]
                .map(|l| t.set_language(l).to_string())
                .into(),
            [Acknowledge::BeforeWork, Acknowledge::AfterWork]
                .iter()
                .flat_map(|a| {
                    [
                        t.acknowledge(*a).to_string(),
                        t.acknowledge_hint(*a).to_string(),
                    ]
                })
                .collect(),
            [EmailVia::Inline, EmailVia::Outbox]
                .iter()
                .flat_map(|v| {
                    [
                        t.email_via(*v).to_string(),
                        t.email_via_hint(*v).to_string(),
                    ]
                })
                .collect(),
            [
                GrantError::EmptyKey,
                GrantError::EmptyAccount,
                GrantError::NonPositivePoints,
                GrantError::Overflow,
                GrantError::Timeout,
                GrantError::WorkerStopped,
                GrantError::InProgress,
            ]
            .iter()
            .map(|e| t.grant_error_short(e))
            .collect(),
            [
                RegrantCause::Restart,
                RegrantCause::OtherProcess,
                RegrantCause::CrashLeftNoReceipt,
                RegrantCause::ReceiptExpired,
                RegrantCause::Race,
            ]
            .map(|c| t.granted_again(1, 2, c))
            .into(),
        ];
        for choice in cases {
            let apart: BTreeSet<&String> = choice.iter().collect();
            assert_eq!(
                apart.len(),
                choice.len(),
                "{}: two cases read the same in {choice:?}",
                lang.tag()
            );
            for said in &choice {
                assert!(
                    !said.is_empty() && !said.contains(['{', '[']),
                    "{}: {said:?}",
                    lang.tag()
                );
            }
        }
    }
}

/// A session's refusal names the action by its place from 1, and says the
/// parser's own words whole (kept apart inside Persian prose).
#[test]
fn a_sessions_refusal_names_its_action_from_1_and_never_the_parsers_words() {
    use idempotency_lab::lab::{
        Expected, FieldProblem, Found, LabError, ReplayError, SessionError,
    };
    let (en, fa) = (Lang::En.texts(), Lang::Fa.texts());
    let replay = SessionError::Replay(ReplayError {
        index: 2,
        error: LabError::NothingToUndo,
    });
    assert_eq!(
        en.session_error(&replay),
        "action 3 cannot be replayed. Nothing to undo yet."
    );
    assert!(fa.session_error(&replay).starts_with("کنش ۳ "));
    assert_eq!(
        en.session_error(&SessionError::TextTooLong { index: 4 }),
        format!("action 5 has an account or key over {MAX_FIELD_CHARS} characters")
    );
    let odd = |problem| SessionError::BadField {
        path: "actions[0]".into(),
        problem,
    };
    // What the reader cannot sort is said plainly, never in the parser's words.
    let unreadable = odd(FieldProblem::Unreadable);
    assert_eq!(
        en.session_error(&unreadable),
        "the file is JSON, but action 1 breaks a rule: this value cannot be read there."
    );
    assert!(fa.session_error(&unreadable).contains("خوانده نمی‌شود"));
    let wrong = odd(FieldProblem::Wrong {
        found: Found::Whole(12_345),
        expected: Expected::Other,
    });
    assert!(en
        .session_error(&wrong)
        .ends_with("12,345 cannot be read there."));
    assert!(fa.session_error(&wrong).contains("۱۲٬۳۴۵"));
}

/// The overview of sections says where a learner stands and what is left.
#[test]
fn a_section_s_standing_is_said_with_what_is_left() {
    let en = Lang::En.walk();
    assert_eq!(en.standing(Standing::NotStarted), "not started");
    assert_eq!(
        en.standing(Standing::AtStep {
            furthest: 2,
            steps: 5
        }),
        "as far as step 2 of 5"
    );
    assert_eq!(
        en.standing(Standing::Walked {
            questions_left: 1,
            challenge_left: true
        }),
        "walked through · 1 question to answer · the challenge to meet"
    );
    assert_eq!(
        en.standing(Standing::Walked {
            questions_left: 2,
            challenge_left: false
        }),
        "walked through · 2 questions to answer"
    );
    assert_eq!(
        en.standing(Standing::Walked {
            questions_left: 0,
            challenge_left: true
        }),
        "walked through · the challenge to meet"
    );
    assert_eq!(en.standing(Standing::Done), "done");
    assert_eq!(
        en.overview_count(5, 3, 11),
        "5 of 11 walked through, 3 done"
    );
    let fa = Lang::Fa.walk();
    assert_eq!(
        fa.standing(Standing::AtStep {
            furthest: 2,
            steps: 5
        }),
        "تا گام ۲ از ۵"
    );
    assert_eq!(
        fa.overview_count(5, 3, 11),
        "۵ از ۱۱ بخش تا پایان دیده شد، ۳ بخش تمام"
    );
}
