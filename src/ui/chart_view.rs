//! The balance chart: seeing that a receipt's balance and the current balance part ways.

use leptos::prelude::*;

use crate::lab::{balance_chart, CHART_HEIGHT, CHART_MAX_ATTEMPTS, CHART_WIDTH};

use super::controller::Controller;

#[component]
pub fn ChartView(ctl: Controller, account: Signal<String>) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let chart = Memo::new(move |_| {
        let account = account.get();
        ctl.lab
            .with(|lab| balance_chart(lab.state().timeline(), &account))
    });
    let view_box = format!("0 0 {CHART_WIDTH} {CHART_HEIGHT}");

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
                    viewBox=view_box.clone()
                    role="img"
                    aria-labelledby="chart-title"
                    data-testid="balance-chart"
                >
                    <polyline class="current-line" points=move || chart.get().line />
                    {move || {
                        chart
                            .get()
                            .receipts
                            .into_iter()
                            .map(|m| {
                                view! {
                                    <circle class="receipt-mark" cx=m.x cy=m.y r="7" data-balance=m.balance>
                                        <title>{m.balance}</title>
                                    </circle>
                                }
                            })
                            .collect_view()
                    }}
                    {move || {
                        chart
                            .get()
                            .unseen
                            .into_iter()
                            .map(|m| {
                                view! {
                                    <rect
                                        class="unseen-mark"
                                        x=m.x - 6.0
                                        y=m.y - 6.0
                                        width="12"
                                        height="12"
                                        transform=format!("rotate(45 {} {})", m.x, m.y)
                                    />
                                }
                            })
                            .collect_view()
                    }}
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
