//! "Embed on a page": a dialog in the full lab that writes the snippet a docs
//! author pastes, for the view on show (a new sandbox, this lab as it is, or
//! the walkthrough's section from its step), in a language, a theme and a
//! size; written by `embed_code::EmbedCode`.

use leptos::prelude::*;

use crate::embed_code::{
    measured_widths, read_frame_id, read_frame_title, read_size, EmbedCode, EmbedView, Width,
    HEIGHTS, WIDTHS,
};
use crate::host_message::Theme;
use crate::i18n::Lang;
use crate::lab::to_link_token;

use super::controller::Controller;
use super::page_env;
use super::walk::Walk;

/// The width the height is measured at while the frame fills its column (the
/// width field's first value, a docs page's usual column).
const DEFAULT_WIDTH: u32 = 720;

/// Which view the frame shows, as the dialog's radio buttons name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shows {
    Sandbox,
    State,
    Lesson,
}

/// What the dialog read when it opened: the lab and the step on show then,
/// so the code does not change under the author's hands while time plays.
#[derive(Clone, Default)]
struct Opened {
    token: String,
    place: Option<(String, usize)>,
    /// The section's title, in the page's language.
    section_title: Option<String>,
}

/// A new frame name, so two snippets pasted on one page keep their readers'
/// work apart: `lab-` and four letters or digits.
fn fresh_id() -> String {
    const DIGITS: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let pick = || DIGITS[(js_sys::Math::random() * DIGITS.len() as f64) as usize % DIGITS.len()];
    let name: String = (0..4).map(|_| char::from(pick())).collect();
    format!("lab-{name}")
}

#[component]
pub fn EmbedDialog(ctl: Controller, walk: Walk) -> impl IntoView {
    let t = move || ctl.lang.get().texts();
    let dialog = NodeRef::<leptos::html::Dialog>::new();
    let opened = RwSignal::new(Opened::default());
    let shows = RwSignal::new(Shows::Sandbox);
    let lang = RwSignal::new(ctl.lang.get_untracked());
    let theme = RwSignal::new(Theme::Auto);
    let full_width = RwSignal::new(true);
    let width = RwSignal::new(DEFAULT_WIDTH.to_string());
    let height = RwSignal::new("640".to_string());
    // The height is measured for what the frame shows until the author
    // writes one of their own.
    let height_edited = RwSignal::new(false);
    let measuring = RwSignal::new(false);
    let heights_at = RwSignal::new(Vec::<(u32, u32)>::new());
    let fit = RwSignal::new(true);
    let copied = RwSignal::new(None::<bool>);
    let frame_id = RwSignal::new(String::new());
    let title = RwSignal::new(String::new());
    // Until the author writes a title of their own, it follows the view and
    // the language.
    let title_edited = RwSignal::new(false);

    // Opened by its openers (the share panel's, the walkthrough's tools'),
    // with what is on show at that moment.
    let open = move || {
        let token = ctl.lab.with_untracked(|lab| to_link_token(lab.history()));
        let worked = ctl
            .lab
            .with_untracked(|lab| !lab.history().actions.is_empty());
        let place = walk.open.get_untracked().then(|| walk.place()).flatten();
        let section_title = untrack(|| {
            let (content, index) = walk.section()?;
            let (_, text) = content.scenario(index)?;
            Some(text.shown_title())
        });
        shows.set(if place.is_some() {
            Shows::Lesson
        } else if worked {
            Shows::State
        } else {
            Shows::Sandbox
        });
        opened.set(Opened {
            token,
            place,
            section_title,
        });
        lang.set(ctl.lang.get_untracked());
        frame_id.set(fresh_id());
        title_edited.set(false);
        height_edited.set(false);
        heights_at.set(Vec::new());
        copied.set(None);
        if let Some(dialog) = dialog.get_untracked() {
            let _ = dialog.show_modal();
        }
    };
    Effect::new(move |_| {
        if ctl.embedding.get() && dialog.get().is_some_and(|d| !d.open()) {
            open();
        }
    });
    let close = move |_| {
        if let Some(dialog) = dialog.get_untracked() {
            dialog.close();
        }
    };

    let width_px = Memo::new(move |_| width.with(|w| read_size(w, &WIDTHS)));
    let width_read = Memo::new(move |_| {
        if full_width.get() {
            Ok(Width::Full)
        } else {
            width_px.get().map(Width::Pixels)
        }
    });
    let height_read = Memo::new(move |_| height.with(|h| read_size(h, &HEIGHTS)));
    // The view the frame shows, with its address's parts.
    let shown_view = move || {
        opened.with(|o| match shows.get() {
            Shows::Sandbox => EmbedView::Sandbox,
            Shows::State => EmbedView::State {
                token: o.token.clone(),
            },
            Shows::Lesson => match &o.place {
                Some((scenario, step)) => EmbedView::Lesson {
                    scenario: scenario.clone(),
                    step: *step,
                },
                None => EmbedView::Sandbox,
            },
        })
    };
    let id_read = Memo::new(move |_| frame_id.with(|id| read_frame_id(id)));
    let title_read = Memo::new(move |_| title.with(|t| read_frame_title(t)));
    // The title the dialog offers: the lab's name in the frame's language,
    // and the section's for a lesson in the page's own.
    Effect::new(move |_| {
        if title_edited.get() {
            return;
        }
        let lang = lang.get();
        let name = lang.texts().title;
        let section = (shows.get() == Shows::Lesson && lang == ctl.lang.get())
            .then(|| opened.with(|o| o.section_title.clone()))
            .flatten();
        title.set(match section {
            Some(section) => format!("{name}: {section}"),
            None => name.to_owned(),
        });
    });
    // The code for what the dialog holds; a size it refuses leaves the last
    // good code as it was (the field says why).
    let code = RwSignal::new(String::new());
    let csp = RwSignal::new(Vec::<String>::new());
    Effect::new(move |_| {
        let (Ok(width), Ok(height), Some(id), Some(title)) = (
            width_read.get(),
            height_read.get(),
            id_read.get(),
            title_read.get(),
        ) else {
            return;
        };
        let Some(base) = page_env::lab_base() else {
            return;
        };
        let view = shown_view();
        let lang = lang.get();
        let embed = EmbedCode {
            base,
            view,
            lang,
            theme: theme.get(),
            width,
            height,
            // An author's own height stands: no measured one replaces it.
            heights_at: if height_edited.get() {
                Vec::new()
            } else {
                heights_at.get()
            },
            fit_content: fit.get(),
            title,
            id,
        };
        code.set(embed.snippet());
        csp.set(embed.csp_lines());
        copied.set(None);
    });
    // What decides the frame's height: the view, its language and its width
    // (the width field's when the frame fills a column of unknown width).
    let measured_for = Memo::new(move |_| {
        let base = page_env::lab_base()?;
        let width = width_px.get().unwrap_or(DEFAULT_WIDTH);
        let view = shown_view();
        let embed = EmbedCode {
            base,
            view,
            lang: lang.get(),
            theme: Theme::Auto,
            width: Width::Pixels(width),
            height: 0,
            heights_at: Vec::new(),
            fit_content: false,
            title: String::new(),
            id: super::embed_measure::MEASURE_ID.to_owned(),
        };
        Some((embed.src(), width))
    });
    let generation = StoredValue::new(0_u32);
    Effect::new(move |_| {
        let Some((src, width)) = measured_for.get() else {
            return;
        };
        if !ctl.embedding.get() || height_edited.get_untracked() {
            return;
        }
        let this = generation.get_value().wrapping_add(1);
        generation.set_value(this);
        measuring.set(true);
        heights_at.set(Vec::new());
        leptos::task::spawn_local(async move {
            // At the frame's width, and at a phone's and a wide page's
            // columns, at once (a frame that fills its column may get either).
            let widths = measured_widths(width);
            let told = futures::future::join_all(
                widths
                    .iter()
                    .map(|w| super::embed_measure::measure(&src, *w)),
            )
            .await;
            if generation.get_value() != this {
                return;
            }
            measuring.set(false);
            if height_edited.get_untracked() {
                return;
            }
            // The list holds what each width asks for (a short lesson on a
            // wide page may ask for less than the field's least height,
            // which is for a frame without the script).
            let at: Vec<(u32, u32)> = widths
                .iter()
                .zip(&told)
                .filter_map(|(w, h)| h.map(|h| (*w, h.min(*HEIGHTS.end()))))
                .collect();
            if let Some((_, h)) = at.iter().find(|(w, _)| *w == width) {
                height.set(h.clamp(HEIGHTS.start(), HEIGHTS.end()).to_string());
            }
            // One width alone is the frame's height: nothing to choose from.
            let at = if at.len() > 1 { at } else { Vec::new() };
            heights_at.set(at);
        });
    });
    let copy = move |_| {
        let text = code.get_untracked();
        copied.set(None);
        match page_env::copy_text(&text) {
            Some(done) => leptos::task::spawn_local(async move {
                let ok = done.await.is_ok();
                copied.set(Some(ok));
            }),
            None => copied.set(Some(false)),
        }
    };

    let choice = move |value: Shows, label: fn(Lang) -> &'static str| {
        view! {
            <label class="embed-choice">
                <input
                    type="radio"
                    name="embed-shows"
                    prop:checked=move || shows.get() == value
                    on:change=move |_| shows.set(value)
                />
                <span>{move || label(ctl.lang.get())}</span>
            </label>
        }
    };
    let size_field = move |id: &'static str,
                           label: fn(Lang) -> &'static str,
                           text: RwSignal<String>,
                           read: Memo<Result<u32, crate::embed_code::SizeError>>,
                           off: Signal<bool>,
                           edited: Option<RwSignal<bool>>,
                           busy: Signal<bool>| {
        let error_id = format!("{id}-error");
        // A field not in use (the column's width chosen) has nothing to say.
        let error = move || {
            (!off.get())
                .then(|| read.get().err())
                .flatten()
                .map(|e| ctl.lang.get().texts().size_error(e))
        };
        view! {
            // Out of the way while it is not in use.
            <div class="field" hidden=move || off.get()>
                <label for=id>{move || label(ctl.lang.get())}</label>
                <input
                    id=id
                    type="text"
                    inputmode="numeric"
                    dir="ltr"
                    prop:value=move || text.get()
                    aria-invalid=move || error().is_some().to_string()
                    aria-describedby=error_id.clone()
                    aria-busy=move || busy.get().to_string()
                    data-measuring=move || busy.get().then_some("true")
                    on:input=move |ev| {
                        if let Some(edited) = edited {
                            edited.set(true);
                        }
                        text.set(event_target_value(&ev));
                    }
                />
                <p class="field-error" id=error_id role="status">{error}</p>
            </div>
        }
    };

    // A text field the code reads, with what is wrong with it said below.
    let text_field = move |id: &'static str,
                           label: fn(Lang) -> &'static str,
                           text: RwSignal<String>,
                           wrong: Signal<Option<&'static str>>,
                           edited: Option<RwSignal<bool>>,
                           dir: &'static str| {
        let error_id = format!("{id}-error");
        view! {
            <div class="field field-wide">
                <label for=id>{move || label(ctl.lang.get())}</label>
                <input
                    id=id
                    type="text"
                    dir=dir
                    prop:value=move || text.get()
                    aria-invalid=move || wrong.get().is_some().to_string()
                    aria-describedby=error_id.clone()
                    on:input=move |ev| {
                        if let Some(edited) = edited {
                            edited.set(true);
                        }
                        text.set(event_target_value(&ev));
                    }
                />
                <p class="field-error" id=error_id role="status">{move || wrong.get()}</p>
            </div>
        }
    };
    let id_wrong = Signal::derive(move || id_read.get().is_none().then(|| t().embed_id_error));
    let title_wrong =
        Signal::derive(move || title_read.get().is_none().then(|| t().embed_title_error));

    view! {
        <dialog
            class="embed-dialog"
            node_ref=dialog
            aria-labelledby="embed-title"
            data-testid="embed-dialog"
            on:close=move |_| ctl.embedding.set(false)
        >
            <h2 id="embed-title">{move || t().embed_title}</h2>
            <p class="hint">{move || t().embed_intro}</p>
            <fieldset>
                <legend>{move || t().embed_shows}</legend>
                {choice(Shows::Sandbox, |l| l.texts().embed_sandbox)}
                {choice(Shows::State, |l| l.texts().embed_state)}
                {move || opened.with(|o| o.place.is_some()).then(|| choice(Shows::Lesson, |l| l.texts().embed_lesson))}
            </fieldset>
            <div class="embed-row">
                <div class="field">
                    <label for="embed-lang">{move || t().language}</label>
                    <select id="embed-lang" on:change=move |ev| {
                        // The frame's title is in its language: read first if
                        // the page has not yet.
                        if let Some(l) = Lang::from_tag(&event_target_value(&ev)) {
                            super::with_language(ctl, l, move || lang.set(l));
                        }
                    }>
                        {Lang::ALL.into_iter().map(|l| view! {
                            <option value=l.tag() lang=l.tag() selected=move || lang.get() == l>{l.name()}</option>
                        }).collect_view()}
                    </select>
                </div>
                <div class="field">
                    <label for="embed-theme">{move || t().embed_theme}</label>
                    <select id="embed-theme" on:change=move |ev| {
                        if let Some(th) = Theme::parse(&event_target_value(&ev)) {
                            theme.set(th);
                        }
                    }>
                        {Theme::ALL.into_iter().map(|th| {
                            let name = move || {
                                let t = ctl.lang.get().texts();
                                match th {
                                    Theme::Auto => t.embed_theme_auto,
                                    Theme::Light => t.embed_theme_light,
                                    Theme::Dark => t.embed_theme_dark,
                                }
                            };
                            view! { <option value=th.code() selected=move || theme.get() == th>{name}</option> }
                        }).collect_view()}
                    </select>
                </div>
            </div>
            <label class="switch">
                <input type="checkbox" prop:checked=move || full_width.get() on:change=move |ev| full_width.set(event_target_checked(&ev)) />
                <span class="switch-label">{move || t().embed_full_width}</span>
            </label>
            <div class="embed-row">
                {size_field("embed-width", |l| l.texts().embed_width, width, width_px, Signal::derive(move || full_width.get()), None, Signal::derive(|| false))}
                {size_field("embed-height", |l| l.texts().embed_height, height, height_read, Signal::derive(|| false), Some(height_edited), measuring.into())}
            </div>
            {text_field("embed-frame-title", |l| l.texts().embed_frame_title, title, title_wrong, Some(title_edited), "auto")}
            {text_field("embed-id", |l| l.texts().embed_id, frame_id, id_wrong, None, "ltr")}
            <label class="switch">
                <input type="checkbox" prop:checked=move || fit.get() on:change=move |ev| fit.set(event_target_checked(&ev)) />
                <span class="switch-label">{move || t().embed_fit}</span>
            </label>
            <label class="embed-code" for="embed-code">{move || t().embed_code}</label>
            <textarea id="embed-code" readonly dir="ltr" rows="8" data-testid="embed-snippet" prop:value=move || code.get()></textarea>
            <div class="hint embed-csp" data-testid="embed-csp">
                <p>{move || if csp.with(|c| c.len() > 1) { t().embed_csp } else { t().embed_csp_frame }}</p>
                <ul dir="ltr">
                    {move || csp.get().into_iter().map(|line| view! { <li><code>{line}</code></li> }).collect_view()}
                </ul>
            </div>
            <p class="hint" role="status" data-testid="embed-copied" data-copied=move || copied.get().map(|c| c.to_string())>
                {move || copied.get().map(|ok| if ok { t().link_copied } else { t().link_not_copied })}
            </p>
            <div class="buttons">
                <button class="primary" on:click=copy>{move || t().embed_copy}</button>
                <button on:click=close>{move || t().embed_close}</button>
            </div>
        </dialog>
    }
}

/// A button that opens "Embed on a page".
#[component]
pub fn EmbedOpener(ctl: Controller) -> impl IntoView {
    view! {
        <button class="embed-open" data-testid="embed-open" aria-haspopup="dialog" on:click=move |_| ctl.embedding.set(true)>
            {move || ctl.lang.get().texts().embed_open}
        </button>
    }
}
