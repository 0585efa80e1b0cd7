#![cfg(not(target_arch = "wasm32"))]
//! The stage's picture is a fold of the world's log at the world's time:
//! callers with their deadlines, each process's queue, consumer and memory,
//! tokens along the arrows, and the marks of what went wrong.

mod common;
use common::instant_lab;

use idempotency_lab::core::{CrashPoint, EmailVia, InFlightPolicy, RetryPolicy, Table};
use idempotency_lab::i18n::Lang;
use idempotency_lab::lab::{
    Action, CallerMark, CallerState, Lab, Lane, ProcessState, Setting, StoreKind, StoreMark,
    TokenKind, GHOST_MS, MAX_CALLERS, MAX_TOKENS_PER_LANE, TRAVEL_MS,
};
use idempotency_lab::GrantPoints;

fn send(lab: &mut Lab, account: &str, key: &str, lose: bool) {
    lab.dispatch(Action::Send {
        grant: GrantPoints::new(key, account, 100),
        lose_acknowledgement: lose,
    })
    .unwrap();
}

fn wait(lab: &mut Lab, ms: u64) {
    lab.dispatch(Action::Wait { ms }).unwrap();
}

/// With `store`, a grant to `account` under `key` whose process crashes
/// between the store's two writes, run until nothing more is due.
fn crash_between_writes(lab: &mut Lab, store: StoreKind, account: &str, key: &str) {
    lab.dispatch(Action::Set(Setting::Store(store))).unwrap();
    lab.dispatch(Action::SetCrashPoint {
        point: Some(CrashPoint::BetweenWrites),
    })
    .unwrap();
    send(lab, account, key, false);
    lab.skip_to_idle().unwrap();
}

/// Each process the stage draws, running or a ghost, with its state.
fn processes_drawn(lab: &Lab) -> Vec<(u32, ProcessState)> {
    let stage = lab.state().stage();
    stage
        .processes
        .iter()
        .map(|p| (p.process, p.state))
        .collect()
}

#[test]
fn a_request_leaves_its_caller_and_travels_at_the_pace_of_the_clock() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Set(Setting::ProcessingMs(1_000)))
        .unwrap();
    send(&mut lab, "alice", "order-1", false);
    let stage = lab.state().stage();
    let caller = stage.caller(1).expect("the caller is drawn");
    assert_eq!(caller.state, CallerState::Waiting);
    assert_eq!(caller.time_left, Some(1.0));
    assert_eq!((caller.account_id.as_str(), caller.points), ("alice", 100));
    let token = &stage.tokens[0];
    assert_eq!(
        (token.kind, token.lane, token.attempt),
        (TokenKind::Request, Lane::Process(1), Some(1))
    );
    assert_eq!(token.progress, 0.0);

    wait(&mut lab, TRAVEL_MS / 4);
    let stage = lab.state().stage();
    assert_eq!(stage.tokens[0].progress, 0.25);
    // 3 s to wait, a quarter of the travel gone.
    let left = stage.caller(1).unwrap().time_left.unwrap();
    let gone = (TRAVEL_MS / 4) as f64;
    assert!((left - (3_000.0 - gone) / 3_000.0).abs() < 1e-9, "{left}");
    assert_eq!(stage.running().next().unwrap().in_hand, Some(1));
}

#[test]
fn the_answer_travels_back_and_then_the_arrows_are_empty() {
    let mut lab = instant_lab();
    send(&mut lab, "alice", "order-1", false);
    lab.skip_to_idle().unwrap();
    let stage = lab.state().stage();
    assert_eq!(stage.caller(1).unwrap().state, CallerState::Answered);
    assert_eq!(stage.caller(1).unwrap().time_left, None);
    let ack = stage
        .tokens
        .iter()
        .find(|t| t.kind == TokenKind::Ack)
        .unwrap();
    assert!(ack.kind.goes_back());
    assert_eq!((ack.attempt, ack.progress), (Some(1), 0.0));
    let memory = stage.processes[0].memory.as_ref().unwrap();
    assert_eq!(memory.balances, [("alice".to_string(), 100)]);
    assert_eq!(memory.receipt_count, 1);

    wait(&mut lab, TRAVEL_MS);
    let stage = lab.state().stage();
    assert!(stage.tokens.is_empty(), "{:?}", stage.tokens);
}

#[test]
fn a_lost_acknowledgement_stops_halfway_and_its_caller_times_out_marked() {
    let mut lab = instant_lab();
    send(&mut lab, "alice", "order-1", true);
    wait(&mut lab, 100);
    let stage = lab.state().stage();
    let lost = stage
        .tokens
        .iter()
        .find(|t| t.kind == TokenKind::LostAck)
        .expect("the acknowledgement leaves, and is lost on its way");
    assert_eq!(lost.progress, 0.0);
    wait(&mut lab, TRAVEL_MS * 2);
    let stage = lab.state().stage();
    let lost = stage.tokens.iter().find(|t| t.kind == TokenKind::LostAck);
    assert!(lost.is_none(), "it is gone once its time has passed");
    assert_eq!(stage.caller(1).unwrap().state, CallerState::Waiting);
    assert_eq!(stage.caller(1).unwrap().mark, Some(CallerMark::LostAck));

    wait(&mut lab, 2_000);
    let halfway = lab.state().stage();
    lab.skip_to_idle().unwrap();
    let stage = lab.state().stage();
    let caller = stage.caller(1).unwrap();
    assert_eq!(caller.state, CallerState::TimedOut);
    assert_eq!(caller.mark, Some(CallerMark::LostAck));
    assert!(halfway.caller(1).unwrap().time_left.unwrap() < 0.4);
}

/// A retry under a fresh key after a lost answer is answered "applied": its
/// caller is drawn with the mark of a second grant, not as a plain success;
/// a retry under the same key, answered from the receipt, is not.
#[test]
fn a_caller_granted_a_second_time_is_marked_so() {
    let mut lab = instant_lab();
    send(&mut lab, "alice", "order-1", true);
    lab.skip_to_idle().unwrap();
    lab.dispatch(Action::RetryFresh {
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    let stage = lab.state().stage();
    let fresh = stage.caller(2).unwrap();
    assert_eq!(fresh.state, CallerState::Answered);
    assert_eq!(fresh.mark, Some(CallerMark::GrantedAgain));
    assert_eq!(CallerMark::GrantedAgain.code(), "granted-again");
    lab.dispatch(Action::RetrySame {
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    let stage = lab.state().stage();
    assert_eq!(stage.caller(3).unwrap().state, CallerState::Answered);
    assert_eq!(stage.caller(3).unwrap().mark, None, "a replayed receipt");
}

#[test]
fn a_lost_acknowledgement_never_travels_past_the_middle() {
    let mut lab = instant_lab();
    send(&mut lab, "alice", "order-1", true);
    wait(&mut lab, 100 + TRAVEL_MS * 3 / 4);
    let stage = lab.state().stage();
    let lost = stage
        .tokens
        .iter()
        .find(|t| t.kind == TokenKind::LostAck)
        .unwrap();
    assert_eq!(lost.progress, 0.5);
}

#[test]
fn a_full_queue_is_drawn_with_its_sixteen_slots_the_waiting_and_the_newest_callers() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Set(Setting::Paused(true))).unwrap();
    lab.dispatch(Action::Burst {
        account_id: "alice".into(),
        points: 10,
        count: 20,
    })
    .unwrap();
    let stage = lab.state().stage();
    let process = stage.running().next().unwrap();
    assert_eq!(process.queue, (1..=16).collect::<Vec<_>>());
    assert_eq!(process.waiting, 4);
    assert_eq!(stage.callers.len(), MAX_CALLERS);
    assert_eq!(
        stage.callers.iter().map(|c| c.attempt).collect::<Vec<_>>(),
        (17..=20).collect::<Vec<_>>(),
        "the newest, oldest of them first"
    );
    assert_eq!(stage.more_waiting, 20 - MAX_CALLERS);
    let requests = stage
        .tokens
        .iter()
        .filter(|t| t.kind == TokenKind::Request)
        .count();
    assert_eq!(requests, MAX_TOKENS_PER_LANE);
    let ranks: Vec<usize> = stage.tokens.iter().map(|t| t.rank).collect();
    assert_eq!(
        ranks,
        (0..MAX_TOKENS_PER_LANE).collect::<Vec<_>>(),
        "a train, not a pile"
    );
    let counted = &stage.lane_counts[0];
    assert_eq!(
        (counted.lane, counted.kind, counted.more),
        (
            Lane::Process(1),
            TokenKind::Request,
            20 - MAX_TOKENS_PER_LANE
        )
    );
}

#[test]
fn a_crash_between_writes_darkens_the_process_and_marks_the_one_table_written() {
    let mut lab = instant_lab();
    crash_between_writes(&mut lab, StoreKind::BalanceFirst, "alice", "order-1");
    let stage = lab.state().stage();
    assert_eq!(
        processes_drawn(&lab),
        [(2, ProcessState::Running), (1, ProcessState::Crashed)]
    );
    let ghost = &stage.processes[1];
    assert_eq!(ghost.crash_point, Some(CrashPoint::BetweenWrites));
    assert!(ghost.queue.is_empty() && ghost.memory.is_none());
    assert_eq!(
        stage.caller(1).unwrap().mark,
        Some(CallerMark::ProcessEnded)
    );
    let durable = stage.durable.as_ref().expect("the durable store is drawn");
    assert_eq!(
        durable.marks,
        [StoreMark::TornWrite {
            attempt: 1,
            wrote: Table::Balance
        }]
    );
    assert_eq!(durable.tables.balances, [("alice".to_string(), 100)]);
    assert_eq!(durable.tables.receipt_count, 0);
    assert!(
        stage.processes[0].memory.is_none(),
        "the memory store is not drawn while the durable one is in use"
    );

    wait(&mut lab, GHOST_MS);
    let stage = lab.state().stage();
    assert_eq!(stage.processes.len(), 1, "the crashed process fades away");
    assert!(stage.durable.unwrap().marks.is_empty());
}

#[test]
fn a_restart_leaves_an_ended_process_beside_the_new_empty_one() {
    let mut lab = instant_lab();
    send(&mut lab, "alice", "order-1", false);
    lab.skip_to_idle().unwrap();
    lab.dispatch(Action::Restart).unwrap();
    let stage = lab.state().stage();
    assert_eq!(stage.processes[0].state, ProcessState::Running);
    assert_eq!(stage.processes[0].process, 2);
    assert_eq!(
        stage.processes[0].memory.as_ref().unwrap().accounts,
        0,
        "the new process remembers nothing"
    );
    assert_eq!(stage.processes[1].state, ProcessState::Ended);
    assert_eq!(stage.processes[1].slot, Some(1));
}

#[test]
fn two_processes_are_two_boxes_each_with_its_own_memory() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Set(Setting::Processes(2))).unwrap();
    send(&mut lab, "alice", "order-1", false);
    send(&mut lab, "bob", "order-2", false);
    lab.skip_to_idle().unwrap();
    let stage = lab.state().stage();
    let boxes: Vec<_> = stage
        .running()
        .map(|p| {
            let memory = p.memory.as_ref().unwrap();
            (p.slot, memory.balances.clone())
        })
        .collect();
    assert_eq!(
        boxes,
        [
            (Some(1), vec![("alice".to_string(), 100)]),
            (Some(2), vec![("bob".to_string(), 100)])
        ]
    );
    let lanes: Vec<_> = stage
        .tokens
        .iter()
        .filter(|t| t.kind == TokenKind::Ack)
        .map(|t| t.lane)
        .collect();
    assert_eq!(lanes, [Lane::Process(1), Lane::Process(2)]);
}

#[test]
fn a_caller_that_retries_by_itself_is_one_caller_with_its_newest_attempt() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Set(Setting::AutoRetry(Some(RetryPolicy {
        max_attempts: 3,
        seed: 7,
    }))))
    .unwrap();
    lab.dispatch(Action::Set(Setting::CallerTimeoutMs(50)))
        .unwrap();
    send(&mut lab, "alice", "order-1", false);
    lab.skip_to_idle().unwrap();
    let stage = lab.state().stage();
    assert_eq!(stage.callers.len(), 1, "{:?}", stage.callers);
    let caller = &stage.callers[0];
    assert_eq!(caller.tries, 3);
    assert_eq!(caller.attempt, 3);
    assert_eq!(caller.state, CallerState::GaveUp);
}

#[test]
fn a_copy_the_queue_delivers_again_travels_as_a_redelivery_with_no_caller() {
    let mut lab = instant_lab();
    lab.dispatch(Action::SetRedeliver { on: true }).unwrap();
    send(&mut lab, "alice", "order-1", false);
    let stage = lab.state().stage();
    let kinds: Vec<_> = stage.tokens.iter().map(|t| (t.kind, t.attempt)).collect();
    assert_eq!(
        kinds,
        [
            (TokenKind::Request, Some(1)),
            (TokenKind::Redelivery, Some(2))
        ]
    );
    assert_eq!(stage.callers.len(), 1);
    assert!(stage.caller(2).is_none());
}

#[test]
fn a_second_email_for_one_operation_is_counted_on_the_mail_service() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Set(Setting::Email(true))).unwrap();
    send(&mut lab, "alice", "order-1", false);
    lab.skip_to_idle().unwrap();
    let stage = lab.state().stage();
    let mail = stage.mail.as_ref().unwrap();
    assert_eq!(
        (mail.delivered, mail.emailed_twice, mail.outbox),
        (1, 0, false)
    );
    assert!(stage.tokens.iter().any(|t| t.kind == TokenKind::Email));
    // Inline, a replayed receipt emails again.
    send(&mut lab, "alice", "order-1", false);
    lab.skip_to_idle().unwrap();
    let mail = lab.state().stage().mail.unwrap();
    assert_eq!((mail.delivered, mail.emailed_twice), (2, 1));
}

#[test]
fn a_stress_run_draws_counts_not_ten_thousand_tokens() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Stress {
        account_id: "alice".into(),
        points: 1,
        count: 10_000,
        duplicate_percent: 10,
    })
    .unwrap();
    for _ in 0..3 {
        wait(&mut lab, 1_000);
        let stage = lab.state().stage();
        assert!(stage.tokens.len() <= 4 * MAX_TOKENS_PER_LANE);
        assert!(stage.callers.len() <= MAX_CALLERS);
        assert_eq!(stage.running().next().unwrap().queue.len(), 16);
    }
    lab.skip_to_idle().unwrap();
    let stage = lab.state().stage();
    let memory = stage.running().next().unwrap().memory.clone().unwrap();
    assert!(memory.receipts.len() <= 4 && memory.receipt_count > 8_000);
}

#[test]
fn a_refused_request_and_a_duplicate_in_flight_are_marked_on_their_callers() {
    let mut lab = instant_lab();
    lab.dispatch(Action::SignIn {
        account_id: Some("alice".into()),
    })
    .unwrap();
    send(&mut lab, "bob", "order-1", false);
    lab.skip_to_idle().unwrap();
    assert_eq!(
        lab.state().stage().caller(1).unwrap().mark,
        Some(CallerMark::Refused)
    );

    for (policy, mark) in [
        (InFlightPolicy::Wait, CallerMark::WaitedInProgress),
        (InFlightPolicy::RetryLater, CallerMark::ToldInProgress),
    ] {
        let mut lab = instant_lab();
        lab.dispatch(Action::Set(Setting::InFlight(policy)))
            .unwrap();
        lab.dispatch(Action::Set(Setting::ProcessingMs(1_000)))
            .unwrap();
        send(&mut lab, "alice", "order-1", false);
        send(&mut lab, "alice", "order-1", false);
        lab.skip_to_idle().unwrap();
        let stage = lab.state().stage();
        assert_eq!(stage.caller(1).unwrap().mark, None);
        assert_eq!(stage.caller(2).unwrap().mark, Some(mark));
    }
}

#[test]
fn the_description_says_what_is_queued_in_hand_and_waiting_in_each_language() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Set(Setting::Paused(true))).unwrap();
    lab.dispatch(Action::Burst {
        account_id: "alice".into(),
        points: 10,
        count: 20,
    })
    .unwrap();
    let stage = lab.state().stage();
    assert_eq!(
        Lang::En.texts().stage.describe(&stage),
        "Process 1 running: 16 of 16 queued, 4 waiting for room; the consumer is paused: it \
         takes nothing from the queue. \
         Callers shown: 4 waiting, 0 answered, 0 timed out, 0 gave up. \
         20 messages on their way."
    );
    let fa = Lang::Fa.texts().stage.describe(&stage);
    assert!(
        fa.starts_with(
            "فرایند ۱ در حال اجرا: ۱۶ از ۱۶ در صف، ۴ منتظر جای خالی؛ مصرف‌کننده متوقف است: چیزی از صف برنمی‌دارد."
        ),
        "{fa}"
    );

    lab.dispatch(Action::Set(Setting::Paused(false))).unwrap();
    lab.dispatch(Action::Wait { ms: 150 }).unwrap();
    let stage = lab.state().stage();
    let en = Lang::En.texts().stage.describe(&stage);
    assert!(en.contains("the consumer is applying attempt 2"), "{en}");
    lab.skip_to_idle().unwrap();
    lab.dispatch(Action::Restart).unwrap();
    let en = Lang::En.texts().stage.describe(&lab.state().stage());
    assert!(
        en.starts_with("Process 2 running: 0 of 16 queued, 0 waiting for room; the consumer is idle. Process 1 has ended; its queue and memory are gone. Callers shown: 0 waiting, 4 answered"),
        "{en}"
    );
}

/// What a screen reader is told as messages travel: each journey once, when
/// it begins; an answer the world will lose is an answer until it drops.
#[test]
fn the_travel_news_tells_each_journey_once_when_it_begins() {
    let mut lab = Lab::new();
    send(&mut lab, "alice", "order-1", true);
    let t = &Lang::En.texts().stage;
    let at = |lab: &mut Lab, ms: u64| {
        let now = lab.state().now();
        lab.dispatch(Action::Wait { ms: ms - now }).unwrap();
        lab.state().stage().tokens
    };
    let out = at(&mut lab, 100);
    assert_eq!(
        t.travel_news(&[], &out),
        "request attempt 1 on its way to its process."
    );
    assert_eq!(t.travel_news(&out, &at(&mut lab, 200)), "", "nothing new");
    // Out for 400 ms, 100 ms of work, then back, lost half way.
    let back = at(&mut lab, 600);
    assert_eq!(
        t.travel_news(&out, &back),
        "answer attempt 1 on its way back to its caller."
    );
    let dropped = at(&mut lab, 750);
    assert_eq!(
        t.travel_news(&back, &dropped),
        "the answer to attempt 1 was lost on its way back."
    );
    let fa = Lang::Fa.texts();
    assert!(
        fa.stage.travel_news(&back, &dropped).contains("گم شد"),
        "{}",
        fa.stage.travel_news(&back, &dropped)
    );
}

#[test]
fn every_state_and_mark_has_its_words_in_each_language() {
    for lang in Lang::ALL {
        let t = lang.texts();
        let mut said: Vec<&str> = Vec::new();
        for state in [
            CallerState::Waiting,
            CallerState::Answered,
            CallerState::TimedOut,
            CallerState::GaveUp,
        ] {
            said.push(t.stage.caller_state(state));
        }
        for mark in [
            CallerMark::LostAck,
            CallerMark::WaitedInProgress,
            CallerMark::ToldInProgress,
            CallerMark::Refused,
            CallerMark::Rejected,
            CallerMark::ProcessEnded,
        ] {
            said.push(t.stage.caller_mark(mark));
        }
        for kind in [
            TokenKind::Request,
            TokenKind::Ack,
            TokenKind::LostAck,
            TokenKind::Redelivery,
            TokenKind::Email,
        ] {
            said.push(t.stage.token(kind));
        }
        for state in [
            ProcessState::Running,
            ProcessState::Crashed,
            ProcessState::Ended,
        ] {
            said.push(t.stage.process_state(state));
        }
        said.extend(t.stage.other_marks().map(|(_, text)| text));
        said.push(t.stage.late_work());
        let distinct: std::collections::BTreeSet<&str> = said.iter().copied().collect();
        assert_eq!(
            distinct.len(),
            said.len(),
            "{lang:?}: each is told apart: {said:?}"
        );
        let marks = [
            StoreMark::TornWrite {
                attempt: 1,
                wrote: Table::Balance,
            },
            StoreMark::TornWrite {
                attempt: 1,
                wrote: Table::Receipt,
            },
            StoreMark::Conflict { attempt: 3 },
            StoreMark::Expired { count: 2 },
        ]
        .map(|m| t.stage.store_mark(&m));
        assert_ne!(marks[0], marks[1]);
        assert!(
            marks[2].contains(if lang == Lang::En { "3" } else { "۳" }),
            "{}",
            marks[2]
        );
        assert!(
            marks[3].contains(if lang == Lang::En { "2 receipts" } else { "۲" }),
            "{}",
            marks[3]
        );
        // Work its caller stopped waiting for is marked with the legend's
        // word for a deadline that passed.
        let deadline = t
            .stage
            .other_marks()
            .iter()
            .find(|(code, _)| *code == "timed-out")
            .unwrap()
            .1;
        assert_eq!(t.stage.deadline_passed(), deadline);
        // A receipt's way to its row names the receipt; the consumer says what it does.
        let lead = t.stage.receipt_lead("alice · k-1 · +100");
        assert!(
            lead.contains("alice · k-1 · +100") && lead.len() > "alice · k-1 · +100".len(),
            "{lead}"
        );
        let (idle, busy) = (
            t.stage.consumer_state(None, false),
            t.stage.consumer_state(Some(7), false),
        );
        assert_ne!(idle, busy);
        assert!(
            busy.contains(if lang == Lang::En { "7" } else { "۷" }),
            "{busy}"
        );
    }
}

#[test]
fn a_step_that_crashes_thrice_draws_only_the_newest_ghost_of_its_slot() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Set(Setting::Store(StoreKind::OneTransaction)))
        .unwrap();
    for key in ["a", "b", "c"] {
        lab.dispatch(Action::SetCrashPoint {
            point: Some(CrashPoint::AfterCommit),
        })
        .unwrap();
        send(&mut lab, "alice", key, false);
        lab.skip_to_idle().unwrap();
    }
    assert_eq!(
        processes_drawn(&lab),
        [(4, ProcessState::Running), (3, ProcessState::Crashed)]
    );
}

#[test]
fn the_codes_are_the_ones_the_readme_promises_outside_suites() {
    let callers = [
        CallerState::Waiting,
        CallerState::Answered,
        CallerState::TimedOut,
        CallerState::GaveUp,
    ]
    .map(CallerState::code);
    assert_eq!(callers, ["waiting", "answered", "timed-out", "gave-up"]);
    let processes = [
        ProcessState::Running,
        ProcessState::Crashed,
        ProcessState::Ended,
    ]
    .map(ProcessState::code);
    assert_eq!(processes, ["running", "crashed", "ended"]);
    let kinds = [
        TokenKind::Request,
        TokenKind::Ack,
        TokenKind::LostAck,
        TokenKind::Redelivery,
        TokenKind::Email,
    ];
    assert_eq!(
        kinds.map(TokenKind::code),
        ["request", "ack", "lost-ack", "redelivery", "email"]
    );
    assert_eq!(
        kinds.map(TokenKind::goes_back),
        [false, true, true, false, false],
        "answers travel back to the caller; requests, copies and emails go forward"
    );
    let marks = [
        CallerMark::LostAck,
        CallerMark::WaitedInProgress,
        CallerMark::ToldInProgress,
        CallerMark::Refused,
        CallerMark::Rejected,
        CallerMark::ProcessEnded,
    ]
    .map(CallerMark::code);
    assert_eq!(
        marks,
        [
            "lost-ack",
            "waited-in-progress",
            "told-in-progress",
            "refused",
            "rejected",
            "process-ended"
        ]
    );
    let store = [
        StoreMark::TornWrite {
            attempt: 1,
            wrote: Table::Balance,
        },
        StoreMark::Conflict { attempt: 1 },
        StoreMark::Expired { count: 1 },
    ];
    assert_eq!(
        store.iter().map(StoreMark::code).collect::<Vec<_>>(),
        ["torn-write", "conflict", "expired"]
    );
}

#[test]
fn in_progress_records_are_drawn_where_they_are_kept() {
    for durable in [false, true] {
        let mut lab = instant_lab();
        if durable {
            lab.dispatch(Action::Set(Setting::Store(StoreKind::OneTransaction)))
                .unwrap();
        }
        lab.dispatch(Action::Set(Setting::InFlight(InFlightPolicy::Wait)))
            .unwrap();
        lab.dispatch(Action::Set(Setting::ProcessingMs(1_000)))
            .unwrap();
        send(&mut lab, "alice", "order-1", false);
        send(&mut lab, "alice", "order-1", false);
        let stage = lab.state().stage();
        let in_memory = stage.processes[0].in_progress.clone();
        let in_durable = stage.durable.map(|d| d.in_progress).unwrap_or_default();
        if durable {
            assert_eq!((in_memory, in_durable), (vec![], vec![1]));
        } else {
            assert_eq!((in_memory, in_durable), (vec![1], vec![]));
        }
    }
}

#[test]
fn the_mail_is_drawn_while_emails_are_on_or_once_any_was_sent() {
    let mut lab = instant_lab();
    assert!(
        lab.state().stage().mail.is_none(),
        "no email, no mail service"
    );
    lab.dispatch(Action::Set(Setting::Email(true))).unwrap();
    let mail = lab
        .state()
        .stage()
        .mail
        .expect("drawn as soon as emails are on");
    assert_eq!((mail.delivered, mail.outbox), (0, false));
    send(&mut lab, "alice", "order-1", false);
    lab.skip_to_idle().unwrap();
    lab.dispatch(Action::Set(Setting::Email(false))).unwrap();
    let mail = lab
        .state()
        .stage()
        .mail
        .expect("the inbox it filled stays drawn");
    assert_eq!(mail.delivered, 1);
    lab.dispatch(Action::Set(Setting::EmailVia(EmailVia::Outbox)))
        .unwrap();
    assert!(lab.state().stage().mail.unwrap().outbox);
}

#[test]
fn a_plain_timeout_is_a_timed_out_caller_with_no_mark() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Set(Setting::ProcessingMs(1_000)))
        .unwrap();
    lab.dispatch(Action::Set(Setting::CallerTimeoutMs(100)))
        .unwrap();
    send(&mut lab, "alice", "order-1", false);
    lab.skip_to_idle().unwrap();
    let caller = lab.state().stage().caller(1).cloned().unwrap();
    assert_eq!(caller.state, CallerState::TimedOut);
    assert_eq!(
        caller.mark, None,
        "nothing went wrong but the wait: the state says it all"
    );
}

#[test]
fn going_down_to_one_process_leaves_the_second_one_ended() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Set(Setting::Processes(2))).unwrap();
    lab.dispatch(Action::Set(Setting::Processes(1))).unwrap();
    assert_eq!(
        processes_drawn(&lab),
        [(1, ProcessState::Running), (2, ProcessState::Ended)]
    );
}

#[test]
fn a_commit_conflict_and_a_retention_sweep_are_marked_on_the_durable_store() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Set(Setting::Store(StoreKind::OneTransaction)))
        .unwrap();
    lab.dispatch(Action::Set(Setting::Processes(2))).unwrap();
    lab.dispatch(Action::Set(Setting::ProcessingMs(1_000)))
        .unwrap();
    send(&mut lab, "alice", "order-1", false);
    wait(&mut lab, 10);
    lab.dispatch(Action::RetrySame {
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    let marks = lab.state().stage().durable.unwrap().marks;
    assert_eq!(marks, [StoreMark::Conflict { attempt: 2 }]);

    // A shorter retention sweeps the old receipt now, where the picture is.
    lab.dispatch(Action::MoveClock { ms: 2 * 3_600_000 })
        .unwrap();
    lab.dispatch(Action::Set(Setting::RetentionHours(1)))
        .unwrap();
    let marks = lab.state().stage().durable.unwrap().marks;
    assert_eq!(marks, [StoreMark::Expired { count: 1 }]);
}

#[test]
fn tokens_are_counted_and_ranked_per_lane_and_kind() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Set(Setting::Processes(2))).unwrap();
    lab.dispatch(Action::Set(Setting::ProcessingMs(1_000)))
        .unwrap();
    // Sixteen callers in one instant, with the answers still far off.
    for n in 0..16 {
        send(&mut lab, &format!("user-{n}"), &format!("order-{n}"), false);
    }
    let stage = lab.state().stage();
    let per_lane = |lane: Lane| {
        stage
            .tokens
            .iter()
            .filter(|t| t.lane == lane && t.kind == TokenKind::Request)
            .map(|t| t.rank)
            .collect::<Vec<_>>()
    };
    // Round robin: eight a process, more than a lane draws.
    let (one, two) = (8, 8);
    for lane in [Lane::Process(1), Lane::Process(2)] {
        assert_eq!(
            per_lane(lane),
            (0..MAX_TOKENS_PER_LANE).collect::<Vec<_>>(),
            "each lane ranks its own train"
        );
    }
    let counts: Vec<_> = stage
        .lane_counts
        .iter()
        .map(|c| (c.lane, c.kind, c.more))
        .collect();
    assert_eq!(
        counts,
        [
            (
                Lane::Process(1),
                TokenKind::Request,
                one - MAX_TOKENS_PER_LANE
            ),
            (
                Lane::Process(2),
                TokenKind::Request,
                two - MAX_TOKENS_PER_LANE
            )
        ]
    );
}

#[test]
fn rows_waiting_in_the_outbox_keep_the_mail_drawn_after_emails_are_off() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Set(Setting::Email(true))).unwrap();
    lab.dispatch(Action::Set(Setting::EmailVia(EmailVia::Outbox)))
        .unwrap();
    send(&mut lab, "alice", "order-1", false);
    let mut waited = 0;
    while lab.state().world().outbox_pending() == 0 {
        wait(&mut lab, 5);
        waited += 5;
        assert!(waited < 5_000, "the grant writes its outbox row");
    }
    lab.dispatch(Action::Set(Setting::Email(false))).unwrap();
    let mail = lab.state().stage().mail.expect("its row is still to send");
    assert_eq!((mail.delivered, mail.pending), (0, 1));
}

#[test]
fn a_request_whose_caller_gave_up_is_marked_where_it_waits() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Set(Setting::ProcessingMs(5_000)))
        .unwrap();
    send(&mut lab, "alice", "order-1", false);
    send(&mut lab, "bob", "order-2", false);
    let process = |lab: &Lab| lab.state().stage().processes[0].clone();
    // Both callers still wait: 1 in hand, 2 in the queue.
    let now = process(&lab);
    assert_eq!((now.in_hand, now.queue.clone()), (Some(1), vec![2]));
    assert!(now.timed_out.is_empty());
    // Past their 3 s deadlines the work goes on, for nobody.
    wait(&mut lab, 3_500);
    let later = process(&lab);
    assert_eq!((later.in_hand, later.queue.clone()), (Some(1), vec![2]));
    assert_eq!(later.timed_out, [2, 1]);
    // Once done, nothing is left to mark.
    lab.skip_to_idle().unwrap();
    assert!(process(&lab).timed_out.is_empty());
}

#[test]
fn a_queued_request_of_a_patient_caller_is_never_marked() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Set(Setting::ProcessingMs(5_000)))
        .unwrap();
    lab.dispatch(Action::Set(Setting::Paused(true))).unwrap();
    lab.dispatch(Action::Stress {
        account_id: "alice".into(),
        points: 1,
        count: 20,
        duplicate_percent: 0,
    })
    .unwrap();
    wait(&mut lab, 60_000);
    let stage = lab.state().stage();
    assert_eq!(stage.processes[0].queue.len(), 16);
    assert!(stage.processes[0].timed_out.is_empty());
}

/// The tables of the first running process's memory.
fn first_memory(lab: &Lab) -> idempotency_lab::lab::StoreTables {
    let stage = lab.state().stage();
    let memory = stage.running().next().unwrap().memory.clone();
    memory.unwrap()
}

#[test]
fn an_account_a_caller_asks_about_that_a_store_does_not_hold_is_drawn_at_zero() {
    use idempotency_lab::lab::StagePart;
    let mut lab = instant_lab();
    // Refused before any change: the store holds nothing for alice.
    lab.dispatch(Action::Send {
        grant: GrantPoints::new("k-0", "alice", 0),
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    let stage = lab.state().stage();
    let memory = first_memory(&lab);
    assert!(memory.balances.is_empty());
    assert_eq!(memory.accounts, 0);
    assert_eq!(memory.unheld, ["alice"]);
    assert!(stage.draws(&StagePart::Balance("alice".into())));
    assert!(!stage.draws(&StagePart::Balance("bob".into())));
    // Once it holds a balance, the account is drawn with it, once.
    send(&mut lab, "alice", "k-1", false);
    send(&mut lab, "bob", "k-2", false);
    lab.skip_to_idle().unwrap();
    let memory = first_memory(&lab);
    assert_eq!(
        memory.balances,
        [("alice".to_string(), 100), ("bob".to_string(), 100)]
    );
    assert!(memory.unheld.is_empty());
    // A restart empties the memory: the callers still drawn ask about both.
    lab.dispatch(Action::Restart).unwrap();
    let memory = first_memory(&lab);
    assert!(memory.balances.is_empty());
    assert_eq!(memory.unheld, ["alice", "bob"]);
}

#[test]
fn the_stage_states_the_deadline_the_work_time_the_retention_and_the_last_read() {
    use idempotency_lab::lab::StagePart;
    let mut lab = instant_lab();
    lab.dispatch(Action::Set(Setting::CallerTimeoutMs(2_500)))
        .unwrap();
    lab.dispatch(Action::Set(Setting::ProcessingMs(700)))
        .unwrap();
    let stage = lab.state().stage();
    assert_eq!((stage.caller_timeout, stage.processing), (2_500, 700));
    assert!(stage.durable.is_none());
    assert!(stage.read.is_none());
    assert!(!stage.draws(&StagePart::Read));
    lab.dispatch(Action::Set(Setting::Store(StoreKind::OneTransaction)))
        .unwrap();
    lab.dispatch(Action::Set(Setting::RetentionHours(6)))
        .unwrap();
    send(&mut lab, "carol", "k-1", false);
    lab.skip_to_idle().unwrap();
    lab.dispatch(Action::CheckBalance {
        account_id: "dave".into(),
    })
    .unwrap();
    let stage = lab.state().stage();
    let durable = stage.durable.clone().unwrap();
    assert_eq!(durable.retention_hours, 6);
    let read = stage.read.clone().unwrap();
    assert_eq!((read.account_id.as_str(), read.balance), ("dave", Ok(0)));
    assert!(stage.draws(&StagePart::Read));
    // The read's account is asked about too: dave is drawn at 0.
    assert_eq!(durable.tables.unheld, ["dave"]);
    assert_eq!(durable.tables.balances, [("carol".to_string(), 100)]);
}

#[test]
fn a_paused_consumer_is_drawn_paused_and_said_so_until_it_is_released() {
    let mut lab = instant_lab();
    let t = Lang::En.texts();
    assert!(!lab.state().stage().paused);
    assert_eq!(t.stage.consumer_label(None, false), "Consumer");
    lab.dispatch(Action::Set(Setting::Paused(true))).unwrap();
    let stage = lab.state().stage();
    assert!(stage.paused);
    assert_eq!(t.stage.consumer_label(None, true), "Consumer paused");
    assert!(t.stage.consumer_state(None, true).contains("paused"));
    assert!(t.stage.describe(&stage).contains("paused"));
    // An attempt in hand is named, paused or not.
    assert_eq!(t.stage.consumer_label(Some(3), true), "Consumer #3");
    assert!(t.stage.consumer_state(Some(3), true).contains('3'));
    let fa = Lang::Fa.texts();
    assert_eq!(fa.stage.consumer_label(Some(3), false), "مصرف‌کننده #۳");
    lab.dispatch(Action::Set(Setting::Paused(false))).unwrap();
    assert!(!lab.state().stage().paused);
    assert!(!t.stage.describe(&lab.state().stage()).contains("paused"));
}

#[test]
fn a_newer_crash_leaves_no_older_torn_write_drawn_on_the_store() {
    let mut lab = instant_lab();
    crash_between_writes(&mut lab, StoreKind::BalanceFirst, "bob", "order-1");
    let torn = lab.state().stage().durable.unwrap().marks;
    assert!(
        matches!(torn[..], [StoreMark::TornWrite { attempt: 1, .. }]),
        "{torn:?}"
    );
    // One transaction now, and a crash before it commits: nothing is half
    // written, and the store says nothing of the older design's tear.
    crash_between_writes(&mut lab, StoreKind::OneTransaction, "carol", "order-2");
    let stage = lab.state().stage();
    assert!(stage.durable.unwrap().marks.is_empty());
}
