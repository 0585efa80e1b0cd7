//! The answer to a click, where the eye is: under the buttons, one line says
//! what became of the newest attempt (said politely to a screen reader too),
//! with a way to the picture; the timeline keeps its newest row's top in view
//! as it fills in.

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::lab::AttemptId;

use super::controller::Controller;
use super::page_env;
use super::timeline_view::icon;

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
            // A refusal says why; a purchase paid again says so.
            let word = match row.caller_error() {
                Some(e) => format!("{word}: {}", t.grant_error_short(e)),
                None => word.to_string(),
            };
            let balance = row.balance_known().then_some(row.balance_after);
            let mut said = format!(
                "{mark} {}",
                t.newest_result(row.attempt.id, &row.attempt.grant.key, &word, balance)
            );
            if let Some(first) = row.handled.as_ref().and_then(|h| h.paid_before_by) {
                said.push(' ');
                said.push_str(&t.newest_paid_twice(first));
            }
            Some((row.attempt.id, said, row.applied_again()))
        })
    });
    let to_picture = move |_| {
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

/// After a click that sent something: the line above, under the buttons,
/// brought into view in the request's column (which scrolls by itself on the
/// one-screen page), once it says something.
pub fn show_the_line() {
    spawn_local(async {
        TimeoutFuture::new(60).await;
        let Some(line) = document()
            .query_selector("[data-testid=newest-result]")
            .ok()
            .flatten()
        else {
            return;
        };
        // On one column the line is right under the button: nothing to move.
        if let Some(column) = line.closest(".column").ok().flatten() {
            page_env::reveal_least(&line, &column, 0.0);
        }
    });
}

/// The newest timeline row brought into view in the timeline's own box, the
/// least, its top first when it is taller than the room: the request, what
/// the store did, what the caller got and the balance all start on a row's
/// first line. Cards (a narrow timeline) keep their foot in view, where the
/// balance is; the page and the lab's other boxes stay where they are.
pub fn show_newest_row(id: AttemptId) {
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
