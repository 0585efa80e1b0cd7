//! The balance chart: seeing that a receipt's balance and the current balance part ways.

use leptos::prelude::*;

use crate::lab::{balance_chart, circles_path, diamonds_path, CHART_MAX_ATTEMPTS, CHART_VIEW_BOX};

use super::controller::Controller;

#[component]
pub fn ChartView(ctl: Controller, account: Signal<String>) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let chart = Memo::new(move |_| {
        let account = account.get();
        ctl.lab
            .with(|lab| balance_chart(lab.state().timeline(), &account))
    });

    view! {
        <section class="panel chart" aria-labelledby="chart-title">
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
                <svg
                    class="balance-chart"
                    viewBox=CHART_VIEW_BOX
                    role="img"
                    aria-labelledby="chart-title"
                    data-testid="balance-chart"
                >
                    <polyline class="current-line" points=move || chart.get().line />
                    <path
                        class="receipt-mark"
                        d=move || chart.with(|c| circles_path(&c.receipts, 7))
                        data-count=move || chart.with(|c| c.receipts.len())
                        data-balances=move || chart.with(|c| c.receipts.iter().map(|m| m.balance.to_string()).collect::<Vec<_>>().join(" "))
                    />
                    <path
                        class="unseen-mark"
                        d=move || chart.with(|c| diamonds_path(&c.unseen, 8))
                        data-count=move || chart.with(|c| c.unseen.len())
                    />
                </svg>
                <ul class="legend">
                    <li><span class="swatch line" aria-hidden="true"></span>{move || texts().chart_current}</li>
                    <li><span class="swatch receipt" aria-hidden="true"></span>{move || texts().chart_receipt}</li>
                    <li><span class="swatch unseen" aria-hidden="true"></span>{move || texts().chart_unseen}</li>
                </ul>
            </Show>
        </section>
    }
}
