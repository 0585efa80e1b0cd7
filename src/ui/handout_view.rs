//! The printed handout of a walkthrough section (`Print handout`): title,
//! each step told, each question with room to answer, the challenge; the
//! teacher's copy adds the answer key on a page of its own. Drawn outside the
//! page's columns and shown only by the print styles (`html.printing-handout`),
//! in black on white, in the page's language and direction.

use leptos::prelude::*;

use super::handout_picture::HandoutPicture;
use super::walk::{Printed, Walk};

/// Ruled lines for a student's notes.
const NOTE_LINES: usize = 3;

#[component]
pub fn HandoutSheet(walk: Walk) -> impl IntoView {
    move || {
        let Printed {
            handout,
            teacher,
            lang,
            section,
        } = walk.handout.get()?;
        let t = lang.walk();
        let lines = || {
            (0..NOTE_LINES)
                .map(|_| view! { <span class="handout-line"></span> })
                .collect_view()
        };
        let mut asked = 0;
        let mut key = Vec::new();
        let steps = handout
            .steps
            .into_iter()
            .enumerate()
            .map(|(n, step)| {
                // A student notes what the room saw; the narration would give
                // the last question's answer away.
                let told = if step.reveals && !teacher {
                    view! {
                        <p class="handout-observe">{t.handout_observe}</p>
                        <div class="handout-lines">{lines()}</div>
                    }
                    .into_any()
                } else {
                    view! { <p>{step.narration}</p> }.into_any()
                };
                let question = step.question.map(|q| {
                    asked += 1;
                    let heading = t.handout_question(asked);
                    key.push((heading.clone(), q.answer, q.explain));
                    let answer = if q.choices.is_empty() {
                        view! {
                            <p class="handout-answer">
                                {t.handout_answer_space} " " <span class="handout-blank"></span>
                            </p>
                        }
                        .into_any()
                    } else {
                        view! {
                            <ul class="handout-choices">
                                {q.choices
                                    .into_iter()
                                    .map(|label| view! { <li><span class="handout-box" aria-hidden="true">"☐"</span> " " {label}</li> })
                                    .collect_view()}
                            </ul>
                        }
                        .into_any()
                    };
                    view! {
                        <div class="handout-question" data-testid="handout-question">
                            <p><strong>{heading}</strong> " " {q.text}</p>
                            {answer}
                        </div>
                    }
                });
                // The picture beside the text, but not where a student's copy
                // leaves room to note what happened: it would tell them.
                let picture = (teacher || !step.reveals)
                    .then(|| view! { <HandoutPicture stage=step.picture lang=lang /> });
                view! {
                    <li class="handout-step">
                        <h3>{t.handout_step(n + 1)}</h3>
                        <div class="handout-step-body">
                            <div class="handout-text">{told} {question}</div>
                            {picture}
                        </div>
                    </li>
                }
            })
            .collect_view();
        let answers = teacher.then(|| {
            view! {
                <section class="handout-key" data-testid="handout-key">
                    <h2>{t.handout_key} {lang.texts().sep()} {handout.title.clone()}</h2>
                    <ol>
                        {key
                            .into_iter()
                            .map(|(heading, answer, explain)| view! {
                                <li><strong>{heading} ": " <bdi>{answer}</bdi></strong> " " {explain}</li>
                            })
                            .collect_view()}
                    </ol>
                </section>
            }
        });
        Some(view! {
            <article
                class="handout"
                data-testid="handout"
                data-scenario=handout.id
                data-copy=if teacher { "teacher" } else { "student" }
                lang=lang.tag()
                dir=lang.dir()
            >
                <header class="handout-head">
                    <h1>{handout.title.clone()}</h1>
                    <p>
                        {match section {
                            Some((n, of)) => t.section_of(n, of),
                            None => lang.texts().teacher.label.to_string(),
                        }}
                        {lang.texts().sep()}
                        {if teacher { t.handout_teacher } else { t.handout_student }}
                        {lang.texts().sep()}
                        {lang.texts().title}
                    </p>
                    {(!teacher).then(|| view! {
                        <p class="handout-answer">{t.handout_name} " " <span class="handout-blank"></span></p>
                    })}
                </header>
                <ol class="handout-steps">{steps}</ol>
                <section class="handout-challenge">
                    <h2>{t.handout_challenge}</h2>
                    <p>{handout.challenge}</p>
                    {teacher.then(|| view! { <p class="handout-hint">{handout.hint}</p> })}
                </section>
                {answers}
            </article>
        })
    }
}
