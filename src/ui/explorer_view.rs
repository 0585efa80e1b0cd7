//! "Try to break it" (issue 29): the explorer's panel in the sandbox. A
//! search runs from the lab's settings in slices (see `explorer_engine`),
//! with its progress and a way to cancel; its result is the shortest history
//! that breaks a promise, step by step with what each did, which the
//! walkthrough's player replays a step at a time, the sandbox can take over,
//! or a link can carry; or the number
//! of histories that broke none. A history picked in the safety table is
//! shown here too.

use std::rc::Rc;

use leptos::prelude::*;

use crate::lab::explore::{Promise, Verdict, DEFAULT_HISTORIES, DEFAULT_MAX_STEPS};
use crate::lab::{parse_integer, parse_whole, to_link_token, FieldError};

use super::controller::{Controller, Replacement};
use super::explorer_engine::{in_slices, EngineSlot, ExplorerShared, Runs, Searching, Shown};
use super::page_env;
use super::safety_table_view::SafetyTableView;
use super::walk::Walk;
use crate::walkthrough::Guest;

/// The most histories one search may be asked for.
pub const MAX_HISTORIES: u64 = 1_000_000;

/// Where the search stands.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Status {
    Idle,
    /// The explorer's code is on its way.
    Arriving,
    Running {
        tried: u64,
        ms: u64,
    },
    Shrinking {
        tried: u64,
        ms: u64,
        promise: Promise,
    },
    Broken {
        tried: u64,
        promise: Promise,
        steps: usize,
    },
    Held {
        tried: u64,
        seed: u64,
    },
    Cancelled {
        tried: u64,
    },
    /// The explorer's code did not arrive.
    NotArrived,
}

impl Status {
    fn code(&self) -> &'static str {
        match self {
            Status::Idle | Status::NotArrived | Status::Cancelled { .. } => "idle",
            Status::Arriving | Status::Running { .. } | Status::Shrinking { .. } => "running",
            Status::Broken { .. } => "broken",
            Status::Held { .. } => "held",
        }
    }

    fn running(&self) -> bool {
        self.code() == "running"
    }

    fn tried(&self) -> u64 {
        match self {
            Status::Running { tried, .. }
            | Status::Shrinking { tried, .. }
            | Status::Broken { tried, .. }
            | Status::Held { tried, .. }
            | Status::Cancelled { tried } => *tried,
            Status::Idle | Status::Arriving | Status::NotArrived => 0,
        }
    }
}

/// What is wrong with the seed or the number of histories.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum InputError {
    Seed(FieldError),
    Histories(FieldError),
    /// Out of range as typed, a negative number too.
    HistoriesRange(i128),
}

fn read_inputs(seed: &str, histories: &str) -> Result<(u64, u64), InputError> {
    let seed = parse_whole(seed).map_err(InputError::Seed)?;
    let typed = parse_integer(histories).map_err(InputError::Histories)?;
    match u64::try_from(typed) {
        Ok(histories) if (1..=MAX_HISTORIES).contains(&histories) => Ok((seed, histories)),
        _ => Err(InputError::HistoriesRange(typed)),
    }
}

#[component]
pub fn ExplorerView(ctl: Controller, walk: Walk, shared: ExplorerShared) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let ExplorerShared {
        engine,
        shown,
        seed,
    } = shared;
    let status = RwSignal::new(Status::Idle);
    let runs = Runs::new();
    let stopping = StoredValue::new(false);
    let histories = RwSignal::new(DEFAULT_HISTORIES.to_string());
    let error = RwSignal::new(None::<InputError>);
    let limit = RwSignal::new(DEFAULT_HISTORIES);

    let start = move || {
        if status.with_untracked(Status::running) {
            return;
        }
        let (seed, count) = match read_inputs(&seed.get_untracked(), &histories.get_untracked()) {
            Ok(read) => read,
            Err(e) => {
                error.set(Some(e));
                return;
            }
        };
        error.set(None);
        limit.set(count);
        let settings = ctl.lab.with_untracked(|lab| lab.state().settings());
        let current = runs.start();
        stopping.set_value(false);
        shown.set(None);
        status.set(Status::Arriving);
        leptos::task::spawn_local(async move {
            let started = page_env::now_ms();
            let Some(engine) = engine.get().await else {
                if current() {
                    status.set(Status::NotArrived);
                }
                return;
            };
            let search: Rc<std::cell::RefCell<Box<dyn Searching>>> = Rc::new(
                std::cell::RefCell::new(engine.search(settings, seed, count)),
            );
            let verdict = Rc::new(std::cell::Cell::new(None::<Verdict>));
            let work = {
                let (search, verdict) = (search.clone(), verdict.clone());
                move || {
                    // Cancelled while shrinking: the history found so far.
                    if stopping.get_value() {
                        stopping.set_value(false);
                        verdict.set(Some(search.borrow_mut().stop_shrinking()));
                        return false;
                    }
                    let now = search.borrow_mut().advance_one();
                    let more = matches!(now, Verdict::Running { .. } | Verdict::Shrinking { .. });
                    verdict.set(Some(now));
                    more
                }
            };
            let drawn = {
                let (search, verdict, engine) = (search.clone(), verdict.clone(), engine.clone());
                move || {
                    let Some(now) = verdict.take() else { return };
                    let ms = (page_env::now_ms() - started).max(0.0) as u64;
                    status.set(match now {
                        Verdict::Running { tried } => Status::Running { tried, ms },
                        Verdict::Shrinking { tried, promise } => {
                            Status::Shrinking { tried, ms, promise }
                        }
                        Verdict::Held { tried } => Status::Held { tried, seed },
                        Verdict::Broken(found) => {
                            let setup = search.borrow().setup();
                            let said = engine.narrate(&setup, &found.steps);
                            let broken = Status::Broken {
                                tried: found.tried,
                                promise: found.promise,
                                steps: found.steps.len(),
                            };
                            shown.set(Some(Shown { setup, found, said }));
                            broken
                        }
                    });
                }
            };
            in_slices(current, work, drawn).await;
        });
    };
    // Cancelling a search still looking ends it there; one already shrinking
    // the history that broke a promise shows the smallest found so far.
    let cancel = move || {
        if status.with_untracked(|s| matches!(s, Status::Shrinking { .. })) {
            stopping.set_value(true);
            return;
        }
        runs.cancel();
        status.update(|s| {
            if s.running() {
                *s = Status::Cancelled { tried: s.tried() };
            }
        });
    };
    // A history picked in the safety table takes the place of what the
    // search said.
    Effect::new(move |_| {
        if shown.with(Option::is_some)
            && !status.with_untracked(|s| matches!(s, Status::Broken { .. }) || s.running())
        {
            status.set(Status::Idle);
        }
    });

    let error_text = move || {
        error.get().map(|e| {
            let t = texts();
            match e {
                InputError::Seed(e) | InputError::Histories(e) => t.field_error(e),
                InputError::HistoriesRange(n) => t.explorer.histories_range(n, MAX_HISTORIES),
            }
        })
    };
    let seed_invalid = move || matches!(error.get(), Some(InputError::Seed(_)));
    let histories_invalid = move || {
        matches!(
            error.get(),
            Some(InputError::Histories(_) | InputError::HistoriesRange(_))
        )
    };

    let said = move || {
        let t = texts();
        match status.get() {
            Status::Idle | Status::Running { .. } | Status::Arriving => None,
            Status::Shrinking { tried, promise, .. } => {
                Some(t.explorer.shrinking(tried, t.promise(promise)))
            }
            Status::Broken {
                tried,
                promise,
                steps,
            } => Some(t.explorer.broken(t.promise(promise), tried, steps)),
            Status::Held { tried, seed } => Some(t.explorer.held(tried, DEFAULT_MAX_STEPS, seed)),
            Status::Cancelled { tried } => Some(t.explorer.cancelled(tried)),
            Status::NotArrived => Some(t.part_failed.to_string()),
        }
    };

    let number_input = move |id: &'static str, value: RwSignal<String>, invalid: Signal<bool>| {
        view! {
            <input
                id=id
                type="text"
                inputmode="numeric"
                dir="ltr"
                class="number"
                autocomplete="off"
                data-testid=id
                aria-invalid=move || invalid.get().to_string()
                aria-describedby="explorer-error"
                prop:value=move || value.get()
                on:input=move |ev| {
                    value.set(event_target_value(&ev));
                    error.set(None);
                }
            />
        }
    };

    view! {
        <section class="panel explorer" aria-labelledby="explorer-title" data-testid="explorer-panel">
            <h2 id="explorer-title">{move || texts().explorer.title}</h2>
            <p class="hint">{move || texts().explorer.intro}</p>
            <div class="controls-row explorer-inputs">
                <span class="setting" class:invalid=seed_invalid>
                    <label class="inline" for="explorer-seed">{move || texts().explorer.seed_label}</label>
                    {number_input("explorer-seed", seed, Signal::derive(seed_invalid))}
                </span>
                <span class="setting" class:invalid=histories_invalid>
                    <label class="inline" for="explorer-histories">{move || texts().explorer.histories_label}</label>
                    {number_input("explorer-histories", histories, Signal::derive(histories_invalid))}
                </span>
            </div>
            <p class="field-error" id="explorer-error" data-testid="explorer-error" role="alert">{error_text}</p>
            <div class="controls-row">
                <button
                    class="primary"
                    data-testid="explorer"
                    data-state=move || status.with(Status::code)
                    data-histories=move || status.with(Status::tried).to_string()
                    data-broken=move || match status.get() {
                        Status::Broken { promise, .. } => Some(promise.code()),
                        _ => None,
                    }
                    aria-disabled=move || status.with(Status::running).to_string()
                    on:click=move |_| start()
                >
                    {move || texts().explorer.start}
                </button>
                <Show when=move || status.with(Status::running)>
                    <button data-testid="explorer-cancel" on:click=move |_| cancel()>
                        {move || texts().explorer.cancel}
                    </button>
                </Show>
            </div>
            <Show when=move || status.with(Status::running)>
                <div class="explorer-progress">
                    <label for="explorer-progress">{move || texts().explorer.progress_label}</label>
                    <progress
                        id="explorer-progress"
                        data-testid="explorer-progress"
                        max=move || limit.get().to_string()
                        value=move || status.with(Status::tried).to_string()
                    ></progress>
                    <span class="explorer-count">
                        {move || match status.get() {
                            Status::Running { tried, ms } | Status::Shrinking { tried, ms, .. } => {
                                texts().explorer.running(tried, ms)
                            }
                            _ => String::new(),
                        }}
                    </span>
                </div>
            </Show>
            <p class="explorer-said" role="status" data-testid="explorer-said">{said}</p>
            <FoundHistory ctl=ctl walk=walk engine=engine shown=shown />
            <SafetyTableView ctl=ctl shared=shared />
        </section>
    }
}

/// The history on show (found by the search, or picked in the table): its
/// steps with what each did, a replay in the walkthrough's player (a guest
/// scenario: a step at a time, forward and back, on the stage), and the
/// sandbox or a link taking it over.
#[component]
fn FoundHistory(
    ctl: Controller,
    walk: Walk,
    engine: EngineSlot,
    shown: RwSignal<Option<Shown>>,
) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let replay_button = NodeRef::<leptos::html::Button>::new();
    // Back from the player, the keyboard is where it left.
    let replaying = StoredValue::new(false);
    Effect::new(move |_| {
        if !walk.open.get() && replaying.get_value() {
            replaying.set_value(false);
            if let Some(button) = replay_button.get_untracked() {
                let _ = button.focus();
            }
        }
    });
    let replay = move || {
        let Some(shown) = shown.get_untracked() else {
            return;
        };
        match Guest::found(
            &shown.setup,
            &shown.found.steps,
            shown.said.clone(),
            shown.found.promise,
        ) {
            Ok(guest) => {
                replaying.set_value(true);
                walk.play_guest(guest);
            }
            // Not expected (the history is the lab's own run), but said.
            Err(error) => walk.fail(error.to_string()),
        }
    };
    let put = move |lab: crate::lab::Lab| ctl.load(lab, Replacement::Explorer);
    let try_it = move || {
        let Some((setup, steps)) =
            shown.with_untracked(|s| s.as_ref().map(|s| (s.setup.clone(), s.found.steps.clone())))
        else {
            return;
        };
        leptos::task::spawn_local(async move {
            if let Some(engine) = engine.get().await {
                put(engine.replay(&setup, &steps));
            }
        });
    };
    // The link to the history on show (its replay's session).
    let link = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        link.set(None);
        let Some((setup, steps)) =
            shown.with(|s| s.as_ref().map(|s| (s.setup.clone(), s.found.steps.clone())))
        else {
            return;
        };
        leptos::task::spawn_local(async move {
            if let Some(engine) = engine.get().await {
                let token = to_link_token(engine.replay(&setup, &steps).history());
                link.try_set(page_env::permalink(&token, ctl.lang.get_untracked()));
            }
        });
    });

    move || {
        let shown = shown.get()?;
        let steps = shown
            .found
            .steps
            .iter()
            .enumerate()
            .map(|(n, step)| {
                let step = step.clone();
                let did = shown.said.get(n).cloned().unwrap_or_default();
                view! {
                    <li>
                        <span class="explorer-step">{move || texts().explorer_step(&step)}</span>
                        <span class="explorer-did">{move || texts().explorer_did(&did)}</span>
                    </li>
                }
            })
            .collect_view();
        let end = shown.said.last().cloned().unwrap_or_default();
        let promise = shown.found.promise;
        Some(view! {
            <div class="explorer-found" data-testid="explorer-found" data-promise=promise.code()>
                <h3 class="explorer-history-title" id="explorer-found-title" tabindex="-1">
                    {move || texts().explorer.history_title}
                    ": "
                    {move || texts().promise(promise)}
                </h3>
                <ol class="explorer-history" data-testid="explorer-history">{steps}</ol>
                <p class="explorer-end">
                    <span class="explorer-step">{move || texts().explorer.end}</span>
                    <span class="explorer-did">{move || texts().explorer_did(&end)}</span>
                </p>
                <div class="controls-row">
                    <button
                        class="primary"
                        data-testid="explorer-replay"
                        node_ref=replay_button
                        on:click=move |_| replay()
                    >
                        {move || texts().explorer.replay}
                    </button>
                    <button data-testid="explorer-try" on:click=move |_| try_it()>
                        {move || texts().explorer.try_it}
                    </button>
                    {move || link.get().map(|href| view! {
                        <a
                            class="button explorer-link"
                            data-testid="explorer-link"
                            href=href
                            target="_blank"
                            rel="noopener"
                            aria-describedby="explorer-link-hint"
                        >
                            {move || texts().explorer.link}
                        </a>
                    })}
                    <span id="explorer-link-hint" class="visually-hidden">{move || texts().explorer.link_hint}</span>
                </div>
            </div>
        })
    }
}
