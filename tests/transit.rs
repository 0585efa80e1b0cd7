#![cfg(not(target_arch = "wasm32"))]
//! Messages take time on the network when a transit is set: a request reaches
//! its process `transit` ms after it is sent, its answer comes back as long
//! after, and a lost answer drops half way. The stage draws each message on its
//! arrow exactly while the world has it on its way, in the world's order.

use idempotency_lab::lab::{Action, Hop, Lab, LabError, Setting, TokenKind, DROP_MARK_MS};
use idempotency_lab::sim::{Happening, SettingError, DEFAULT_TRANSIT_MS, MAX_TRANSIT_MS};
use idempotency_lab::GrantPoints;

const TRANSIT: u64 = 400;

fn lab_with_transit(ms: u64) -> Lab {
    let mut lab = Lab::new();
    lab.dispatch(Action::Set(Setting::TransitMs(ms))).unwrap();
    lab
}

fn send(lab: &mut Lab, account: &str, lose: bool) {
    lab.dispatch(Action::Send {
        grant: GrantPoints::new("order-1", account, 100),
        lose_acknowledgement: lose,
    })
    .unwrap();
}

/// The world's events for attempt 1, by name, with their times.
fn timeline_of_first(lab: &Lab) -> Vec<(u64, String)> {
    lab.state()
        .world()
        .events()
        .iter()
        .filter(|e| e.what.attempt() == Some(1))
        .map(|e| {
            let name = serde_json::to_value(e).unwrap()["event"]
                .as_str()
                .unwrap()
                .to_string();
            (e.at, name)
        })
        .collect()
}

fn at(lab: &Lab, ms: u64) -> Lab {
    let mut earlier = Lab::replay(&lab.history().clone()).unwrap();
    earlier.travel_to(ms);
    earlier
}

#[test]
fn a_request_travels_there_and_its_answer_back() {
    let mut lab = lab_with_transit(TRANSIT);
    send(&mut lab, "alice", false);
    lab.skip_to_idle().unwrap();
    let events = timeline_of_first(&lab);
    let named = |n: &str| events.iter().find(|(_, e)| e == n).map(|(t, _)| *t);
    assert_eq!(named("sent"), Some(0));
    assert_eq!(named("queued"), Some(TRANSIT));
    assert_eq!(named("handled"), Some(TRANSIT + 100));
    assert_eq!(named("answered"), Some(2 * TRANSIT + 100));
    // The log says how long the request travelled.
    let sent = &lab.state().world().events()[0];
    assert!(matches!(
        sent.what,
        Happening::Sent {
            transit: TRANSIT,
            ..
        }
    ));
}

#[test]
fn a_lost_answer_drops_half_way_and_the_caller_waits_out_its_deadline() {
    let mut lab = lab_with_transit(TRANSIT);
    send(&mut lab, "alice", true);
    lab.skip_to_idle().unwrap();
    let events = timeline_of_first(&lab);
    let names: Vec<&str> = events.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "sent",
            "queued",
            "taken",
            "store",
            "handled",
            "answer-lost",
            "timed-out"
        ]
    );
    let lost = events.iter().find(|(_, n)| n == "answer-lost").unwrap().0;
    assert_eq!(lost, TRANSIT + 100 + TRANSIT / 2);
    assert_eq!(events.last().unwrap().0, 3_000);
}

#[test]
fn a_request_refused_at_the_door_is_refused_when_it_arrives() {
    let mut lab = lab_with_transit(TRANSIT);
    lab.dispatch(Action::SignIn {
        account_id: Some("bob".into()),
    })
    .unwrap();
    send(&mut lab, "alice", false);
    lab.skip_to_idle().unwrap();
    let events = timeline_of_first(&lab);
    let named = |n: &str| events.iter().find(|(_, e)| e == n).map(|(t, _)| *t);
    assert_eq!(named("forbidden"), Some(TRANSIT));
    assert_eq!(named("answered"), Some(2 * TRANSIT));
    // The refusal travels back, drawn on its way.
    assert_eq!(
        token_at(&lab, TRANSIT + 100),
        Some((TokenKind::Ack, Hop::Back, 0.25, true))
    );
}

#[test]
fn a_transit_out_of_range_is_refused_and_changes_nothing() {
    let mut lab = Lab::new();
    let error = lab
        .dispatch(Action::Set(Setting::TransitMs(MAX_TRANSIT_MS + 1)))
        .unwrap_err();
    assert_eq!(
        error,
        LabError::Setting(SettingError::Transit(MAX_TRANSIT_MS + 1))
    );
    assert_eq!(lab.state().settings().transit_ms, DEFAULT_TRANSIT_MS);
    assert!(lab.history().actions.is_empty());
    lab.dispatch(Action::Set(Setting::TransitMs(MAX_TRANSIT_MS)))
        .unwrap();
}

#[test]
fn without_transit_the_world_runs_as_it_always_did() {
    let mut lab = lab_with_transit(0);
    send(&mut lab, "alice", false);
    lab.skip_to_idle().unwrap();
    let events = timeline_of_first(&lab);
    assert!(events.iter().all(|(t, _)| *t <= 100), "{events:?}");
    // Unsaid in the log when it is 0.
    let sent = serde_json::to_value(&lab.state().world().events()[0]).unwrap();
    assert!(sent.get("transit").is_none());
}

/// The token of attempt 1 on its lane at `ms`: its kind, hop and progress.
fn token_at(lab: &Lab, ms: u64) -> Option<(TokenKind, Hop, f64, bool)> {
    let stage = at(lab, ms).state().stage();
    let found = stage
        .tokens
        .iter()
        .find(|t| t.attempt == Some(1))
        .map(|t| (t.kind, t.hop, t.progress, t.in_world));
    found
}

#[test]
fn the_stage_draws_each_message_while_the_world_has_it_on_its_way() {
    let mut lab = lab_with_transit(TRANSIT);
    send(&mut lab, "alice", true);
    lab.skip_to_idle().unwrap();
    // On its way to the process: placed by the clock.
    assert_eq!(
        token_at(&lab, 0),
        Some((TokenKind::Request, Hop::Out, 0.0, true))
    );
    assert_eq!(
        token_at(&lab, 100),
        Some((TokenKind::Request, Hop::Out, 0.25, true))
    );
    // Arrived: in the process, not on the arrow; no balance yet.
    assert_eq!(token_at(&lab, TRANSIT), None);
    let earlier = at(&lab, TRANSIT + 50);
    assert_eq!(earlier.state().stage().processes[0].in_hand, Some(1));
    let memory = earlier.state().stage().processes[0].memory.clone().unwrap();
    assert!(
        memory.balances.is_empty(),
        "the store has not been written yet"
    );
    // The store wrote it: the answer leaves, doomed, and drops half way.
    let handled = TRANSIT + 100;
    assert_eq!(
        token_at(&lab, handled + 100),
        Some((TokenKind::LostAck, Hop::Back, 0.25, true))
    );
    assert_eq!(
        token_at(&lab, handled + TRANSIT / 2),
        Some((TokenKind::LostAck, Hop::Dropped, 0.5, true))
    );
    assert_eq!(
        token_at(&lab, handled + TRANSIT / 2 + DROP_MARK_MS - 1),
        Some((TokenKind::LostAck, Hop::Dropped, 0.5, true))
    );
    assert_eq!(token_at(&lab, handled + TRANSIT / 2 + DROP_MARK_MS), None);
}

#[test]
fn the_row_says_the_answer_was_lost_only_once_it_dropped() {
    let mut lab = lab_with_transit(TRANSIT);
    send(&mut lab, "alice", true);
    lab.skip_to_idle().unwrap();
    let lost_then = |ms: u64| {
        at(&lab, ms)
            .state()
            .row_of(1)
            .and_then(|r| r.handled.as_ref())
            .map(|h| h.acknowledgement_lost)
    };
    assert_eq!(lost_then(TRANSIT + 100), Some(false), "on its way back");
    assert_eq!(lost_then(TRANSIT + 100 + TRANSIT / 2), Some(true));
}

#[test]
fn an_answer_that_arrives_is_drawn_back_to_its_caller() {
    let mut lab = lab_with_transit(TRANSIT);
    send(&mut lab, "alice", false);
    lab.skip_to_idle().unwrap();
    let handled = TRANSIT + 100;
    assert_eq!(
        token_at(&lab, handled + 300),
        Some((TokenKind::Ack, Hop::Back, 0.75, true))
    );
    assert_eq!(token_at(&lab, handled + TRANSIT), None);
}

#[test]
fn without_transit_a_token_is_carried_for_a_moment_after_its_event() {
    let mut lab = lab_with_transit(0);
    send(&mut lab, "alice", false);
    lab.skip_to_idle().unwrap();
    let token = token_at(&lab, 50).unwrap();
    assert_eq!(
        (token.0, token.1, token.3),
        (TokenKind::Request, Hop::Out, false)
    );
}

#[test]
fn an_answer_on_its_way_can_be_lost_by_hand_and_undo_brings_it_back() {
    let mut lab = lab_with_transit(TRANSIT);
    send(&mut lab, "alice", false);
    // Half way back: the store has done the work, the answer travels.
    lab.dispatch(Action::Wait {
        ms: TRANSIT + 100 + TRANSIT / 2,
    })
    .unwrap();
    lab.dispatch(Action::LoseAnswer { attempt: 1 }).unwrap();
    let token = token_at(&lab, lab.state().now()).unwrap();
    assert_eq!(
        (token.0, token.1, token.2),
        (TokenKind::LostAck, Hop::Dropped, 0.5)
    );
    lab.skip_to_idle().unwrap();
    let events = timeline_of_first(&lab);
    let names: Vec<&str> = events.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(names[names.len() - 2..], ["answer-lost", "timed-out"]);
    let row = lab.state().row_of(1).unwrap();
    assert!(row.handled.as_ref().unwrap().acknowledgement_lost);
    assert!(row.answered());
    // The session keeps the action, and replays to the same world.
    let again =
        idempotency_lab::lab::from_json(&idempotency_lab::lab::to_json(lab.history())).unwrap();
    assert_eq!(
        again.state().world().events().len(),
        lab.state().world().events().len()
    );
    // Undo takes the loss back: the answer arrives.
    lab.undo().unwrap();
    lab.skip_to_idle().unwrap();
    let names: Vec<String> = timeline_of_first(&lab)
        .into_iter()
        .map(|(_, n)| n)
        .collect();
    assert_eq!(names.last().unwrap(), "answered");
    assert!(!names.iter().any(|n| n == "answer-lost"));
}

#[test]
fn losing_an_answer_not_on_its_way_is_refused_and_changes_nothing() {
    let mut lab = lab_with_transit(TRANSIT);
    send(&mut lab, "alice", false);
    // Still on its way there: no answer yet.
    lab.dispatch(Action::Wait { ms: 100 }).unwrap();
    let before = lab.history().clone();
    let events = lab.state().world().events().len();
    assert_eq!(
        lab.dispatch(Action::LoseAnswer { attempt: 1 }),
        Err(LabError::NoAnswerOnItsWay(1))
    );
    assert_eq!(
        lab.dispatch(Action::LoseAnswer { attempt: 9 }),
        Err(LabError::NoAnswerOnItsWay(9))
    );
    assert_eq!(lab.history(), &before);
    assert_eq!(lab.state().world().events().len(), events);
    // Arrived: nothing on its way any more.
    lab.skip_to_idle().unwrap();
    assert_eq!(
        lab.dispatch(Action::LoseAnswer { attempt: 1 }),
        Err(LabError::NoAnswerOnItsWay(1))
    );
}

#[test]
fn a_request_on_its_way_arrives_though_its_caller_gave_up() {
    // The caller gives up after 100 ms; its request is still on the network.
    let mut lab = lab_with_transit(TRANSIT);
    lab.dispatch(Action::Set(Setting::CallerTimeoutMs(100)))
        .unwrap();
    send(&mut lab, "alice", false);
    lab.dispatch(Action::Wait { ms: TRANSIT + 300 }).unwrap();
    let events = timeline_of_first(&lab);
    let named = |n: &str| events.iter().find(|(_, e)| e == n).map(|(t, _)| *t);
    assert_eq!(named("timed-out"), Some(100));
    // It still arrives, is applied, and its answer heads back to nobody.
    assert_eq!(named("queued"), Some(TRANSIT));
    assert_eq!(named("handled"), Some(TRANSIT + 100));
    assert_eq!(lab.state().store().balance("alice"), 100);
    let on_way = token_at(&lab, TRANSIT + 300).unwrap();
    assert_eq!((on_way.0, on_way.1), (TokenKind::Ack, Hop::Back));
    // On its way, it can be lost like any answer; the caller had given up, so
    // its row says what it said: timed out, and applied.
    let outcome = row_outcome(&lab);
    lab.dispatch(Action::LoseAnswer { attempt: 1 }).unwrap();
    lab.skip_to_idle().unwrap();
    assert_eq!(row_outcome(&lab), outcome);
    assert_eq!(outcome, idempotency_lab::lab::Outcome::TimeoutApplied);
    let events = timeline_of_first(&lab);
    assert!(
        !events.iter().any(|(_, e)| e == "answered"),
        "nobody heard it"
    );
    // Nothing is left held: a retry with the same key gets the receipt.
    lab.dispatch(Action::RetrySame {
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    assert_eq!(lab.state().store().balance("alice"), 100);
    assert!(lab.state().until_next().is_none());
}

fn row_outcome(lab: &Lab) -> idempotency_lab::lab::Outcome {
    lab.state()
        .timeline()
        .iter()
        .find(|r| r.attempt.id == 1)
        .unwrap()
        .outcome()
}

#[test]
fn a_process_crashed_by_hand_loses_its_queue_and_undo_brings_it_back() {
    use idempotency_lab::lab::ProcessState;
    let mut lab = lab_with_transit(TRANSIT);
    lab.dispatch(Action::Set(Setting::Paused(true))).unwrap();
    send(&mut lab, "alice", false);
    lab.dispatch(Action::Wait { ms: TRANSIT }).unwrap();
    assert_eq!(lab.state().stage().processes[0].queue, vec![1]);
    lab.dispatch(Action::CrashProcess { process: 1 }).unwrap();
    let stage = lab.state().stage();
    let running: Vec<_> = stage
        .running()
        .map(|p| (p.process, p.queue.clone()))
        .collect();
    assert_eq!(
        running,
        vec![(2, vec![])],
        "a new, empty process took its place"
    );
    assert!(stage
        .processes
        .iter()
        .any(|p| p.process == 1 && p.state != ProcessState::Running));
    lab.skip_to_idle().unwrap();
    assert!(lab.state().row_of(1).unwrap().answered());
    // No such process: refused, nothing changes.
    let before = lab.history().clone();
    assert_eq!(
        lab.dispatch(Action::CrashProcess { process: 1 }),
        Err(LabError::NoSuchProcess(1))
    );
    assert_eq!(lab.history(), &before);
    // Undo takes the crash back: the request is queued in process 1 again.
    let mut lab = lab_with_transit(TRANSIT);
    lab.dispatch(Action::Set(Setting::Paused(true))).unwrap();
    send(&mut lab, "alice", false);
    lab.dispatch(Action::Wait { ms: TRANSIT }).unwrap();
    lab.dispatch(Action::CrashProcess { process: 1 }).unwrap();
    lab.undo().unwrap();
    assert_eq!(lab.state().stage().processes[0].queue, vec![1]);
    assert_eq!(lab.state().stage().processes[0].process, 1);
}

#[test]
fn the_longest_transit_is_drawn_to_its_end() {
    let mut lab = lab_with_transit(MAX_TRANSIT_MS);
    lab.dispatch(Action::Set(Setting::CallerTimeoutMs(3 * MAX_TRANSIT_MS)))
        .unwrap();
    send(&mut lab, "alice", false);
    lab.skip_to_idle().unwrap();
    let late = MAX_TRANSIT_MS * 9 / 10;
    assert_eq!(
        token_at(&lab, late),
        Some((TokenKind::Request, Hop::Out, 0.9, true))
    );
    // And its answer, all the way home.
    let handled = MAX_TRANSIT_MS + 100;
    assert_eq!(
        token_at(&lab, handled + late),
        Some((TokenKind::Ack, Hop::Back, 0.9, true))
    );
}

#[test]
fn each_hop_has_its_stable_name() {
    assert_eq!(
        [Hop::Out, Hop::Back, Hop::Dropped].map(Hop::code),
        ["out", "back", "dropped"]
    );
}

#[test]
fn a_new_lab_moves_its_messages_and_an_old_session_replays_without_transit() {
    // Today's default: long enough to watch at 1x.
    assert_eq!(Lab::new().state().settings().transit_ms, DEFAULT_TRANSIT_MS);
    let mut lab = Lab::new();
    send(&mut lab, "alice", false);
    lab.dispatch(Action::Wait { ms: 200 }).unwrap();
    assert!(
        token_at(&lab, 200).is_some_and(|t| t.1 == Hop::Out && t.3),
        "a new lab's request is still seen travelling 200 ms after it left"
    );
    // A version 3 file (from before transit) opens with 0 set first, and
    // its lost acknowledgement times out where it always did.
    let v3 = r#"{"format":"idempotency-lab/session","version":3,"actions":[
        {"send":{"grant":{"key":"k","account_id":"alice","points":100},"lose_acknowledgement":true}},
        {"wait":{"ms":150}}]}"#;
    let lab = idempotency_lab::lab::from_json(v3).unwrap();
    assert_eq!(lab.history().actions[0], Action::Set(Setting::TransitMs(0)));
    assert_eq!(lab.state().settings().transit_ms, 0);
    let row = lab.state().row_of(1).unwrap();
    assert!(
        row.handled.as_ref().unwrap().acknowledgement_lost,
        "handled at 100 ms, as before"
    );
    // What it writes is today's version, and reads back the same.
    let again =
        idempotency_lab::lab::from_json(&idempotency_lab::lab::to_json(lab.history())).unwrap();
    assert_eq!(again.history(), lab.history());
}

#[test]
fn a_redelivered_copy_is_made_where_its_original_is_queued_not_before_it_arrives() {
    let mut lab = lab_with_transit(TRANSIT);
    lab.dispatch(Action::SetRedeliver { on: true }).unwrap();
    send(&mut lab, "alice", false);
    lab.skip_to_idle().unwrap();
    let when = |attempt: u64, name: &str| {
        lab.state()
            .world()
            .events()
            .iter()
            .find(|e| {
                e.what.attempt() == Some(attempt)
                    && serde_json::to_value(e).unwrap()["event"] == name
            })
            .map(|e| e.at)
    };
    // The copy appears in the queue when the original does, right behind it.
    assert_eq!(when(1, "queued"), Some(TRANSIT));
    assert_eq!(when(2, "sent"), Some(TRANSIT));
    assert_eq!(when(2, "queued"), Some(TRANSIT));
    // So the original is applied and the copy gets its receipt.
    assert_eq!(when(1, "handled"), Some(TRANSIT + 100));
    assert_eq!(when(2, "handled"), Some(TRANSIT + 200));
    let store = |attempt| {
        lab.state()
            .world()
            .events()
            .iter()
            .find_map(|e| match &e.what {
                Happening::Handled {
                    attempt: a, store, ..
                } if *a == attempt => Some(store.clone()),
                _ => None,
            })
            .unwrap()
    };
    assert!(matches!(
        store(1),
        Ok(idempotency_lab::StoreOutcome::Applied(_))
    ));
    assert!(matches!(
        store(2),
        Ok(idempotency_lab::StoreOutcome::Replayed(_))
    ));
    // The copy does not travel: it was never on the caller's arrow.
    assert!(lab.state().world().events().iter().any(|e| matches!(
        e.what,
        Happening::Sent {
            attempt: 2,
            transit: 0,
            ..
        }
    )));
}

#[test]
fn a_request_that_arrives_at_an_ended_process_is_turned_away_and_never_copied() {
    let mut lab = lab_with_transit(TRANSIT);
    lab.dispatch(Action::SetRedeliver { on: true }).unwrap();
    send(&mut lab, "alice", false);
    // Its process crashes while the request is on its way.
    lab.dispatch(Action::Wait { ms: 100 }).unwrap();
    lab.dispatch(Action::CrashProcess { process: 1 }).unwrap();
    lab.skip_to_idle().unwrap();
    assert!(
        !lab.state().world().events().iter().any(|e| matches!(
            e.what,
            Happening::Sent {
                redelivery_of: Some(_),
                ..
            }
        )),
        "the queue never held it, so it made no copy"
    );
    assert_eq!(lab.state().timeline().len(), 1);
    assert_eq!(
        lab.state().timeline()[0].outcome(),
        idempotency_lab::lab::Outcome::ProcessEnded
    );
    assert_eq!(lab.state().store().balance("alice"), 0);
    // The switch went with that message, as it does when it is sent.
    assert!(!lab.state().faults().redeliver_next);
}
