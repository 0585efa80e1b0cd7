//! The answer to a click, where the eye is: under the buttons, one line says
//! what became of the newest attempt (said politely to a screen reader too),
//! with a way to the picture; the timeline keeps its newest row's top in view
//! as it fills in.

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::controller::Controller;
use super::page_env;
use super::timeline_view::verdict;

/// The line under the buttons, for the newest attempt a person sent.
#[component]
pub fn NewestResult(ctl: Controller) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let said = Memo::new(move |_| {
        let t = texts();
        ctl.lab.with(|lab| {
            let row = lab.state().timeline().last()?;
            let (mark, word) = verdict(t, row);
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
