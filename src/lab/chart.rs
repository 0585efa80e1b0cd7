//! Geometry of the balance chart: the current balance as a line, receipts as marks,
//! a value axis with round ticks, attempt numbers as in the timeline, and the rows
//! a text equivalent lists. Plain numbers, so the drawing is tested natively and
//! the view only paints it.
//!
//! The drawing box is stretched to the width and height the page gives it (the
//! view uses `preserveAspectRatio="none"` and strokes that do not scale), so its
//! labels are HTML placed at the percentages given here, and marks are round or
//! square caps of zero-length strokes: they stay the same size in pixels at any
//! width.

use crate::sim::AttemptId;

use super::decimal::Decimal;
use super::timeline::{AttemptRow, Outcome};

/// The chart's drawing box, in SVG user units.
pub const CHART_WIDTH: f64 = 600.0;
pub const CHART_HEIGHT: f64 = 200.0;
/// The same box as an SVG `viewBox`, spelled out: formatting an `f64` would pull
/// the float printer into the Wasm bundle for one attribute.
pub const CHART_VIEW_BOX: &str = "0 0 600 200";
/// Left and right margin: the first and last attempts sit this far in.
const PAD: f64 = 12.0;
/// Where the top of the value axis is drawn.
const AXIS_TOP: f64 = 8.0;
/// Where the bottom of the value axis is drawn when it starts at 0.
const AXIS_BOTTOM: f64 = 192.0;
/// When the axis starts above 0, its bottom is raised to leave a band below it
/// for receipts whose balance is under the scale's floor.
const AXIS_BOTTOM_ABOVE_BAND: f64 = 176.0;
/// The middle of that band.
const BELOW_SCALE_Y: f64 = 189.0;

/// The chart draws at most this many attempts (the newest), so it stays readable
/// and its DOM small during a 10,000-grant stress run.
pub const CHART_MAX_ATTEMPTS: usize = 120;
/// The text equivalent lists at most this many of the drawn attempts (the newest);
/// the rest are counted in its summary.
pub const CHART_TABLE_ROWS: usize = 20;
/// Above this many attempts drawn, marks are drawn smaller.
const DENSE_ATTEMPTS: usize = 40;
/// Value ticks aim at about this many intervals (2 to 5 come out).
const VALUE_INTERVALS: i64 = 4;
/// The attempt axis labels every attempt up to this many, else this many evenly
/// spread ones, the first and the last among them.
pub const MAX_ATTEMPT_LABELS: usize = 6;

/// A receipt or an unseen grant, placed.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    pub x: f64,
    pub y: f64,
    /// The balance the mark stands for (printed on the receipt, or what the
    /// receipt that never arrived would have said).
    pub balance: i32,
    pub outcome: Outcome,
    /// The attempt, as numbered in the timeline's first column.
    pub attempt: AttemptId,
    /// The balance is under the value axis's floor: the mark is drawn in the band
    /// below the axis, not at its value.
    pub below_scale: bool,
}

/// One drawn attempt, as the text equivalent and the pointer read-out tell it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChartRow {
    /// As numbered in the timeline's first column.
    pub attempt: AttemptId,
    /// The account's balance right after the store handled this attempt, or
    /// where it stood when the store never did: the line.
    pub balance: i32,
    pub outcome: Outcome,
    /// The balance printed on the receipt the caller got, if it got one.
    pub receipt: Option<i32>,
    /// Applied, but the caller never got the receipt: what it would have said.
    pub unseen: Option<i32>,
}

impl ChartRow {
    /// The receipt shows a balance older (lower) than the current balance at the
    /// time the caller got it: a stored receipt returned after later grants. The
    /// balance did not drop; the receipt is a copy from earlier.
    pub fn receipt_is_older(&self) -> bool {
        self.receipt.is_some_and(|r| r < self.balance)
    }
}

/// A labelled value on the value axis.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueTick {
    pub value: i64,
    /// Height in the drawing box.
    pub y: f64,
    /// The same height as a CSS `top` percentage of the box, for the label.
    pub offset: String,
}

/// A labelled attempt on the attempt axis.
#[derive(Debug, Clone, PartialEq)]
pub struct AttemptTick {
    /// As numbered in the timeline's first column.
    pub attempt: AttemptId,
    /// Its place among the drawn attempts, oldest first.
    pub index: usize,
    pub x: f64,
    /// The same place as a CSS `left` percentage of the box, for the label.
    pub offset: String,
}

/// The value axis: from `min` to `max` in steps of `step`, every step labelled.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ValueAxis {
    pub min: i64,
    pub max: i64,
    pub step: i64,
    /// Bottom to top.
    pub ticks: Vec<ValueTick>,
}

impl ValueAxis {
    pub fn starts_at_zero(&self) -> bool {
        self.min == 0
    }

    /// The longest label, written by `number` (the page's digits): the view
    /// sizes the label column by it.
    pub fn widest_label(&self, number: impl Fn(i64) -> String) -> String {
        self.ticks
            .iter()
            .map(|t| number(t.value))
            .max_by_key(|label| label.chars().count())
            .unwrap_or_default()
    }

    fn bottom(&self) -> f64 {
        if self.starts_at_zero() {
            AXIS_BOTTOM
        } else {
            AXIS_BOTTOM_ABOVE_BAND
        }
    }

    /// The height of a balance in the drawing box; a balance under the floor goes
    /// to the band below the axis (only there when the floor is above 0).
    fn y(&self, balance: i64) -> f64 {
        if balance < self.min {
            return BELOW_SCALE_Y;
        }
        let span = (self.max - self.min) as f64;
        self.bottom() - (self.bottom() - AXIS_TOP) * (balance - self.min) as f64 / span
    }
}

/// What a text equivalent says of the whole chart, beside its rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChartSummary {
    /// The lowest and the highest attempt number drawn.
    pub first_attempt: AttemptId,
    pub last_attempt: AttemptId,
    pub drawn: usize,
    /// The current balance before the first drawn attempt, and after the last.
    pub from: i32,
    pub to: i32,
    pub receipts: usize,
    /// Receipts whose balance is older than the current balance when received.
    pub older_receipts: usize,
    /// Grants applied whose caller never got the receipt.
    pub unseen: usize,
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
    /// The highest balance drawn (line or mark).
    pub max_balance: i32,
    /// How many attempts are drawn.
    pub attempts: usize,
    /// The current balance before the first drawn attempt.
    pub start_balance: i32,
    pub axis: ValueAxis,
    pub attempt_ticks: Vec<AttemptTick>,
    /// Every drawn attempt, oldest first.
    pub rows: Vec<ChartRow>,
    /// `d` of one horizontal grid line per value tick.
    pub grid: String,
    /// `d` of a short tick under each labelled attempt.
    pub attempt_tick_marks: String,
    /// `d` of a thin connector from the line, at its attempt, to each mark off
    /// the line: it ties a lagging receipt to its moment without reading as a
    /// drop of the balance.
    pub connectors: String,
}

impl BalanceChart {
    pub fn is_empty(&self) -> bool {
        self.line.is_empty()
    }

    /// The drawn attempt under a point `fraction` of the way across the box (0 at
    /// the left edge, 1 at the right), the nearest one at the margins.
    pub fn attempt_at(&self, fraction: f64) -> Option<usize> {
        if self.rows.is_empty() || !fraction.is_finite() {
            return None;
        }
        let step = x_step(self.rows.len());
        let i = ((fraction * CHART_WIDTH - PAD) / step).floor();
        Some((i.max(0.0) as usize).min(self.rows.len() - 1))
    }

    /// The x of the drawn attempt at `index`.
    pub fn x_of(&self, index: usize) -> f64 {
        PAD + x_step(self.rows.len()) * (index as f64 + 0.5)
    }

    /// `d` of a vertical guide through the drawn attempt at `index`.
    pub fn guide(&self, index: usize) -> String {
        format!(
            "M{} {}V{}",
            tenths(self.x_of(index)),
            tenths(0.0),
            tenths(CHART_HEIGHT)
        )
    }

    /// The rows the text equivalent lists: the newest [`CHART_TABLE_ROWS`] drawn.
    pub fn table_rows(&self) -> &[ChartRow] {
        &self.rows[self.rows.len().saturating_sub(CHART_TABLE_ROWS)..]
    }

    pub fn summary(&self) -> Option<ChartSummary> {
        let last = self.rows.last()?;
        // Rows come in sending order; a batch numbers its attempts before it
        // sends them all, so the summary names the lowest and the highest.
        let ids = self.rows.iter().map(|r| r.attempt);
        Some(ChartSummary {
            first_attempt: ids.clone().min()?,
            last_attempt: ids.max()?,
            drawn: self.rows.len(),
            from: self.start_balance,
            to: last.balance,
            receipts: self.receipts.len(),
            older_receipts: self.rows.iter().filter(|r| r.receipt_is_older()).count(),
            unseen: self.unseen.len(),
        })
    }

    /// Receipts drawn at their value on the axis.
    pub fn receipts_in_scale(&self) -> impl Iterator<Item = &Mark> {
        self.receipts.iter().filter(|m| !m.below_scale)
    }

    /// Receipts under the axis's floor, drawn in the band below it.
    pub fn receipts_below_scale(&self) -> impl Iterator<Item = &Mark> {
        self.receipts.iter().filter(|m| m.below_scale)
    }
}

/// SVG markup of the chart, for the view to set as the content of its three
/// `<svg>` elements. Only numbers and fixed class names go in (no text a person
/// typed), so there is nothing to escape; one string per element keeps the page's
/// code small and its DOM to one node per kind of mark.
impl BalanceChart {
    /// The drawing, bottom layer first: grid, attempt ticks, the guide through
    /// the attempt under the pointer (if any), connectors, marks, and the line
    /// last, over a halo, so no mark can hide it. Each kind of mark is one path,
    /// with the attempts and balances it stands for in `data-` attributes.
    pub fn plot_markup(&self, guide: Option<usize>) -> String {
        // Many attempts sit closer together than a mark is wide: smaller marks.
        let mut svg = String::from(if self.attempts > DENSE_ATTEMPTS {
            r#"<g class="dense">"#
        } else {
            "<g>"
        });
        let mut path = |class: &str, d: &str, data: &str| {
            svg.push_str(&format!(r#"<path class="{class}" d="{d}"{data}/>"#));
        };
        path("chart-grid", &self.grid, "");
        path("chart-attempt-tick", &self.attempt_tick_marks, "");
        if let Some(i) = guide.filter(|i| *i < self.rows.len()) {
            path("chart-guide", &self.guide(i), "");
        }
        path("chart-connector", &self.connectors, "");
        path(
            "unseen-mark",
            &dots_path(&self.unseen),
            &mark_data(&self.unseen),
        );
        // The ring of a receipt is a dot with a hole; the data name every receipt,
        // those drawn below the scale included.
        let in_scale = dots_path(self.receipts_in_scale());
        path("receipt-mark", &in_scale, &mark_data(&self.receipts));
        path("receipt-hole", &in_scale, "");
        let below = self.receipts_below_scale().count();
        path(
            "receipt-below",
            &chevrons_path(self.receipts_below_scale()),
            &format!(r#" data-count="{below}""#),
        );
        for class in ["current-line-halo", "current-line"] {
            svg.push_str(&format!(
                r#"<polyline class="{class}" points="{}"/>"#,
                self.line
            ));
        }
        svg.push_str("</g>");
        svg
    }

    /// The value axis's labels, for an `<svg>` beside the drawing, as tall as it:
    /// right-aligned, each at its tick's height in percent. `number` writes a
    /// label in the page's digits; `data-value` keeps ASCII ones.
    pub fn value_labels_markup(&self, number: impl Fn(i64) -> String) -> String {
        self.axis
            .ticks
            .iter()
            .map(|t| {
                format!(
                    r#"<text x="100%" y="{}" dy="0.35em" text-anchor="end" data-value="{}">{}</text>"#,
                    t.offset,
                    t.value,
                    number(t.value)
                )
            })
            .collect()
    }

    /// The attempt axis's labels, for an `<svg>` under the drawing, as wide as
    /// it: each centred under its attempt, written by `number` as the timeline
    /// writes it; `data-attempt` keeps ASCII digits.
    pub fn attempt_labels_markup(&self, number: impl Fn(i64) -> String) -> String {
        self.attempt_ticks
            .iter()
            .map(|t| {
                format!(
                    r#"<text x="{}" y="0" dy="1em" text-anchor="middle" data-attempt="{}">{}</text>"#,
                    t.offset,
                    t.attempt,
                    number(t.attempt as i64)
                )
            })
            .collect()
    }
}

/// `data-count`, `data-attempts` and `data-balances` of a kind of mark.
fn mark_data(marks: &[Mark]) -> String {
    let joined = |values: Vec<String>| values.join(" ");
    format!(
        r#" data-count="{}" data-attempts="{}" data-balances="{}""#,
        marks.len(),
        joined(marks.iter().map(|m| m.attempt.to_string()).collect()),
        joined(marks.iter().map(|m| m.balance.to_string()).collect())
    )
}

fn x_step(attempts: usize) -> f64 {
    (CHART_WIDTH - 2.0 * PAD) / attempts.max(1) as f64
}

/// Draws the newest attempts on `account_id`, oldest on the left, in the
/// timeline's order. The line starts at the balance before the first attempt
/// drawn.
/// The account the chart follows: the newest attempt's (a person's request,
/// a burst's or a retry's alike), so its title names the account the last
/// thing that happened was about.
pub fn chart_account(rows: &[AttemptRow]) -> Option<&str> {
    rows.last().map(|r| r.attempt.grant.account_id.as_str())
}

pub fn balance_chart(rows: &[AttemptRow], account_id: &str) -> BalanceChart {
    // The account's rows, newest first; a row of an attempt still on its way
    // counts once the store has handled it (nothing is known of it before).
    let mut ours = rows
        .iter()
        .rev()
        .filter(|r| r.attempt.grant.account_id == account_id && r.balance_known());
    let mut rows: Vec<&AttemptRow> = ours.by_ref().take(CHART_MAX_ATTEMPTS).collect();
    rows.reverse();
    if rows.is_empty() {
        return BalanceChart::default();
    }
    // The balance before the first drawn attempt: where the newest older
    // attempt the store handled left it.
    let start_balance = ours
        .find_map(|r| r.handled.as_ref())
        .map_or(0, |h| h.balance_after);
    // Attempts in the order they were sent. The line is the balance right after
    // the store handled each one; one it never handled leaves the line where it
    // was. (What a caller heard comes later and in another order: a caller that
    // timed out read the balance at its deadline, after later attempts.)
    let mut level = start_balance;
    let drawn: Vec<ChartRow> = rows
        .iter()
        .map(|row| {
            if let Some(handled) = &row.handled {
                level = handled.balance_after;
            }
            ChartRow {
                attempt: row.attempt.id,
                balance: level,
                outcome: row.outcome(),
                receipt: row.caller_receipt().map(|r| r.balance),
                unseen: unseen_balance(row),
            }
        })
        .collect();

    // The line's values and the unseen marks set the scale; receipts only raise
    // its top (an old receipt far below would otherwise drag the floor down).
    let on_line = std::iter::once(start_balance)
        .chain(drawn.iter().map(|r| r.balance))
        .chain(drawn.iter().filter_map(|r| r.unseen));
    let lo = on_line.clone().min().unwrap_or(0);
    let hi = on_line
        .chain(drawn.iter().filter_map(|r| r.receipt))
        .max()
        .unwrap_or(0);
    let mut chart = BalanceChart {
        max_balance: hi,
        attempts: drawn.len(),
        start_balance,
        axis: value_axis(i64::from(lo), i64::from(hi)),
        ..BalanceChart::default()
    };
    let step = x_step(drawn.len());
    let x = |i: usize| PAD + step * (i as f64 + 0.5);
    let axis = chart.axis.clone();
    let y = |balance: i32| axis.y(i64::from(balance));
    let bottom = axis.bottom();

    chart.grid = axis
        .ticks
        .iter()
        .map(|t| format!("M{} {}H{}", tenths(0.0), tenths(t.y), tenths(CHART_WIDTH)))
        .collect();

    // A step line: flat at the old balance until the attempt, then at the new one.
    // Integer formatting only (see `Tenths`): it keeps float-to-text code out of
    // the Wasm bundle.
    let mut line = format!("{},{}", tenths(PAD), tenths(y(start_balance)));
    let mut previous = start_balance;
    for (i, row) in drawn.iter().enumerate() {
        let xi = x(i);
        let (xt, from, to) = (tenths(xi), tenths(y(previous)), tenths(y(row.balance)));
        line.push_str(&format!(" {xt},{from} {xt},{to}"));
        previous = row.balance;
        let mark = |balance: i32| Mark {
            x: xi,
            y: y(balance),
            balance,
            outcome: row.outcome,
            attempt: row.attempt,
            below_scale: i64::from(balance) < axis.min,
        };
        let placed = if let Some(balance) = row.receipt {
            chart.receipts.push(mark(balance));
            chart.receipts.last()
        } else if let Some(balance) = row.unseen {
            chart.unseen.push(mark(balance));
            chart.unseen.last()
        } else {
            None
        };
        if let Some(m) = placed.filter(|m| (m.y - y(row.balance)).abs() >= 1.0) {
            chart
                .connectors
                .push_str(&format!("M{xt} {}V{}", tenths(y(row.balance)), tenths(m.y)));
        }
    }
    line.push_str(&format!(
        " {},{}",
        tenths(CHART_WIDTH - PAD),
        tenths(y(previous))
    ));
    chart.line = line;

    chart.attempt_ticks = attempt_label_indices(drawn.len())
        .into_iter()
        .map(|index| AttemptTick {
            attempt: drawn[index].attempt,
            index,
            x: x(index),
            offset: percent(x(index), CHART_WIDTH),
        })
        .collect();
    chart.attempt_tick_marks = chart
        .attempt_ticks
        .iter()
        .map(|t| {
            format!(
                "M{} {}V{}",
                tenths(t.x),
                tenths(bottom),
                tenths(CHART_HEIGHT)
            )
        })
        .collect();
    chart.rows = drawn;
    chart
}

/// The value axis for balances from `lo` to `hi` (the line's lowest and the
/// highest drawn).
///
/// It starts at 0 whenever the lowest balance is at most half the highest: the
/// honest baseline, at a cost of at most half the height. Otherwise (after a
/// stress run, say, 691,000 to 700,000) a scale from 0 would flatten the line
/// into the top edge, and a 100-point grant or a replay that adds nothing would
/// look the same; the axis then starts at a round value at or below the lowest,
/// the floor is labelled like every tick, and older receipts under it are drawn
/// in a band below the axis. Ticks are round (1, 2 or 5 times a power of ten) and
/// the top is the first tick at or above the highest, so the line never touches
/// an unlabelled top.
pub fn value_axis(lo: i64, hi: i64) -> ValueAxis {
    let (lo, hi) = (lo.max(0), hi.max(0));
    let (lo, hi) = (lo.min(hi), lo.max(hi));
    let base = if lo <= hi / 2 || lo == hi { 0 } else { lo };
    let span = (hi - base).max(1);
    let step = nice_step((span + VALUE_INTERVALS - 1) / VALUE_INTERVALS);
    let min = base / step * step;
    let max = ((hi + step - 1) / step * step).max(min + step);
    let mut axis = ValueAxis {
        min,
        max,
        step,
        ticks: Vec::new(),
    };
    axis.ticks = (0..)
        .map(|k| min + k * step)
        .take_while(|v| *v <= max)
        .map(|value| {
            let y = axis.y(value);
            ValueTick {
                value,
                y,
                offset: percent(y, CHART_HEIGHT),
            }
        })
        .collect();
    axis
}

/// The smallest of 1, 2 and 5 times a power of ten that is at least `raw` (and 1).
fn nice_step(raw: i64) -> i64 {
    let mut power: i64 = 1;
    loop {
        for m in [1, 2, 5] {
            if m * power >= raw {
                return m * power;
            }
        }
        power *= 10;
    }
}

/// Which of `n` drawn attempts get a label: all of them up to
/// [`MAX_ATTEMPT_LABELS`], else that many evenly spread, the first and the last
/// among them.
pub fn attempt_label_indices(n: usize) -> Vec<usize> {
    if n <= MAX_ATTEMPT_LABELS {
        return (0..n).collect();
    }
    let gaps = MAX_ATTEMPT_LABELS - 1;
    (0..MAX_ATTEMPT_LABELS)
        .map(|k| (k * (n - 1) + gaps / 2) / gaps)
        .collect()
}

/// For a grant applied whose receipt never reached its caller (it gave up, or
/// still waits), the balance the store recorded right after applying it: what
/// the receipt would have said, on the line at its attempt.
fn unseen_balance(row: &AttemptRow) -> Option<i32> {
    // Timed out, or still waiting, while the store applied it.
    let applied = row.handled.as_ref().is_some_and(|h| h.applied());
    match row.outcome() {
        Outcome::TimeoutApplied => {}
        Outcome::Pending if applied => {}
        _ => return None,
    }
    row.handled.as_ref().map(|h| h.balance_after)
}

/// A coordinate printed to one decimal (see `Decimal`).
fn tenths(value: f64) -> Decimal {
    Decimal(value, 1)
}

/// `value` as a CSS percentage of `whole`, to one decimal: "37.5%".
pub fn percent(value: f64, whole: f64) -> String {
    format!("{}%", tenths(value * 100.0 / whole))
}

/// Marks as one SVG path of zero-length strokes: with round caps each is a dot,
/// with square caps a square, of the stroke's width in pixels whatever the
/// chart's size. One element however many marks, so a long run redraws one
/// attribute instead of hundreds of nodes.
pub fn dots_path<'a>(marks: impl IntoIterator<Item = &'a Mark>) -> String {
    marks
        .into_iter()
        .map(|m| format!("M{} {}h0", tenths(m.x), tenths(m.y)))
        .collect()
}

/// Marks under the axis's floor as one path of small downward chevrons, in the
/// band below the axis.
pub fn chevrons_path<'a>(marks: impl IntoIterator<Item = &'a Mark>) -> String {
    marks
        .into_iter()
        .map(|m| {
            format!(
                "M{} {}L{} {}L{} {}",
                tenths((m.x - 3.0).max(0.0)),
                tenths(m.y - 4.0),
                tenths(m.x),
                tenths(m.y + 2.0),
                tenths(m.x + 3.0),
                tenths(m.y - 4.0)
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{chevrons_path, dots_path, nice_step, percent, Mark, Outcome};

    #[test]
    fn a_percentage_is_printed_to_one_decimal() {
        assert_eq!(percent(37.5, 100.0), "37.5%");
        assert_eq!(percent(1.0, 3.0), "33.3%");
        assert_eq!(percent(640.0, 640.0), "100.0%");
    }

    #[test]
    fn marks_are_one_path_of_dots_or_chevrons() {
        let mark = |x: f64, y: f64| Mark {
            x,
            y,
            balance: 0,
            outcome: Outcome::Applied,
            attempt: 1,
            below_scale: false,
        };
        let marks = [mark(10.04, 20.0), mark(2.0, 130.56)];
        assert_eq!(dots_path(&marks), "M10.0 20.0h0M2.0 130.6h0");
        // A chevron three pixels either side, from four above to two below.
        assert_eq!(
            chevrons_path(&marks),
            "M7.0 16.0L10.0 22.0L13.0 16.0M0.0 126.6L2.0 132.6L5.0 126.6"
        );
    }

    #[test]
    fn nice_steps_are_one_two_or_five_times_a_power_of_ten() {
        let steps: Vec<i64> = [0, 1, 2, 3, 6, 11, 26, 31, 499, 2_125, 600_000_000]
            .into_iter()
            .map(nice_step)
            .collect();
        assert_eq!(
            steps,
            [1, 1, 2, 5, 10, 20, 50, 50, 500, 5_000, 1_000_000_000]
        );
    }
}
