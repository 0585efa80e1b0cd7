//! The store as it is now: balances per account, receipts per (account, key), and
//! the last separate balance read.

use leptos::prelude::*;

use crate::lab::visible;

use super::controller::Controller;

/// Receipts listed at once; the rest are counted.
const SHOWN_RECEIPTS: usize = 20;

#[component]
pub fn StoreView(ctl: Controller) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let balances = Memo::new(move |_| ctl.lab.with(|lab| lab.state().store().balances()));
    // Only the first receipts are drawn; a stress run stores thousands. Split in
    // two memos so a growing count does not redraw an unchanged page of rows.
    let page = Memo::new(move |_| {
        ctl.lab
            .with(|lab| lab.state().store().receipts_page(SHOWN_RECEIPTS))
    });
    let shown = Memo::new(move |_| page.with(|(shown, _)| shown.clone()));
    let total = Memo::new(move |_| page.with(|(_, total)| *total));
    let read = Memo::new(move |_| ctl.lab.with(|lab| lab.state().last_read().cloned()));
    // What the read account holds now: a read is a moment, and says so once the
    // balance has moved on.
    let now_for_read = Memo::new(move |_| {
        read.with(|read| {
            read.as_ref().map(|read| {
                ctl.lab
                    .with(|lab| lab.state().store().balance(&read.account_id))
            })
        })
    });
    let naive = Memo::new(move |_| {
        ctl.lab.with(|lab| {
            let state = lab.state();
            let shown = state.world().naive() || !state.naive_balances().is_empty();
            shown.then(|| state.naive_balances().to_vec())
        })
    });

    view! {
        <section
            class="panel store"
            aria-labelledby="store-title"
            data-testid="store"
            data-receipts=move || total.get()
        >
            <h2 id="store-title">{move || texts().store}</h2>
            {move || {
                read.get()
                    .map(|read| {
                        let stale = move || now_for_read.get().filter(|now| *now != read.balance);
                        view! {
                            <div
                                class="balance-read"
                                data-testid="balance-read"
                                data-balance=read.balance
                                data-at=read.at
                                data-stale=move || stale().is_some().to_string()
                                role="status"
                            >
                                <span>{move || texts().balance_read}</span>
                                " "
                                <bdi dir="ltr" class="account">{visible(&read.account_id).into_owned()}</bdi>
                                ": "
                                <strong class="num" dir="ltr">{read.balance}</strong>
                                <p class="hint" data-testid="balance-read-when">
                                    {move || (texts().balance_read_when)(ctl.lang.get(), read.at, read.after_attempt)}
                                    " "
                                    {move || texts().balance_read_note}
                                </p>
                                {move || {
                                    stale()
                                        .map(|now| {
                                            view! {
                                                <p class="stale" data-testid="balance-read-stale">
                                                    {(texts().balance_read_stale)(ctl.lang.get(), now)}
                                                </p>
                                            }
                                        })
                                }}
                            </div>
                        }
                    })
            }}
            <h3>{move || texts().balances}</h3>
            <Show
                when=move || !balances.get().is_empty()
                fallback=move || view! { <p class="empty">{move || texts().no_balances}</p> }
            >
                <dl class="balances">
                    {move || {
                        balances
                            .get()
                            .into_iter()
                            .map(|(account, balance)| {
                                view! {
                                    <div class="balance">
                                        <dt><bdi dir="ltr">{visible(&account).into_owned()}</bdi></dt>
                                        <dd data-testid=format!("balance-{account}") dir="ltr">{balance}</dd>
                                    </div>
                                }
                            })
                            .collect_view()
                    }}
                </dl>
            </Show>
            {move || {
                naive
                    .get()
                    .map(|balances| {
                        view! {
                            <h3>{move || texts().naive_balances}</h3>
                            <dl class="balances naive" data-testid="naive-balances">
                                {balances
                                    .into_iter()
                                    .map(|(account, balance)| {
                                        view! {
                                            <div class="balance">
                                                <dt><bdi dir="ltr">{visible(&account).into_owned()}</bdi></dt>
                                                <dd data-testid=format!("naive-balance-{account}") dir="ltr">{balance}</dd>
                                            </div>
                                        }
                                    })
                                    .collect_view()}
                            </dl>
                        }
                    })
            }}
            <h3>{move || texts().receipts}</h3>
            <Show
                when=move || { total.get() > 0 }
                fallback=move || view! { <p class="empty">{move || texts().no_receipts}</p> }
            >
                // Focusable, so a keyboard can scroll a table wider than its panel.
                <div class="table-scroll" tabindex="0" role="region" aria-label=move || texts().receipts_table>
                    <table class="receipts">
                        <thead>
                            <tr>
                                // Account and key in one column: together they name the
                                // operation, and the numbers keep room in a narrow panel.
                                <th scope="col">{move || texts().account} " · " {move || texts().key}</th>
                                <th scope="col">{move || texts().points}</th>
                                <th scope="col">{move || texts().receipt_balance}</th>
                            </tr>
                        </thead>
                        <tbody>
                            // A page of at most SHOWN_RECEIPTS rows, redrawn whole when it
                            // changes: cheaper in code than a keyed list, and as quick here.
                            {move || {
                                shown
                                    .get()
                                    .into_iter()
                                    .map(|r| {
                                        view! {
                                            <tr data-testid="receipt-row">
                                                <td>
                                                    <bdi dir="ltr" class="account">{visible(&r.account_id).into_owned()}</bdi>
                                                    " · "
                                                    <bdi dir="ltr" class="key">{visible(&r.key).into_owned()}</bdi>
                                                </td>
                                                <td class="num">{r.points}</td>
                                                <td class="num">{r.balance}</td>
                                            </tr>
                                        }
                                    })
                                    .collect_view()
                            }}
                        </tbody>
                    </table>
                </div>
                {move || {
                    let more = total.get().saturating_sub(SHOWN_RECEIPTS);
                    (more > 0)
                        .then(|| view! { <p class="more">{move || (texts().receipts_more)(ctl.lang.get(), more)}</p> })
                }}
            </Show>
        </section>
    }
}
