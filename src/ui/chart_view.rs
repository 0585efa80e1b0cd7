//! The balance chart: seeing that a receipt's balance and the current balance part
//! ways. It paints the geometry of `lab::balance_chart`: a labelled value axis,
//! attempt numbers as in the timeline, marks under the line, a read-out of the
//! attempt under the pointer, and the same facts in words and as a table.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::i18n::Texts;
use crate::lab::{
    balance_chart, chevrons_path, dots_path, percent, ChartRow, CHART_MAX_ATTEMPTS, CHART_VIEW_BOX,
    CHART_WIDTH,
};

use super::controller::Controller;

/// Above this many attempts drawn, marks are drawn smaller (they sit closer
/// together than their size).
const DENSE_ATTEMPTS: usize = 40;

#[component]
pub fn ChartView(ctl: Controller, account: Signal<String>) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let chart = Memo::new(move |_| {
        let account = account.get();
        ctl.lab
            .with(|lab| balance_chart(lab.state().timeline(), &account))
    });
    // The drawn attempt under the pointer, if any.
    let hovered = RwSignal::new(None::<usize>);
    let hovered_row = Memo::new(move |_| {
        let i = hovered.get()?;
        chart.with(|c| c.rows.get(i).cloned().map(|row| (i, row)))
    });
    let point = move |ev: leptos::ev::PointerEvent| {
        // The hover layer has no children, so the offset is from its own edge.
        let Some(layer) = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
        else {
            return;
        };
        let width = layer.offset_width();
        if width > 0 {
            let fraction = f64::from(ev.offset_x()) / f64::from(width);
            hovered.set(chart.with_untracked(|c| c.attempt_at(fraction)));
        }
    };
    // The table is built only while it is open: a stress run redraws the chart
    // many times a second.
    let table_open = RwSignal::new(false);
    let toggled = move |ev: leptos::ev::Event| {
        let open = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|details| details.has_attribute("open"));
        table_open.set(open);
    };

    let value_ticks = move || {
        chart.with(|c| {
            let sizer = c.axis.widest_label();
            let ticks = c
                .axis
                .ticks
                .iter()
                .map(|t| view! { <li style:top=t.offset.clone() data-value=t.value>{t.value}</li> })
                .collect_view();
            view! {
                <li class="sizer">{sizer}</li>
                {ticks}
            }
        })
    };
    let attempt_ticks = move || {
        chart.with(|c| {
            c.attempt_ticks
                .iter()
                .map(|t| view! { <li style:left=t.offset.clone() data-attempt=t.attempt>{t.attempt}</li> })
                .collect_view()
        })
    };
    let readout = move || {
        let (i, row) = hovered_row.get()?;
        let lang = ctl.lang.get();
        let t = lang.texts();
        let x = chart.with(|c| c.x_of(i));
        // Past the middle, the read-out opens to the left of the attempt.
        let flip = x > CHART_WIDTH / 2.0;
        let (label, number, older) = mark_words(t, &row);
        Some(view! {
            <p
                class="chart-readout"
                class:flip=flip
                style:left=percent(x, CHART_WIDTH)
                dir=lang.dir()
                aria-hidden="true"
                data-testid="chart-readout"
                data-attempt=row.attempt
            >
                <strong>"#" <bdi dir="ltr">{row.attempt}</bdi></strong>
                " · " {t.chart_col_balance} ": " <bdi dir="ltr">{row.balance}</bdi>
                " · " {label}
                {number.map(|n| view! { " " <bdi dir="ltr">{n}</bdi> })}
                {older.then(|| view! { " (" {t.chart_mark_older} ")" })}
            </p>
        })
    };
    let summary = move || {
        let lang = ctl.lang.get();
        let t = lang.texts();
        chart.with(|c| {
            let s = c.summary()?;
            let floor = (!c.axis.starts_at_zero()).then(|| (t.chart_floor)(lang, c.axis.min));
            let mut words = format!(
                "{} {}",
                (t.chart_summary)(lang, s.first_attempt, s.last_attempt, s.drawn, s.from, s.to),
                (t.chart_counts)(lang, s.receipts, s.older_receipts, s.unseen)
            );
            if let Some(floor) = floor {
                words.push(' ');
                words.push_str(&floor);
            }
            Some(words)
        })
    };
    let table = move || {
        if !table_open.get() {
            return None;
        }
        let lang = ctl.lang.get();
        let t = lang.texts();
        chart.with(|c| {
            let rows = c.table_rows();
            let caption = (t.chart_table_caption)(lang, rows.len(), c.rows.len());
            let body = rows
                .iter()
                .map(|row| {
                    let (label, number, older) = mark_words(t, row);
                    view! {
                        <tr data-attempt=row.attempt data-outcome=row.outcome.code()>
                            <td class="num"><bdi dir="ltr">{row.attempt}</bdi></td>
                            <td class="num"><bdi dir="ltr">{row.balance}</bdi></td>
                            <td>
                                {label}
                                {number.map(|n| view! { " " <bdi dir="ltr">{n}</bdi> })}
                                {older.then(|| view! { <span class="older">{t.chart_mark_older}</span> })}
                            </td>
                        </tr>
                    }
                })
                .collect_view();
            Some(view! {
                <table data-testid="chart-table">
                    <caption>{caption}</caption>
                    <thead>
                        <tr>
                            <th scope="col">{t.chart_col_attempt}</th>
                            <th scope="col">{t.chart_col_balance}</th>
                            <th scope="col">{t.chart_col_mark}</th>
                        </tr>
                    </thead>
                    <tbody>{body}</tbody>
                </table>
            })
        })
    };

    view! {
        <section class="panel chart" aria-labelledby="chart-title" data-testid="chart">
            <h2 id="chart-title">
                {move || texts().chart_title}
                " "
                <bdi dir="ltr">{move || account.get()}</bdi>
                {move || {
                    let drawn = chart.get().attempts;
                    (drawn >= CHART_MAX_ATTEMPTS).then(|| {
                        view! { <small>" (" {(texts().chart_recent)(ctl.lang.get(), drawn)} ")"</small> }
                    })
                }}
            </h2>
            <Show
                when=move || !chart.get().is_empty()
                fallback=move || view! { <p class="empty">{move || texts().chart_empty}</p> }
            >
                // Left to right in both languages, like the timeline's numbers: the
                // oldest attempt on the left, the value axis beside it.
                <div class="chart-plot" dir="ltr">
                    <p class="axis-name value" dir=move || ctl.lang.get().dir() aria-hidden="true">
                        {move || texts().chart_value_axis}
                    </p>
                    <ol class="value-ticks" aria-hidden="true" data-testid="value-ticks">{value_ticks}</ol>
                    <div class="chart-area">
                        <svg
                            class="balance-chart"
                            class:dense=move || chart.with(|c| c.attempts > DENSE_ATTEMPTS)
                            viewBox=CHART_VIEW_BOX
                            preserveAspectRatio="none"
                            role="img"
                            aria-labelledby="chart-title"
                            aria-describedby="chart-summary"
                            data-testid="balance-chart"
                        >
                            <path class="chart-grid" d=move || chart.with(|c| c.grid.clone()) />
                            <path class="chart-attempt-tick" d=move || chart.with(|c| c.attempt_tick_marks.clone()) />
                            <path
                                class="chart-guide"
                                d=move || hovered_row.with(|h| h.as_ref().map(|(i, _)| chart.with(|c| c.guide(*i))))
                            />
                            <path class="chart-connector" d=move || chart.with(|c| c.connectors.clone()) />
                            <path
                                class="unseen-mark"
                                d=move || chart.with(|c| dots_path(&c.unseen))
                                data-count=move || chart.with(|c| c.unseen.len())
                                data-attempts=move || chart.with(|c| joined(c.unseen.iter().map(|m| m.attempt)))
                                data-balances=move || chart.with(|c| joined(c.unseen.iter().map(|m| m.balance)))
                            />
                            // Every receipt's attempt and balance, those drawn below
                            // the scale included; the ring is the two paths below.
                            <path
                                class="receipt-mark"
                                d=move || chart.with(|c| dots_path(c.receipts_in_scale()))
                                data-count=move || chart.with(|c| c.receipts.len())
                                data-attempts=move || chart.with(|c| joined(c.receipts.iter().map(|m| m.attempt)))
                                data-balances=move || chart.with(|c| joined(c.receipts.iter().map(|m| m.balance)))
                            />
                            <path class="receipt-hole" d=move || chart.with(|c| dots_path(c.receipts_in_scale())) />
                            <path
                                class="receipt-below"
                                d=move || chart.with(|c| chevrons_path(c.receipts_below_scale()))
                                data-count=move || chart.with(|c| c.receipts_below_scale().count())
                            />
                            // The line last, over a halo: no mark can hide it.
                            <polyline class="current-line-halo" points=move || chart.with(|c| c.line.clone()) />
                            <polyline class="current-line" points=move || chart.with(|c| c.line.clone()) />
                        </svg>
                        <div
                            class="chart-hover"
                            aria-hidden="true"
                            on:pointermove=point
                            on:pointerdown=point
                            on:pointerleave=move |_| hovered.set(None)
                        ></div>
                        {readout}
                    </div>
                    <ol class="attempt-ticks" aria-hidden="true" data-testid="attempt-ticks">{attempt_ticks}</ol>
                    <p class="axis-name attempts" dir=move || ctl.lang.get().dir() aria-hidden="true">
                        {move || texts().chart_attempt_axis}
                    </p>
                </div>
                <ul class="legend">
                    <li><span class="swatch line" aria-hidden="true"></span>{move || texts().chart_current}</li>
                    <li><span class="swatch receipt" aria-hidden="true"></span>{move || texts().chart_receipt}</li>
                    <li><span class="swatch unseen" aria-hidden="true"></span>{move || texts().chart_unseen}</li>
                    {move || chart.with(|c| !c.connectors.is_empty()).then(|| view! {
                        <li><span class="swatch connector" aria-hidden="true"></span>{move || texts().chart_connector}</li>
                    })}
                    {move || chart.with(|c| c.receipts_below_scale().next().is_some()).then(|| view! {
                        <li><span class="swatch below" aria-hidden="true">"⌄"</span>{move || texts().chart_below}</li>
                    })}
                </ul>
                <p id="chart-summary" class="chart-summary" data-testid="chart-summary">{summary}</p>
                <details class="chart-table" on:toggle=toggled>
                    <summary>{move || texts().chart_table}</summary>
                    {table}
                </details>
            </Show>
        </section>
    }
}

/// What the chart shows for a row, in words: a label, the number that follows it
/// (data: ASCII digits, set apart by the caller), and whether the receipt is older
/// than the current balance.
fn mark_words(t: &Texts, row: &ChartRow) -> (String, Option<i32>, bool) {
    let outcome = (t.outcome)(row.outcome);
    match (row.receipt, row.unseen) {
        (Some(receipt), _) => (
            format!("{outcome}: {}", t.chart_mark_receipt),
            Some(receipt),
            row.receipt_is_older(),
        ),
        (None, Some(would_say)) => (
            format!("{outcome}: {}", t.chart_mark_unseen),
            Some(would_say),
            false,
        ),
        (None, None) => (format!("{outcome}: {}", t.chart_mark_none), None, false),
    }
}

/// Numbers for a `data-` attribute, separated by spaces.
fn joined<T: ToString>(values: impl Iterator<Item = T>) -> String {
    values.map(|v| v.to_string()).collect::<Vec<_>>().join(" ")
}
