//! The worker's queue: its 16 slots, the delivery in the consumer's hand, the
//! producers waiting for room, and the consumer's pause switch. With two
//! processes, one line per process, each headed by its process.

use leptos::prelude::*;

use crate::core::GrantPoints;
use crate::core::PointWorker;
use crate::lab::{visible, Action, Attempt, Setting};
use crate::lab::{ProcessNumber, Slot};

use super::controller::Controller;
use super::drawer::Drawer;
use super::drawers::DrawerId;

#[component]
pub fn QueueView(ctl: Controller) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let paused = ctl.setting(|s| s.paused);
    let two = Memo::new(move |_| ctl.lab.with(|lab| lab.state().lines().len() > 1));
    // Some(reason) while a step would be refused.
    let step_refused = Memo::new(move |_| ctl.lab.with(|lab| lab.state().step_refusal()));

    view! {
        <Drawer ctl=ctl id=DrawerId::Queue class="queue">
            // One process: its line as it always looked. Two: one line each, headed
            // by its process.
            <div class="lines" class:two=move || two.get()>
                <LineView ctl=ctl place=1 headed=two.into() />
                <Show when=move || two.get()>
                    <LineView ctl=ctl place=2 headed=Signal::stored(true) />
                </Show>
            </div>
            <div class="pacing">
                <label class="switch">
                    <input
                        type="checkbox"
                        role="switch"
                        prop:checked=move || paused.get()
                        on:change=move |ev| {
                            ctl.dispatch(Action::Set(Setting::Paused(event_target_checked(&ev))));
                        }
                    />
                    <span class="switch-label">{move || texts().pause}</span>
                </label>
                // Pressed when it cannot step, it says why (the lab's refusal).
                <button
                    data-testid="step"
                    aria-describedby="step-hint"
                    aria-disabled=move || step_refused.with(Option::is_some).to_string()
                    on:click=move |_| {
                        ctl.dispatch(Action::Step);
                    }
                >
                    {move || texts().step}
                </button>
                <p class="hint" id="step-hint">{move || texts().step_hint}</p>
            </div>
        </Drawer>
    }
}

/// What one line of the queue holds: its process, the queued attempts, the one
/// in the consumer's hands, and how many producers wait for room.
#[derive(Debug, Clone, PartialEq, Eq)]
struct LineFacts {
    process: ProcessNumber,
    queued: Vec<Attempt>,
    in_hand: Option<Attempt>,
    waiting: usize,
}

/// The line of the process in slot `place`: its 16 slots, its consumer and the
/// producers waiting for room. Slot 1 keeps the page's test ids as they were;
/// slot 2's end in `-2`. `headed` names the process above its line.
#[component]
fn LineView(ctl: Controller, place: Slot, headed: Signal<bool>) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let lang = move || ctl.lang.get();
    let line = Memo::new(move |_| {
        ctl.lab.with(|lab| {
            let state = lab.state();
            state
                .lines()
                .iter()
                .find(|line| line.slot == place)
                .map(|line| LineFacts {
                    process: line.process,
                    queued: state.line_queue(line).into_iter().cloned().collect(),
                    in_hand: line.in_hand.and_then(|id| state.attempt_by_id(id)).cloned(),
                    waiting: line.waiting.len(),
                })
        })
    });
    let queued =
        Memo::new(move |_| line.with(|l| l.as_ref().map(|l| l.queued.clone()).unwrap_or_default()));
    let in_hand = Memo::new(move |_| line.with(|l| l.as_ref().and_then(|l| l.in_hand.clone())));
    let waiting = Memo::new(move |_| line.with(|l| l.as_ref().map_or(0, |l| l.waiting)));
    let process = Memo::new(move |_| line.with(|l| l.as_ref().map_or(0, |l| l.process)));
    let paused = ctl.setting(|s| s.paused);
    let id = move |base: &str| {
        if place == 1 {
            base.to_string()
        } else {
            format!("{base}-{place}")
        }
    };

    // Each filled slot shows what tells it apart from its neighbours (the
    // attempt's number, as in the timeline; the points; the end of the key), and
    // the whole request on hover or focus, and to a screen reader.
    let slot_id = id("queue-slot");
    let slots = move || {
        let queued = queued.get();
        let lang = lang();
        (0..PointWorker::CAPACITY)
            .map(|i| match queued.get(i) {
                Some(a) => view! {
                    <li class="slot filled" data-testid=slot_id.clone() data-attempt=a.id tabindex="0">
                        <span class="slot-short" aria-hidden="true">
                            <span class="slot-id">"#" {lang.texts().num(a.id)}</span>
                            <span class="slot-points">"+" {lang.texts().num(a.grant.points)}</span>
                            <span class="slot-key">{key_ending(&a.grant.key)}</span>
                        </span>
                        <span class="slot-full">
                            {lang.texts().attempt_number(a.id)}
                            ": "
                            {request_parts(ctl, &a.grant)}
                        </span>
                    </li>
                }
                .into_any(),
                None => view! { <li class="slot" data-testid=slot_id.clone()></li> }.into_any(),
            })
            .collect_view()
    };
    let heading_id = format!("queue-line-{place}");

    view! {
        <div
            class="line"
            data-testid=id("line")
            data-slot=place
            data-process=move || process.get()
            role=move || headed.get().then_some("group")
            aria-labelledby=move || headed.get().then(|| heading_id.clone())
        >
            {move || {
                headed
                    .get()
                    .then(|| {
                        view! {
                            <h3 class="line-title" id=format!("queue-line-{place}")>
                                {move || texts().process_heading(process.get())}
                            </h3>
                        }
                    })
            }}
            <p class="queue-count" data-testid=id("queue-count") data-queued=move || queued.with(Vec::len)>
                {move || texts().queue_slots(queued.with(Vec::len), PointWorker::CAPACITY)}
            </p>
            <ol class="slots">{slots}</ol>
            <p class="consumer" data-testid=id("consumer") class:busy=move || in_hand.with(Option::is_some)>
                // A label, and the delivery in hand when there is one: plain parts
                // rather than a view per case, which costs far less code.
                {move || match in_hand.get() {
                    Some(_) => texts().consumer_holds,
                    None if paused.get() => texts().consumer_paused,
                    None if queued.with(Vec::is_empty) => texts().consumer_idle,
                    None => texts().consumer_next,
                }}
                {move || {
                    in_hand.get().map(|a| {
                        view! {
                            ": " {texts().attempt_number(a.id)} " "
                            {request_parts(ctl, &a.grant)}
                        }
                    })
                }}
            </p>
            <p class="waiting" data-testid=id("waiting") data-waiting=move || waiting.get()>
                {move || texts().producers_waiting(waiting.get())}
            </p>
        </div>
    }
}

/// The whole request, each part isolated (no text can reorder its neighbours)
/// and shown so that look-alike texts differ; the points in the page's digits.
pub fn request_parts(ctl: Controller, grant: &GrantPoints) -> impl IntoView {
    let points = grant.points;
    let sep = move || ctl.lang.get().texts().sep();
    view! {
        <bdi dir="ltr">{visible(&grant.account_id).into_owned()}</bdi>
        {sep}
        <bdi dir="ltr" class="key">{visible(&grant.key).into_owned()}</bdi>
        {sep}
        <bdi dir="ltr">"+" {move || ctl.lang.get().texts().num(points)}</bdi>
    }
}

/// The last characters of a key, where keys made from one another differ
/// (`order-1042`, `order-1042-fresh-1`).
fn key_ending(key: &str) -> String {
    const SHOWN: usize = 7;
    let key = visible(key);
    let count = key.chars().count();
    if count <= SHOWN {
        key.into_owned()
    } else {
        let tail: String = key.chars().skip(count - (SHOWN - 1)).collect();
        format!("…{tail}")
    }
}
