//! The balance chart: seeing that a receipt's balance and the current balance part
//! ways. It paints the geometry of `lab::balance_chart` (a labelled value axis,
//! attempt numbers as in the timeline, marks under the line), a read-out of the
//! attempt under the pointer, and the same facts in words and as a table.
//!
//! The drawing and its axis labels are set as whole SVG markup made by the
//! geometry: a few reactive nodes instead of one per mark or label keeps both the
//! DOM and the Wasm bundle small.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::i18n::Texts;
use crate::lab::{balance_chart, ChartRow, CHART_MAX_ATTEMPTS, CHART_VIEW_BOX};

use super::controller::Controller;

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
    // Its row, while it is drawn.
    let pointed = move || {
        let i = hovered.get()?;
        chart.with(|c| c.rows.get(i).cloned())
    };
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

    let summary = move || {
        let lang = ctl.lang.get();
        let t = lang.texts();
        chart.with(|c| {
            let s = c.summary()?;
            let mut words = format!(
                "{} {}",
                t.chart_summary(s.first_attempt, s.last_attempt, s.drawn, s.from, s.to),
                t.chart_counts(s.receipts, s.older_receipts, s.unseen)
            );
            if !c.axis.starts_at_zero() {
                words.push(' ');
                words.push_str(&t.chart_floor(c.axis.min));
            }
            Some(words)
        })
    };
    // One closure for the legend: it changes with the language, and two of its
    // entries only show when the chart has such marks.
    let legend = move || {
        let t = texts();
        let (connectors, below) = chart.with(|c| {
            (
                !c.connectors.is_empty(),
                c.receipts_below_scale().next().is_some(),
            )
        });
        view! {
            <li><span class="swatch line" aria-hidden="true"></span>{t.chart_current}</li>
            <li><span class="swatch receipt" aria-hidden="true"></span>{t.chart_receipt}</li>
            <li><span class="swatch unseen" aria-hidden="true"></span>{t.chart_unseen}</li>
            <li hidden=!connectors><span class="swatch connector" aria-hidden="true"></span>{t.chart_connector}</li>
            <li hidden=!below><span class="swatch below" aria-hidden="true">"⌄"</span>{t.chart_below}</li>
        }
    };
    let readout = move || {
        let row = pointed()?;
        let t = texts();
        let sep = t.sep();
        Some(format!(
            "#{}{sep}{}: {}{sep}{}",
            isolated(t.num(row.attempt)),
            t.chart_col_balance,
            isolated(t.num(row.balance)),
            mark_words(t, &row)
        ))
    };
    let table = move || {
        if !table_open.get() {
            return None;
        }
        let lang = ctl.lang.get();
        let t = lang.texts();
        chart.with(|c| {
            let rows = c.table_rows();
            let caption = t.chart_table_caption(rows.len(), c.rows.len());
            let body = rows
                .iter()
                .map(|row| {
                    view! {
                        <tr data-attempt=row.attempt>
                            <td class="num">{t.num(row.attempt)}</td>
                            <td class="num">{t.num(row.balance)}</td>
                            <td>{mark_words(t, row)}</td>
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
        <section
            class="panel chart"
            aria-labelledby="chart-title"
            data-testid="chart"
            data-account=move || account.get()
            data-last-balance=move || chart.with(|c| c.rows.last().map(|r| r.balance))
        >
            <h2 id="chart-title">
                {move || texts().chart_title}
                " "
                <bdi dir="ltr">{move || crate::lab::visible(&account.get()).into_owned()}</bdi>
                {move || {
                    let drawn = chart.get().attempts;
                    (drawn >= CHART_MAX_ATTEMPTS).then(|| {
                        view! { <small>" (" {texts().chart_recent(drawn)} ")"</small> }
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
                    // Over the top of the plot, shown while pointing at an attempt
                    // (the guide line marks which): it moves nothing.
                    <p
                        class="chart-readout"
                        dir="auto"
                        aria-hidden="true"
                        data-testid="chart-readout"
                        data-attempt=move || pointed().map(|row| row.attempt)
                    >
                        {readout}
                    </p>
                    <p class="axis-name value" dir="auto" aria-hidden="true">
                        {move || texts().chart_value_axis}
                    </p>
                    <div class="value-ticks" aria-hidden="true">
                        // Invisible: gives the label column the widest label's width.
                        <span class="sizer">{move || chart.with(|c| c.axis.widest_label(|n| texts().num(n)))}</span>
                        <svg data-testid="value-ticks" inner_html=move || chart.with(|c| c.value_labels_markup(|n| texts().num(n)))></svg>
                    </div>
                    <div class="chart-area">
                        <svg
                            class="balance-chart"
                            viewBox=CHART_VIEW_BOX
                            preserveAspectRatio="none"
                            role="img"
                            aria-labelledby="chart-title"
                            aria-describedby="chart-summary"
                            data-testid="balance-chart"
                            inner_html=move || {
                                let guide = hovered.get();
                                chart.with(|c| c.plot_markup(guide))
                            }
                        ></svg>
                        <div
                            class="chart-hover"
                            aria-hidden="true"
                            on:pointermove=point
                            on:pointerdown=point
                            on:pointerleave=move |_| hovered.set(None)
                        ></div>
                    </div>
                    <svg
                        class="attempt-ticks"
                        aria-hidden="true"
                        data-testid="attempt-ticks"
                        inner_html=move || chart.with(|c| c.attempt_labels_markup(|n| texts().num(n)))
                    ></svg>
                    <p class="axis-name attempts" dir="auto" aria-hidden="true">
                        {move || texts().chart_attempt_axis}
                    </p>
                </div>
                <ul class="legend">{legend}</ul>
                <p id="chart-summary" class="chart-summary" data-testid="chart-summary">{summary}</p>
                <details class="chart-table" on:toggle=toggled>
                    <summary>{move || texts().chart_table}</summary>
                    {table}
                </details>
            </Show>
        </section>
    }
}

/// What the chart shows for a row, in words: what the caller got, the balance
/// its mark stands for (in the page's digits, set apart from the prose), and
/// whether the receipt is older than the current balance.
fn mark_words(t: &Texts, row: &ChartRow) -> String {
    let outcome = t.outcome(row.outcome);
    match (row.receipt, row.unseen) {
        (Some(receipt), _) if row.receipt_is_older() => format!(
            "{outcome}: {} {} ({})",
            t.chart_mark_receipt,
            isolated(t.num(receipt)),
            t.chart_mark_older
        ),
        (Some(receipt), _) => format!(
            "{outcome}: {} {}",
            t.chart_mark_receipt,
            isolated(t.num(receipt))
        ),
        (None, Some(would_say)) => {
            format!(
                "{outcome}: {} {}",
                t.chart_mark_unseen,
                isolated(t.num(would_say))
            )
        }
        (None, None) => format!("{outcome}: {}", t.chart_mark_none),
    }
}

/// A number set apart from the prose around it (first-strong isolate), so
/// right-to-left text cannot move it.
fn isolated(n: impl std::fmt::Display) -> String {
    format!("\u{2068}{n}\u{2069}")
}
