//! The timeline: one row per attempt from the moment it is sent, what the store
//! did beside what the caller got (nothing yet, while it waits), and the
//! account's balance right after; between them, a row for each thing that
//! happened to the processes, the stores or the clock.

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

use crate::i18n::{Lang, Texts};
use crate::lab::{
    page_window, visible, AttemptId, AttemptRow, AttemptSays, CallerSays, Invariant, KnownBy,
    LabState, Marker, MarkerKind, Outcome, StagePart, StoreSays,
};

use super::controller::Controller;
use super::page_env;

/// Rows rendered at once: the DOM stays this size however long the timeline grows.
const PAGE_ROWS: usize = 25;
/// Marker rows shown between two attempt rows at most; the rest are counted.
const MARKERS_PER_GAP: usize = 8;

/// One row of the timeline's table.
#[derive(Clone, PartialEq)]
enum Item {
    Attempt(Box<AttemptRow>, RowNotes),
    Marker(Marker),
    /// Markers between two rows beyond [`MARKERS_PER_GAP`].
    More(usize),
}

/// What the page adds to an attempt's row from the rest of the lab.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct RowNotes {
    /// Which promises it was the first to break (by `Invariant::ALL` index).
    broke: [bool; Invariant::COUNT],
}

/// What identifies a drawn row: rows are drawn once, with no reactive parts of
/// their own (thousands of them pass by in a stress run), so the key carries
/// everything that may change how a row reads.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Which {
    Attempt {
        id: AttemptId,
        answered: bool,
        handled: bool,
        looked_up: bool,
        never_handled: bool,
        crashed: bool,
        notes: RowNotes,
    },
    /// By its index in the markers (the first, for merged expiries), what it is
    /// (the last marker may turn from "ended" into "restart") and its count.
    Marker {
        index: usize,
        code: &'static str,
        count: u32,
    },
    More {
        gap: usize,
        count: usize,
    },
}

/// The language and the epoch (a new lab's attempt 1 is not the old one's) belong
/// to every key.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key(u64, Lang, Which);

#[component]
pub fn TimelineView(ctl: Controller, reveal: RwSignal<Option<AttemptId>>) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    // None follows the newest rows as they arrive; Some(end) holds an older page.
    let anchor = RwSignal::new(None::<usize>);
    // A new lab (reset, import, link) starts by following its newest rows.
    Effect::new(move |_| {
        ctl.epoch.track();
        anchor.set(None);
    });
    let total = Memo::new(move |_| ctl.lab.with(|lab| lab.state().timeline().len()));
    // Of those rows, how many callers have heard something (the rest wait).
    let answered = Memo::new(move |_| ctl.lab.with(|lab| lab.state().answered()));
    // While the world is skipped to idle the page holds still, and the newest
    // rows are drawn when it stops: rows replaced ten times a second cannot be
    // read, and laying out a new page of them each time held the browser up.
    let paged = Memo::new(move |held: Option<&usize>| {
        let skipping = ctl.skipping.get();
        match held {
            Some(held) if skipping => *held,
            _ => total.get(),
        }
    });
    let window = Memo::new(move |_| page_window(paged.get(), anchor.get(), PAGE_ROWS));
    let items = Memo::new(move |_| {
        let range = window.get();
        let (epoch, lang) = (ctl.epoch.get(), ctl.lang.get());
        ctl.lab.with(|lab| {
            page_items(lab.state(), range)
                .into_iter()
                .map(|(which, item)| (Key(epoch, lang, which), item))
                .collect::<Vec<_>>()
        })
    });
    // The promises panel asks for an attempt's row: show its page, then move the
    // focus to it (which scrolls it into view, with no animation).
    Effect::new(move |_| {
        let Some(attempt) = reveal.get() else {
            return;
        };
        let position = ctl.lab.with_untracked(|lab| {
            lab.state()
                .timeline()
                .iter()
                .rposition(|r| r.attempt.id == attempt)
        });
        let Some(index) = position else {
            return;
        };
        if !window.get_untracked().contains(&index) {
            let total = total.get_untracked();
            let end = (index + PAGE_ROWS / 2 + 1).clamp(PAGE_ROWS.min(total), total);
            anchor.set((end < total).then_some(end));
        }
        spawn_local(async move {
            // Until the page has drawn it.
            for _ in 0..20 {
                TimeoutFuture::new(10).await;
                if focus_row(attempt) {
                    return;
                }
            }
        });
    });
    // The newest row, each time it changes (sent, handled, answered), shown
    // from its top in the box while the box follows the newest rows: the
    // box's end alone would show only a tall row's tail.
    let newest = Memo::new(move |_| {
        ctl.lab.with(|lab| {
            lab.state().timeline().last().map(|r| {
                (
                    r.attempt.id,
                    r.answered(),
                    r.handled.is_some(),
                    r.crashed_at.is_some(),
                    r.looked_up.is_some(),
                )
            })
        })
    });
    Effect::new(move |_| {
        // (Also once a skip to idle ends: the page holds still while it runs.)
        let (Some((id, ..)), _, skipping) = (newest.get(), ctl.lang.get(), ctl.skipping.get())
        else {
            return;
        };
        if anchor.get_untracked().is_none() && !skipping {
            show_newest_row(id);
        }
    });
    let older = move |_| {
        let start = window.get_untracked().start;
        anchor.set(Some(start.max(PAGE_ROWS.min(total.get_untracked()))));
    };
    let newer = move |_| {
        let end = window.get_untracked().end + PAGE_ROWS;
        anchor.set((end < total.get_untracked()).then_some(end));
    };
    let pager = move || {
        (total.get() > PAGE_ROWS).then(|| {
            let range = window.get();
            view! {
                <nav class="pager" data-testid="pager">
                    // aria-disabled, not disabled: pressing "Older" on the oldest page
                    // must not drop the keyboard focus to the page's body.
                    <button on:click=older aria-disabled=move || (window.get().start == 0).to_string()>
                        {move || texts().older}
                    </button>
                    <span>{move || texts().rows_range(range.start + 1, range.end, total.get())}</span>
                    <button on:click=newer aria-disabled=move || anchor.get().is_none().to_string()>
                        {move || texts().newer}
                    </button>
                    <button on:click=move |_| anchor.set(None) aria-disabled=move || anchor.get().is_none().to_string()>
                        {move || texts().latest}
                    </button>
                </nav>
            }
        })
    };

    view! {
        <section
            class="panel timeline"
            aria-labelledby="timeline-title"
            aria-busy=move || ctl.skipping.get().to_string()
            data-testid="timeline"
            data-total=total
            data-answered=answered
        >
            <h2 id="timeline-title">
                {move || texts().timeline}
                // How many rows: a count a lesson can point at.
                {move || (total.get() > 0).then(|| view! {
                    " "
                    <span
                        class="timeline-count"
                        data-testid="timeline-count"
                        data-marked=move || ctl.marked(&StagePart::Timeline).then_some("true")
                    >
                        {texts().timeline_count(total.get())}
                    </span>
                })}
            </h2>
            {pager}
            <Show
                when=move || !items.with(Vec::is_empty)
                fallback=move || view! { <p class="empty">{move || texts().timeline_empty}</p> }
            >
                // Focusable, so a keyboard can scroll a table wider than its panel.
                <div class="table-scroll" tabindex="0" role="region" aria-labelledby="timeline-title">
                    <table>
                        <thead>
                            <tr>
                                <th scope="col">"#"</th>
                                <th scope="col">{move || texts().col_request}</th>
                                <th scope="col">{move || texts().col_store}</th>
                                <th scope="col">{move || texts().col_caller}</th>
                                <th scope="col">{move || texts().col_balance}</th>
                            </tr>
                        </thead>
                        // The row pointed at or focused marks its parts of the
                        // stage: one listener for all rows, which are drawn once.
                        <tbody
                            on:mouseover=move |ev| ctl.highlight.set(row_attempt(&ev))
                            on:focusin=move |ev| ctl.highlight.set(row_attempt(&ev))
                            on:mouseleave=move |_| ctl.highlight.set(focused_row())
                            on:focusout=move |_| ctl.highlight.set(None)
                        >
                            <For
                                each=move || items.get()
                                key=|(key, _)| key.clone()
                                children=move |(Key(_, lang, _), item)| match item {
                                    Item::Attempt(row, notes) => {
                                        view! { <TimelineRow ctl=ctl row=*row notes=notes lang=lang /> }.into_any()
                                    }
                                    Item::Marker(marker) => {
                                        view! { <MarkerRow marker=marker lang=lang /> }.into_any()
                                    }
                                    Item::More(count) => {
                                        view! {
                                            <tr class="marker event-more" data-testid="timeline-marker-more">
                                                <td colspan="5">{lang.texts().markers_more(count)}</td>
                                            </tr>
                                        }
                                            .into_any()
                                    }
                                }
                            />
                        </tbody>
                    </table>
                </div>
            </Show>
        </section>
    }
}

/// The rows of one page: the attempts in `range`, each after the markers that
/// came just before it; on the newest page, the markers after the last row too.
fn page_items(state: &LabState, range: std::ops::Range<usize>) -> Vec<(Which, Item)> {
    let timeline = state.timeline();
    let markers = state.markers();
    let breaks = Invariant::ALL.map(|i| state.invariants().first_break(i));
    let last_gap = if range.end == timeline.len() {
        range.end
    } else {
        range.end.saturating_sub(1)
    };
    let mut items = Vec::with_capacity(range.len() + 4);
    let mut next = markers.partition_point(|m| m.before_row < range.start);
    for gap in range.start..=last_gap {
        let end = next + markers[next..].partition_point(|m| m.before_row == gap);
        gap_items(markers, next..end, gap, &mut items);
        next = end;
        if let Some(row) = timeline.get(gap).filter(|_| gap < range.end) {
            let notes = RowNotes {
                broke: breaks.map(|b| b.is_some_and(|b| b.attempt == row.attempt.id)),
            };
            let which = Which::Attempt {
                id: row.attempt.id,
                answered: row.answered(),
                handled: row.handled.is_some(),
                looked_up: row.looked_up.is_some(),
                never_handled: row.never_handled,
                crashed: row.crashed_at.is_some(),
                notes,
            };
            items.push((which, Item::Attempt(Box::new(row.clone()), notes)));
        }
    }
    items
}

/// The marker rows of one gap between attempt rows: a run of expiries is one
/// row, and past [`MARKERS_PER_GAP`] the rest are counted.
fn gap_items(
    markers: &[Marker],
    indices: std::ops::Range<usize>,
    gap: usize,
    items: &mut Vec<(Which, Item)>,
) {
    let mut shown: Vec<(usize, Marker)> = Vec::new();
    for index in indices {
        let marker = &markers[index];
        if let (
            MarkerKind::Expired { count, .. },
            Some((
                _,
                Marker {
                    kind: MarkerKind::Expired { count: total, .. },
                    ..
                },
            )),
        ) = (&marker.kind, shown.last_mut())
        {
            *total += count;
            continue;
        }
        shown.push((index, marker.clone()));
    }
    let hidden = shown.len().saturating_sub(MARKERS_PER_GAP);
    for (index, marker) in shown.into_iter().take(MARKERS_PER_GAP) {
        let count = match marker.kind {
            MarkerKind::Expired { count, .. } => count,
            _ => 1,
        };
        let which = Which::Marker {
            index,
            code: marker.kind.code(),
            count,
        };
        items.push((which, Item::Marker(marker)));
    }
    if hidden > 0 {
        items.push((Which::More { gap, count: hidden }, Item::More(hidden)));
    }
}

/// Moves the keyboard focus to an attempt's row, which scrolls it into view.
/// The attempt of the timeline row an event happened in, if any.
fn row_attempt(ev: &web_sys::Event) -> Option<AttemptId> {
    let target = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    let row = target.closest("tr[data-attempt]").ok()??;
    row.get_attribute("data-attempt")?.parse().ok()
}

/// The attempt of the timeline row that has the focus, if one has.
fn focused_row() -> Option<AttemptId> {
    let focused = document().active_element()?;
    if focused.get_attribute("data-testid").as_deref() != Some("timeline-row") {
        return None;
    }
    focused.get_attribute("data-attempt")?.parse().ok()
}

/// False while the page has not drawn it yet.
fn focus_row(attempt: AttemptId) -> bool {
    let selector = format!("[data-testid=timeline-row][data-attempt=\"{attempt}\"]");
    let Some(row) = document().query_selector(&selector).ok().flatten() else {
        return false;
    };
    let row: web_sys::HtmlElement = row.unchecked_into();
    // Focusable from script only: Tab still moves between the controls.
    let _ = row.set_attribute("tabindex", "-1");
    row.focus().is_ok()
}

#[component]
fn MarkerRow(marker: Marker, lang: Lang) -> impl IntoView {
    let t = lang.texts();
    let code = marker.kind.code();
    view! {
        <tr
            class=format!("marker event-{code}")
            data-testid="timeline-marker"
            data-event=code
            data-at=marker.at
            data-changed=marker.kind.changed().map(|c| c.to_string())
        >
            <td colspan="5">
                <span class="marker-icon" aria-hidden="true">{marker_icon(&marker.kind)}</span>
                <span class="marker-text">{t.marker_text(&marker)}</span>
                " "
                <span class="when">{t.at_time(marker.at)}</span>
            </td>
        </tr>
    }
}

/// A shape per kind of marker; the sentence carries the meaning.
fn marker_icon(kind: &MarkerKind) -> &'static str {
    match kind {
        MarkerKind::Crash { .. } => "↯",
        MarkerKind::Restart { .. } => "↻",
        MarkerKind::ProcessStarted { .. } => "⊕",
        MarkerKind::ProcessEnded { .. } => "⊖",
        MarkerKind::CommitConflict { .. } => "⇄",
        MarkerKind::Expired { .. } => "⌫",
        MarkerKind::Clock { .. } => "»",
        MarkerKind::LanguageSet { .. } => "⚑",
        MarkerKind::Backoff { .. } => "◔",
        MarkerKind::Email { .. } => "✉",
    }
}

#[component]
fn TimelineRow(ctl: Controller, row: AttemptRow, notes: RowNotes, lang: Lang) -> impl IntoView {
    let t = lang.texts();
    let id = row.attempt.id;
    let outcome = row.outcome();
    let grant = &row.attempt.grant;
    let says = row.says();
    // Each cell is a label and an optional number set apart for right-to-left
    // text: plain strings, not a view per case, keep the row's code small.
    let (store_label, store_number) = match &says.store {
        StoreSays::Applied { points } => (
            t.store_applied.to_string(),
            Some(format!("+{}", t.num(points))),
        ),
        StoreSays::Replayed => (t.store_replayed.to_string(), None),
        StoreSays::Rejected(e) => (
            format!("{}: {}", t.store_rejected, t.grant_error_short(e)),
            None,
        ),
        StoreSays::CrashedAt(point) => (t.crashed_at(*point).to_string(), None),
        StoreSays::Never => (t.store_never.to_string(), None),
        StoreSays::NotYet => (t.store_not_yet.to_string(), None),
    };
    // When the store did it, and whether a restart made it grant an operation again.
    let store_when = row.handled.as_ref().map(|h| t.at_time(h.at));
    let granted_again = row.handled.as_ref().and_then(|h| {
        Some(t.granted_again(h.granted_before_by?, h.granted_before_in?, h.regrant_cause?))
    });
    // The same purchase paid again under a fresh key: the store saw nothing wrong.
    let granted_again = granted_again.or_else(|| {
        let first = row.handled.as_ref()?.paid_before_by?;
        Some(t.paid_again(first))
    });
    let how_known = says.known_by.map(|k| match k {
        KnownBy::LostRaceReceipt => t.lost_race_receipt,
        KnownBy::LostRace => t.lost_race,
        KnownBy::Ledger => t.by_ledger,
    });
    // Refused for naming another account: what a trusting store would have given away.
    let leak = row.forbidden.as_ref().map(|f| match &f.leak {
        Some(receipt) => t.would_leak(receipt),
        None => t.would_grant(grant),
    });
    // It found another attempt of the operation in progress.
    let met = row
        .met_in_progress
        .map(|m| t.met_in_progress(m.holder, m.waited));
    // How the durable store made the writes: one commit, or two in some order.
    let writes = row
        .handled
        .as_ref()
        .and_then(|h| h.durable_writes)
        .map(|w| (t.durable_writes(w), w.code()));
    let (caller_label, caller_number) = match &says.caller {
        CallerSays::Queue => (t.caller_queue.to_string(), None),
        CallerSays::Waiting => (t.caller_waiting.to_string(), None),
        CallerSays::Receipt { balance } => (t.caller_receipt.to_string(), Some(t.num(balance))),
        CallerSays::Timeout => (t.caller_timeout.to_string(), None),
        CallerSays::ProcessEnded => (t.caller_process_ended.to_string(), None),
        CallerSays::Error(e) => (
            format!("{} {}", t.caller_error, t.grant_error_short(e)),
            None,
        ),
    };
    let truth = row.truth();
    let regranted = granted_again.is_some().then_some("true");
    let applied_again = row.applied_again();
    let (mark, word) = verdict(t, &row);
    // The full sentence, for a pointer or a screen reader that wants the detail.
    let full_reason = row.store_error().map(|e| t.grant_error(e));
    let lost_ack = row.handled.as_ref().is_some_and(|h| h.acknowledgement_lost);
    let broken: Vec<Invariant> = Invariant::ALL
        .into_iter()
        .zip(notes.broke)
        .filter_map(|(i, b)| b.then_some(i))
        .collect();
    let broke_codes = (!broken.is_empty()).then(|| {
        broken
            .iter()
            .map(|i| i.code())
            .collect::<Vec<_>>()
            .join(" ")
    });

    view! {
        <tr
            data-testid="timeline-row"
            data-attempt=row.attempt.id
            data-marked=move || ctl.marked_attempt(Some(id)).then_some("true")
            data-outcome=outcome.code()
            data-receipt-balance=row.caller_receipt().map(|r| r.balance.to_string())
            data-current-balance=row.balance_known().then_some(row.balance_after)
            data-truth=truth.map(|t| t.code())
            data-process=row.attempt.process
            data-regranted=regranted
            data-crashed=row.crashed_at.map(|p| p.code())
            data-conflict=row.handled.as_ref().is_some_and(|h| h.conflict).then_some("true")
            data-by-ledger=row.handled.as_ref().is_some_and(|h| h.by_ledger).then_some("true")
            data-met-in-progress=row.met_in_progress.map(|m| m.holder)
            data-redelivery-of=row.attempt.redelivery_of
            data-broke=broke_codes
            class=format!("row {}", outcome.code())
        >
            <td class="num id">{t.num(row.attempt.id)}</td>
            // Which request, and which attempt at it: one cell, so the columns that
            // carry the lesson keep their room on a projector.
            <td class="request" data-label=t.col_request>
                <bdi dir="ltr" class="key">{visible(&grant.key).into_owned()}</bdi>
                <span class="meta">
                    // The person the narration names, and the account id the
                    // request carries beside it where the two differ.
                    <bdi>{t.stage.person(&grant.account_id).into_owned()}</bdi>
                    {t.stage.id_beside(&grant.account_id).then(|| view! {
                        " " <bdi dir="ltr" class="account-id">{visible(&grant.account_id).into_owned()}</bdi>
                    })}
                    " "
                    <bdi dir="ltr" class="points">"+" {t.num(grant.points)}</bdi>
                </span>
                <span class="meta attempt">
                    {match says.attempt {
                        AttemptSays::RedeliveryOf(original) => t.redelivery_of(original),
                        AttemptSays::RetryOf(previous) => t.retry_of(previous),
                        AttemptSays::KeyReused => t.key_reused.to_string(),
                        AttemptSays::Nth(n) => t.nth_attempt(n),
                    }}
                    {t.sep()}
                    {t.process_marker(row.attempt.process)}
                    {lost_ack.then(|| view! { " " <span class="tag lost">{t.lost_ack_marker}</span> })}
                </span>
            </td>
            <td class="store" title=full_reason data-label=t.col_store>
                // Points added a second time never read as a plain success.
                <span class=format!("badge {}", outcome.code()) class:again=applied_again>
                    <span class="icon" aria-hidden="true">{mark}</span>
                    {word}
                </span>
                <span class="detail" class:crashed=row.handled.is_none() && row.crashed_at.is_some()>
                    {store_label}
                    {store_number.map(|n| view! { " " <bdi dir="ltr">{n}</bdi> })}
                </span>
                {store_when.map(|w| view! { <span class="detail when">{w}</span> })}
                {met.map(|m| view! { <span class="detail met">{m}</span> })}
                {leak.map(|l| view! { <span class="detail leak" data-testid="would-leak">{l}</span> })}
                {how_known.map(|k| view! { <span class="detail known">{k}</span> })}
                {writes.map(|w| view! { <span class="detail writes" data-writes=w.1>{w.0}</span> })}
                {granted_again.map(|g| view! { <span class="detail regranted">{g}</span> })}
                {broken
                    .into_iter()
                    .map(|i| {
                        view! {
                            <span class="detail broke">
                                <span aria-hidden="true">"⚠ "</span>
                                {t.broke_promise(i)}
                            </span>
                        }
                    })
                    .collect_view()}
            </td>
            <td class="caller" data-label=t.col_caller>
                {caller_label}
                {caller_number.map(|n| view! { " " <bdi dir="ltr" class="num">{n}</bdi> })}
                {row.answered_at.map(|at| view! { <span class="detail when">{t.at_time(at)}</span> })}
                {truth.map(|truth| view! { <span class="detail truth" data-testid="truth">{t.truth(truth)}</span> })}
                {row
                    .looked_up
                    .as_ref()
                    .map(|l| {
                        view! {
                            <span class="detail looked-up" data-testid="looked-up" data-found=l.receipt.is_some().to_string()>
                                {t.looked_up(l.receipt.as_ref())}
                            </span>
                        }
                    })}
            </td>
            // Nothing known yet: the store has not handled it, nobody has heard.
            <td class="num balance" data-label=t.col_balance>
                <bdi dir="ltr">{if row.balance_known() { t.num(row.balance_after) } else { "—".to_string() }}</bdi>
            </td>
        </tr>
    }
}

/// A row's verdict, its shape and its word: points added a second time are
/// a failure, whatever the caller heard, and never read as a plain success.
pub fn verdict(t: &Texts, row: &AttemptRow) -> (&'static str, &'static str) {
    if row.applied_again() {
        ("✕", t.outcome_applied_again)
    } else {
        (icon(row.outcome()), t.outcome(row.outcome()))
    }
}

/// A shape per outcome, so colour is never the only cue.
pub fn icon(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Pending => "…",
        Outcome::Applied => "✓",
        Outcome::Replayed => "↺",
        Outcome::Rejected => "✕",
        Outcome::Timeout => "◷",
        Outcome::TimeoutApplied => "⚠",
        Outcome::ProcessEnded => "⊘",
        Outcome::InProgress => "⋯",
        Outcome::Redelivered => "⇉",
        Outcome::Forbidden => "⊗",
        Outcome::GaveUpLookedUp => "⌕",
    }
}

/// The newest timeline row brought into view in the timeline's own box, the
/// least, its top first when it is taller than the room: the request, what
/// the store did, what the caller got and the balance all start on a row's
/// first line. Cards (a narrow timeline) keep their foot in view, where the
/// balance is; the page and the lab's other boxes stay where they are.
fn show_newest_row(id: AttemptId) {
    spawn_local(async move {
        // The walkthrough places its marked row itself.
        if page_env::is_walking() {
            return;
        }
        // Once the row is drawn as it is now.
        TimeoutFuture::new(30).await;
        let selector = format!("[data-testid=timeline-row][data-attempt=\"{id}\"]");
        let Some(row) = document().query_selector(&selector).ok().flatten() else {
            return;
        };
        let Some(head) = document().query_selector(".timeline thead").ok().flatten() else {
            return;
        };
        let head = head.get_bounding_client_rect();
        if head.height() == 0.0 {
            return;
        }
        if let Some(scroller) = row.closest(".table-scroll").ok().flatten() {
            // What of the box's top the header covers, where it sticks there.
            let top = scroller.get_bounding_client_rect().top();
            let inset = if head.top() <= top + 1.0 {
                (head.bottom() - top).max(0.0)
            } else {
                0.0
            };
            page_env::reveal_least(&row, &scroller, inset);
        }
        // When the stage has grown past the screen, the lab itself scrolls a
        // little toward the row, never so far that Send leaves the view.
        let lab = row.closest("main").ok().flatten();
        let send = document()
            .query_selector(".request .buttons button.primary")
            .ok()
            .flatten();
        if let (Some(lab), Some(send)) = (lab, send) {
            page_env::reveal_keeping(&row, &lab, &send);
        }
    });
}
