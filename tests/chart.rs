#![cfg(not(target_arch = "wasm32"))]
//! The balance chart's geometry: receipts at their own balance, the line at the
//! store's, a value axis with round labelled ticks, attempt numbers as in the
//! timeline, and the rows its text equivalent lists.

mod common;
use common::instant_lab;

use idempotency_lab::i18n::Lang;
use idempotency_lab::lab::{
    attempt_label_indices, balance_chart, chart_account, percent, value_axis, Action, BalanceChart,
    Lab, Outcome, Setting, CHART_HEIGHT, CHART_MAX_ATTEMPTS, CHART_TABLE_ROWS, CHART_VIEW_BOX,
    CHART_WIDTH, MAX_ATTEMPT_LABELS,
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

fn chart_of(lab: &Lab) -> BalanceChart {
    balance_chart(lab.state().timeline(), "account-7")
}

/// The lesson of the page: a lost acknowledgement, its retry, another grant, and
/// the first key once more (its stored receipt is now older than the balance).
fn lesson() -> Lab {
    let mut lab = instant_lab();
    send(&mut lab, "order-1042", 100, true);
    send(&mut lab, "order-1042", 100, false);
    send(&mut lab, "order-1043", 25, false);
    send(&mut lab, "order-1042", 100, false);
    lab
}

/// The points of the step line, as numbers.
fn line_points(chart: &BalanceChart) -> Vec<(f64, f64)> {
    chart
        .line
        .split(' ')
        .map(|pair| {
            let (x, y) = pair.split_once(',').expect("x,y");
            (x.parse().expect("x"), y.parse().expect("y"))
        })
        .collect()
}

/// The subpaths of a path made of `M x y...` pieces: their starting points.
fn subpath_starts(d: &str) -> Vec<(f64, f64)> {
    d.split('M')
        .filter(|s| !s.is_empty())
        .map(|s| {
            let numbers: Vec<f64> = s
                .split(|c: char| !(c.is_ascii_digit() || c == '.'))
                .filter(|n| !n.is_empty())
                .take(2)
                .map(|n| n.parse().unwrap())
                .collect();
            (numbers[0], numbers[1])
        })
        .collect()
}

/// Heights in the drawing box are linear in the balance: the value a height
/// stands for, read back from two labelled ticks.
fn value_at(chart: &BalanceChart, y: f64) -> f64 {
    let (low, high) = (&chart.axis.ticks[0], chart.axis.ticks.last().unwrap());
    low.value as f64 + (low.y - y) * (high.value - low.value) as f64 / (low.y - high.y)
}

#[test]
fn a_replayed_receipt_sits_below_the_current_balance_line() {
    let mut lab = instant_lab();
    send(&mut lab, "order-1042", 100, true);
    send(&mut lab, "order-1043", 25, false);
    send(&mut lab, "order-1042", 100, false);
    let chart = chart_of(&lab);
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
    let mut lab = instant_lab();
    // Callers patient enough for 500 deliveries of 100 ms each.
    lab.dispatch(Action::Set(Setting::CallerTimeoutMs(60_000)))
        .unwrap();
    lab.dispatch(Action::Burst {
        account_id: "account-7".into(),
        points: 1,
        count: 500,
    })
    .unwrap();
    assert_eq!(lab.skip_to_idle().unwrap(), 50_000);
    let chart = chart_of(&lab);
    assert_eq!(chart.attempts, CHART_MAX_ATTEMPTS);
    assert_eq!(chart.receipts.len(), CHART_MAX_ATTEMPTS);
    assert!(chart.unseen.is_empty());
    // The newest attempts sent, in sending order, each with the receipt its
    // caller got (the consumer took them in another order).
    let first_drawn = 500 - CHART_MAX_ATTEMPTS as u64 + 1;
    let drawn: Vec<(u64, i32)> = chart
        .receipts
        .iter()
        .map(|m| (m.attempt, m.balance))
        .collect();
    let rows = lab.state().timeline();
    let newest: Vec<(u64, i32)> = rows[rows.len() - CHART_MAX_ATTEMPTS..]
        .iter()
        .map(|r| (r.attempt.id, r.caller_receipt().unwrap().balance))
        .collect();
    assert_eq!(drawn, newest);
    assert_eq!(
        drawn.iter().map(|d| d.0).collect::<Vec<_>>(),
        (first_drawn..=500).collect::<Vec<_>>()
    );
    let highest = newest.iter().map(|d| d.1).max().unwrap();
    assert_eq!(chart.max_balance, highest);
    assert_eq!(
        chart.start_balance,
        rows[rows.len() - CHART_MAX_ATTEMPTS - 1].balance_after,
        "where the attempt before the first drawn left the line"
    );
}

#[test]
fn callers_that_timed_out_draw_no_receipt_and_the_line_follows_the_store() {
    let mut lab = instant_lab();
    // The default 3,000 ms deadline: 29 of 40 deliveries of 100 ms are answered in
    // time; the other 11 are applied after their callers gave up.
    lab.dispatch(Action::Burst {
        account_id: "account-7".into(),
        points: 1,
        count: 40,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    let chart = chart_of(&lab);
    assert_eq!(chart.attempts, 40);
    assert_eq!(chart.receipts.len(), 29);
    assert_eq!(
        chart.unseen.len(),
        11,
        "applied after the timeout: the caller holds no receipt"
    );
    // Each caller that timed out did so at 3,000 ms, when the store held 29; its
    // mark is at the balance its own grant made later, 30 to 40 in the order the
    // consumer took them: on the line, which is the balance right after each
    // attempt was handled.
    let mut unseen: Vec<i32> = chart.unseen.iter().map(|m| m.balance).collect();
    unseen.sort_unstable();
    assert_eq!(unseen, (30..=40).collect::<Vec<_>>());
    // Their rows say the same: the balance after the store's late work, not the
    // 29 it held when the callers gave up.
    let mut rows: Vec<i32> = lab
        .state()
        .timeline()
        .iter()
        .filter(|r| r.outcome() == Outcome::TimeoutApplied)
        .map(|r| r.balance_after)
        .collect();
    rows.sort_unstable();
    assert_eq!(rows, unseen);
    assert!(chart
        .unseen
        .iter()
        .all(|m| m.outcome == Outcome::TimeoutApplied && m.y >= 0.0 && m.y <= CHART_HEIGHT));
    assert_eq!(chart.max_balance, 40);
    assert_eq!(chart.axis.max, 40, "the marks stay inside the axis");
    assert_eq!(lab.state().store().balance("account-7"), 40);
    let line = line_points(&chart);
    for mark in &chart.unseen {
        assert!(
            line.iter()
                .any(|p| (p.0 - mark.x).abs() < 0.05 && (p.1 - mark.y).abs() < 0.05),
            "{mark:?} is not on the line"
        );
    }
    // On the line, so nothing ties a mark to it.
    assert!(subpath_starts(&chart.connectors).is_empty());
}

#[test]
fn the_line_is_the_balance_right_after_each_attempt_so_it_never_drops_without_a_cause() {
    // The article's story: the first caller times out at 3 s, after the later
    // grants; the line still stands at 100 for it, then 100, 100, 125, 125.
    let mut lab = instant_lab();
    for step in 1..=4 {
        for action in idempotency_lab::lab::story_step(step).unwrap() {
            lab.dispatch(action).unwrap();
        }
    }
    lab.skip_to_idle().unwrap();
    let rows = lab.state().timeline();
    // Its caller gave up at 3 s, after the rest, when the store held 125; its
    // row, like the line, says the balance right after the store's work on it.
    assert_eq!(rows[0].answered_at, Some(3_000));
    assert_eq!(rows[0].balance_after, 100, "the balance its own grant made");
    let chart = balance_chart(rows, "account-7");
    let line: Vec<i32> = chart.table_rows().iter().map(|r| r.balance).collect();
    assert_eq!(line, [100, 100, 100, 125, 125]);
    assert_eq!(chart.unseen.len(), 1);
    assert_eq!((chart.unseen[0].attempt, chart.unseen[0].balance), (1, 100));
}

#[test]
fn a_lost_acknowledgement_is_drawn_at_its_own_balance_not_at_the_deadline() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Send {
        grant: GrantPoints::new("order-1042", "account-7", 100),
        lose_acknowledgement: true,
    })
    .unwrap();
    // Applied at 200 ms, long before the first caller's deadline.
    send(&mut lab, "order-1043", 25, false);
    let rows = lab.state().timeline();
    assert_eq!(rows[0].answered_at, Some(3_000));
    assert_eq!(
        rows[0].balance_after, 100,
        "right after its own work, not at the deadline (125 by then)"
    );
    assert_eq!(rows[1].balance_after, 125);
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
    let mut lab = instant_lab();
    send(&mut lab, "order-1", 100, false);
    send(&mut lab, "order-2", 50, false);
    let chart = chart_of(&lab);
    let points = line_points(&chart);
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

#[test]
fn the_value_axis_of_a_lesson_starts_at_zero_with_round_labelled_ticks() {
    let chart = chart_of(&lesson());
    let axis = &chart.axis;
    assert!(axis.starts_at_zero());
    let values: Vec<i64> = axis.ticks.iter().map(|t| t.value).collect();
    assert_eq!(
        values,
        [0, 50, 100, 150],
        "125 at most: a round top above it"
    );
    assert_eq!((axis.min, axis.max, axis.step), (0, 150, 50));
    assert_eq!(
        axis.widest_label(|n| n.to_string()),
        "150",
        "sizes the label column"
    );
    // In the page's digits: Persian ones are as many characters.
    assert_eq!(axis.widest_label(|n| Lang::Fa.number(n)), "۱۵۰");
    // Ticks go up the box, and each label's offset is its height in percent.
    assert!(axis.ticks.windows(2).all(|w| w[1].y < w[0].y));
    for tick in &axis.ticks {
        assert_eq!(tick.offset, percent(tick.y, CHART_HEIGHT));
        assert!(tick.y > 0.0 && tick.y < CHART_HEIGHT);
    }
    // The grid has one line per tick, at the tick's height.
    let grid = subpath_starts(&chart.grid);
    assert_eq!(grid.len(), axis.ticks.len());
    for (line, tick) in grid.iter().zip(&axis.ticks) {
        assert!((line.1 - tick.y).abs() <= 0.05, "{} vs {}", line.1, tick.y);
    }
    // Read against the labels, the line ends at 125 and starts at 0.
    let points = line_points(&chart);
    assert!((value_at(&chart, points[0].1) - 0.0).abs() < 0.5);
    assert!((value_at(&chart, points.last().unwrap().1) - 125.0).abs() < 0.5);
    // The receipt of the last attempt (100) is read as 100, not as the line's 125.
    let last = chart.receipts.last().unwrap();
    assert!((value_at(&chart, last.y) - 100.0).abs() < 0.5);
    assert!(!last.below_scale);
}

#[test]
fn value_axes_are_round_cover_the_values_and_never_have_an_unlabelled_top() {
    let cases = [
        (0, 0),
        (0, 1),
        (0, 7),
        (0, 125),
        (25, 125),
        (100, 100),
        (600, 601),
        (691_200, 700_000),
        (0, i64::from(i32::MAX)),
        (i64::from(i32::MAX) - 5, i64::from(i32::MAX)),
    ];
    for (lo, hi) in cases {
        let axis = value_axis(lo, hi);
        let what = format!("{lo}..{hi}: {axis:?}");
        let mantissa = axis.step / 10_i64.pow(axis.step.ilog10());
        assert!([1, 2, 5].contains(&mantissa), "a round step: {what}");
        assert!(
            axis.min <= lo && axis.max >= hi,
            "covers the values: {what}"
        );
        assert!(axis.max > axis.min, "{what}");
        assert!(
            axis.max - axis.step < hi.max(axis.min + 1),
            "the top is the first tick at or above: {what}"
        );
        assert!((2..=6).contains(&axis.ticks.len()), "a few ticks: {what}");
        assert_eq!(axis.ticks.first().unwrap().value, axis.min, "{what}");
        assert_eq!(axis.ticks.last().unwrap().value, axis.max, "{what}");
        assert!(
            axis.ticks.iter().all(|t| t.value % axis.step == 0),
            "{what}"
        );
        assert!(
            axis.ticks.iter().all(|t| t.y > 0.0 && t.y < CHART_HEIGHT),
            "{what}"
        );
    }
    // Zero stays the baseline while the lowest value is at most half the highest.
    assert!(value_axis(62, 125).starts_at_zero());
    assert!(
        value_axis(1, 1).starts_at_zero(),
        "a flat line sits on a scale from 0"
    );
    assert!(!value_axis(64, 125).starts_at_zero());
    let high = value_axis(691_200, 700_000);
    assert_eq!((high.min, high.max, high.step), (690_000, 700_000, 5_000));
}

/// After a stress run, the account holds hundreds of thousands; then a person
/// sends grants of 100 points by hand.
fn after_a_stress_run() -> Lab {
    let mut lab = instant_lab();
    lab.dispatch(Action::Stress {
        account_id: "account-7".into(),
        points: 100,
        count: 2_000,
        duplicate_percent: 30,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    lab
}

#[test]
fn after_a_stress_run_a_small_grant_still_shows_and_older_receipts_go_below_the_scale() {
    let mut lab = after_a_stress_run();
    let big = lab.state().store().balance("account-7");
    assert!(big > 100_000, "{big}");
    send(&mut lab, "order-1042", 100, false);
    send(&mut lab, "order-1042", 100, false);
    let chart = chart_of(&lab);
    let axis = &chart.axis;
    assert!(
        !axis.starts_at_zero(),
        "a scale from 0 would flatten the line: {axis:?}"
    );
    assert!(axis.min > i64::from(big / 2) && axis.min <= i64::from(chart.start_balance));
    // The last grant of 100 points is a visible step, the retry after it flat.
    let points = line_points(&chart);
    let n = points.len();
    let (before, after_grant, after_retry) = (points[n - 5].1, points[n - 4].1, points[n - 2].1);
    assert!(
        before - after_grant >= 1.0,
        "a 100-point step spans at least a unit: {}",
        chart.line
    );
    assert_eq!(after_grant, after_retry, "the retry adds nothing");
    // The stress run's redelivered grants got receipts from long before: under the
    // floor, drawn in the band below the axis, not at the floor as if it were
    // their value, and each tied to the line by a connector.
    let below: Vec<_> = chart.receipts_below_scale().collect();
    assert!(!below.is_empty());
    let floor_y = axis.ticks[0].y;
    for m in &below {
        assert!(i64::from(m.balance) < axis.min && m.outcome == Outcome::Replayed);
        assert!(m.y > floor_y + 5.0 && m.y < CHART_HEIGHT, "{m:?}");
    }
    assert!(chart
        .receipts_in_scale()
        .all(|m| i64::from(m.balance) >= axis.min));
    let connector_xs: Vec<f64> = subpath_starts(&chart.connectors)
        .iter()
        .map(|p| p.0)
        .collect();
    for m in &below {
        assert!(connector_xs.iter().any(|x| (x - m.x).abs() < 0.1), "{m:?}");
    }
    // The line itself stays on the scale.
    assert!(points.iter().all(|p| p.1 >= 0.0 && p.1 <= floor_y + 0.05));
}

#[test]
fn after_a_restart_the_scale_comes_back_to_zero() {
    let mut lab = after_a_stress_run();
    lab.dispatch(Action::Restart).unwrap();
    send(&mut lab, "order-1042", 100, false);
    let chart = chart_of(&lab);
    assert!(chart.axis.starts_at_zero(), "{:?}", chart.axis);
    let summary = chart.summary().unwrap();
    assert_eq!(summary.to, 100, "the new process starts empty");
    let last = line_points(&chart).last().copied().unwrap();
    assert!((value_at(&chart, last.1) - 100.0).abs() < chart.axis.max as f64 / 200.0);
}

#[test]
fn attempt_labels_are_the_timeline_numbers_at_their_marks() {
    // The lost acknowledgement (attempt 1) is answered at its deadline, after
    // attempt 2: the timeline lists them as sent, 1 before 2, and so does the
    // chart.
    let mut lab = instant_lab();
    lab.dispatch(Action::Send {
        grant: GrantPoints::new("order-1042", "account-7", 100),
        lose_acknowledgement: true,
    })
    .unwrap();
    send(&mut lab, "order-1043", 25, false);
    let timeline: Vec<u64> = lab
        .state()
        .timeline()
        .iter()
        .map(|r| r.attempt.id)
        .collect();
    assert_eq!(timeline, [1, 2]);
    let chart = chart_of(&lab);
    let labels: Vec<u64> = chart.attempt_ticks.iter().map(|t| t.attempt).collect();
    assert_eq!(labels, timeline);
    assert_eq!(chart.receipts[0].attempt, 2);
    assert_eq!(chart.unseen[0].attempt, 1);
    assert_eq!(
        chart.attempt_ticks[1].x, chart.receipts[0].x,
        "the label sits under its mark"
    );
    assert_eq!(chart.attempt_ticks[0].x, chart.unseen[0].x);
    let summary = chart.summary().unwrap();
    assert_eq!((summary.first_attempt, summary.last_attempt), (1, 2));

    // With 120 drawn, a few labels, evenly spread, the first and the last included.
    let mut lab = instant_lab();
    lab.dispatch(Action::Set(Setting::CallerTimeoutMs(60_000)))
        .unwrap();
    lab.dispatch(Action::Burst {
        account_id: "account-7".into(),
        points: 1,
        count: 500,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    let rows = lab.state().timeline();
    let chart = chart_of(&lab);
    assert_eq!(chart.attempt_ticks.len(), MAX_ATTEMPT_LABELS);
    let drawn = &rows[rows.len() - CHART_MAX_ATTEMPTS..];
    for tick in &chart.attempt_ticks {
        assert_eq!(tick.attempt, drawn[tick.index].attempt.id);
        assert_eq!(tick.x, chart.receipts[tick.index].x);
        assert_eq!(tick.offset, percent(tick.x, CHART_WIDTH));
    }
    // A burst's callers are answered in the order the consumer takes them, not
    // in sending order: the labels follow the timeline, not a count.
    assert_eq!(chart.attempt_ticks[0].attempt, drawn[0].attempt.id);
    assert_eq!(
        chart.attempt_ticks.last().unwrap().attempt,
        rows.last().unwrap().attempt.id
    );
    assert!(chart.attempt_ticks.windows(2).all(|w| w[0].x < w[1].x));
    assert_eq!(
        subpath_starts(&chart.attempt_tick_marks).len(),
        MAX_ATTEMPT_LABELS
    );
}

#[test]
fn attempt_labels_cover_every_attempt_while_they_are_few() {
    for n in 1..=MAX_ATTEMPT_LABELS {
        assert_eq!(attempt_label_indices(n), (0..n).collect::<Vec<_>>());
    }
    for n in [MAX_ATTEMPT_LABELS + 1, 37, CHART_MAX_ATTEMPTS] {
        let picked = attempt_label_indices(n);
        assert_eq!(picked.len(), MAX_ATTEMPT_LABELS, "{n}");
        assert_eq!((picked[0], *picked.last().unwrap()), (0, n - 1), "{n}");
        assert!(picked.windows(2).all(|w| w[0] < w[1]), "{n}: {picked:?}");
        // Evenly spread: no gap more than one wider than another.
        let gaps: Vec<usize> = picked.windows(2).map(|w| w[1] - w[0]).collect();
        let (min, max) = (gaps.iter().min().unwrap(), gaps.iter().max().unwrap());
        assert!(max - min <= 1, "{n}: {gaps:?}");
    }
}

#[test]
fn the_text_equivalent_lists_each_attempt_with_what_its_mark_shows() {
    let chart = chart_of(&lesson());
    let rows = chart.table_rows();
    type Listed = (u64, i32, Option<i32>, Option<i32>, bool);
    let listed: Vec<Listed> = rows
        .iter()
        .map(|r| {
            (
                r.attempt,
                r.balance,
                r.receipt,
                r.unseen,
                r.receipt_is_older(),
            )
        })
        .collect();
    assert_eq!(
        listed,
        [
            (1, 100, None, Some(100), false),
            (2, 100, Some(100), None, false),
            (3, 125, Some(125), None, false),
            (4, 125, Some(100), None, true),
        ]
    );
    let outcomes: Vec<Outcome> = rows.iter().map(|r| r.outcome).collect();
    assert_eq!(
        outcomes,
        [
            Outcome::TimeoutApplied,
            Outcome::Replayed,
            Outcome::Applied,
            Outcome::Replayed
        ]
    );
    let summary = chart.summary().unwrap();
    assert_eq!(
        (summary.first_attempt, summary.last_attempt, summary.drawn),
        (1, 4, 4)
    );
    assert_eq!((summary.from, summary.to), (0, 125));
    assert_eq!(
        (summary.receipts, summary.older_receipts, summary.unseen),
        (3, 1, 1)
    );
    // Only the older receipt stands off the line, so only it has a connector, at
    // its attempt.
    let connectors = subpath_starts(&chart.connectors);
    assert_eq!(connectors.len(), 1, "{}", chart.connectors);
    assert_eq!(connectors[0].0, chart.receipts[2].x);
}

#[test]
fn the_text_equivalent_of_a_long_run_lists_only_the_newest_rows() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Set(Setting::CallerTimeoutMs(60_000)))
        .unwrap();
    lab.dispatch(Action::Burst {
        account_id: "account-7".into(),
        points: 1,
        count: 200,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    let chart = chart_of(&lab);
    let timeline = lab.state().timeline();
    let newest: Vec<(u64, i32)> = timeline[timeline.len() - CHART_TABLE_ROWS..]
        .iter()
        .map(|r| (r.attempt.id, r.balance_after))
        .collect();
    let listed: Vec<(u64, i32)> = chart
        .table_rows()
        .iter()
        .map(|r| (r.attempt, r.balance))
        .collect();
    assert_eq!(listed, newest, "the timeline's last rows, in its order");
    let summary = chart.summary().unwrap();
    assert_eq!(summary.drawn, CHART_MAX_ATTEMPTS);
    let drawn = &timeline[timeline.len() - CHART_MAX_ATTEMPTS..];
    let lowest = drawn.iter().map(|r| r.attempt.id).min().unwrap();
    let highest = drawn.iter().map(|r| r.attempt.id).max().unwrap();
    assert_eq!(
        (summary.first_attempt, summary.last_attempt),
        (lowest, highest)
    );
    assert_eq!((lowest, highest), (81, 200), "the newest sent");
    let before = &timeline[timeline.len() - CHART_MAX_ATTEMPTS - 1];
    assert_eq!(
        (summary.from, summary.to),
        (before.balance_after, timeline.last().unwrap().balance_after)
    );
}

#[test]
fn the_pointer_finds_the_attempt_under_it() {
    let chart = chart_of(&lesson());
    for i in 0..chart.attempts {
        assert_eq!(
            chart.attempt_at(chart.x_of(i) / CHART_WIDTH),
            Some(i),
            "{i}"
        );
    }
    assert_eq!(chart.attempt_at(0.0), Some(0));
    assert_eq!(chart.attempt_at(1.0), Some(chart.attempts - 1));
    assert_eq!(chart.attempt_at(f64::NAN), None);
    assert_eq!(BalanceChart::default().attempt_at(0.5), None);
    // The guide runs through the attempt's marks.
    assert!(chart
        .guide(3)
        .starts_with(&format!("M{:.1} ", chart.receipts[2].x)));
}

#[test]
fn the_chart_in_words_writes_every_number_in_the_reader_s_digits_and_keeps_data_apart() {
    let en = Lang::En.texts();
    assert_eq!(
        en.chart_summary(1, 4, 4, 0, 125),
        "Attempts 1 to 4 (4 drawn): the current balance went from 0 to 125."
    );
    assert!(en.chart_counts(1, 0, 2).starts_with("1 receipt reached"));
    assert_eq!(
        en.chart_floor(690_000),
        "The scale starts at 690000, not at 0."
    );
    let fa = Lang::Fa.texts();
    let summary = fa.chart_summary(881, 1000, 120, 691_200, 700_000);
    // Attempt numbers and balances as in the timeline (in Persian digits), set
    // apart from the prose.
    for data in ["۸۸۱", "۱۰۰۰", "۶۹۱۲۰۰", "۷۰۰۰۰۰"] {
        assert!(
            summary.contains(&format!("\u{2068}{data}\u{2069}")),
            "{summary}"
        );
    }
    assert!(
        summary.contains("۱۲۰"),
        "the count in Persian digits: {summary}"
    );
    assert!(!summary.contains("120 "), "{summary}");
    let counts = fa.chart_counts(84, 36, 0);
    assert!(
        counts.contains("۸۴") && counts.contains("۳۶") && counts.contains('۰'),
        "{counts}"
    );
    assert!(!counts.chars().any(|c| c.is_ascii_digit()), "{counts}");
    assert!(fa.chart_floor(690_000).contains("\u{2068}۶۹۰۰۰۰\u{2069}"));
    assert!(!summary.chars().any(|c| c.is_ascii_digit()), "{summary}");
    // A negative balance keeps its minus on the left inside Persian prose.
    assert!(
        fa.chart_floor(-5).contains("\u{2066}-۵\u{2069}"),
        "{}",
        fa.chart_floor(-5)
    );
    let caption = fa.chart_table_caption(20, 120);
    assert!(
        caption.contains("۲۰") && caption.contains("۱۲۰"),
        "{caption}"
    );
}

#[test]
fn the_markup_draws_the_line_over_every_mark_and_names_each_mark_s_attempt() {
    let chart = chart_of(&lesson());
    let svg = chart.plot_markup(None);
    let at = |class: &str| {
        svg.find(&format!(r#"class="{class}""#))
            .unwrap_or_else(|| panic!("no {class} in {svg}"))
    };
    let line = at("current-line");
    for under in [
        "chart-grid",
        "chart-connector",
        "unseen-mark",
        "receipt-mark",
        "receipt-hole",
        "receipt-below",
        "current-line-halo",
    ] {
        assert!(at(under) < line, "{under} is painted before the line");
    }
    assert!(svg.ends_with(&format!(
        r#"<polyline class="current-line" points="{}"/></g>"#,
        chart.line
    )));
    assert!(svg.starts_with("<g>"), "a few attempts: marks at full size");
    assert!(!svg.contains("chart-guide"), "no guide without a pointer");
    assert!(svg.contains(r#"class="receipt-mark" d="M"#));
    assert!(
        svg.contains(r#"data-count="3" data-attempts="2 3 4" data-balances="100 125 100""#),
        "{svg}"
    );
    assert!(
        svg.contains(r#"data-count="1" data-attempts="1" data-balances="100""#),
        "{svg}"
    );
    // The guide goes through the attempt under the pointer, under the marks.
    let guided = chart.plot_markup(Some(3));
    assert!(guided.contains(&format!(
        r#"<path class="chart-guide" d="{}"/>"#,
        chart.guide(3)
    )));
    assert!(guided.find("chart-guide") < guided.find("receipt-mark"));
    assert!(
        !chart.plot_markup(Some(4)).contains("chart-guide"),
        "only drawn attempts"
    );

    // Labels: each value at its tick's height, each attempt under its mark.
    let values = chart.value_labels_markup(|n| n.to_string());
    for tick in &chart.axis.ticks {
        assert!(
            values.contains(&format!(r#"y="{}""#, tick.offset))
                && values.contains(&format!(">{}</text>", tick.value)),
            "{values}"
        );
    }
    assert_eq!(values.matches("<text").count(), chart.axis.ticks.len());
    let attempts = chart.attempt_labels_markup(|n| n.to_string());
    let labelled: Vec<&str> = attempts
        .split("</text>")
        .filter_map(|t| t.rsplit('>').next())
        .filter(|t| !t.is_empty())
        .collect();
    assert_eq!(labelled, ["1", "2", "3", "4"]);
    for tick in &chart.attempt_ticks {
        assert!(attempts.contains(&format!(r#"x="{}""#, percent(tick.x, CHART_WIDTH))));
    }
    // In Persian the labels are in Persian digits, the attributes in ASCII.
    let fa = chart.attempt_labels_markup(|n| Lang::Fa.number(n));
    assert!(fa.contains(r#"data-attempt="4">۴</text>"#), "{fa}");
    let fa = chart.value_labels_markup(|n| Lang::Fa.number(n));
    assert!(fa.contains(r#"data-value="150">۱۵۰</text>"#), "{fa}");
}

#[test]
fn many_attempts_draw_smaller_marks() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Set(Setting::CallerTimeoutMs(60_000)))
        .unwrap();
    lab.dispatch(Action::Burst {
        account_id: "account-7".into(),
        points: 1,
        count: 41,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    assert!(chart_of(&lab)
        .plot_markup(None)
        .starts_with(r#"<g class="dense">"#));
    let few = chart_of(&lesson()).plot_markup(None);
    assert!(!few.contains("dense"));
}

#[test]
fn the_attempt_axis_is_in_sending_order_with_bursts_and_two_processes() {
    // Two processes share the burst round-robin; the consumers take the waiting
    // producers out of line, and the callers past the deadline give up together.
    let mut lab = instant_lab();
    lab.dispatch(Action::Set(Setting::Processes(2))).unwrap();
    lab.dispatch(Action::Burst {
        account_id: "account-7".into(),
        points: 1,
        count: 80,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    let chart = chart_of(&lab);
    assert_eq!(chart.attempts, 80);
    let mut marks: Vec<(f64, u64)> = chart
        .receipts
        .iter()
        .chain(&chart.unseen)
        .map(|m| (m.x, m.attempt))
        .collect();
    assert!(
        !chart.unseen.is_empty(),
        "some were applied after their deadline"
    );
    marks.sort_by(|a, b| a.0.total_cmp(&b.0));
    let attempts: Vec<u64> = marks.iter().map(|m| m.1).collect();
    assert_eq!(
        attempts,
        (1..=80).collect::<Vec<_>>(),
        "left to right as sent"
    );
    let ticks: Vec<u64> = chart.attempt_ticks.iter().map(|t| t.attempt).collect();
    assert!(ticks.windows(2).all(|w| w[0] < w[1]), "{ticks:?}");
}

#[test]
fn a_grant_applied_while_its_caller_still_waits_is_drawn_as_a_receipt_not_yet_seen() {
    let mut lab = instant_lab();
    send(&mut lab, "order-1042", 100, false);
    // A lost acknowledgement on a new grant, and on a repeat: both callers wait.
    for action in [
        Action::Send {
            grant: GrantPoints::new("order-1043", "account-7", 25),
            lose_acknowledgement: true,
        },
        Action::Send {
            grant: GrantPoints::new("order-1042", "account-7", 100),
            lose_acknowledgement: true,
        },
        Action::Wait { ms: 500 },
    ] {
        lab.dispatch(action).unwrap();
    }
    let rows = lab.state().timeline();
    assert_eq!(
        rows.iter().map(|r| r.outcome()).collect::<Vec<_>>(),
        [Outcome::Applied, Outcome::Pending, Outcome::Pending]
    );
    let chart = balance_chart(rows, "account-7");
    assert_eq!(chart.attempts, 3);
    // The new grant is applied: what its receipt will say, on the line. The
    // repeat added nothing: no such mark.
    let unseen: Vec<(u64, i32, Outcome)> = chart
        .unseen
        .iter()
        .map(|m| (m.attempt, m.balance, m.outcome))
        .collect();
    assert_eq!(unseen, [(2, 125, Outcome::Pending)]);
    assert_eq!(chart.receipts.len(), 1);
}

#[test]
fn the_chart_follows_the_newest_attempts_account_a_burst_included() {
    let mut lab = instant_lab();
    assert_eq!(chart_account(lab.state().timeline()), None);
    send(&mut lab, "k-1", 100, false);
    assert_eq!(chart_account(lab.state().timeline()), Some("account-7"));
    lab.dispatch(Action::Burst {
        account_id: "alice".into(),
        points: 10,
        count: 3,
    })
    .unwrap();
    assert_eq!(chart_account(lab.state().timeline()), Some("alice"));
    lab.dispatch(Action::RetrySame {
        lose_acknowledgement: false,
    })
    .unwrap();
    // The retry is the person's own request again: account-7.
    assert_eq!(chart_account(lab.state().timeline()), Some("account-7"));
}
