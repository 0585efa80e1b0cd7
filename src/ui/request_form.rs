//! The request form and the buttons that send it.

use leptos::prelude::*;

use crate::core::Language;
use crate::lab::{parse_points, read_request, visible, Action, FieldError};

use super::controller::{Controller, Notice};
use super::newest_result::{show_the_line, NewestResult};
use super::page_env;
use super::queue_view::request_parts;
use super::startup::later;

/// How many producers "Send a burst" starts: more than the queue holds, on purpose.
pub const BURST_SIZE: u32 = 20;
/// The stress run: many grants, a share of them redelivered.
pub const STRESS_SIZE: u32 = 10_000;
pub const STRESS_DUPLICATE_PERCENT: u8 = 30;

#[component]
pub fn RequestForm(ctl: Controller) -> impl IntoView {
    let account = RwSignal::new("account-7".to_string());
    let key = RwSignal::new("order-1042".to_string());
    let points = RwSignal::new("100".to_string());
    let lose_ack = RwSignal::new(false);
    let texts = move || ctl.lang.get().texts();

    let errors = Memo::new(move |_| {
        read_request(&account.get(), &key.get(), &points.get())
            .err()
            .unwrap_or_default()
    });

    // The switch arms the fault for one delivery: it turns itself off once a
    // request carrying it is accepted, and stays on if the request was refused.
    let armed = move || lose_ack.get_untracked();
    let dispatch_armed = move |action: Action| {
        if ctl.dispatch(action) {
            lose_ack.set(false);
            show_the_line();
        }
    };

    let send = move |()| match read_request(
        &account.get_untracked(),
        &key.get_untracked(),
        &points.get_untracked(),
    ) {
        Ok(grant) => dispatch_armed(Action::Send {
            grant,
            lose_acknowledgement: armed(),
        }),
        Err(_) => ctl.notice.set(Some(Notice::FixFields)),
    };
    let retry_same = move |_| {
        dispatch_armed(Action::RetrySame {
            lose_acknowledgement: armed(),
        })
    };
    let retry_fresh = move |_| {
        dispatch_armed(Action::RetryFresh {
            lose_acknowledgement: armed(),
        })
    };
    let check_balance = move |_| {
        if errors.get_untracked().account.is_some() {
            ctl.notice.set(Some(Notice::FixFields));
        } else {
            ctl.dispatch(Action::CheckBalance {
                account_id: account.get_untracked(),
            });
        }
    };
    // Setting a preference needs only the account: no key, no points.
    let set_language = move |language: Language| {
        if errors.get_untracked().account.is_some() {
            ctl.notice.set(Some(Notice::FixFields));
        } else {
            ctl.dispatch(Action::SetPreferredLanguage {
                account_id: account.get_untracked(),
                language,
            });
        }
    };
    // Bursts take the account and points from the form, and make their own keys.
    let account_and_points = move || {
        let form = errors.get_untracked();
        match parse_points(&points.get_untracked()) {
            Ok(points) if form.account.is_none() => Some((account.get_untracked(), points)),
            _ => {
                ctl.notice.set(Some(Notice::FixFields));
                None
            }
        }
    };
    let burst = move |_| {
        if let Some((account_id, points)) = account_and_points() {
            ctl.dispatch(Action::Burst {
                account_id,
                points,
                count: BURST_SIZE,
            });
        }
    };
    // A stress run takes a while at 1x: while it runs the button says how far it
    // has got, and another press starts nothing but says why.
    let stress_progress = Memo::new(move |_| ctl.lab.with(|lab| lab.state().stress_progress()));
    let stress = move |_| {
        if let Some(progress) = stress_progress.get_untracked() {
            ctl.notice.set(Some(Notice::StressRunning(progress)));
            return;
        }
        if let Some((account_id, points)) = account_and_points() {
            ctl.dispatch(Action::Stress {
                account_id,
                points,
                count: STRESS_SIZE,
                duplicate_percent: STRESS_DUPLICATE_PERCENT,
            });
        }
    };

    let rest = later();
    view! {
        <section class="panel request" aria-labelledby="request-title">
            <h2 id="request-title">{move || texts().request}</h2>
            // Enter in a field sends, as a person expects: the page sends it
            // itself, so a sandboxed frame without `allow-forms` sends too.
            <form
                class="request-form"
                novalidate
                on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                    if page_env::enter_in_field(&ev) {
                        ev.prevent_default();
                        send(());
                    }
                }
                on:submit=move |ev: leptos::ev::SubmitEvent| ev.prevent_default()
            >
            <div class="fields">
                <Field
                    id="field-account"
                    label=Signal::derive(move || texts().account)
                    value=account
                    error=Signal::derive(move || errors.get().account)
                    ctl=ctl
                />
                <Field
                    id="field-key"
                    label=Signal::derive(move || texts().key)
                    value=key
                    error=Signal::derive(move || errors.get().key)
                    ctl=ctl
                />
                <Field
                    id="field-points"
                    label=Signal::derive(move || texts().points)
                    value=points
                    error=Signal::derive(move || errors.get().points)
                    ctl=ctl
                    numeric=true
                />
            </div>
            <div class="switch-row">
                <label class="switch" class:armed=move || lose_ack.get()>
                    <input
                        type="checkbox"
                        role="switch"
                        aria-describedby="lose-ack-hint"
                        prop:checked=move || lose_ack.get()
                        on:change=move |ev| lose_ack.set(event_target_checked(&ev))
                    />
                    <span class="switch-label">{move || texts().lose_ack}</span>
                </label>
                <p class="hint" id="lose-ack-hint">{move || texts().lose_ack_hint}</p>
            </div>
            <div class="buttons">
                <button class="primary" type="button" on:click=move |_| send(())>{move || texts().send}</button>
                // Each retry shows the key it will send; its name stays the
                // button's words, the key is said by the line it points to.
                <button type="button" on:click=retry_same aria-describedby="retry-target">
                    {move || texts().retry_same}
                    <span class="button-key" aria-hidden="true" dir="ltr">
                        {move || ctl.lab.with(|lab| lab.state().retry_target()).map(|g| visible(&g.key).into_owned())}
                    </span>
                </button>
                <button type="button" on:click=retry_fresh aria-describedby="fresh-target">
                    {move || texts().retry_fresh}
                    <span class="button-key" aria-hidden="true" dir="ltr">
                        {move || ctl.lab.with(|lab| lab.state().fresh_retry_target()).map(|g| visible(&g.key).into_owned())}
                    </span>
                </button>
                <button type="button" on:click=check_balance>{move || texts().check_balance}</button>
            </div>
            <NewestResult ctl=ctl />
            // What each retry sends, beside the buttons: the same key is the same
            // operation; a fresh key is a new one to the store.
            <p class="hint retry-target" id="retry-target" data-testid="retry-target">
                {move || {
                    ctl.lab
                        .with(|lab| lab.state().retry_target())
                        .map(|g| {
                            view! {
                                {move || texts().retries_resend}
                                " "
                                {request_parts(ctl, &g)}
                            }
                        })
                }}
            </p>
            <p class="hint fresh-target" id="fresh-target" data-testid="fresh-target">
                {move || {
                    ctl.lab
                        .with(|lab| lab.state().fresh_retry_target())
                        .map(|g| texts().fresh_sends(&g.key))
                }}
            </p>
            </form>
            // The rest comes a task later while the page starts (see `later`).
            <Show when=move || rest.get()>
            <div class="buttons">
                <button on:click=burst>
                    {move || texts().burst(BURST_SIZE)}
                </button>
                <button
                    on:click=stress
                    data-testid="stress"
                    aria-disabled=move || stress_progress.with(Option::is_some).to_string()
                    aria-describedby="stress-progress"
                >
                    {move || texts().stress(STRESS_SIZE, STRESS_DUPLICATE_PERCENT)}
                </button>
            </div>
            <p class="hint" id="stress-progress" data-testid="stress-progress" role="status">
                {move || {
                    stress_progress
                        .get()
                        .map(|p| texts().stress_progress(p.answered, p.total))
                }}
            </p>
            <div class="buttons" role="group" aria-describedby="set-language-hint">
                {Language::ALL
                    .into_iter()
                    .map(|l| {
                        view! {
                            <button on:click=move |_| set_language(l) data-testid=format!("set-language-{}", l.code())>
                                {move || texts().set_language(l)}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
            <p class="hint" id="set-language-hint">{move || texts().set_language_hint}</p>
            </Show>
        </section>
    }
}

/// One labelled input with its inline error, wired for screen readers.
#[component]
fn Field(
    id: &'static str,
    label: Signal<&'static str>,
    value: RwSignal<String>,
    error: Signal<Option<FieldError>>,
    ctl: Controller,
    #[prop(optional)] numeric: bool,
) -> impl IntoView {
    let error_id = format!("{id}-error");
    let described_by = error_id.clone();
    view! {
        <div class="field" class:invalid=move || error.get().is_some()>
            <label for=id>{move || label.get()}</label>
            <input
                id=id
                type="text"
                dir="ltr"
                autocomplete="off"
                spellcheck="false"
                inputmode=if numeric { "numeric" } else { "text" }
                aria-invalid=move || if error.get().is_some() { "true" } else { "false" }
                aria-describedby=described_by
                prop:value=move || value.get()
                on:input=move |ev| value.set(event_target_value(&ev))
            />
            <p class="field-error" id=error_id role="alert">
                {move || error.get().map(|e| ctl.lang.get().texts().field_error(e))}
            </p>
        </div>
    }
}
