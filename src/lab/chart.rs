//! Geometry of the balance chart: the current balance as a line, receipts as marks.
//! Plain numbers, so the drawing is tested natively and the view only paints it.

use super::timeline::{AttemptRow, Outcome};

/// The chart's drawing box, in SVG user units.
pub const CHART_WIDTH: f64 = 600.0;
pub const CHART_HEIGHT: f64 = 200.0;
/// The same box as an SVG `viewBox`, spelled out: formatting an `f64` would pull
/// the float printer into the Wasm bundle for one attribute.
pub const CHART_VIEW_BOX: &str = "0 0 600 200";
const PAD: f64 = 12.0;

#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    pub x: f64,
    pub y: f64,
    pub balance: i32,
    pub outcome: Outcome,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct BalanceChart {
    /// `points` attribute of the step line of the current balance.
    pub line: String,
    /// Receipts the caller received, at the balance printed on them.
    pub receipts: Vec<Mark>,
    /// Grants applied whose receipt never reached the caller, at the balance the
    /// store recorded right after applying each.
    pub unseen: Vec<Mark>,
    pub max_balance: i32,
    /// How many attempts are drawn.
    pub attempts: usize,
}

impl BalanceChart {
    pub fn is_empty(&self) -> bool {
        self.line.is_empty()
    }
}

/// The chart draws at most this many attempts (the newest), so it stays readable
/// and its DOM small during a 10,000-grant stress run.
pub const CHART_MAX_ATTEMPTS: usize = 120;

/// Draws the newest attempts on `account_id`, oldest on the left. The line starts
/// at the balance before the first attempt drawn.
pub fn balance_chart(rows: &[AttemptRow], account_id: &str) -> BalanceChart {
    let mut rows: Vec<&AttemptRow> = rows
        .iter()
        .rev()
        .filter(|r| r.attempt.grant.account_id == account_id)
        .take(CHART_MAX_ATTEMPTS + 1)
        .collect();
    rows.reverse();
    // The extra, older row only gives the starting balance.
    let start_balance = if rows.len() > CHART_MAX_ATTEMPTS {
        rows.remove(0).balance_after
    } else {
        0
    };
    if rows.is_empty() {
        return BalanceChart::default();
    }
    let max_balance = rows
        .iter()
        .map(|r| r.balance_after.max(unseen_balance(r).unwrap_or(0)))
        .max()
        .unwrap_or(0)
        .max(1);
    let x_step = (CHART_WIDTH - 2.0 * PAD) / rows.len() as f64;
    let x = |i: usize| PAD + x_step * (i as f64 + 0.5);
    let y = |balance: i32| {
        CHART_HEIGHT
            - PAD
            - (CHART_HEIGHT - 2.0 * PAD) * f64::from(balance) / f64::from(max_balance)
    };

    // A step line: flat at the old balance until the attempt, then at the new one.
    // Integer formatting only (see `Tenths`): it keeps float-to-text code out of
    // the Wasm bundle.
    let mut line = format!("{},{}", Tenths(PAD), Tenths(y(start_balance)));
    let mut previous = start_balance;
    let mut chart = BalanceChart {
        max_balance,
        attempts: rows.len(),
        ..BalanceChart::default()
    };
    for (i, row) in rows.iter().enumerate() {
        let xi = x(i);
        let (xt, from, to) = (
            Tenths(xi),
            Tenths(y(previous)),
            Tenths(y(row.balance_after)),
        );
        line.push_str(&format!(" {xt},{from} {xt},{to}"));
        previous = row.balance_after;
        let outcome = row.outcome();
        if let Some(receipt) = row.caller_receipt() {
            chart.receipts.push(Mark {
                x: xi,
                y: y(receipt.balance),
                balance: receipt.balance,
                outcome,
            });
        } else if let Some(balance) = unseen_balance(row) {
            chart.unseen.push(Mark {
                x: xi,
                y: y(balance),
                balance,
                outcome,
            });
        }
    }
    line.push_str(&format!(
        " {},{}",
        Tenths(CHART_WIDTH - PAD),
        Tenths(y(previous))
    ));
    chart.line = line;
    chart
}

/// For a grant applied whose receipt never reached its caller, the balance the
/// store recorded right after applying it: what the receipt would have said. The
/// row's own balance is read when the caller gave up, which may be before the
/// grant was applied (a slow or paused worker) or after later grants (a lost
/// acknowledgement is only noticed at the deadline).
fn unseen_balance(row: &AttemptRow) -> Option<i32> {
    if row.outcome() != Outcome::TimeoutApplied {
        return None;
    }
    Some(
        row.handled
            .as_ref()
            .map_or(row.balance_after, |h| h.balance_after),
    )
}

/// A non-negative coordinate printed to one decimal with integer arithmetic only:
/// `{:.1}` on an `f64` would pull the float printer (about 10 KB) into the bundle.
struct Tenths(f64);

impl std::fmt::Display for Tenths {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Chart coordinates start at the padding, so they are never negative.
        debug_assert!(self.0 >= 0.0, "negative coordinate {}", self.0);
        let tenths = (self.0 * 10.0).round() as u32;
        write!(f, "{}.{}", tenths / 10, tenths % 10)
    }
}

/// All marks as one SVG path of small circles: one element however many marks,
/// so a long run redraws one attribute instead of hundreds of nodes.
pub fn circles_path(marks: &[Mark], radius: i32) -> String {
    marks
        .iter()
        .map(|m| {
            let (x, y) = (m.x.round() as i32, m.y.round() as i32);
            format!(
                "M{} {}a{radius} {radius} 0 1 0 {d} 0a{radius} {radius} 0 1 0 -{d} 0",
                x - radius,
                y,
                d = 2 * radius
            )
        })
        .collect()
}

/// All marks as one SVG path of small diamonds.
pub fn diamonds_path(marks: &[Mark], size: i32) -> String {
    marks
        .iter()
        .map(|m| {
            let (x, y) = (m.x.round() as i32, m.y.round() as i32);
            format!(
                "M{} {y}l{size} -{size} {size} {size} -{size} {size}z",
                x - size
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::Tenths;

    #[test]
    fn tenths_round_to_one_decimal_and_carry_into_the_whole_part() {
        let printed = |v: f64| Tenths(v).to_string();
        assert_eq!(printed(9.96), "10.0");
        assert_eq!(printed(0.04), "0.0");
        assert_eq!(printed(12.0), "12.0");
        assert_eq!(printed(187.95), "188.0");
        assert_eq!(printed(70.66), "70.7");
        assert_eq!(printed(70.64), "70.6");
    }
}
