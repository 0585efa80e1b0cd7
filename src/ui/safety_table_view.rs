//! The safety table (issue 29): one click runs the explorer over every
//! combination of the settings that matter, the same histories for each
//! row, and fills a table of which promise each keeps (in how many
//! histories) or breaks (a button that shows the shortest history that
//! broke it in the explorer's panel, to replay or take over). It opens in a
//! dialog: it needs the page's width, and the sandbox fits one screen.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;

use crate::lab::explore::{Cell, Combination, Found, Promise};
use crate::lab::{parse_whole, FieldError};

use super::controller::Controller;
use super::explorer_engine::{
    in_slices, ExplorerShared, Runs, Shown, TableRow, Tabling, TABLE_HISTORIES,
};
use super::page_env;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Idle,
    Running {
        histories: u64,
        rows: usize,
        all: usize,
        ms: u64,
    },
    Done {
        histories: u64,
        all: usize,
        keeps: usize,
        ms: u64,
    },
    Cancelled {
        rows: usize,
    },
    BadSeed(FieldError),
    NotArrived,
}

impl Status {
    fn code(self) -> &'static str {
        match self {
            Status::Running { .. } => "running",
            Status::Done { .. } => "done",
            _ => "idle",
        }
    }
}

#[component]
pub fn SafetyTableView(ctl: Controller, shared: ExplorerShared) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    // The explorer's seed field: the table's histories come from it too.
    let ExplorerShared {
        engine,
        shown,
        seed,
    } = shared;
    let status = RwSignal::new(Status::Idle);
    let rows = RwSignal::new(Vec::<TableRow>::new());
    let dialog = NodeRef::<leptos::html::Dialog>::new();
    let open = move || {
        if let Some(dialog) = dialog.get_untracked() {
            let _ = dialog.show_modal();
        }
    };
    let close = move || {
        if let Some(dialog) = dialog.get_untracked() {
            dialog.close();
        }
    };
    let runs = Runs::new();

    let start = move || {
        if status.get_untracked().code() == "running" {
            return;
        }
        let seed = match parse_whole(&seed.get_untracked()) {
            Ok(seed) => seed,
            Err(e) => {
                status.set(Status::BadSeed(e));
                return;
            }
        };
        let base = ctl.lab.with_untracked(|lab| lab.state().settings());
        let current = runs.start();
        rows.set(Vec::new());
        let all = Combination::all().len();
        status.set(Status::Running {
            histories: 0,
            rows: 0,
            all,
            ms: 0,
        });
        leptos::task::spawn_local(async move {
            let started = page_env::now_ms();
            let Some(engine) = engine.get().await else {
                if current() {
                    status.set(Status::NotArrived);
                }
                return;
            };
            let table: Rc<RefCell<Box<dyn Tabling>>> =
                Rc::new(RefCell::new(engine.table(base, seed)));
            let work = {
                let table = table.clone();
                move || table.borrow_mut().advance_one()
            };
            let drawn = move || {
                let table = table.borrow();
                let done = table.rows_done();
                let have = rows.with_untracked(Vec::len);
                if done > have {
                    let new: Vec<TableRow> = (have..done).map(|i| table.row(i)).collect();
                    rows.update(|rows| rows.extend(new));
                }
                let ms = (page_env::now_ms() - started).max(0.0) as u64;
                let histories = table.histories();
                status.set(if done == table.rows() {
                    // Those that keep every promise come first.
                    rows.update(|rows| rows.sort_by_key(|row| !keeps_all(row)));
                    let keeps = rows
                        .with_untracked(|rows| rows.iter().filter(|row| keeps_all(row)).count());
                    Status::Done {
                        histories,
                        all,
                        keeps,
                        ms,
                    }
                } else {
                    Status::Running {
                        histories,
                        rows: done,
                        all,
                        ms,
                    }
                });
            };
            in_slices(current, work, drawn).await;
        });
    };
    let cancel = move || {
        runs.cancel();
        if let Status::Running { rows, .. } = status.get_untracked() {
            status.set(Status::Cancelled { rows });
        }
    };
    // Shows a broken cell's history in the explorer's panel, and takes the
    // reader there.
    let show =
        move |row: &TableRow, promise: Promise, histories: u64, steps: Vec<crate::lab::Action>| {
            let setup = row.setup.clone();
            leptos::task::spawn_local(async move {
                let Some(engine) = engine.get().await else {
                    return;
                };
                let said = engine.narrate(&setup, &steps);
                close();
                shown.set(Some(Shown {
                    setup,
                    found: Found {
                        promise,
                        steps,
                        tried: histories,
                    },
                    said,
                }));
                request_animation_frame(|| {
                    if let Some(title) = document().get_element_by_id("explorer-found-title") {
                        title.scroll_into_view_with_bool(true);
                        if let Ok(title) =
                            wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(title)
                        {
                            let _ = title.focus();
                        }
                    }
                });
            });
        };

    let said = move || {
        let t = texts();
        match status.get() {
            Status::Idle => None,
            Status::Running {
                histories,
                rows,
                all,
                ms,
            } => Some(t.explorer.safety_running(rows, all, histories, ms)),
            Status::Done {
                histories,
                all,
                keeps,
                ms,
            } => Some(t.explorer.safety_done(histories, ms, keeps, all)),
            Status::Cancelled { rows } => Some(t.explorer.safety_cancelled(rows)),
            Status::BadSeed(e) => Some(format!("{}: {}", t.explorer.seed_label, t.field_error(e))),
            Status::NotArrived => Some(t.part_failed.to_string()),
        }
    };

    // Short headings, so every verdict fits the dialog's width; the whole
    // name stays for a screen reader and a pointer.
    let head = move || {
        let t = texts();
        let mut cols: Vec<(&'static str, String)> = vec![
            (t.explorer.col_store, t.store_kind_label.into()),
            (t.explorer.col_processes, t.processes_label.into()),
            (t.explorer.col_in_flight, t.in_flight_label.into()),
            (t.explorer.col_ack, t.acknowledge_label.into()),
            (t.explorer.col_ledger, t.ledger_label.into()),
            (t.explorer.col_email, t.email_via_label.into()),
        ];
        cols.extend(Promise::ALL.iter().map(|p| {
            (
                t.explorer.short(*p),
                t.explorer.promise(*p, |i| t.invariant(i)).to_owned(),
            )
        }));
        cols.into_iter()
            .map(|(short, whole)| {
                let title = whole.clone();
                view! {
                    <th scope="col" title=title>
                        <span aria-hidden="true">{short}</span>
                        <span class="visually-hidden">{whole}</span>
                    </th>
                }
            })
            .collect_view()
    };

    view! {
        <button class="safety-open" data-testid="safety-open" aria-haspopup="dialog" on:click=move |_| open()>
            {move || texts().explorer.safety_open}
        </button>
        <dialog class="safety-dialog" node_ref=dialog data-testid="safety" aria-labelledby="safety-title">
            <h2 id="safety-title">{move || texts().explorer.safety_title}</h2>
            <p class="hint">{move || texts().explorer.safety_intro(TABLE_HISTORIES)}</p>
            <div class="controls-row">
                <span class="setting" class:invalid=move || matches!(status.get(), Status::BadSeed(_))>
                    <label class="inline" for="safety-seed">{move || texts().explorer.seed_label}</label>
                    <input
                        id="safety-seed"
                        type="text"
                        inputmode="numeric"
                        dir="ltr"
                        class="number"
                        autocomplete="off"
                        data-testid="safety-seed"
                        aria-invalid=move || matches!(status.get(), Status::BadSeed(_)).to_string()
                        prop:value=move || seed.get()
                        on:input=move |ev| {
                            seed.set(event_target_value(&ev));
                            if matches!(status.get_untracked(), Status::BadSeed(_)) {
                                status.set(Status::Idle);
                            }
                        }
                    />
                </span>
                <button
                    data-testid="safety-start"
                    data-state=move || status.get().code()
                    aria-disabled=move || (status.get().code() == "running").to_string()
                    on:click=move |_| start()
                >
                    {move || texts().explorer.safety_start}
                </button>
                <Show when=move || status.get().code() == "running">
                    <button data-testid="safety-cancel" on:click=move |_| cancel()>
                        {move || texts().explorer.cancel}
                    </button>
                    <progress
                        data-testid="safety-progress"
                        aria-labelledby="safety-title"
                        max=move || match status.get() { Status::Running { all, .. } => all, _ => 1 }.to_string()
                        value=move || match status.get() { Status::Running { rows, .. } => rows, _ => 0 }.to_string()
                    ></progress>
                </Show>
            </div>
            // The running count is shown, not spoken (it changes every few
            // milliseconds); the outcome is spoken once.
            <p class="explorer-said" data-testid="safety-said">{said}</p>
            <p class="visually-hidden" role="status">
                {move || (status.get().code() != "running").then(said).flatten()}
            </p>
            <Show when=move || !rows.with(Vec::is_empty)>
                <div
                    class="safety-scroll"
                    tabindex="0"
                    role="region"
                    aria-labelledby="safety-title"
                >
                    <table class="safety-table" data-testid="safety-table">
                        <thead><tr>{head}</tr></thead>
                        <tbody>
                            <For
                                each=move || rows.get()
                                key=|row| row.combination
                                children=move |row| table_row(ctl, row, show)
                            />
                        </tbody>
                    </table>
                </div>
                <p class="hint safety-legend" data-testid="safety-legend">{move || texts().explorer.safety_legend}</p>
            </Show>
            <div class="controls-row">
                <button data-testid="safety-close" on:click=move |_| close()>{move || texts().explorer.close}</button>
            </div>
        </dialog>
    }
}

fn keeps_all(row: &TableRow) -> bool {
    row.cells
        .iter()
        .all(|(_, cell)| matches!(cell, Cell::Held { .. }))
}

fn table_row(
    ctl: Controller,
    row: TableRow,
    show: impl Fn(&TableRow, Promise, u64, Vec<crate::lab::Action>) + Copy + 'static,
) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let c = row.combination;
    let recommended = c == Combination::recommended();
    let keeps = keeps_all(&row);
    let attributes = move |promise: Promise| {
        (
            c.store.code(),
            c.processes.to_string(),
            c.in_flight.code(),
            c.acknowledge.code(),
            if c.ledger_check { "ledger" } else { "receipts" },
            c.email_via.code(),
            promise.code(),
        )
    };
    let cells = row
        .cells
        .iter()
        .map(|(promise, cell)| {
            let promise = *promise;
            let (store, processes, in_flight, ack, retention, email, code) = attributes(promise);
            let (histories, holds, steps) = match cell {
                Cell::Held { histories } => (*histories, true, None),
                Cell::Broken { histories, steps } => (*histories, false, Some(steps.clone())),
                Cell::Waiting => (0, true, None),
            };
            let row = row.clone();
            view! {
                <td
                    class:broken=!holds
                    data-testid="safety-cell"
                    data-store=store
                    data-processes=processes
                    data-in-flight=in_flight
                    data-ack=ack
                    data-retention=retention
                    data-email=email
                    data-promise=code
                    data-histories=histories.to_string()
                    data-holds=holds.to_string()
                >
                    // A mark and a number in sight; the sentence for a screen reader.
                    {match steps {
                        None => view! {
                            <span aria-hidden="true">"✓ " {move || texts().grouped(histories)}</span>
                            <span class="visually-hidden">{move || texts().explorer.safety_held(histories)}</span>
                        }.into_any(),
                        Some(steps) => view! {
                            <button
                                class="safety-broken"
                                aria-label=move || texts().explorer.safety_broken(histories)
                                on:click=move |_| show(&row, promise, histories, steps.clone())
                            >
                                <span aria-hidden="true">"✕ " {move || texts().grouped(histories)}</span>
                            </button>
                        }.into_any(),
                    }}
                </td>
            }
        })
        .collect_view();
    view! {
        <tr
            class:keeps=keeps
            class:recommended=recommended
            data-recommended=recommended.then_some("true")
            data-keeps=keeps.then_some("true")
            data-testid="safety-row"
        >
            <th scope="row">
                {move || texts().store_kind(c.store)}
                // The whole combination for a screen reader, which names a
                // cell by its row's header.
                <span class="visually-hidden">
                    {move || {
                        let t = texts();
                        format!(
                            ", {} {}, {} {}, {} {}, {} {}, {} {}",
                            t.processes_label,
                            t.num(c.processes),
                            t.in_flight_label,
                            t.in_flight_policy(c.in_flight),
                            t.acknowledge_label,
                            t.acknowledge(c.acknowledge),
                            t.ledger_label,
                            t.explorer.yes_no(c.ledger_check),
                            t.email_via_label,
                            t.email_via(c.email_via),
                        )
                    }}
                </span>
                {keeps.then(|| view! {
                    <span class="safety-keeps" data-testid="safety-keeps">
                        <span aria-hidden="true">"✓ "</span>
                        {move || texts().explorer.safety_keeps_all}
                    </span>
                })}
                {recommended.then(|| view! {
                    <span class="safety-badge">{move || texts().explorer.safety_recommended}</span>
                })}
            </th>
            <td>{move || texts().num(c.processes)}</td>
            <td>{move || texts().in_flight_policy(c.in_flight)}</td>
            <td>{move || texts().acknowledge(c.acknowledge)}</td>
            <td>{move || texts().explorer.yes_no(c.ledger_check)}</td>
            <td>{move || texts().email_via(c.email_via)}</td>
            {cells}
        </tr>
    }
}
