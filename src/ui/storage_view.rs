//! Where grants are kept and who handles them: the store behind the workers (the
//! process's memory, or a durable store in one of three write orders), a crash
//! armed at a named moment, one process or two and how calls are routed, how long
//! receipts are kept, and whether the ledger recognises an operation whose
//! receipt is gone.

use leptos::prelude::*;

use crate::core::CrashPoint;
use crate::lab::{
    parse_millis, Action, FieldError, LabError, Setting, SettingError, MAX_RETENTION_HOURS,
};
use crate::lab::{Routing, StoreKind, MAX_PROCESSES};

use super::choice::ChoiceSelect;
use super::controller::{Controller, Notice};
use super::drawer::Drawer;
use super::drawers::DrawerId;

/// Why a retention typed in the field was not taken.
#[derive(Debug, Clone, PartialEq, Eq)]
enum RetentionError {
    /// Not a whole number.
    Field(FieldError),
    /// A number the lab refused (out of range, or a full session).
    Lab(LabError),
}

/// Every routing a person can choose, in the order the select lists them.
fn routings() -> impl Iterator<Item = Routing> {
    [Routing::RoundRobin, Routing::KeyHash]
        .into_iter()
        .chain((1..=MAX_PROCESSES).map(Routing::Only))
}

#[component]
pub fn StorageView(ctl: Controller) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let lang = move || ctl.lang.get();
    let kind = ctl.setting(|s| s.store);
    let crash = Memo::new(move |_| ctl.lab.with(|lab| lab.state().faults().crash_point));
    let processes = ctl.setting(|s| s.processes);
    let routing = ctl.setting(|s| s.routing);
    let ledger = ctl.setting(|s| s.ledger_check);
    let durable = move || kind.get().is_durable();

    view! {
        <Drawer ctl=ctl id=DrawerId::Storage class="storage" testid="storage">
            <ChoiceSelect
                ctl=ctl
                id="store-kind"
                label=|t| t.store_kind_label
                choices=&StoreKind::ALL
                current=kind
                code=StoreKind::code
                from_code=StoreKind::from_code
                option=|t, k| t.store_kind(k)
                hint=|t, k| t.store_kind_hint(k)
                action=|kind| Action::Set(Setting::Store(kind))
            />
            <div class="choice">
                <label for="crash-point">{move || texts().crash_label}</label>
                // Shows the armed point, and None again once it fired: it reads the lab.
                <select
                    id="crash-point"
                    data-testid="crash-point"
                    class:armed=move || crash.get().is_some()
                    aria-describedby="crash-point-hint"
                    on:change=move |ev| {
                        let code = event_target_value(&ev);
                        let point = CrashPoint::from_code(&code);
                        if point.is_some() || code == NONE {
                            ctl.dispatch(Action::SetCrashPoint { point });
                        }
                    }
                    prop:value=move || crash.get().map_or(NONE, CrashPoint::code)
                >
                    {std::iter::once(None)
                        .chain(CrashPoint::ALL.into_iter().map(Some))
                        .map(|p| {
                            view! {
                                <option value=p.map_or(NONE, CrashPoint::code) selected=move || crash.get() == p>
                                    {move || texts().crash_point(p)}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
                <p class="hint" id="crash-point-hint">
                    {move || {
                        crash
                            .get()
                            .map(|p| {
                                view! {
                                    <strong class="armed">
                                        {texts().crash_armed} " " {texts().crash_point(Some(p))} "."
                                    </strong>
                                    " "
                                }
                            })
                    }}
                    {move || texts().crash_hint}
                </p>
            </div>
            <div class="choice-pair">
                <div class="choice">
                    <label for="processes">{move || texts().processes_label}</label>
                    <select
                        id="processes"
                        data-testid="processes"
                        aria-describedby="processes-hint"
                        on:change=move |ev| {
                            if let Ok(count) = event_target_value(&ev).parse::<u8>() {
                                ctl.dispatch(Action::Set(Setting::Processes(count)));
                            }
                        }
                        prop:value=move || processes.get().to_string()
                    >
                        {(1..=MAX_PROCESSES)
                            .map(|n| {
                                view! {
                                    <option value=n.to_string() selected=move || processes.get() == n>
                                        {move || lang().number(n)}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                </div>
                <div class="choice">
                    <label for="routing">{move || texts().routing_label}</label>
                    // Kept working with one process (it is remembered for when two
                    // run); the hint says it has no effect until then.
                    <select
                        id="routing"
                        data-testid="routing"
                        aria-describedby="routing-hint"
                        on:change=move |ev| {
                            if let Some(routing) = Routing::from_code(&event_target_value(&ev)) {
                                ctl.dispatch(Action::Set(Setting::Routing(routing)));
                            }
                        }
                        prop:value=move || routing.get().code()
                    >
                        {routings()
                            .map(|r| {
                                view! {
                                    <option value=r.code() selected=move || routing.get() == r>
                                        {move || texts().routing(r)}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                </div>
                <p class="hint" id="processes-hint">{move || texts().processes_hint}</p>
                <p class="hint" id="routing-hint" data-testid="routing-hint">
                    {move || texts().routing_hint(routing.get())}
                    {move || (processes.get() < 2).then(|| format!(" {}", texts().routing_one_process))}
                </p>
            </div>
            <RetentionField ctl=ctl durable=Signal::derive(durable) />
            <div class="switch-row">
                <label class="switch">
                    <input
                        type="checkbox"
                        role="switch"
                        data-testid="ledger-check"
                        aria-describedby="ledger-hint"
                        prop:checked=move || ledger.get()
                        on:change=move |ev| {
                            ctl.dispatch(Action::Set(Setting::LedgerCheck(event_target_checked(&ev))));
                        }
                    />
                    <span class="switch-label">{move || texts().ledger_label}</span>
                </label>
                <p class="hint" id="ledger-hint">
                    {move || texts().ledger_hint}
                    {move || (!durable()).then(|| format!(" {}", texts().durable_only))}
                </p>
            </div>
        </Drawer>
    }
}

/// The option value of "no crash armed".
const NONE: &str = "none";

/// Receipt retention in whole hours, applied when the person commits it (Enter or
/// leaving the field). Anything refused is said under the field, and nothing changes.
#[component]
fn RetentionField(ctl: Controller, durable: Signal<bool>) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let hours = ctl.setting(|s| s.retention_hours);
    let shown = RwSignal::new(String::new());
    let error = RwSignal::new(None::<RetentionError>);
    // The setting in force (after an undo, a link, ...) replaces whatever was typed.
    Effect::new(move |_| {
        shown.set(hours.get().to_string());
        error.set(None);
    });
    let commit = move |text: String| {
        let outcome = match parse_millis(&text) {
            Err(e) => Err(RetentionError::Field(e)),
            Ok(h) if u64::from(hours.get_untracked()) == h => Ok(()),
            // Too large for the action's type is out of range too, named as typed.
            Ok(h) if u32::try_from(h).is_err() => Err(RetentionError::Lab(LabError::Setting(
                SettingError::Retention(h),
            ))),
            Ok(h) => {
                let h = h as u32;
                if ctl.dispatch(Action::Set(Setting::RetentionHours(h))) {
                    Ok(())
                } else {
                    // Said here, under the field, rather than in a second message.
                    let refused = match ctl.notice.get_untracked() {
                        Some(Notice::Lab(e)) => e,
                        _ => LabError::Setting(SettingError::Retention(h.into())),
                    };
                    ctl.notice.set(None);
                    Err(RetentionError::Lab(refused))
                }
            }
        };
        error.set(outcome.err());
    };
    let message = move || {
        error.get().map(|e| {
            let t = texts();
            let why = match e {
                RetentionError::Field(e) => t.field_error(e),
                RetentionError::Lab(ref e) => t.lab_error(e),
            };
            // The lab's sentence says nothing changed already.
            match e {
                RetentionError::Field(_) => {
                    format!("{why} {}", t.retention_unchanged(hours.get()))
                }
                RetentionError::Lab(_) => why,
            }
        })
    };
    view! {
        <div class="choice" class:invalid=move || error.with(Option::is_some)>
            <label for="retention">{move || texts().retention_label}</label>
            <input
                id="retention"
                type="text"
                inputmode="numeric"
                dir="ltr"
                class="hours"
                autocomplete="off"
                data-testid="retention"
                data-min=1
                data-max=MAX_RETENTION_HOURS
                aria-invalid=move || error.with(Option::is_some).to_string()
                aria-describedby="retention-error retention-hint"
                prop:value=move || shown.get()
                on:input=move |ev| shown.set(event_target_value(&ev))
                on:change=move |ev| commit(event_target_value(&ev))
            />
            // The hint gives way to a message in the same place.
            <p class="field-error" id="retention-error" data-testid="retention-error" role="alert">
                {message}
            </p>
            <p class="hint" id="retention-hint" hidden=move || error.with(Option::is_some)>
                {move || texts().retention_hint}
                {move || (!durable.get()).then(|| format!(" {}", texts().durable_only))}
            </p>
        </div>
    }
}
