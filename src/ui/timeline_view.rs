//! The timeline: one row per finished attempt, what the store did beside what the
//! caller got, and the account's balance right after.

use leptos::prelude::*;

use crate::core::{GrantError, StoreOutcome};
use crate::i18n::Lang;
use crate::lab::{page_window, visible, AttemptRow, Outcome};

use super::controller::Controller;

/// Rows rendered at once: the DOM stays this size however long the timeline grows.
const PAGE_ROWS: usize = 25;

#[component]
pub fn TimelineView(ctl: Controller) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let lang = move || ctl.lang.get();
    // None follows the newest rows as they arrive; Some(end) holds an older page.
    let anchor = RwSignal::new(None::<usize>);
    // A new lab (reset, import, link) starts by following its newest rows.
    Effect::new(move |_| {
        ctl.epoch.track();
        anchor.set(None);
    });
    let total = Memo::new(move |_| ctl.lab.with(|lab| lab.state().timeline().len()));
    let window = Memo::new(move |_| page_window(total.get(), anchor.get(), PAGE_ROWS));
    let rows = Memo::new(move |_| {
        let range = window.get();
        // Rows are drawn once, with no reactive parts of their own (thousands of
        // them pass by in a stress run), so the key carries everything that may
        // change how a row reads: the language, and the epoch (a new lab's
        // attempt 1 is not the old one's).
        let (epoch, lang) = (ctl.epoch.get(), ctl.lang.get());
        ctl.lab.with(|lab| {
            lab.state().timeline()[range]
                .iter()
                .map(|row| (epoch, lang, row.clone()))
                .collect::<Vec<_>>()
        })
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
                    <span>{move || (texts().rows_range)(lang(), range.start + 1, range.end, total.get())}</span>
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
        <section class="panel timeline" aria-labelledby="timeline-title" data-testid="timeline" data-total=total>
            <h2 id="timeline-title">{move || texts().timeline}</h2>
            {pager}
            <Show
                when=move || !rows.get().is_empty()
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
                        <tbody>
                            <For
                                each=move || rows.get()
                                // A row is redrawn when the store's side of it changes
                                // (an attempt handled after its caller timed out).
                                key=|(epoch, lang, row)| {
                                    (*epoch, *lang, row.attempt.id, row.handled.is_some(), row.never_handled)
                                }
                                children=|(_, lang, row)| view! { <TimelineRow row=row lang=lang /> }
                            />
                        </tbody>
                    </table>
                </div>
            </Show>
        </section>
    }
}

#[component]
fn TimelineRow(row: AttemptRow, lang: Lang) -> impl IntoView {
    let t = lang.texts();
    let outcome = row.outcome();
    let grant = &row.attempt.grant;
    // Each cell is a label and an optional number set apart for right-to-left
    // text: plain strings, not a view per case, keep the row's code small.
    let (store_label, store_number) = match row.handled.as_ref().map(|h| &h.store) {
        Some(Ok(StoreOutcome::Applied(r))) => {
            (t.store_applied.to_string(), Some(format!("+{}", r.points)))
        }
        Some(Ok(StoreOutcome::Replayed(_))) => (t.store_replayed.to_string(), None),
        Some(Err(e)) => (
            format!("{}: {}", t.store_rejected, (t.grant_error_short)(e)),
            None,
        ),
        None if row.never_handled => (t.store_never.to_string(), None),
        None => (t.store_not_yet.to_string(), None),
    };
    // When the store did it, and whether a restart made it grant an operation again.
    let store_when = row.handled.as_ref().map(|h| (t.at_time)(lang, h.at));
    let granted_again = row
        .handled
        .as_ref()
        .and_then(|h| h.granted_before_in)
        .map(|p| (t.granted_again)(lang, p));
    let (caller_label, caller_number) = match &row.caller {
        Ok(r) => (t.caller_receipt.to_string(), Some(r.balance.to_string())),
        Err(GrantError::Timeout) => (t.caller_timeout.to_string(), None),
        Err(GrantError::WorkerStopped) => (t.caller_process_ended.to_string(), None),
        Err(e) => (
            format!("{} {}", t.caller_error, (t.grant_error_short)(e)),
            None,
        ),
    };
    let truth = row.truth();
    let regranted = granted_again.is_some().then_some("true");
    // The full sentence, for a pointer or a screen reader that wants the detail.
    let full_reason = row.store_error().map(|e| (t.grant_error)(e));
    let lost_ack = row.handled.as_ref().is_some_and(|h| h.acknowledgement_lost);

    view! {
        <tr
            data-testid="timeline-row"
            data-outcome=outcome.code()
            data-receipt-balance=row.caller_receipt().map(|r| r.balance.to_string())
            data-current-balance=row.balance_after
            data-truth=truth.map(|t| t.code())
            data-process=row.attempt.process
            data-regranted=regranted
            class=format!("row {}", outcome.code())
        >
            <td class="num id">{row.attempt.id}</td>
            // Which request, and which attempt at it: one cell, so the columns that
            // carry the lesson keep their room on a projector.
            <td class="request" data-label=t.col_request>
                <bdi dir="ltr" class="key">{visible(&grant.key).into_owned()}</bdi>
                <span class="meta">
                    <bdi dir="ltr">{visible(&grant.account_id).into_owned()}</bdi>
                    " "
                    <bdi dir="ltr" class="points">"+" {grant.points}</bdi>
                </span>
                <span class="meta attempt">
                    {(t.nth_attempt)(lang, row.attempt.attempt_of_request)}
                    " · "
                    {(t.process_marker)(lang, row.attempt.process)}
                    {lost_ack.then(|| view! { " " <span class="tag lost">{t.lost_ack_marker}</span> })}
                </span>
            </td>
            <td class="store" title=full_reason data-label=t.col_store>
                <span class=format!("badge {}", outcome.code())>
                    <span class="icon" aria-hidden="true">{icon(outcome)}</span>
                    {(t.outcome)(outcome)}
                </span>
                <span class="detail">
                    {store_label}
                    {store_number.map(|n| view! { " " <bdi dir="ltr">{n}</bdi> })}
                </span>
                {store_when.map(|w| view! { <span class="detail when">{w}</span> })}
                {granted_again.map(|g| view! { <span class="detail regranted">{g}</span> })}
            </td>
            <td class="caller" data-label=t.col_caller>
                {caller_label}
                {caller_number.map(|n| view! { " " <bdi dir="ltr" class="num">{n}</bdi> })}
                <span class="detail when">{(t.at_time)(lang, row.answered_at)}</span>
                {truth.map(|truth| view! { <span class="detail truth" data-testid="truth">{(t.truth)(truth)}</span> })}
            </td>
            <td class="num balance" data-label=t.col_balance><bdi dir="ltr">{row.balance_after}</bdi></td>
        </tr>
    }
}

/// A shape per outcome, so colour is never the only cue.
pub fn icon(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Applied => "✓",
        Outcome::Replayed => "↺",
        Outcome::Rejected => "✕",
        Outcome::Timeout => "◷",
        Outcome::TimeoutApplied => "⚠",
        Outcome::ProcessEnded => "⊘",
    }
}
