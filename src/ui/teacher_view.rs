//! "Your own scenarios": record a scenario from the sandbox (`Record
//! scenario`, `Mark step`, `Finish`), open one from a file, and the list this
//! browser keeps, each with its link and file. Every word a person types is
//! shown as text, never as markup.

use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::i18n::Lang;
use crate::walkthrough::{offered, Recording, Value, MAX_LINK_CHARS, MAX_SHELF, MAX_TEACHER_BYTES};

use super::controller::Controller;
use super::page_env;
use super::teacher::{PerLang, Teacher};

#[component]
pub fn TeacherView(ctl: Controller, teacher: Teacher) -> impl IntoView {
    let t = move || &ctl.lang.get().texts().teacher;
    let recording = move || teacher.recording.with(Option::is_some);
    let open_file = move |ev: leptos::ev::Event| {
        let Some(file) = page_env::take_chosen_file(&ev) else {
            return;
        };
        leptos::task::spawn_local(async move {
            // A huge file is refused before it is read into memory.
            let bytes = file.size() as usize;
            if bytes > MAX_SHELF * MAX_TEACHER_BYTES {
                return teacher.refuse_size(bytes);
            }
            let text = JsFuture::from(file.text())
                .await
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default();
            teacher.open_file(&text);
        });
    };
    view! {
        <section class="panel teacher" aria-labelledby="teacher-title" data-testid="teacher-panel">
            <h2 id="teacher-title">{move || t().title}</h2>
            <p class="hint">{move || t().intro}</p>
            {move || {
                if recording() {
                    view! { <Recorder ctl=ctl teacher=teacher /> }.into_any()
                } else {
                    view! {
                        <div class="buttons">
                            <button class="primary" data-testid="record-scenario" on:click=move |_| teacher.start()>
                                {move || t().record}
                            </button>
                            <label class="button file">
                                {move || t().open_file}
                                <input type="file" accept=".json,application/json" on:change=open_file data-testid="open-scenario-file" />
                            </label>
                        </div>
                    }
                    .into_any()
                }
            }}
            // Outside a recording, what opening or keeping a scenario said.
            {move || (!recording()).then(|| said_region(teacher, |_| true))}
            <SharedScenario ctl=ctl teacher=teacher />
            <Shelf ctl=ctl teacher=teacher />
        </section>
    }
}

/// Where the panel says what came of a press: a live region, drawn before
/// anything appears in it so it is read out. `shows` picks what it says.
fn said_region(teacher: Teacher, shows: fn(&super::teacher::Said) -> bool) -> impl IntoView {
    view! {
        <div class="teacher-said" role="status" aria-live="polite">
            {move || teacher.said.get().filter(shows).map(|said| view! {
                <p class:error=said.error data-testid="teacher-said" data-error=said.error.to_string()>
                    {said.text}
                </p>
            })}
        </div>
    }
}

/// A text field per language: each in its own language and direction.
#[component]
fn PerLangFields(
    ctl: Controller,
    fields: PerLang,
    /// The id's stem (`rec-narration` gives `rec-narration-en` ...).
    stem: &'static str,
    labels: fn(&'static crate::i18n::TeacherTexts) -> [&'static str; 2],
    #[prop(optional)] multiline: bool,
    /// Where a picked fact goes: set when a field is focused.
    #[prop(optional)]
    focus: Option<RwSignal<usize>>,
) -> impl IntoView {
    Lang::ALL
        .into_iter()
        .zip(fields)
        .enumerate()
        .map(|(i, (lang, field))| {
            let id = format!("{stem}-{}", lang.tag());
            let label = move || labels(&ctl.lang.get().texts().teacher)[i];
            let focused = move |_| {
                if let Some(focus) = focus {
                    focus.set(i);
                }
            };
            let input = if multiline {
                view! {
                    <textarea
                        id=id.clone()
                        rows="3"
                        lang=lang.tag()
                        dir=lang.dir()
                        data-testid=id.clone()
                        prop:value=move || field.get()
                        on:input=move |ev| field.set(event_target_value(&ev))
                        on:focus=focused
                    ></textarea>
                }
                .into_any()
            } else {
                view! {
                    <input
                        type="text"
                        id=id.clone()
                        lang=lang.tag()
                        dir=lang.dir()
                        data-testid=id.clone()
                        prop:value=move || field.get()
                        on:input=move |ev| field.set(event_target_value(&ev))
                        on:focus=focused
                    />
                }
                .into_any()
            };
            view! {
                <div class="field">
                    <label for=id>{label}</label>
                    {input}
                </div>
            }
        })
        .collect_view()
}

/// A fact's value as the page writes it.
fn shown(lang: Lang, value: &Value) -> String {
    match value {
        Value::Number(n) => lang.number(*n),
        Value::Code(code) => {
            let t = lang.texts();
            match code.as_str() {
                "yes" | "no" => t.explorer.yes_no(code == "yes").to_string(),
                _ => code.clone(),
            }
        }
    }
}

#[component]
fn Recorder(ctl: Controller, teacher: Teacher) -> impl IntoView {
    let t = move || &ctl.lang.get().texts().teacher;
    // The facts of the world as it is now, with their values.
    let facts = Memo::new(move |_| ctl.lab.with(offered));
    let numbers = move || {
        facts.with(|f| {
            f.iter()
                .filter(|(_, v)| matches!(v, Value::Number(_)))
                .cloned()
                .collect::<Vec<_>>()
        })
    };
    let picked = RwSignal::new(String::new());
    let insert = move |_| {
        let name = picked.get_untracked();
        let name = if name.is_empty() {
            numbers()
                .first()
                .map(|(n, _)| n.clone())
                .unwrap_or_default()
        } else {
            name
        };
        if name.is_empty() {
            return;
        }
        let field = teacher.narration[teacher.focus.get_untracked().min(1)];
        field.update(|text| {
            if !text.is_empty() && !text.ends_with(' ') {
                text.push(' ');
            }
            text.push_str(&format!("{{{name}}}"));
        });
    };
    let status = move || {
        let lang = ctl.lang.get();
        teacher.recording.with(|r| {
            let r = r.as_ref()?;
            let pending = ctl.lab.with(|lab| r.pending(lab).map_or(0, |a| a.len()));
            Some(lang.texts().teacher.recording(r.steps(), pending))
        })
    };
    let marked = move || {
        teacher
            .recording
            .with(|r| r.as_ref().map_or(0, Recording::steps))
    };
    let options = move |list: Vec<(String, Value)>| {
        let lang = ctl.lang.get();
        list.into_iter()
            .map(|(name, value)| {
                let label = format!("{name} = {}", shown(lang, &value));
                view! { <option value=name>{label}</option> }
            })
            .collect_view()
    };
    view! {
        <div class="recorder" data-testid="recorder">
            <p class="recorder-status" data-testid="recording-status" data-steps=move || marked().to_string()>
                <span class="recording-dot" aria-hidden="true"></span>
                {status}
            </p>
            <p class="hint">{move || t().facts_hint}</p>
            <PerLangFields
                ctl=ctl
                fields=teacher.narration
                stem="rec-narration"
                labels=|t| [t.narration_en, t.narration_fa]
                multiline=true
                focus=teacher.focus
            />
            <div class="field fact-pick">
                <label for="rec-fact">{move || t().fact_label}</label>
                <select
                    id="rec-fact"
                    data-testid="rec-fact"
                    on:change=move |ev| picked.set(event_target_value(&ev))
                    prop:value=move || picked.get()
                >
                    {move || options(numbers())}
                </select>
                <button data-testid="insert-fact" on:click=insert>{move || t().insert_fact}</button>
            </div>
            <label class="switch">
                <input
                    type="checkbox"
                    data-testid="rec-ask"
                    prop:checked=move || teacher.ask.get()
                    on:change=move |ev| teacher.ask.set(event_target_checked(&ev))
                />
                <span class="switch-label">{move || t().ask}</span>
            </label>
            {move || teacher.ask.get().then(|| view! {
                <div class="recorder-question" data-testid="rec-question">
                    <div class="field">
                        <label for="rec-question-fact">{move || t().question_fact}</label>
                        <select
                            id="rec-question-fact"
                            data-testid="rec-question-fact"
                            on:change=move |ev| teacher.question_fact.set(event_target_value(&ev))
                            prop:value=move || teacher.question_fact.get()
                        >
                            <option value="">"—"</option>
                            {move || options(facts.get())}
                        </select>
                    </div>
                    <PerLangFields
                        ctl=ctl
                        fields=teacher.question
                        stem="rec-question"
                        labels=|t| [t.question_en, t.question_fa]
                    />
                    <PerLangFields
                        ctl=ctl
                        fields=teacher.explain
                        stem="rec-explain"
                        labels=|t| [t.explain_en, t.explain_fa]
                    />
                </div>
            })}
            <div class="buttons">
                <button class="primary" data-testid="mark-step" on:click=move |_| teacher.mark()>
                    {move || t().mark}
                </button>
                <button
                    data-testid="undo-mark"
                    aria-disabled=move || (marked() == 0).to_string()
                    on:click=move |_| teacher.undo()
                >
                    {move || t().undo}
                </button>
                <button
                    data-testid="preview-scenario"
                    aria-disabled=move || (marked() == 0).to_string()
                    on:click=move |_| teacher.preview()
                >
                    {move || t().preview}
                </button>
            </div>
            {said_region(teacher, |said| !said.at_end)}
            <PerLangFields ctl=ctl fields=teacher.title stem="rec-title" labels=|t| [t.title_en, t.title_fa] />
            <PerLangFields
                ctl=ctl
                fields=teacher.challenge
                stem="rec-challenge"
                labels=|t| [t.challenge_en, t.challenge_fa]
                multiline=true
            />
            <div class="buttons">
                <button class="primary" data-testid="finish-recording" on:click=move |_| teacher.finish()>
                    {move || t().finish}
                </button>
                <button data-testid="stop-recording" on:click=move |_| teacher.stop()>
                    {move || t().stop}
                </button>
            </div>
            {said_region(teacher, |said| said.at_end)}
        </div>
    }
}

/// The link and the file of the scenario just finished or opened.
#[component]
fn SharedScenario(ctl: Controller, teacher: Teacher) -> impl IntoView {
    let t = move || &ctl.lang.get().texts().teacher;
    let copied = RwSignal::new(None::<bool>);
    Effect::new(move |_| {
        teacher.shared.track();
        copied.set(None);
    });
    move || {
        let at = teacher.shared.get()?;
        let link = teacher.link(at)?;
        let lang = ctl.lang.get();
        Some(match link {
            Ok(url) => {
                let size = url.rsplit('=').next().map_or(0, str::len);
                let copy_url = url.clone();
                let copy = move |_| {
                    let url = copy_url.clone();
                    match page_env::copy_text(&url) {
                        Some(done) => leptos::task::spawn_local(async move {
                            copied.set(Some(done.await.is_ok()));
                        }),
                        None => copied.set(Some(false)),
                    }
                };
                view! {
                    <div class="teacher-share" data-testid="teacher-share">
                        <label class="permalink">
                            <span>{move || t().link_label}</span>
                            <input type="text" readonly dir="ltr" prop:value=url data-testid="teacher-link" />
                        </label>
                        <p class="hint" data-testid="link-size">
                            {lang.texts().teacher.link_size(size, MAX_LINK_CHARS)}
                        </p>
                        <div class="buttons">
                            <button data-testid="copy-teacher-link" on:click=copy>{move || t().copy_link}</button>
                            <button data-testid="download-scenario" on:click=move |_| teacher.download(at)>
                                {move || t().download}
                            </button>
                        </div>
                        <p class="hint" role="status">
                            {move || copied.get().map(|ok| if ok { t().copied } else { t().not_copied })}
                        </p>
                    </div>
                }
                .into_any()
            }
            Err(error) => {
                let chars = match error {
                    crate::walkthrough::LinkError::TooLong { chars } => chars,
                    _ => 0,
                };
                view! {
                    <div class="teacher-share" data-testid="teacher-share">
                        <p class="hint" data-testid="link-size">
                            {lang.texts().teacher.link_too_long(chars, MAX_LINK_CHARS)}
                        </p>
                        <button data-testid="download-scenario" on:click=move |_| teacher.download(at)>
                            {move || t().download}
                        </button>
                    </div>
                }
                .into_any()
            }
        })
    }
}

/// The scenarios this browser keeps.
#[component]
fn Shelf(ctl: Controller, teacher: Teacher) -> impl IntoView {
    let t = move || &ctl.lang.get().texts().teacher;
    let rows = move || {
        let lang = ctl.lang.get();
        teacher.shelf.with(|shelf| {
            shelf
                .scenarios()
                .iter()
                .enumerate()
                .map(|(at, scenario)| {
                    let title = scenario.shown_title(lang);
                    let (title_lang, _) = scenario.words(lang);
                    let languages = scenario
                        .languages()
                        .iter()
                        .map(|l| l.name())
                        .collect::<Vec<_>>()
                        .join(lang.texts().sep());
                    let steps = lang.texts().teacher.steps(scenario.script().steps.len());
                    view! {
                        <li data-testid="my-scenario">
                            <span class="teacher-title" lang=title_lang.tag() dir=title_lang.dir()>
                                {title}
                            </span>
                            " "
                            <span class="hint">{steps} {lang.texts().sep()} {languages}</span>
                            <span class="buttons">
                                <button data-testid="play-scenario" on:click=move |_| teacher.play(at)>{move || t().play}</button>
                                <button data-testid="edit-scenario" on:click=move |_| teacher.edit(at)>{move || t().edit}</button>
                                <button data-testid="share-scenario" on:click=move |_| teacher.shared.set(Some(at))>{move || t().link_label}</button>
                                <button on:click=move |_| teacher.download(at)>{move || t().download}</button>
                                <button data-testid="delete-scenario" on:click=move |_| teacher.delete(at)>{move || t().delete}</button>
                            </span>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    let empty = move || teacher.shelf.with(|s| s.scenarios().is_empty());
    view! {
        <h3>{move || t().mine}</h3>
        {move || {
            if empty() {
                view! { <p class="hint">{move || t().none}</p> }.into_any()
            } else {
                view! {
                    <ul class="teacher-shelf" data-testid="my-scenarios">{rows}</ul>
                    <button on:click=move |_| teacher.download_all()>{move || t().download_all}</button>
                }
                .into_any()
            }
        }}
    }
}
