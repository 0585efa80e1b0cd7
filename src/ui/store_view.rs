//! The store as it is now: balances per account, receipts per (account, key), and
//! the last separate balance read. It says which store that is: the durable one
//! (with its receipt retention), or a process's memory; with two in-memory
//! processes, the second one's memory follows, compact.

use leptos::prelude::*;

use crate::core::{GrantError, GrantResult};
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
            let shown = state.settings().naive || !state.naive_balances().is_empty();
            shown.then(|| state.naive_balances().to_vec())
        })
    });

    let shows = Memo::new(move |_| {
        ctl.lab.with(|lab| {
            let state = lab.state();
            let numbers = state.process_numbers();
            match (state.settings().store.is_durable(), numbers.as_slice()) {
                (true, _) => Shows::Durable(state.settings().retention_hours),
                (false, [a, b, ..]) => Shows::Memories(*a, *b),
                (false, [a]) => Shows::Memory(*a),
                (false, []) => Shows::Memory(state.process_number()),
            }
        })
    });
    // The second process's memory, when two in-memory processes run: the tables
    // above show the first's.
    let second = Memo::new(move |_| {
        ctl.lab.with(|lab| {
            let state = lab.state();
            if state.settings().store.is_durable() {
                return None;
            }
            let number = *state.process_numbers().get(1)?;
            let store = state.memory_store(2)?;
            let (receipts, total) = store.receipts_page(SHOWN_RECEIPTS);
            Some(SecondMemory {
                process: number,
                balances: store.balances(),
                receipts,
                total,
            })
        })
    });

    view! {
        <section
            class="panel store"
            aria-labelledby="store-title"
            data-testid="store"
            data-receipts=move || total.get()
        >
            // Named by the store it shows (not plain "Store": that is the label of
            // the store's select in the storage panel).
            <h2 id="store-title">
                {move || {
                    let t = texts();
                    match shows.get() {
                        Shows::Durable(_) => t.store_title_durable.to_string(),
                        Shows::Memory(n) => t.store_title_memory(n),
                        Shows::Memories(..) => t.store_title_memories.to_string(),
                    }
                }}
            </h2>
            // Which store the tables below show: the durable one, or a process's memory.
            <p class="hint store-shows" data-testid="store-shows" data-store=move || shows.get().code()>
                {move || {
                    let t = texts();
                    match shows.get() {
                        Shows::Durable(hours) => t.store_shows_durable(hours),
                        Shows::Memory(n) => t.store_shows_memory(n),
                        Shows::Memories(a, b) => t.store_shows_memories(a, b),
                    }
                }}
            </p>
            {move || {
                read.get()
                    .map(|read| {
                        let balance = match read.balance.clone() {
                            Ok(balance) => balance,
                            Err(refused) => return refused_read(ctl, read.account_id.clone(), refused).into_any(),
                        };
                        let stale = move || now_for_read.get().filter(|now| *now != balance);
                        view! {
                            <div
                                class="balance-read"
                                data-testid="balance-read"
                                data-balance=balance
                                data-at=read.at
                                data-stale=move || stale().is_some().to_string()
                                role="status"
                            >
                                <span>{move || texts().balance_read}</span>
                                " "
                                <bdi dir="ltr" class="account">{visible(&read.account_id).into_owned()}</bdi>
                                ": "
                                <strong class="num" dir="ltr">{move || texts().num(balance)}</strong>
                                <p class="hint" data-testid="balance-read-when">
                                    {move || texts().balance_read_when(read.at, read.after_attempt)}
                                    " "
                                    {move || texts().balance_read_note}
                                </p>
                                {move || {
                                    stale()
                                        .map(|now| {
                                            view! {
                                                <p class="stale" data-testid="balance-read-stale">
                                                    {texts().balance_read_stale(now)}
                                                </p>
                                            }
                                        })
                                }}
                            </div>
                        }
                            .into_any()
                    })
            }}
            {move || {
                shows
                    .get()
                    .first_of_two()
                    .map(|n| {
                        view! {
                            <h3 class="memory-title">{move || texts().memory_of(n)}</h3>
                        }
                    })
            }}
            {move || sub_heading(shows.get(), texts().balances)}
            <Show
                when=move || !balances.get().is_empty()
                fallback=move || view! { <p class="empty">{move || texts().no_balances}</p> }
            >
                <dl class="balances">
                    {move || {
                        balances
                            .get()
                            .into_iter()
                            .map(|(account, balance)| balance_entry(ctl, "balance-", account, balance))
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
                                    .map(|(account, balance)| balance_entry(ctl, "naive-balance-", account, balance))
                                    .collect_view()}
                            </dl>
                        }
                    })
            }}
            {move || sub_heading(shows.get(), texts().receipts)}
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
                                <th scope="col">{move || texts().account} {move || texts().sep()} {move || texts().key}</th>
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
                                                    {move || texts().sep()}
                                                    <bdi dir="ltr" class="key">{visible(&r.key).into_owned()}</bdi>
                                                </td>
                                                <td class="num">{texts().num(r.points)}</td>
                                                <td class="num">{texts().num(r.balance)}</td>
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
                        .then(|| view! { <p class="more">{move || texts().receipts_more(more)}</p> })
                }}
            </Show>
            {move || second.get().map(|memory| view! { <SecondMemoryView ctl=ctl memory=memory /> })}
        </section>
    }
}

/// A heading of the tables: one level below the process's memory when two are shown.
fn sub_heading(shows: Shows, text: &'static str) -> AnyView {
    match shows {
        Shows::Memories(..) => view! { <h4>{text}</h4> }.into_any(),
        _ => view! { <h3>{text}</h3> }.into_any(),
    }
}

/// What the store panel shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shows {
    /// The durable store, with its receipt retention in hours.
    Durable(u32),
    /// The memory of the one process running (its number).
    Memory(u32),
    /// The memories of two processes (their numbers, by slot).
    Memories(u32, u32),
}

impl Shows {
    fn code(self) -> &'static str {
        match self {
            Shows::Durable(_) => "durable",
            Shows::Memory(_) | Shows::Memories(..) => "memory",
        }
    }

    /// The first process's number, when two memories are shown.
    fn first_of_two(self) -> Option<u32> {
        match self {
            Shows::Memories(a, _) => Some(a),
            _ => None,
        }
    }
}

/// The second process's in-memory store.
#[derive(Debug, Clone, PartialEq, Eq)]
struct SecondMemory {
    process: u32,
    balances: Vec<(String, i32)>,
    receipts: Vec<GrantResult>,
    total: usize,
}

/// The second process's memory, compact: its balances and its receipts as a list.
#[component]
fn SecondMemoryView(ctl: Controller, memory: SecondMemory) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let SecondMemory {
        process,
        balances,
        receipts,
        total,
    } = memory;
    let more = total.saturating_sub(receipts.len());
    view! {
        <div class="memory second" data-testid="memory-2" data-process=process data-receipts=total>
            <h3 class="memory-title">{move || texts().memory_of(process)}</h3>
            <h4>{move || texts().balances}</h4>
            {if balances.is_empty() {
                view! { <p class="empty">{move || texts().no_balances}</p> }.into_any()
            } else {
                view! {
                    <dl class="balances compact">
                        {balances
                            .into_iter()
                            .map(|(account, balance)| balance_entry(ctl, "balance-2-", account, balance))
                            .collect_view()}
                    </dl>
                }
                .into_any()
            }}
            <h4>{move || texts().receipts}</h4>
            {if receipts.is_empty() {
                view! { <p class="empty">{move || texts().no_receipts}</p> }.into_any()
            } else {
                view! {
                    <ul class="receipt-list">
                        {receipts
                            .into_iter()
                            .map(|r| {
                                view! {
                                    <li data-testid="receipt-row-2">
                                        <bdi dir="ltr" class="account">{visible(&r.account_id).into_owned()}</bdi>
                                        {move || texts().sep()}
                                        <bdi dir="ltr" class="key">{visible(&r.key).into_owned()}</bdi>
                                        {move || texts().sep()}
                                        <bdi dir="ltr" class="num">"+" {texts().num(r.points)}</bdi>
                                        {move || texts().sep()}
                                        <span>{move || texts().receipt_balance}</span>
                                        ": "
                                        <bdi dir="ltr" class="num">{texts().num(r.balance)}</bdi>
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ul>
                }
                .into_any()
            }}
            {(more > 0).then(|| view! { <p class="more">{move || texts().receipts_more(more)}</p> })}
        </div>
    }
}

/// One account's balance in a balance list; `prefix` makes its test id
/// (`balance-`, `naive-balance-`, `balance-2-`).
fn balance_entry(
    ctl: Controller,
    prefix: &'static str,
    account: String,
    balance: i32,
) -> impl IntoView {
    view! {
        <div class="balance">
            <dt><bdi dir="ltr">{visible(&account).into_owned()}</bdi></dt>
            <dd data-testid=format!("{prefix}{account}") dir="ltr">{move || ctl.lang.get().texts().num(balance)}</dd>
        </div>
    }
}

/// A balance read the identity check refused: it says why, and shows no number.
fn refused_read(ctl: Controller, account_id: String, refused: GrantError) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    view! {
        <div class="balance-read refused" data-testid="balance-read" data-refused="true" role="status">
            <span>{move || texts().balance_read}</span>
            " "
            <bdi dir="ltr" class="account">{visible(&account_id).into_owned()}</bdi>
            ": "
            <strong>{move || texts().balance_read_refused}</strong>
            <p class="hint">{move || texts().grant_error(&refused)}</p>
        </div>
    }
}
