//! Share and keep a session: a permalink, and export/import as a JSON file.

use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::lab::{
    from_json_counted, to_json, to_link_token, Action, SessionError, MAX_SESSION_BYTES,
};

use super::controller::{Controller, Notice, Replacement};
use super::drawer::Drawer;
use super::drawers::DrawerId;
use super::page_env;

const EXPORT_FILE_NAME: &str = "idempotency-lab-session.json";

#[component]
pub fn ShareView(ctl: Controller) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let link = RwSignal::new(None::<String>);
    // Whether the shown link reached the clipboard: `None` while the browser
    // decides (it may ask the person), then what it did.
    let copied = RwSignal::new(None::<bool>);
    // A shown link describes the state it was made from: drop it once the person
    // changes that. Time passing alone (the clock's waits) keeps it on show.
    let done = Memo::new(move |_| {
        ctl.lab.with(|lab| {
            lab.history()
                .actions
                .iter()
                .filter(|a| !matches!(a, Action::Wait { .. }))
                .count()
        })
    });
    Effect::new(move |previous: Option<(usize, u64)>| {
        let now = (done.get(), ctl.epoch.get());
        if previous.is_some_and(|p| p != now) {
            link.set(None);
        }
        now
    });

    let link_runs = StoredValue::new(0_u64);
    let make_link = move |_| {
        let token = ctl.lab.with_untracked(|lab| to_link_token(lab.history()));
        let url = page_env::permalink(&token, ctl.lang.get_untracked());
        copied.set(None);
        if let Some(url) = &url {
            // A page (or iframe) without clipboard permission still shows the
            // link, and says it was not copied; the refusal is not an error.
            match page_env::copy_text(url) {
                Some(done) => {
                    let run = link_runs.get_value() + 1;
                    link_runs.set_value(run);
                    leptos::task::spawn_local(async move {
                        let ok = done.await.is_ok();
                        // Only the newest press's answer is shown.
                        if link_runs.try_get_value() == Some(run) {
                            copied.set(Some(ok));
                        }
                    });
                }
                None => copied.set(Some(false)),
            }
        }
        link.set(url);
    };
    let export = move |_| {
        let json = ctl.lab.with_untracked(|lab| to_json(lab.history()));
        page_env::download(EXPORT_FILE_NAME, &json);
    };
    let import = move |ev: leptos::ev::Event| {
        let Some(file) = page_env::take_chosen_file(&ev) else {
            return;
        };
        leptos::task::spawn_local(async move {
            match read_session(&file).await {
                Ok((lab, actions)) => ctl.load(lab, Replacement::Import(actions)),
                Err(error) => ctl.notice.set(Some(Notice::Import(error))),
            }
        });
    };

    view! {
        <Drawer ctl=ctl id=DrawerId::Share class="share">
            <div class="buttons">
                <button on:click=make_link>{move || texts().copy_link}</button>
                <button on:click=export>{move || texts().export}</button>
                <label class="button file">
                    {move || texts().import}
                    <input type="file" accept=".json,application/json" on:change=import data-testid="import" />
                </label>
                {(!page_env::is_embed()).then(|| view! { <super::embed_dialog::EmbedOpener ctl=ctl /> })}
            </div>
            {move || {
                link.get()
                    .map(|url| {
                        view! {
                            <label class="permalink">
                                <span>{move || texts().link_hint}</span>
                                <input type="text" readonly dir="ltr" prop:value=url data-testid="permalink" />
                            </label>
                            <p
                                class="hint"
                                role="status"
                                data-testid="link-copied"
                                data-copied=move || copied.get().map(|c| c.to_string())
                            >
                                {move || match copied.get() {
                                    None => texts().link_copying,
                                    Some(true) => texts().link_copied,
                                    // In a frame, the permission its page must give.
                                    Some(false) if page_env::is_framed() => texts().link_not_copied_framed,
                                    Some(false) => texts().link_not_copied,
                                }}
                            </p>
                        }
                    })
            }}
        </Drawer>
    }
}

/// The lab a chosen file holds, and how many actions the file itself holds.
async fn read_session(file: &web_sys::File) -> Result<(crate::lab::Lab, usize), SessionError> {
    // Refuse a huge file before reading it into memory.
    let bytes = file.size() as usize;
    if bytes > MAX_SESSION_BYTES {
        return Err(SessionError::TooLarge { bytes });
    }
    let text = JsFuture::from(file.text())
        .await
        .ok()
        .and_then(|value| value.as_string())
        .ok_or_else(|| SessionError::NotJson("the file could not be read as text".into()))?;
    from_json_counted(&text)
}
