use leptos::prelude::*;

fn main() {
    leptos::mount::mount_to_body(|| {
        let count = RwSignal::new(0);
        view! {
            <button on:click=move |_| count.update(|n| *n += 1)>"Count: " {move || count.get()}</button>
        }
    });
    // Same readiness signal as the lab, so both are timed to the same point.
    if let Some(body) = document().body() {
        let _ = body.dataset().set("ready", "true");
    }
}
