//! The walkthrough panel: where the learner is, the step's narration (read out
//! politely to screen readers), its question, and the controls; and, in the
//! sandbox, the challenge the lab is checking.

use leptos::prelude::*;

use crate::walkthrough::{
    play_to, question_text, render, reveal_in, Answer, GuestStep, Progress, Standing, Value,
    MAX_PROGRESS_BYTES,
};

use super::controller::{Notice, WalkNotice};
use super::page_env;
use super::walk::{Given, Load, OnShow, Visitor, Walk};
use super::walk_keys::{KeysHelp, ANSWER_FIELD_ID};
use super::walk_overview::SectionsOverview;

const PROGRESS_FILE_NAME: &str = "idempotency-lab-progress.json";

super::deferred::part! {
    /// The walkthrough's panel: in the walkthrough's chunk of a split build.
    walkthrough: fn walk_panel(walk: Walk) -> super::deferred::Build {
        Box::new(move || view! { <WalkPanel walk=walk /> }.into_any())
    }
}

/// The walkthrough's panel where it stands, once its chunk is here.
pub fn walk_panel_later(walk: Walk) -> impl IntoView {
    super::deferred::deferred(walk.ctl, move || super::deferred::arrive!(walk_panel(walk)))
}

#[component]
fn WalkPanel(walk: Walk) -> impl IntoView {
    let ctl = walk.ctl;
    let t = move || ctl.lang.get().walk();
    // A guest plays without the course's files (they fill the section list
    // when they come); the body is built again only when this changes.
    let phase = Memo::new(move |_| {
        if walk.guest.with(Option::is_some) {
            return Some(Ok(()));
        }
        match walk.load.get() {
            None | Some(Load::Loading) => None,
            Some(Load::Failed(message)) => Some(Err(message)),
            Some(Load::Ready(_)) => Some(Ok(())),
        }
    });
    let body = move || match phase.get() {
        None => view! {
            <section class="panel walk walk-main" aria-labelledby="walk-title">
                <h2 id="walk-title" class="visually-hidden">{move || t().region}</h2>
                <p class="walk-loading">{t().loading}</p>
            </section>
        }
        .into_any(),
        Some(Err(message)) => view! {
            <section class="panel walk walk-main" aria-labelledby="walk-title">
                <h2 id="walk-title" class="visually-hidden">{move || t().region}</h2>
                <p class="walk-failed" role="alert">{t().load_failed} " " <bdi>{message}</bdi></p>
                <div class="buttons">
                    <button on:click=move |_| walk.close()>{move || t().close}</button>
                </div>
            </section>
        }
        .into_any(),
        Some(Ok(())) => view! { <WalkBody walk=walk /> }.into_any(),
    };
    // Two parts: where the learner is, the narration and the step's buttons;
    // then the question and the rest. On a phone the stage stands between them.
    view! {
        <div
            class="walk-column"
            data-testid="walkthrough"
            data-animating=move || walk.animating.get().to_string()
        >
            {body}
        </div>
    }
}

#[component]
fn WalkBody(walk: Walk) -> impl IntoView {
    let ctl = walk.ctl;
    let lang = move || ctl.lang.get();
    let t = move || lang().walk();
    let content = move || walk.content();
    let scenario_count = move || content().map_or(0, |c| c.scripts.scenarios.len());
    let steps = move || walk.steps();
    let step = move || walk.step.get() + 1;
    let at_end = move || step() >= steps();
    // At a section's end the way on is the next section (none after the last).
    let guest = move || walk.guest.with(Option::is_some);
    let next_section = move || at_end() && !guest() && walk.scenario.get() + 1 < scenario_count();
    let course_end = move || {
        at_end() && !guest() && scenario_count() > 0 && walk.scenario.get() + 1 >= scenario_count()
    };
    let next_button = NodeRef::<leptos::html::Button>::new();
    // A lesson (an embed of one scenario) shows that scenario's steps alone:
    // no other section, no sandbox; the full lab opens in a new tab.
    let lesson = walk.lesson();
    let title = move || {
        let content = content()?;
        let (_, text) = content.scenario(walk.scenario.get())?;
        Some(text.shown_title())
    };
    // The full lab at the next section (at this step after the last one).
    let continue_href = move || {
        let content = content()?;
        let next = walk.scenario.get() + 1;
        let place = match content.scripts.scenarios.get(next) {
            Some(script) => (script.id.clone(), 1),
            None => walk.place()?,
        };
        page_env::full_page(lang(), Some((&place.0, place.1)))
    };
    // The full lab's sandbox with the step's lab in it.
    let try_href = move || {
        let token = ctl.lab.with(|lab| crate::lab::to_link_token(lab.history()));
        page_env::permalink(&token, lang())
    };
    let narration = move || match walk.on_show()? {
        // A found history is told from what each step did in the world.
        OnShow::Guest(Visitor::Found(found)) => {
            let texts = lang().texts();
            Some(match found.step(walk.step.get())? {
                GuestStep::Setup => texts.explorer.guest_setup(texts.promise(found.promise)),
                GuestStep::Step(action, did) => texts
                    .explorer
                    .guest_step(&texts.explorer_step(action), &texts.explorer_did(did)),
                GuestStep::End(did) => {
                    format!("{} {}", texts.explorer.end, texts.explorer_did(did))
                }
            })
        }
        // A section, or a teacher's scenario in the language it is written in.
        on => {
            let (shown, text) = on.words(lang())?;
            let template = text.steps.get(walk.step.get())?.narration.clone();
            Some(walk.with_narrated(|lab| {
                render(&template, lab.state(), |n| shown.number(n))
                    .unwrap_or_else(|e| format!("({e})"))
            }))
        }
    };
    // A teacher's scenario written in another language than the page's: its
    // words carry their own language and direction.
    let written_in = move || {
        let on = walk.on_show()?;
        let (shown, _) = on.words(lang())?;
        (shown != lang()).then_some(shown)
    };
    // The guest's name where the section's would be.
    let guest_title = move || {
        let texts = lang().texts();
        Some(match walk.guest.get()? {
            Visitor::Found(found) => format!(
                "{}: {}",
                texts.explorer.history_title,
                texts.promise(found.promise)
            ),
            Visitor::Teacher(teacher) => texts.teacher.player_title(&teacher.shown_title(lang())),
        })
    };
    let found = move || walk.guest.with(|g| matches!(g, Some(Visitor::Found(_))));
    // Each step, and each section, starts with its panel at the top, where
    // its question is.
    let more = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        let _ = (
            walk.scenario.get(),
            walk.step.get(),
            walk.guest.with(Option::is_some),
        );
        if let Some(more) = more.get_untracked() {
            more.set_scroll_top(0);
        }
    });
    // A verdict or a revealed answer is brought into view with its question,
    // once drawn: the room looks at it.
    Effect::new(move |_| {
        // (Again when presenter mode changes the panel's size.)
        let (shown, given, _) = (
            walk.answer_shown.get(),
            walk.given.with(Option::is_some),
            walk.presenter.get(),
        );
        if !shown && !given {
            return;
        }
        leptos::task::spawn_local(async move {
            gloo_timers::future::TimeoutFuture::new(0).await;
            // The panel may have gone meanwhile (the walkthrough closed).
            if let Some(more) = more.try_get_untracked().flatten() {
                page_env::show_feedback(&more);
            }
        });
    });
    // Played from the explorer, the player starts with the keyboard on its way forward.
    Effect::new(move |_| {
        if let Some(button) = next_button.get() {
            if walk.guest.get_untracked().is_some() {
                let _ = button.focus();
            }
        }
    });
    let select_scenario = move |ev: leptos::ev::Event| {
        if let Ok(index) = event_target_value(&ev).parse::<usize>() {
            walk.playing.set(false);
            walk.go(index, 0);
        }
    };
    // A section as the list names it: its number, title and where a learner stands.
    let section_label = move |i: usize, progress: &Progress| -> Option<String> {
        let content = content()?;
        let script = content.scripts.scenarios.get(i)?;
        let title = content.text.scenarios[&script.id].shown_title();
        let mark = match progress.standing(&content.scripts, &script.id) {
            Standing::Done => format!(" ✓ {}", t().done),
            Standing::Walked { .. } => format!(" — {}", t().walked),
            Standing::NotStarted | Standing::AtStep { .. } => String::new(),
        };
        Some(format!("{}. {title}{mark}", lang().number(i + 1)))
    };
    let options = move || {
        let count = content()?.scripts.scenarios.len();
        let progress = walk.progress.get();
        Some(
            (0..count)
                .map(|i| {
                    view! {
                        <option value=i.to_string() selected=move || walk.scenario.get() == i>
                            {section_label(i, &progress)}
                        </option>
                    }
                })
                .collect_view(),
        )
    };
    // The chosen section's whole title, wrapped where the list would cut it.
    let shown_section = move || section_label(walk.scenario.get(), &walk.progress.get());
    let export = move |_| {
        let json = walk.progress.with_untracked(Progress::to_json);
        page_env::download(PROGRESS_FILE_NAME, &json);
    };
    let import = move |ev: leptos::ev::Event| {
        let Some(file) = page_env::take_chosen_file(&ev) else {
            return;
        };
        leptos::task::spawn_local(async move {
            let Some(content) = walk.content() else {
                return;
            };
            let text = if file.size() as usize > MAX_PROGRESS_BYTES {
                None
            } else {
                wasm_bindgen_futures::JsFuture::from(file.text())
                    .await
                    .ok()
                    .and_then(|v| v.as_string())
            };
            let read = match text {
                Some(text) => Progress::from_json(&text, &content.scripts),
                None => Err(crate::walkthrough::ProgressError::TooLarge),
            };
            let notice = match read {
                Ok(progress) => {
                    walk.progress.update(|p| p.merge(progress));
                    WalkNotice::ProgressImported
                }
                Err(error) => WalkNotice::ProgressFailed(error),
            };
            ctl.notice.set(Some(Notice::Walk(notice)));
        });
    };

    view! {
            <section class="panel walk walk-main" aria-labelledby="walk-title">
                <h2 id="walk-title" class="visually-hidden">{move || t().region}</h2>
            <div class="walk-head">
                {if lesson {
                    view! { <p class="walk-lesson-title" data-testid="lesson-title">{title}</p> }.into_any()
                } else {
                    // A guest is named where the section list stands: it is
                    // none of the course's sections.
                    (move || match guest_title() {
                        Some(title) => view! {
                            <p class="walk-lesson-title" data-testid="walk-guest">{title}</p>
                            {move || written_in().map(|shown| view! {
                                <p class="walk-written-in" data-testid="written-in">
                                    {lang().texts().teacher.written_in(lang().texts().teacher.language(shown))}
                                </p>
                            })}
                        }
                        .into_any(),
                        None => view! {
                            <div class="choice walk-section">
                                <label for="walk-scenario">{move || t().section}</label>
                                <span class="walk-section-pick">
                                    <span class="walk-section-shown" data-testid="section-title" aria-hidden="true">
                                        {shown_section}
                                    </span>
                                    <select id="walk-scenario" data-testid="scenario-select" on:change=select_scenario>
                                        {options}
                                    </select>
                                </span>
                            </div>
                        }
                        .into_any(),
                    })
                    .into_any()
                }}
                <p class="walk-where">
                    <span class="walk-section-of" hidden=guest>
                        {move || t().section_of(walk.scenario.get() + 1, scenario_count())} " — "
                    </span>
                    <span class="visually-hidden">{move || t().step_of(step(), steps())}</span>
                    // In the page's digits; the attributes keep ASCII ones for suites.
                    <span
                        data-testid="step-counter"
                        data-step=step
                        data-steps=steps
                        aria-hidden="true"
                        dir="ltr"
                    >
                        {move || {
                            let lang = ctl.lang.get();
                            format!("{} / {}", lang.number(step()), lang.number(steps()))
                        }}
                    </span>
                </p>
            </div>
            <div class="walk-narration" aria-live="polite">
                <p
                    data-testid="narration"
                    lang=move || written_in().map(|l| l.tag())
                    dir=move || written_in().map(|l| l.dir())
                >
                    {narration}
                </p>
            </div>
            </section>
            <div class="walk-controls" role="group" aria-label=move || t().region>
                // Off buttons say so with aria-disabled and keep the keyboard focus.
                <button
                    on:click=move |_| walk.step_back()
                    aria-disabled=move || (walk.step.get() == 0).to_string()
                >
                    {move || t().previous}
                </button>
                <button class="primary" node_ref=next_button on:click=move |_| walk.step_forward() aria-disabled=move || at_end().to_string()>
                    {move || t().next}
                </button>
                {move || (lesson && at_end()).then(|| view! {
                    <a
                        class="button primary"
                        data-testid="continue-full"
                        href=continue_href
                        target="_blank"
                        rel="noopener"
                        on:click=super::new_tab_click(ctl)
                    >
                        {move || t().continue_full}
                        " ↗"
                    </a>
                })}
                {move || (!lesson && next_section()).then(|| view! {
                    <button
                        class="primary"
                        data-testid="next-section"
                        on:click=move |_| {
                            walk.next_section();
                            // The button goes with the section's end: the keyboard
                            // stays on the way forward.
                            if let Some(next) = next_button.get_untracked() {
                                let _ = next.focus();
                            }
                        }
                    >
                        {move || t().next_section}
                    </button>
                })}
                // Beside the stage, an icon with its name for screen readers
                // (and as a tooltip): the clicker's buttons keep one row.
                <button
                    class="walk-icon-button"
                    title=move || t().skip
                    on:click=move |_| walk.finish()
                    aria-disabled=move || (!walk.animating.get()).to_string()
                >
                    <span class="walk-icon walk-icon-skip" aria-hidden="true">"⇥"</span>
                    <span class="walk-button-label">{move || t().skip}</span>
                </button>
                // The clicker's last press: nothing comes after this step.
                {move || (!lesson && course_end()).then(|| view! {
                    <p class="walk-course-done" data-testid="course-done">{move || t().course_done}</p>
                })}
                <button class="walk-icon-button" title=move || t().restart on:click=move |_| walk.restart()>
                    <span class="walk-icon" aria-hidden="true">"↺"</span>
                    <span class="walk-button-label">{move || t().restart}</span>
                </button>
                <button
                    aria-pressed=move || walk.playing.get().to_string()
                    on:click=move |_| walk.toggle_play()
                    disabled=move || at_end() && !walk.playing.get()
                >
                    {move || if walk.playing.get() { t().pause } else { t().play }}
                </button>
            </div>
            // The question first: it is what the room looks at; each step
            // opens the panel at its top.
            <div class="panel walk walk-more" node_ref=more>
            <QuestionView walk=walk />
            <CodeView walk=walk />
            {move || at_end().then(|| view! { <ChallengeOffer walk=walk /> })}
            <div class="walk-tools">
                <div class="choice walk-pace">
                    <label for="walk-pace">{move || t().pace}</label>
                    <select
                        id="walk-pace"
                        on:change=move |ev| {
                            if let Ok(p) = event_target_value(&ev).parse::<usize>() {
                                walk.pace.set(p.min(2));
                            }
                        }
                    >
                        {(0..3usize)
                            .map(|p| {
                                view! {
                                    <option value=p.to_string() selected=move || walk.pace.get() == p>
                                        {move || t().paces()[p]}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                </div>
                {if lesson {
                    view! {
                        <a class="button" href=try_href target="_blank" rel="noopener" on:click=super::new_tab_click(ctl)>
                            {move || t().try_it}
                            " ↗"
                        </a>
                    }
                    .into_any()
                } else {
                    view! {
                        <button on:click=move |_| walk.fork()>{move || t().try_it}</button>
                        <button
                            aria-pressed=move || walk.presenter.get().to_string()
                            on:click=move |_| walk.presenter.update(|p| *p = !*p)
                        >
                            {move || t().presenter}
                        </button>
                    }
                    .into_any()
                }}
                <button on:click=move |_| walk.help.set(true) aria-haspopup="dialog">
                    {move || t().keys}
                </button>
                <label class="switch">
                    <input
                        type="checkbox"
                        role="switch"
                        prop:checked=move || walk.shortcuts.get()
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            walk.shortcuts.set(on);
                            page_env::remember_shortcuts(on);
                        }
                    />
                    <span class="switch-label">{move || t().shortcuts}</span>
                </label>
                // The step's panels are the ones it needs; this brings back the rest.
                <label class="switch">
                    <input
                        type="checkbox"
                        role="switch"
                        data-testid="show-everything"
                        prop:checked=move || walk.everything.get()
                        on:change=move |ev| walk.everything.set(event_target_checked(&ev))
                    />
                    <span class="switch-label">{move || t().everything}</span>
                </label>
                // Paper for the room: a section's handout, and the teacher's copy with its answer key.
                {move || (!lesson && !found()).then(|| view! {
                    <button data-testid="print-handout" on:click=move |_| walk.print(false)>
                        {move || t().print_handout}
                    </button>
                    <button data-testid="print-teacher" on:click=move |_| walk.print(true)>
                        {move || t().print_teacher}
                    </button>
                })}
                {(!lesson && !page_env::is_embed()).then(|| view! { <super::embed_dialog::EmbedOpener ctl=ctl /> })}
                {(!lesson).then(|| view! { <button on:click=move |_| walk.close()>{move || t().close}</button> })}
            </div>
            // The course's sections and progress: a guest is none of them.
            {(!lesson).then(|| view! {
                <Show when=move || !guest()>
                <SectionsOverview walk=walk />
                <div class="walk-progress" role="group" aria-label=move || t().progress>
                    <button on:click=export>{move || t().export_progress}</button>
                    <label class="button file">
                        {move || t().import_progress}
                        <input type="file" accept=".json,application/json" on:change=import data-testid="import-progress" />
                    </label>
                </div>
                </Show>
            })}
            <KeysHelp walk=walk />
    </div>
        }
}

/// The few lines of the lab's own Rust that decide this step, the deciding
/// ones marked; code reads left to right in both languages.
#[component]
fn CodeView(walk: Walk) -> impl IntoView {
    let t = move || walk.ctl.lang.get().walk();
    // Rebuilt only when the excerpt changes, and kept open from step to step.
    let id = Memo::new(move |_| {
        let (content, index) = walk.section()?;
        let script = &content.scripts.scenarios[index];
        script.steps.get(walk.step.get())?.code.clone()
    });
    let open = RwSignal::new(false);
    move || {
        let id = id.get()?;
        let excerpt = walk.content()?.scripts.code.get(&id)?.clone();
        let lines = excerpt
            .shown()
            .into_iter()
            .map(|(line, marked)| {
                if marked {
                    view! {
                        <mark>{line}<span class="visually-hidden">" " {move || t().deciding}</span></mark>
                        "\n"
                    }
                    .into_any()
                } else {
                    view! { {line} "\n" }.into_any()
                }
            })
            .collect_view();
        Some(view! {
            <details
                class="walk-code"
                data-testid="code"
                prop:open=move || open.get()
                on:toggle=page_env::follow_details(open)
            >
                <summary>{move || t().code} {move || walk.ctl.lang.get().texts().sep()} <bdi dir="ltr">{excerpt.file.clone()}</bdi></summary>
                // Focusable, so a keyboard can scroll a line wider than the panel.
                <pre dir="ltr" lang="en" tabindex="0"><code>{lines}</code></pre>
            </details>
        })
    }
}

/// The step's predict-then-reveal question, if it asks one.
#[component]
fn QuestionView(walk: Walk) -> impl IntoView {
    let ctl = walk.ctl;
    let lang = move || ctl.lang.get();
    let t = move || lang().walk();
    move || {
        let on = walk.on_show()?;
        let step = walk.step.get();
        let (shown, text) = on.words(lang())?;
        let question = on.script().steps.get(step)?.question.clone()?;
        let words = text.steps.get(step)?.clone();
        // Its numbers (the premise) read from the world, in the words' digits.
        let asked = match question_text(on.script(), text, step, |n| shown.number(n)) {
            Ok(asked) => asked.unwrap_or_default(),
            Err(error) => format!("({error})"),
        };
        // A teacher's words in another language than the page's say so.
        let other = (shown != lang()).then_some(shown);
        let typed = RwSignal::new(String::new());
        let input = match question.answer {
            Answer::Number { .. } => view! {
                // Sent by the page itself, so a sandboxed frame sends too.
                <form
                    class="walk-answer"
                    on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                        if page_env::enter_in_field(&ev) {
                            ev.prevent_default();
                            walk.give(typed.get_untracked());
                            // Judged, the keys go back to the player: the
                            // clicker's next press steps on. (A number it
                            // cannot read keeps the field, to type again.)
                            if walk.given.with_untracked(|g| g.as_ref().is_some_and(|g| g.verdict.is_ok())) {
                                page_env::leave_field(&ev);
                            }
                        }
                    }
                    on:submit=move |ev: leptos::ev::SubmitEvent| ev.prevent_default()
                >
                    <label for=ANSWER_FIELD_ID>{move || t().answer}</label>
                    <input
                        id=ANSWER_FIELD_ID
                        type="text"
                        inputmode="numeric"
                        autocomplete="off"
                        prop:value=move || typed.get()
                        on:input=move |ev| typed.set(event_target_value(&ev))
                    />
                    <button type="button" on:click=move |_| walk.give(typed.get_untracked())>{move || t().check}</button>
                </form>
            }
            .into_any(),
            Answer::Choice { choices, .. } => view! {
                <div class="walk-choices" role="group" aria-labelledby="walk-question">
                    {choices
                        .into_iter()
                        .map(|code| {
                            let label = words.choices.get(&code).cloned().unwrap_or_default();
                            let chosen = code.clone();
                            let pressed = move || {
                                walk.given.with(|g| g.as_ref().is_some_and(|g| g.answer == chosen))
                            };
                            view! {
                                <button
                                    data-choice=code.clone()
                                    aria-pressed=move || pressed().to_string()
                                    on:click=move |_| walk.give(code.clone())
                                >
                                    {label}
                                </button>
                            }
                        })
                        .collect_view()}
                </div>
            }
            .into_any(),
        };
        let explain = StoredValue::new(words.explain.clone().unwrap_or_default());
        let hint = words.hint.clone().unwrap_or_default();
        let choices = words.choices.clone();
        Some(view! {
            <div class="walk-question" data-testid="question">
                <h3>{move || t().predict}</h3>
                <p id="walk-question" lang=other.map(|l| l.tag()) dir=other.map(|l| l.dir())>
                    {asked}
                </p>
                // The way to answer and, for the room once it has had its
                // say, the answer: on one line where they fit.
                <div class="walk-answer-row">
                    {input}
                    {move || (!walk.answer_shown.get()).then(|| view! {
                        <button class="reveal-answer" data-testid="reveal-answer" on:click=move |_| walk.answer_shown.set(true)>
                            {move || t().reveal_answer}
                        </button>
                    })}
                </div>
                // Always on the page, so what appears in it is read out.
                <div role="status" class="walk-feedback-region">
                    <Feedback walk=walk explain=explain hint=hint />
                    <RevealedAnswer walk=walk explain=explain choices=choices />
                </div>
            </div>
        })
    }
}

/// The explanation of the current question's answer, read from the world as
/// the next step leaves it, so it can state the answer's numbers.
fn explained(walk: Walk, explain: StoredValue<String>) -> Option<String> {
    let on = walk.on_show()?;
    let (_, lab) = play_to(on.script(), walk.step.get_untracked() + 1).ok()?;
    Some(told(walk, explain, &lab))
}

/// The explanation told from `lab`, in the page's language.
fn told(walk: Walk, explain: StoredValue<String>, lab: &crate::lab::Lab) -> String {
    let page = walk.ctl.lang.get();
    let lang = walk
        .on_show()
        .and_then(|on| on.words(page).map(|(shown, _)| shown))
        .unwrap_or(page);
    explain
        .with_value(|e| render(e, lab.state(), |n| lang.number(n)))
        .unwrap_or_else(|e| format!("({e})"))
}

/// "Reveal the answer": the answer in words, its explanation, and the row
/// that proves it.
#[component]
fn RevealedAnswer(
    walk: Walk,
    explain: StoredValue<String>,
    choices: std::collections::BTreeMap<String, String>,
) -> impl IntoView {
    let ctl = walk.ctl;
    let t = move || ctl.lang.get().walk();
    move || {
        if !walk.answer_shown.get()
            || walk
                .given
                .with(|g| g.as_ref().is_some_and(|g| g.verdict == Ok(true)))
        {
            return None;
        }
        let on = walk.on_show()?;
        // One replay gives the answer and the world its explanation tells of.
        let revealed = reveal_in(on.script(), walk.step.get_untracked())
            .ok()
            .flatten()?;
        let lang = ctl.lang.get();
        let said = told(walk, explain, &revealed.lab);
        let proof = revealed.proof;
        let value = match revealed.value {
            Value::Number(n) => lang.number(n),
            Value::Code(code) => choices.get(&code).cloned().unwrap_or(code),
        };
        Some(view! {
            <div class="walk-feedback revealed" data-testid="revealed-answer">
                <p><strong>{t().the_answer} " " <bdi>{value}</bdi></strong> " " {said}</p>
                {proof.is_some().then(|| view! {
                    <button on:click=move |_| walk.step_forward()>{t().proof}</button>
                })}
            </div>
        })
    }
}

#[component]
fn Feedback(walk: Walk, explain: StoredValue<String>, hint: String) -> impl IntoView {
    let ctl = walk.ctl;
    let lang = move || ctl.lang.get();
    let t = move || lang().walk();
    let hint = StoredValue::new(hint);
    move || {
        let given: Given = walk.given.get()?;
        Some(match given.verdict {
            Err(error) => view! {
                <p class="walk-feedback error">{t().bad_answer(error)}</p>
            }
            .into_any(),
            Ok(correct) => {
                let said = if correct {
                    explained(walk, explain)?
                } else {
                    hint.get_value()
                };
                let proof = given.proof;
                view! {
                    <div
                        class="walk-feedback"
                        class:right=correct
                        data-testid="feedback"
                        data-correct=correct.to_string()
                    >
                        <p>
                            <strong>{if correct { t().right } else { t().wrong }}</strong>
                            " "
                            <span data-testid=if correct { "explain" } else { "hint" }>{said}</span>
                        </p>
                        {(correct && proof.is_some())
                            .then(|| {
                                view! {
                                    <button on:click=move |_| walk.step_forward()>{t().proof}</button>
                                }
                            })}
                    </div>
                }
                .into_any()
            }
        })
    }
}

/// At a scenario's last step: its challenge, with a hint, to do in a new sandbox.
#[component]
fn ChallengeOffer(walk: Walk) -> impl IntoView {
    let ctl = walk.ctl;
    let t = move || ctl.lang.get().walk();
    // A section's challenge is checked in a new sandbox; a teacher's is for
    // the room, in the teacher's words (none when the teacher left it out).
    let text = move || {
        let on = walk.on_show()?;
        let (_, text) = on.words(ctl.lang.get())?;
        let section = matches!(on, OnShow::Section(..));
        (section || !text.challenge.is_empty())
            .then(|| (text.challenge.clone(), text.hint.clone(), section))
    };
    move || {
        let (challenge, hint, section) = text()?;
        if !section {
            return Some(
                view! {
                    <div class="walk-challenge" data-testid="teacher-challenge">
                        <h3>{move || t().challenge}</h3>
                        <p>{challenge}</p>
                    </div>
                }
                .into_any(),
            );
        }
        Some(view! {
            <div class="walk-challenge">
                <h3>{move || t().challenge}</h3>
                <p>{challenge}</p>
                <div class="buttons">
                    <button class="primary" on:click=move |_| walk.start_challenge()>
                        {move || t().start_challenge}
                    </button>
                    <button aria-expanded=move || walk.hint.get().to_string() on:click=move |_| walk.hint.update(|h| *h = !*h)>
                        {move || t().hint}
                    </button>
                </div>
                {move || walk.hint.get().then(|| view! { <p class="hint">{hint.clone()}</p> })}
            </div>
        }
        .into_any())
    }
}

/// In the sandbox: the challenge being checked, and whether the lab meets it.
#[component]
pub fn ChallengeBanner(walk: Walk) -> impl IntoView {
    let ctl = walk.ctl;
    let t = move || ctl.lang.get().walk();
    move || {
        let scenario = walk.challenge.get()?;
        if walk.open.get() {
            return None;
        }
        let content = walk.content()?;
        let (script, text) = content.scenario(scenario)?;
        let id_for_effect = script.id.clone();
        let (title, challenge, hint, done) = (
            text.title.clone(),
            text.challenge.clone(),
            text.hint.clone(),
            text.challenge_met.clone(),
        );
        let met = Memo::new(move |_| walk.challenge_met().unwrap_or(false));
        // Kept in the progress, and told to a host page, once each time the
        // sandbox comes to meet it.
        Effect::new(move |_| {
            if met.get() {
                walk.progress.update(|p| p.met_challenge(&id_for_effect));
                super::host::tell(&crate::host_message::LabEvent::ChallengeMet {
                    scenario: id_for_effect.clone(),
                });
            }
        });
        Some(view! {
            <section
                class="panel walk-banner"
                aria-labelledby="challenge-title"
                data-testid="challenge"
                data-met=move || met.get().to_string()
            >
                <h2 id="challenge-title">{move || t().challenge_open} {move || ctl.lang.get().texts().sep()} {title}</h2>
                <p>{challenge}</p>
                <p class="walk-status" role="status" class:right=move || met.get()>
                    {move || if met.get() { done.clone() } else { t().challenge_pending.to_string() }}
                </p>
                // After "Show me": the one move it left, until it is made.
                <p class="walk-move-left" role="status" data-testid="move-left">
                    {move || {
                        let left = walk.move_left.get().filter(|l| l.scenario == scenario && !met.get())?;
                        let texts = ctl.lang.get().texts();
                        let moves: Vec<String> = left.actions.iter().map(|a| texts.explorer_step(a)).collect();
                        Some(t().move_left(&moves.join(", ")))
                    }}
                </p>
                <div class="buttons">
                    <button aria-expanded=move || walk.hint.get().to_string() on:click=move |_| walk.hint.update(|h| *h = !*h)>
                        {move || t().hint}
                    </button>
                    <button on:click=move |_| walk.show_me()>{move || t().show_me}</button>
                    // A lesson's challenge ends back in the lesson, never in a
                    // free sandbox.
                    <button on:click=move |_| {
                        walk.challenge.set(None);
                        if walk.lesson() {
                            walk.start();
                        }
                    }>{move || if walk.lesson() { t().back_to_lesson } else { t().leave_challenge }}</button>
                </div>
                {move || walk.hint.get().then(|| view! { <p class="hint">{hint.clone()}</p> })}
            </section>
        })
    }
}
