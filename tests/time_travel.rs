#![cfg(not(target_arch = "wasm32"))]
//! The time slider: the lab taken to any moment of its history and forward
//! again, as undo and redo do, with the same world at every moment.

use idempotency_lab::lab::{Action, Lab, Setting, TokenKind, TRAVEL_MS};
use idempotency_lab::GrantPoints;

fn send(lab: &mut Lab, key: &str, lose: bool) {
    lab.dispatch(Action::Send {
        grant: GrantPoints::new(key, "alice", 100),
        lose_acknowledgement: lose,
    })
    .unwrap();
}

/// A history with something on its way at most moments: a slow grant, a lost
/// acknowledgement, a retry, a clock move.
fn busy_lab() -> Lab {
    let mut lab = Lab::new();
    lab.dispatch(Action::Set(Setting::ProcessingMs(500)))
        .unwrap();
    send(&mut lab, "order-1", true);
    lab.skip_to_idle().unwrap();
    lab.dispatch(Action::RetrySame {
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    lab.dispatch(Action::MoveClock { ms: 3_600_000 }).unwrap();
    send(&mut lab, "order-2", false);
    lab.skip_to_idle().unwrap();
    lab
}

/// What the world did, in a form two labs can be compared by.
fn log(lab: &Lab) -> String {
    format!("{:?}", lab.state().world().events())
}

#[test]
fn a_moment_of_the_history_is_the_world_as_it_was_then() {
    let lab = busy_lab();
    for at in [0, 1, 250, 499, 500, 501, 3_000, 3_200, 3_600_000, 3_603_700] {
        let mut travelled = busy_lab();
        travelled.travel_to(at);
        let at = at.min(lab.horizon());
        // The same world as a fresh one that waited until then.
        assert!(travelled.state().now() <= at, "{at}");
        let events = lab.state().world().events();
        let then: Vec<_> = events
            .iter()
            .filter(|e| e.at <= travelled.state().now())
            .collect();
        assert_eq!(
            format!(
                "{:?}",
                travelled
                    .state()
                    .world()
                    .events()
                    .iter()
                    .collect::<Vec<_>>()
            ),
            format!("{then:?}"),
            "at {at}: what happened by then, and nothing after"
        );
        assert_eq!(
            travelled.horizon(),
            lab.horizon(),
            "at {at}: the far end stays"
        );
    }
}

#[test]
fn inside_a_wait_the_moment_is_exact_and_a_token_is_on_its_way() {
    let mut lab = busy_lab();
    // The first request leaves at 0 and travels for TRAVEL_MS.
    lab.travel_to(TRAVEL_MS / 2);
    assert_eq!(lab.state().now(), TRAVEL_MS / 2);
    let stage = lab.state().stage();
    let request = stage
        .tokens
        .iter()
        .find(|t| t.kind == TokenKind::Request)
        .expect("the request is on its way");
    assert_eq!(request.progress, 0.5);
    assert_eq!(
        lab.state().timeline().len(),
        1,
        "the retry is still to come"
    );
}

#[test]
fn forward_again_is_the_same_world_and_a_new_action_drops_the_future() {
    let end = busy_lab();
    let mut lab = busy_lab();
    lab.travel_to(700);
    assert!(lab.can_redo());
    lab.travel_to(2_000);
    assert_eq!(lab.state().now(), 2_000);
    lab.travel_to(u64::MAX);
    assert_eq!(log(&lab), log(&end), "the slider's end is the present");
    assert_eq!(lab.history(), end.history());
    assert!(!lab.can_redo());

    // Back, then redo: the same end in one step.
    lab.travel_to(100);
    lab.redo().unwrap();
    assert_eq!(log(&lab), log(&end));

    // Back, then something new: what came after is gone, as after an undo.
    lab.travel_to(100);
    send(&mut lab, "order-9", false);
    assert!(!lab.can_redo());
    assert_eq!(lab.horizon(), lab.state().now());
}

#[test]
fn a_moment_inside_a_move_of_the_clock_is_where_the_move_started() {
    let mut lab = busy_lab();
    let before_move = {
        let mut l = busy_lab();
        l.undo().unwrap(); // the last send
        l.undo().unwrap(); // the clock move
        l.state().now()
    };
    lab.travel_to(before_move + 60_000);
    assert_eq!(lab.state().now(), before_move);
    lab.travel_to(u64::MAX);
    assert_eq!(log(&lab), log(&busy_lab()));
}

#[test]
fn undo_keeps_the_far_end_for_the_slider() {
    let mut lab = busy_lab();
    let end = lab.horizon();
    lab.undo().unwrap();
    assert!(lab.state().now() < end);
    assert_eq!(lab.horizon(), end);
    lab.travel_to(end);
    assert_eq!(log(&lab), log(&busy_lab()));
}
