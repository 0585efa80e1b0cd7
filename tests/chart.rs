#![cfg(not(target_arch = "wasm32"))]
//! The balance chart's geometry: receipts at their own balance, the line at the store's.

use idempotency_lab::lab::{
    balance_chart, Action, Lab, Outcome, CHART_HEIGHT, CHART_MAX_ATTEMPTS, CHART_VIEW_BOX,
    CHART_WIDTH,
};
use idempotency_lab::GrantPoints;

fn send(lab: &mut Lab, key: &str, points: i32, lose: bool) {
    lab.dispatch(Action::Send {
        grant: GrantPoints::new(key, "account-7", points),
        lose_acknowledgement: lose,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
}

#[test]
fn a_replayed_receipt_sits_below_the_current_balance_line() {
    let mut lab = Lab::new();
    send(&mut lab, "order-1042", 100, true);
    send(&mut lab, "order-1043", 25, false);
    send(&mut lab, "order-1042", 100, false);
    let chart = balance_chart(lab.state().timeline(), "account-7");
    assert_eq!(chart.max_balance, 125);
    assert_eq!(chart.attempts, 3);
    assert_eq!(chart.unseen.len(), 1, "the lost acknowledgement");
    assert_eq!(chart.unseen[0].balance, 100);
    assert_eq!(chart.unseen[0].outcome, Outcome::TimeoutApplied);
    let balances: Vec<i32> = chart.receipts.iter().map(|m| m.balance).collect();
    assert_eq!(balances, vec![125, 100]);
    let outcomes: Vec<Outcome> = chart.receipts.iter().map(|m| m.outcome).collect();
    assert_eq!(outcomes, vec![Outcome::Applied, Outcome::Replayed]);
    // Higher balance is higher up: smaller y.
    assert!(chart.receipts[1].y > chart.receipts[0].y);
    assert!(chart
        .receipts
        .iter()
        .all(|m| m.y >= 0.0 && m.y <= CHART_HEIGHT));
    assert!(balance_chart(lab.state().timeline(), "nobody").is_empty());
}

#[test]
fn the_chart_draws_only_the_newest_attempts() {
    let mut lab = Lab::new();
    // Callers patient enough for 500 deliveries of 100 ms each.
    lab.dispatch(Action::SetCallerTimeout { ms: 60_000 })
        .unwrap();
    lab.dispatch(Action::Burst {
        account_id: "account-7".into(),
        points: 1,
        count: 500,
    })
    .unwrap();
    assert_eq!(lab.skip_to_idle().unwrap(), 50_000);
    let chart = balance_chart(lab.state().timeline(), "account-7");
    assert_eq!(chart.attempts, CHART_MAX_ATTEMPTS);
    assert_eq!(chart.receipts.len(), CHART_MAX_ATTEMPTS);
    assert!(chart.unseen.is_empty());
    let balances: Vec<i32> = chart.receipts.iter().map(|m| m.balance).collect();
    assert_eq!(
        balances,
        (500 - CHART_MAX_ATTEMPTS as i32 + 1..=500).collect::<Vec<_>>()
    );
    assert_eq!(chart.max_balance, 500);
}

#[test]
fn callers_that_timed_out_draw_no_receipt_and_the_line_follows_the_store() {
    let mut lab = Lab::new();
    // The default 3,000 ms deadline: 29 of 40 deliveries of 100 ms are answered in
    // time; the other 11 are applied after their callers gave up.
    lab.dispatch(Action::Burst {
        account_id: "account-7".into(),
        points: 1,
        count: 40,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    let chart = balance_chart(lab.state().timeline(), "account-7");
    assert_eq!(chart.attempts, 40);
    assert_eq!(chart.receipts.len(), 29);
    assert_eq!(
        chart.unseen.len(),
        11,
        "applied after the timeout: the caller holds no receipt"
    );
    // Each caller that timed out did so at 3,000 ms, when the store held 29; its
    // mark is at the balance its own grant made later, 30 to 40 in the order the
    // consumer took them, above the line.
    let mut unseen: Vec<i32> = chart.unseen.iter().map(|m| m.balance).collect();
    unseen.sort_unstable();
    assert_eq!(unseen, (30..=40).collect::<Vec<_>>());
    assert!(chart
        .unseen
        .iter()
        .all(|m| m.outcome == Outcome::TimeoutApplied && m.y >= 0.0 && m.y <= CHART_HEIGHT));
    assert_eq!(chart.max_balance, 40, "the marks stay inside the box");
    assert_eq!(lab.state().store().balance("account-7"), 40);
}

#[test]
fn a_lost_acknowledgement_is_drawn_at_its_own_balance_not_at_the_deadline() {
    let mut lab = Lab::new();
    lab.dispatch(Action::Send {
        grant: GrantPoints::new("order-1042", "account-7", 100),
        lose_acknowledgement: true,
    })
    .unwrap();
    // Applied at 200 ms, long before the first caller's deadline.
    send(&mut lab, "order-1043", 25, false);
    let rows = lab.state().timeline();
    assert_eq!(rows[1].answered_at, 3_000);
    assert_eq!(rows[1].balance_after, 125, "read at the deadline");
    let chart = balance_chart(rows, "account-7");
    assert_eq!(chart.unseen.len(), 1);
    assert_eq!(chart.unseen[0].balance, 100, "the receipt it never got");
    assert_eq!(chart.receipts.len(), 1);
    assert_eq!(chart.receipts[0].balance, 125);
    assert!(chart.unseen[0].y > chart.receipts[0].y);
}

#[test]
fn the_spelled_out_view_box_matches_the_drawing_box() {
    assert_eq!(
        CHART_VIEW_BOX,
        format!("0 0 {CHART_WIDTH} {CHART_HEIGHT}"),
        "the view box must cover the box the marks are placed in"
    );
}

#[test]
fn the_step_line_climbs_at_each_attempt_to_the_new_balance() {
    let mut lab = Lab::new();
    send(&mut lab, "order-1", 100, false);
    send(&mut lab, "order-2", 50, false);
    let chart = balance_chart(lab.state().timeline(), "account-7");
    let points: Vec<(f64, f64)> = chart
        .line
        .split(' ')
        .map(|pair| {
            let (x, y) = pair.split_once(',').expect("x,y");
            (x.parse().expect("x"), y.parse().expect("y"))
        })
        .collect();
    // Start, two corners per attempt, end.
    assert_eq!(points.len(), 2 + 2 * 2, "{}", chart.line);
    let bottom = points[0].1;
    let top = points[points.len() - 1].1;
    assert!(bottom > top, "more points are drawn higher up");
    // First attempt: from 0 up to 100 of 150 at one x; second: to the top.
    assert_eq!(points[1].0, points[2].0);
    assert_eq!(points[1].1, bottom);
    let expected_mid = bottom - (bottom - top) * 100.0 / 150.0;
    assert!((points[2].1 - expected_mid).abs() <= 0.05, "{}", chart.line);
    assert_eq!(points[3].1, points[2].1);
    assert!((points[4].1 - top).abs() <= 0.5);
    assert!(points.windows(2).all(|w| w[0].0 <= w[1].0), "x only grows");
}
