//! "Try to break it" (issue 29): the explorer's panel in the sandbox. A
//! search runs from the lab's settings in slices of a few milliseconds, the
//! page drawing between them, with its progress and a way to cancel; its
//! result is the shortest history that breaks a promise, step by step, which
//! the sandbox can take over (and a link can carry), or the number of
//! histories that broke none. The search itself arrives in a chunk of its own
//! the first time it is asked for (see `deferred`).

use leptos::prelude::*;

use crate::lab::explore::{
    narrate, Found, Runner, Said, Search, Verdict, DEFAULT_HISTORIES, DEFAULT_MAX_STEPS,
};
use crate::lab::{parse_whole, to_link_token, Action, FieldError, Lab, Setting, Settings};

use super::controller::{Controller, Replacement, Speed};
use super::deferred::{arrive, part, with_retries, ChunkError};
use super::page_env;
use super::startup::next_task;

/// How long one slice of a search runs before the page gets its turn.
const SLICE_MS: f64 = 8.0;
/// The most histories one search may be asked for.
pub const MAX_HISTORIES: u64 = 1_000_000;

/// A search, as the page drives it: its code is in the explorer's chunk.
pub trait Searching {
    /// One unit more (a history, or a run of the shrink); where it stands.
    fn advance_one(&mut self) -> Verdict;
    /// The lab a found history makes, to take over or to link to.
    fn replay(&self, found: &Found) -> Lab;
    /// A new lab with the search's settings, where a replay starts.
    fn start(&self) -> Lab;
    /// What each step of a found history did (and then its end).
    fn narrate(&self, found: &Found) -> Vec<Vec<Said>>;
}

impl Searching for Search {
    fn advance_one(&mut self) -> Verdict {
        self.advance(1).clone()
    }

    fn replay(&self, found: &Found) -> Lab {
        crate::lab::explore::run(self.setup(), &found.steps).lab
    }

    fn start(&self) -> Lab {
        Runner::new(self.setup()).into_lab()
    }

    fn narrate(&self, found: &Found) -> Vec<Vec<Said>> {
        narrate(self.setup(), &found.steps)
    }
}

part! {
    /// Starts a search: in the explorer's chunk of a split build.
    explorer: fn start_search(settings: Settings, seed: u64, limit: u64) -> Box<dyn Searching> {
        Box::new(Search::new(&settings, seed, limit, DEFAULT_MAX_STEPS))
    }
}

/// Where the panel stands.
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
        promise: crate::lab::explore::Promise,
    },
    /// Found, with what each of its steps did.
    Broken(Found, Vec<Vec<Said>>),
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
            Status::Broken(..) => "broken",
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
            | Status::Held { tried, .. }
            | Status::Cancelled { tried } => *tried,
            Status::Broken(found, _) => found.tried,
            Status::Idle | Status::Arriving | Status::NotArrived => 0,
        }
    }
}

/// What is wrong with the seed or the number of histories.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum InputError {
    Seed(FieldError),
    Histories(FieldError),
    HistoriesRange(u64),
}

fn read_inputs(seed: &str, histories: &str) -> Result<(u64, u64), InputError> {
    let seed = parse_whole(seed).map_err(InputError::Seed)?;
    let histories = parse_whole(histories).map_err(InputError::Histories)?;
    if !(1..=MAX_HISTORIES).contains(&histories) {
        return Err(InputError::HistoriesRange(histories));
    }
    Ok((seed, histories))
}

#[component]
pub fn ExplorerView(ctl: Controller) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let status = RwSignal::new(Status::Idle);
    let search = StoredValue::new_local(None::<Box<dyn Searching>>);
    // A search's loop runs while its number is the newest: cancelling, or a
    // new search, ends it at its next slice.
    let generation = StoredValue::new(0_u64);
    let seed = RwSignal::new("1".to_string());
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
        let mine = generation.get_value() + 1;
        generation.set_value(mine);
        status.set(Status::Arriving);
        leptos::task::spawn_local(async move {
            let started = page_env::now_ms();
            let arrived =
                with_retries(move || arrive!(start_search(settings, seed, count)), None).await;
            let current = move || generation.try_get_value() == Some(mine);
            let Ok(arrived) = arrived.map_err(|ChunkError| ()) else {
                if current() {
                    status.set(Status::NotArrived);
                }
                return;
            };
            search.set_value(Some(arrived));
            loop {
                if !current() {
                    return;
                }
                let slice = page_env::now_ms();
                let Some(Some(verdict)) = search.try_update_value(|search| {
                    let search = search.as_mut()?;
                    loop {
                        let verdict = search.advance_one();
                        let more =
                            matches!(verdict, Verdict::Running { .. } | Verdict::Shrinking { .. });
                        if !more || page_env::now_ms() - slice >= SLICE_MS {
                            return Some(verdict);
                        }
                    }
                }) else {
                    return;
                };
                let ms = (page_env::now_ms() - started).max(0.0) as u64;
                let done = matches!(verdict, Verdict::Broken(_) | Verdict::Held { .. });
                status.set(match verdict {
                    Verdict::Running { tried } => Status::Running { tried, ms },
                    Verdict::Shrinking { tried, promise } => {
                        Status::Shrinking { tried, ms, promise }
                    }
                    Verdict::Broken(found) => {
                        let said = search.with_value(|search| {
                            search
                                .as_ref()
                                .map(|s| s.narrate(&found))
                                .unwrap_or_default()
                        });
                        Status::Broken(found, said)
                    }
                    Verdict::Held { tried } => Status::Held { tried, seed },
                });
                if done {
                    return;
                }
                next_task().await;
            }
        });
    };
    let cancel = move || {
        generation.update_value(|g| *g += 1);
        status.update(|s| {
            if s.running() {
                *s = Status::Cancelled { tried: s.tried() };
            }
        });
    };

    // The replay: how many of the found history's steps the sandbox has done
    // (one more than the steps once its end has run), and the sandbox's
    // epoch it runs in: anything else put in the sandbox ends it.
    let replay_at = RwSignal::new(None::<usize>);
    let replay_epoch = StoredValue::new(0_u64);
    Effect::new(move |_| {
        let epoch = ctl.epoch.get();
        if replay_at.get_untracked().is_some() && epoch != replay_epoch.get_value() {
            replay_at.set(None);
        }
    });
    let replay = move || {
        let Some(lab) = search.with_value(|search| search.as_ref().map(|s| s.start())) else {
            return;
        };
        // Only the history's own waits move the clock, as they did when it broke.
        ctl.set_speed(Speed::Paused);
        ctl.load(lab, Replacement::Explorer);
        replay_epoch.set_value(ctl.epoch.get_untracked());
        replay_at.set(Some(0));
    };
    let next = move |found: &Found| {
        let Some(done) = replay_at.get_untracked() else {
            return;
        };
        match found.steps.get(done) {
            Some(step) => {
                ctl.dispatch(step.clone());
            }
            None if done == found.steps.len() => {
                ctl.dispatch(Action::Set(Setting::Paused(false)));
                ctl.skip_to_idle();
            }
            None => return,
        }
        replay_epoch.set_value(ctl.epoch.get_untracked());
        replay_at.set(Some(done + 1));
    };

    let try_it = move |found: &Found| {
        let lab = search.with_value(|search| search.as_ref().map(|s| s.replay(found)));
        if let Some(lab) = lab {
            ctl.load(lab, Replacement::Explorer);
        }
    };
    let link = move |found: &Found| {
        let token = search.with_value(|search| {
            search
                .as_ref()
                .map(|s| to_link_token(s.replay(found).history()))
        })?;
        page_env::permalink(&token, ctl.lang.get_untracked())
    };

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
            Status::Broken(found, _) => Some(t.explorer.broken(
                t.promise(found.promise),
                found.tried,
                found.steps.len(),
            )),
            Status::Held { tried, seed } => Some(t.explorer.held(tried, DEFAULT_MAX_STEPS, seed)),
            Status::Cancelled { tried } => Some(t.explorer.cancelled(tried)),
            Status::NotArrived => Some(t.part_failed.to_string()),
        }
    };

    view! {
        <section class="panel explorer" aria-labelledby="explorer-title" data-testid="explorer-panel">
            <h2 id="explorer-title">{move || texts().explorer.title}</h2>
            <p class="hint">{move || texts().explorer.intro}</p>
            <div class="controls-row explorer-inputs">
                <span class="setting" class:invalid=seed_invalid>
                    <label class="inline" for="explorer-seed">{move || texts().explorer.seed_label}</label>
                    <input
                        id="explorer-seed"
                        type="text"
                        inputmode="numeric"
                        dir="ltr"
                        class="number"
                        autocomplete="off"
                        data-testid="explorer-seed"
                        aria-invalid=move || seed_invalid().to_string()
                        aria-describedby="explorer-error"
                        prop:value=move || seed.get()
                        on:input=move |ev| {
                            seed.set(event_target_value(&ev));
                            error.set(None);
                        }
                    />
                </span>
                <span class="setting" class:invalid=histories_invalid>
                    <label class="inline" for="explorer-histories">{move || texts().explorer.histories_label}</label>
                    <input
                        id="explorer-histories"
                        type="text"
                        inputmode="numeric"
                        dir="ltr"
                        class="number"
                        autocomplete="off"
                        data-testid="explorer-histories"
                        aria-invalid=move || histories_invalid().to_string()
                        aria-describedby="explorer-error"
                        prop:value=move || histories.get()
                        on:input=move |ev| {
                            histories.set(event_target_value(&ev));
                            error.set(None);
                        }
                    />
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
                        Status::Broken(found, _) => Some(found.promise.code()),
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
            <Show when=move || status.with(|s| matches!(s, Status::Running { .. } | Status::Shrinking { .. } | Status::Arriving))>
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
            {move || match status.get() {
                Status::Broken(found, said) => {
                    let total = found.steps.len();
                    let steps = found
                        .steps
                        .iter()
                        .enumerate()
                        .map(|(n, step)| {
                            let step = step.clone();
                            let did = said.get(n).cloned().unwrap_or_default();
                            let current = move || replay_at.get() == Some(n + 1);
                            view! {
                                <li class:current=current aria-current=move || current().then_some("step")>
                                    <span class="explorer-step">{move || texts().explorer_step(&step)}</span>
                                    <span class="explorer-did">{move || texts().explorer_did(&did)}</span>
                                </li>
                            }
                        })
                        .collect_view();
                    let end = said.last().cloned().unwrap_or_default();
                    let end_current = move || replay_at.get() == Some(total + 1);
                    let href = link(&found);
                    let for_try = found.clone();
                    let for_next = found.clone();
                    Some(view! {
                        <h3 class="explorer-history-title">{move || texts().explorer.history_title}</h3>
                        <ol class="explorer-history" data-testid="explorer-history">{steps}</ol>
                        <p class="explorer-end" class:current=end_current aria-current=move || end_current().then_some("step")>
                            <span class="explorer-step">{move || texts().explorer.end}</span>
                            " "
                            <span class="explorer-did">{move || texts().explorer_did(&end)}</span>
                        </p>
                        <div class="controls-row">
                            <button data-testid="explorer-replay" on:click=move |_| replay()>
                                {move || texts().explorer.replay}
                            </button>
                            <Show when=move || replay_at.get().is_some()>
                                <button
                                    data-testid="explorer-next"
                                    aria-disabled=move || (replay_at.get() > Some(total)).to_string()
                                    on:click={
                                        let found = for_next.clone();
                                        move |_| next(&found)
                                    }
                                >
                                    {move || texts().explorer.next}
                                </button>
                                <span class="explorer-count" data-testid="explorer-replay-at">
                                    {move || texts().explorer.replay_at(replay_at.get().unwrap_or(0), total + 1)}
                                </span>
                            </Show>
                            <button data-testid="explorer-try" on:click=move |_| try_it(&for_try)>
                                {move || texts().explorer.try_it}
                            </button>
                            {href.map(|href| view! {
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
                                <span id="explorer-link-hint" class="visually-hidden">{move || texts().explorer.link_hint}</span>
                            })}
                        </div>
                    })
                }
                _ => None,
            }}
        </section>
    }
}
