//! The Leptos page: renders the lab's state and turns clicks into actions.
//! No business rule lives here; it all sits in `core` and `lab`.

mod chart_view;
mod controller;
mod page_env;
mod queue_view;
mod request_form;
mod store_view;
mod timeline_view;

use leptos::prelude::*;

use crate::i18n::Lang;

pub use controller::{Controller, Notice};

use chart_view::ChartView;
use queue_view::QueueView;
use request_form::RequestForm;
use store_view::StoreView;
use timeline_view::TimelineView;

/// The account the chart follows before anything was sent.
const DEFAULT_ACCOUNT: &str = "account-7";

/// Mounts the lab on the page's body.
pub fn start() {
    console_error_panic_hook::set_once();
    let lang = page_env::initial_lang();
    leptos::mount::mount_to_body(move || view! { <App lang=lang /> });
    page_env::mark_ready();
}

#[component]
pub fn App(lang: Lang) -> impl IntoView {
    let ctl = Controller::new(lang);
    Effect::new(move |_| page_env::apply_lang(ctl.lang.get()));
    let texts = move || ctl.lang.get().texts();
    // The chart follows the account of the last request.
    let chart_account = Signal::derive(move || {
        ctl.lab.with(|lab| {
            lab.state()
                .last_request()
                .map(|g| g.account_id.clone())
                .unwrap_or_else(|| DEFAULT_ACCOUNT.to_string())
        })
    });
    let notice = move || {
        ctl.notice.get().map(|notice| {
            let t = texts();
            let text = match notice {
                Notice::Lab(error) => (t.lab_error)(&error),
                Notice::FixFields => t.fix_fields.to_string(),
            };
            view! { <p class="notice" role="alert" data-testid="notice">{text}</p> }
        })
    };

    view! {
        <header class="top">
            <div class="brand">
                <h1>{move || texts().title}</h1>
                <p class="tagline">{move || texts().tagline}</p>
            </div>
            <div class="top-actions">
                <LanguageSwitch ctl=ctl />
                <button class="reset" on:click=move |_| ctl.reset()>{move || texts().reset}</button>
            </div>
        </header>
        <main class="lab">
            <ol class="how-to">
                {move || texts().how_to.iter().map(|step| view! { <li>{*step}</li> }).collect_view()}
            </ol>
            <div class="columns">
                <div class="column">
                    <RequestForm ctl=ctl />
                    {notice}
                    <QueueView ctl=ctl />
                    <StoreView ctl=ctl />
                </div>
                <div class="column wide">
                    <ChartView ctl=ctl account=chart_account />
                    <TimelineView ctl=ctl />
                </div>
            </div>
        </main>
    }
}

#[component]
fn LanguageSwitch(ctl: Controller) -> impl IntoView {
    view! {
        <div class="lang-switch" role="group" aria-label=move || ctl.lang.get().texts().language>
            {Lang::ALL
                .into_iter()
                .map(|lang| {
                    view! {
                        <button
                            lang=lang.tag()
                            aria-pressed=move || (ctl.lang.get() == lang).to_string()
                            on:click=move |_| {
                                ctl.lang.set(lang);
                                page_env::remember_lang_in_url(lang);
                            }
                        >
                            {lang.texts().language_name}
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}
