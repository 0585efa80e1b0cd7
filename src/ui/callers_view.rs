//! Callers and the queue: what a duplicate that arrives while the first attempt
//! is still in flight is given, the in-progress records held right now, a queue
//! that delivers a message twice, when consumers acknowledge, who is signed
//! in, and the confirmation emails with the customer's inbox.

use leptos::prelude::*;

use crate::core::{EmailVia, InFlightPolicy};
use crate::lab::Acknowledge;
use crate::lab::{visible, Action, Setting};

use super::choice::{ChoiceSelect, SettingSwitch};
use super::controller::Controller;
use super::drawer::Drawer;
use super::drawers::DrawerId;
use super::retry_view::RetryView;
use super::startup::later;

/// The option value of "nobody signed in" (not an account: accounts are
/// refused when they are blank, and this one has a space in it).
const NOBODY: &str = " nobody";
/// How many emails the inbox lists, newest last.
const INBOX_SHOWN: usize = 30;
/// The accounts a person may sign in as.
const CALLERS: [&str; 2] = ["account-7", "account-8"];

#[component]
pub fn CallersView(ctl: Controller) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let policy = ctl.setting(|s| s.in_flight);
    // Reads the lab: it turns itself off once the copy was delivered.
    let redeliver = Memo::new(move |_| ctl.lab.with(|lab| lab.state().faults().redeliver_next));
    let ack = ctl.setting(|s| s.acknowledge);
    let signed_in = Memo::new(move |_| ctl.lab.with(|lab| lab.state().signed_in()));
    let email_on = ctl.setting(|s| s.email);
    let email_via = ctl.setting(|s| s.email_via);
    // The newest few, and how many in all: a stress run can send thousands.
    let inbox = Memo::new(move |_| ctl.lab.with(|lab| lab.state().inbox_newest(INBOX_SHOWN)));
    let records = Memo::new(move |_| ctl.lab.with(|lab| lab.state().in_progress_records()));

    let rest = later();
    view! {
        <Drawer ctl=ctl id=DrawerId::Callers class="callers" testid="callers">
            <ChoiceSelect
                ctl=ctl
                id="in-flight"
                label=|t| t.in_flight_label
                choices=&InFlightPolicy::ALL
                current=policy
                code=InFlightPolicy::code
                from_code=InFlightPolicy::from_code
                option=|t, p| t.in_flight_policy(p)
                hint=|t, p| t.in_flight_hint(p)
                action=|policy| Action::Set(Setting::InFlight(policy))
            />
            // Shown while records are kept, or while one is still held.
            <Show when=move || policy.get() != InFlightPolicy::NoRecord || !records.with(Vec::is_empty)>
                <h3 id="in-progress-title">{move || texts().in_progress_title}</h3>
                <Show
                    when=move || !records.with(Vec::is_empty)
                    fallback=move || view! { <p class="empty" data-testid="in-progress-none">{move || texts().in_progress_none}</p> }
                >
                    <ul class="records" aria-labelledby="in-progress-title" data-testid="in-progress">
                        {move || {
                            records
                                .get()
                                .into_iter()
                                .map(|(record, process)| {
                                    let holder = record.holder;
                                    view! {
                                        <li data-testid="in-progress-record" data-attempt=holder.attempt data-key=record.key.clone()>
                                            <bdi dir="ltr" class="key">{visible(&record.key).into_owned()}</bdi>
                                            " "
                                            <bdi dir="ltr" class="meta">{visible(&record.account_id).into_owned()}</bdi>
                                            ": "
                                            {texts().in_progress_record(holder.attempt, holder.since, process)}
                                        </li>
                                    }
                                })
                                .collect_view()
                        }}
                    </ul>
                </Show>
            </Show>
            <SettingSwitch
                ctl=ctl
                id="redeliver"
                label="redeliver_label"
                hint="redeliver_hint"
                on=redeliver
                action=|on| Action::SetRedeliver { on }
                armed=true
            />
            <ChoiceSelect
                ctl=ctl
                id="acknowledge"
                label=|t| t.acknowledge_label
                choices=&Acknowledge::ALL
                current=ack
                code=Acknowledge::code
                from_code=Acknowledge::from_code
                option=|t, a| t.acknowledge(a)
                hint=|t, a| t.acknowledge_hint(a)
                action=|when| Action::Set(Setting::Acknowledge(when))
            />
            <div class="choice">
                <label for="signed-in">{move || texts().signed_in_label}</label>
                <select
                    id="signed-in"
                    data-testid="signed-in"
                    aria-describedby="signed-in-hint"
                    on:change=move |ev| {
                        let value = event_target_value(&ev);
                        let account_id = (value != NOBODY).then_some(value);
                        ctl.dispatch(Action::SignIn { account_id });
                    }
                    prop:value=move || signed_in.get().unwrap_or_else(|| NOBODY.to_string())
                >
                    <option value=NOBODY selected=move || signed_in.get().is_none()>
                        {move || texts().signed_in_nobody}
                    </option>
                    {move || {
                        // The callers the lab offers, and whoever a session signed in.
                        let mut accounts: Vec<String> = CALLERS.iter().map(|a| a.to_string()).collect();
                        if let Some(other) = signed_in.get().filter(|a| !accounts.contains(a)) {
                            accounts.push(other);
                        }
                        accounts
                            .into_iter()
                            .map(|a| {
                                let shown = visible(&a).into_owned();
                                let current = a.clone();
                                view! {
                                    <option value=a selected=move || signed_in.get().as_deref() == Some(current.as_str())>
                                        {shown}
                                    </option>
                                }
                            })
                            .collect_view()
                    }}
                </select>
                <p class="hint" id="signed-in-hint">{move || texts().signed_in_hint}</p>
            </div>
            // The rest comes a task later while the page starts (see `later`).
            <Show when=move || rest.get()>
            <RetryView ctl=ctl />
            <SettingSwitch
                ctl=ctl
                id="send-email"
                label="email_label"
                hint="email_hint"
                on=email_on
                action=|on| Action::Set(Setting::Email(on))
            />
            <ChoiceSelect
                ctl=ctl
                id="email-via"
                label=|t| t.email_via_label
                choices=&EmailVia::ALL
                current=email_via
                code=EmailVia::code
                from_code=EmailVia::from_code
                option=|t, v| t.email_via(v)
                hint=|t, v| t.email_via_hint(v)
                action=|via| Action::Set(Setting::EmailVia(via))
            />
            <h3 id="inbox-title">{move || texts().inbox_title}</h3>
            <ul class="records" aria-labelledby="inbox-title" data-testid="inbox" data-count=move || inbox.with(|i| i.1)>
                {move || {
                    let (emails, total, _) = inbox.get();
                    if emails.is_empty() {
                        return view! { <li class="empty">{texts().inbox_empty}</li> }.into_any();
                    }
                    let older = total - emails.len();
                    let more = (older > 0).then(|| {
                        view! { <li class="empty">{texts().receipts_more(older)}</li> }
                    });
                    more.into_iter()
                        .map(IntoAny::into_any)
                        .chain(emails.into_iter().map(|e| {
                            let line = texts().email_line(&texts().stage.person(&e.account_id),
                                &visible(&e.key),
                                e.points,
                            );
                            view! { <li data-testid="email" data-key=e.key>{line}</li> }.into_any()
                        }))
                        .collect_view()
                        .into_any()
                }}
            </ul>
            {move || {
                let dropped = inbox.with(|i| i.2);
                (dropped > 0)
                    .then(|| view! { <p class="hint" data-testid="inbox-dropped">{texts().inbox_dropped(dropped)}</p> })
            }}
            </Show>
        </Drawer>
    }
}
