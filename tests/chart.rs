#![cfg(not(target_arch = "wasm32"))]
//! The balance chart's geometry: receipts at their own balance, the line at the store's.

use idempotency_lab::lab::{balance_chart, Action, Lab, CHART_HEIGHT, CHART_MAX_ATTEMPTS};
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
