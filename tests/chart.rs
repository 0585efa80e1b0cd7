#![cfg(not(target_arch = "wasm32"))]
//! The balance chart's geometry: receipts at their own balance, the line at the store's.

use idempotency_lab::lab::{
    balance_chart, Action, Lab, CHART_HEIGHT, CHART_MAX_ATTEMPTS, CHART_VIEW_BOX, CHART_WIDTH,
};
use idempotency_lab::GrantPoints;

fn send(lab: &mut Lab, key: &str, points: i32, lose: bool) {
    lab.dispatch(Action::Send {
        grant: GrantPoints::new(key, "account-7", points),
        lose_acknowledgement: lose,
    })
    .unwrap();
    lab.drain();
}

#[test]
fn a_replayed_receipt_sits_below_the_current_balance_line() {
    let mut lab = Lab::new();
    send(&mut lab, "order-1042", 100, true);
    send(&mut lab, "order-1043", 25, false);
    send(&mut lab, "order-1042", 100, false);
    let chart = balance_chart(lab.state().timeline(), "account-7");
    assert_eq!(chart.max_balance, 125);
    assert_eq!(chart.unseen.len(), 1, "the lost acknowledgement");
    let balances: Vec<i32> = chart.receipts.iter().map(|m| m.balance).collect();
    assert_eq!(balances, vec![125, 100]);
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
    lab.dispatch(Action::Burst {
        account_id: "account-7".into(),
        points: 1,
        count: 500,
    })
    .unwrap();
    lab.drain();
    let chart = balance_chart(lab.state().timeline(), "account-7");
    assert_eq!(chart.attempts, CHART_MAX_ATTEMPTS);
    assert_eq!(chart.receipts.len(), CHART_MAX_ATTEMPTS);
    assert_eq!(
        chart.receipts.first().unwrap().balance,
        500 - CHART_MAX_ATTEMPTS as i32 + 1
    );
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
