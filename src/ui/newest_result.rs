//! The answer to a click, where the eye is: under the buttons, one line says
//! what became of the newest attempt (said politely to a screen reader too),
//! with a way to the picture; on a wide page the newest timeline row is then
//! brought whole into view for a few seconds while it fills in.

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::lab::AttemptId;

use super::controller::Controller;
use super::page_env;
use super::timeline_view::icon;

thread_local! {
    /// Which follow may move the page: each click's, until the next or a jump.
    static FOLLOWING: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Stops any follow under way; returns the number the next one may use.
fn stop_following() -> u32 {
    FOLLOWING.with(|f| {
        f.set(f.get().wrapping_add(1));
        f.get()
    })
}

/// How long after a click the page keeps the newest row in view as it fills
/// in (its answer comes within the caller's wait).
const FOLLOW_MS: f64 = 4_500.0;

/// The line under the buttons, for the newest attempt a person sent.
#[component]
pub fn NewestResult(ctl: Controller) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let said = Memo::new(move |_| {
        let t = texts();
        ctl.lab.with(|lab| {
            let row = lab.state().timeline().last()?;
            let outcome = row.outcome();
            let (mark, word) = if row.applied_again() {
                ("⚠", t.outcome_applied_again)
            } else {
                (icon(outcome), t.outcome(outcome))
            };
            let balance = row.balance_known().then_some(row.balance_after);
            Some((
                row.attempt.id,
                format!(
                    "{mark} {}",
                    t.newest_result(row.attempt.id, &row.attempt.grant.key, word, balance)
                ),
                row.applied_again(),
            ))
        })
    });
    let to_picture = move |_| {
        stop_following();
        if let Some(stage) = document().query_selector(".panel.stage").ok().flatten() {
            stage.scroll_into_view_with_bool(true);
        }
    };
    view! {
        <p
            class="newest-result"
            data-testid="newest-result"
            data-attempt=move || said.with(|s| s.as_ref().map(|s| s.0))
            class:again=move || said.with(|s| s.as_ref().is_some_and(|s| s.2))
            aria-live="polite"
            aria-atomic="true"
        >
            {move || said.with(|s| s.as_ref().map(|s| s.1.clone()))}
            {move || said.with(Option::is_some).then(|| view! {
                " "
                <button type="button" class="link to-picture" on:click=to_picture>
                    {move || texts().see_in_picture}
                </button>
            })}
        </p>
    }
}

/// After a click that sent something: for a few seconds, keep the line
/// above and the newest timeline row in view as the answer arrives, each
/// moved the least inside the box that scrolls it (on the one-screen page the
/// request's column and the timeline scroll by themselves; the page does not).
/// A row taller than its box shows its top: the request, what the store did,
/// what the caller got and the balance all start there.
pub fn follow_newest_row(ctl: Controller) {
    let until = page_env::now_ms() + FOLLOW_MS;
    let me = stop_following();
    spawn_local(async move {
        let mut shown: Option<(AttemptId, i32)> = None;
        while page_env::now_ms() < until {
            TimeoutFuture::new(120).await;
            // A newer click follows its own row; a jump to the picture stops it.
            if FOLLOWING.with(std::cell::Cell::get) != me {
                return;
            }
            let newest = ctl
                .lab
                .with_untracked(|lab| lab.state().timeline().last().map(|r| r.attempt.id));
            let Some(id) = newest else { continue };
            let selector = format!("[data-testid=timeline-row][data-attempt=\"{id}\"]");
            let Some(row) = document().query_selector(&selector).ok().flatten() else {
                continue;
            };
            // Only when it changed: a person scrolling the box meanwhile is left alone.
            let height = row.get_bounding_client_rect().height().round() as i32;
            if shown == Some((id, height)) {
                continue;
            }
            let first = shown.is_none();
            shown = Some((id, height));
            if let Some(line) = first
                .then(|| document().query_selector("[data-testid=newest-result]"))
                .and_then(|found| found.ok().flatten())
            {
                page_env::reveal_least(&line, 0.0, true);
            }
            // Clear of the timeline's sticky header, when it has one.
            let header = document()
                .query_selector(".timeline thead")
                .ok()
                .flatten()
                .map_or(0.0, |h| h.get_bounding_client_rect().height());
            page_env::reveal_least(&row, header, false);
        }
    });
}
