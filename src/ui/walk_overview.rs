//! The overview of all sections: each one's title, where the learner stands
//! in it and what is left to finish it, and a button that opens it. Imported
//! progress shows here at once.

use leptos::prelude::*;

use super::page_env;
use super::walk::Walk;
use crate::walkthrough::Standing;

#[component]
pub fn SectionsOverview(walk: Walk) -> impl IntoView {
    let ctl = walk.ctl;
    let lang = move || ctl.lang.get();
    let t = move || lang().walk();
    let open = RwSignal::new(false);
    // Every section's standing, as the progress kept in this browser says:
    // worked out once for the count and the list.
    let standings = Memo::new(move |_| {
        let content = walk.content()?;
        let progress = walk.progress.get();
        Some(
            content
                .scripts
                .scenarios
                .iter()
                .map(|s| {
                    let title = content.text.scenarios[&s.id].shown_title();
                    (
                        s.id.clone(),
                        title,
                        progress.standing(&content.scripts, &s.id),
                    )
                })
                .collect::<Vec<_>>(),
        )
    });
    let count = move || {
        standings.with(|all| {
            let all = all.as_deref().unwrap_or_default();
            let done = all.iter().filter(|(_, _, s)| *s == Standing::Done).count();
            let walked = all
                .iter()
                .filter(|(_, _, s)| matches!(s, Standing::Done | Standing::Walked { .. }))
                .count();
            t().overview_count(walked, done, all.len())
        })
    };
    let items = move || {
        standings.get().map(|all| {
            all.into_iter()
                .enumerate()
                .map(|(i, (id, title, standing))| {
                    let here = move || walk.guest.with(Option::is_none) && walk.scenario.get() == i;
                    view! {
                        <li data-testid="overview-section" data-scenario=id data-standing=standing.code()>
                            <button
                                aria-current=move || here().then_some("true")
                                on:click=move |_| {
                                    walk.playing.set(false);
                                    walk.go(i, 0);
                                    open.set(false);
                                }
                            >
                                {format!("{}. {title}", lang().number(i + 1))}
                            </button>
                            " "
                            <span class="overview-standing">
                                {(standing == Standing::Done).then_some("✓ ")}
                                {t().standing(standing)}
                            </span>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <details
            class="walk-overview"
            data-testid="sections-overview"
            prop:open=move || open.get()
            on:toggle=page_env::follow_details(open)
        >
            // A dash, not a dot: beside a Persian digit a dot reads as a zero.
            <summary>{move || t().overview} " — " {count}</summary>
            // Built only while open: the list changes with every step's progress.
            {move || open.get().then(|| view! { <ol>{items}</ol> })}
        </details>
    }
}
