//! The sandbox's settings drawers. Each panel of settings opens and closes
//! under its heading (a disclosure button with `aria-expanded` and
//! `aria-controls`); one switch, "Show all settings", opens them all, and
//! `?settings=open` starts the page so (the switch keeps the address saying
//! it), so an outside suite reaches every control by its label. A part of the
//! stage opens the drawer of the settings that change it.

use leptos::prelude::*;

use super::controller::Controller;
use super::drawers::DrawerId;
use super::page_env;

/// A panel of settings that opens and closes under its heading. Its body stays
/// in the page while closed (hidden), so its controls keep their state.
#[component]
pub fn Drawer(
    ctl: Controller,
    id: DrawerId,
    /// The panel's own class (`world`, `storage` ...), which the styles use.
    class: &'static str,
    #[prop(optional)] testid: Option<&'static str>,
    children: Children,
) -> impl IntoView {
    let drawers = ctl.drawers;
    let code = id.code();
    let body_id = format!("{code}-drawer");
    let open = move || drawers.is_open(id);
    view! {
        <section
            class=format!("panel drawer {class}")
            class:open=open
            aria-labelledby=format!("{code}-title")
            data-testid=testid
            data-drawer=code
        >
            <h2 id=format!("{code}-title") class="drawer-title">
                <button
                    type="button"
                    class="drawer-toggle"
                    id=id.button_id()
                    aria-expanded=move || open().to_string()
                    aria-controls=body_id.clone()
                    on:click=move |_| drawers.toggle(id)
                >
                    <span class="drawer-chevron" aria-hidden="true"></span>
                    {move || id.title(ctl.lang.get().texts())}
                </button>
            </h2>
            <div id=body_id class="drawer-body" hidden=move || !open()>
                {children()}
            </div>
        </section>
    }
}

/// "Show all settings": opens every drawer, or closes them all, and keeps the
/// address saying so (`?settings=open`), so a reload or a shared address opens
/// them again.
#[component]
pub fn ShowAllSettings(ctl: Controller) -> impl IntoView {
    let drawers = ctl.drawers;
    view! {
        <label class="switch show-all-settings">
            <input
                type="checkbox"
                role="switch"
                data-testid="show-all-settings"
                prop:checked=move || drawers.all_open()
                on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    drawers.set_all(on);
                    page_env::remember_settings_open(on);
                }
            />
            <span class="switch-label">{move || ctl.lang.get().texts().show_all_settings}</span>
        </label>
    }
}

/// A stage part's button to the drawer of its settings (hidden while the
/// walkthrough runs: the lab's controls rest then).
#[cfg(not(feature = "no-stage"))]
#[component]
pub fn OpenSettings(ctl: Controller, id: DrawerId) -> impl IntoView {
    view! {
        <button
            type="button"
            class="stage-settings"
            data-testid="stage-settings"
            data-drawer=id.code()
            aria-label=move || {
                let t = ctl.lang.get().texts();
                t.open_settings(id.title(t))
            }
            on:click=move |_| ctl.drawers.reveal(id)
        >
            <span aria-hidden="true">"☰"</span>
        </button>
    }
}
