//! The teacher's own scenarios on the page: the recorder's state (the
//! recording and the words being written for the next step), the list of
//! scenarios this browser keeps, and what opens one (a link, a file, the
//! list). The rules are the core's (`walkthrough::Recording`,
//! `TeacherScenario`, `Shelf`); this only carries words in and says what came
//! of them.

use std::collections::BTreeMap;

use leptos::prelude::*;

use crate::i18n::Lang;
use crate::walkthrough::{
    from_link, read_scenarios, to_link, LinkError, QuestionDraft, RecordError, Recording, Shelf,
    StepDraft, TeacherError, TeacherScenario, MAX_SHELF, MAX_TEACHER_BYTES,
};

use super::controller::{Controller, Notice, Replacement};
use super::deferred::{arrive, with_retries};
use super::page_env;
use super::walk::Walk;

super::deferred::part! {
    /// Reads the scenarios this browser kept and a link's: in the panels'
    /// chunk of a split build, so the first load carries no scenario reader.
    panels: fn read_kept(kept: Option<String>, token: Option<String>) -> Arrived {
        let (shelf, unread) = kept.map(|json| Shelf::from_kept(&json)).unwrap_or_default();
        let link = token.map(|token| from_link(&token));
        Arrived { shelf, unread, link }
    }
}

/// What [`read_kept`] read.
#[derive(Default)]
struct Arrived {
    shelf: Shelf,
    /// Kept scenarios this lab can no longer read.
    unread: usize,
    link: Option<Result<TeacherScenario, LinkError>>,
}

/// One text field per language of the lab, in `Lang::ALL`'s order.
pub type PerLang = [RwSignal<String>; 2];

fn per_lang() -> PerLang {
    [RwSignal::new(String::new()), RwSignal::new(String::new())]
}

fn read(fields: &PerLang) -> BTreeMap<Lang, String> {
    Lang::ALL
        .into_iter()
        .zip(fields)
        .map(|(lang, field)| (lang, field.get_untracked()))
        .collect()
}

fn fill(fields: &PerLang, words: &BTreeMap<Lang, String>) {
    for (lang, field) in Lang::ALL.into_iter().zip(fields) {
        field.set(words.get(&lang).cloned().unwrap_or_default());
    }
}

/// What the panel last has to say: done, or refused and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    pub text: String,
    pub error: bool,
    /// About the end of a recording (`Finish`): said beside that button,
    /// the rest beside `Mark step`.
    pub at_end: bool,
}

#[derive(Clone, Copy)]
pub struct Teacher {
    ctl: Controller,
    walk: Walk,
    pub shelf: RwSignal<Shelf>,
    pub recording: RwSignal<Option<Recording>>,
    /// The scenario of the list being edited: Finish puts the new one in its place.
    editing: RwSignal<Option<usize>>,
    pub narration: PerLang,
    pub ask: RwSignal<bool>,
    pub question_fact: RwSignal<String>,
    pub question: PerLang,
    pub explain: PerLang,
    pub title: PerLang,
    pub challenge: PerLang,
    /// The narration field a picked fact goes into.
    pub focus: RwSignal<usize>,
    pub said: RwSignal<Option<Said>>,
    /// The scenario whose link and file are offered (just finished or opened).
    pub shared: RwSignal<Option<usize>>,
}

impl Teacher {
    pub fn new(ctl: Controller, walk: Walk) -> Teacher {
        Teacher {
            ctl,
            walk,
            shelf: RwSignal::new(Shelf::default()),
            recording: RwSignal::new(None),
            editing: RwSignal::new(None),
            narration: per_lang(),
            ask: RwSignal::new(false),
            question_fact: RwSignal::new(String::new()),
            question: per_lang(),
            explain: per_lang(),
            title: per_lang(),
            challenge: per_lang(),
            focus: RwSignal::new(0),
            said: RwSignal::new(None),
            shared: RwSignal::new(None),
        }
    }

    /// At start: reads the list this browser kept (and keeps it from now
    /// on), then opens the scenario of a `#teach=` link, if the address has one.
    pub fn start_up(self) {
        let kept = page_env::load_shelf();
        let token = page_env::teach_token();
        // Kept in the browser from when the list was read, and only then: a
        // list that could not be read is never written over.
        let saved = StoredValue::new(None::<String>);
        Effect::new(move |_| {
            let json = self.shelf.with(Shelf::to_json);
            let Some(same) = saved.with_value(|k| k.as_ref().map(|k| *k == json)) else {
                return;
            };
            if same {
                return;
            }
            if page_env::save_shelf(&json) {
                saved.set_value(Some(json));
            } else {
                self.say(self.texts().not_kept.to_string(), true);
            }
        });
        leptos::task::spawn_local(async move {
            let arrived = if kept.is_none() && token.is_none() {
                Ok(Arrived::default())
            } else {
                with_retries(|| arrive!(read_kept(kept.clone(), token.clone())), None).await
            };
            let Ok(arrived) = arrived else {
                // The link stays in the address, and the list in the browser.
                let failed = self.ctl.lang.get_untracked().texts().part_failed;
                return self.announce(failed.to_string(), true);
            };
            saved.set_value(Some(arrived.shelf.to_json()));
            self.shelf.set(arrived.shelf);
            if arrived.unread > 0 {
                self.say(self.texts().kept_unread.to_string(), true);
            }
            self.opened(arrived.link);
        });
    }

    /// A `#teach=` link pasted into this tab later.
    pub fn open_link(self, token: String) {
        leptos::task::spawn_local(async move {
            let read = with_retries(|| arrive!(read_kept(None, Some(token.clone()))), None).await;
            match read {
                Ok(arrived) => self.opened(arrived.link),
                Err(_) => {
                    let failed = self.ctl.lang.get_untracked().texts().part_failed;
                    self.announce(failed.to_string(), true);
                }
            }
        });
    }

    /// What a link held: kept and played, or refused with why.
    fn opened(self, link: Option<Result<TeacherScenario, LinkError>>) {
        match link {
            None => {}
            Some(Ok(scenario)) => {
                // Kept in the list: a reload opens the sandbox, not the link again.
                page_env::forget_link();
                self.keep_and_play(vec![scenario]);
            }
            Some(Err(error)) => {
                let reason = self.page_texts().link_error(&error);
                self.announce(self.texts().refused(&reason), true)
            }
        }
    }

    fn texts(self) -> &'static crate::i18n::TeacherTexts {
        &self.page_texts().teacher
    }

    fn page_texts(self) -> &'static crate::i18n::Texts {
        self.ctl.lang.get_untracked().texts()
    }

    fn say(self, text: String, error: bool) {
        self.said.set(Some(Said {
            text,
            error,
            at_end: false,
        }));
    }

    /// Says it where the person is looking: the page's notice, which floats
    /// over whatever is in view (a link opens before the panel is drawn).
    fn announce(self, text: String, error: bool) {
        self.ctl.notice.set(Some(Notice::Teacher { text, error }));
    }

    /// Opens a file a person chose: one scenario, or a list exported before.
    pub fn open_file(self, text: &str) {
        match read_scenarios(text) {
            Ok(scenarios) => self.keep_and_play(scenarios),
            Err(error) => {
                let reason = self.page_texts().shelf_error(&error);
                self.say(self.texts().refused(&reason), true)
            }
        }
    }

    /// A chosen file too large to be read at all.
    pub fn refuse_size(self, bytes: usize) {
        let error = TeacherError::TooLarge {
            bytes,
            limit: MAX_SHELF * MAX_TEACHER_BYTES,
        };
        let reason = self.page_texts().teacher_error(&error);
        self.say(self.texts().refused(&reason), true);
    }

    /// Keeps every scenario (or none, when the list has no room for them
    /// all) and plays the first.
    fn keep_and_play(self, scenarios: Vec<TeacherScenario>) {
        let mut shelf = self.shelf.get_untracked();
        let mut first = None;
        for scenario in &scenarios {
            match shelf.add(scenario.clone()) {
                Ok(at) => {
                    first.get_or_insert(at);
                }
                Err(error) => {
                    let reason = self.page_texts().shelf_error(&error);
                    self.announce(self.texts().refused(&reason), true);
                    return;
                }
            }
        }
        self.shelf.set(shelf);
        let Some(scenario) = scenarios.into_iter().next() else {
            return;
        };
        self.shared.set(first);
        let lang = self.ctl.lang.get_untracked();
        self.announce(self.texts().opened(&scenario.shown_title(lang)), false);
        self.walk.play_teacher(scenario);
    }

    /// Starts a new recording; the sandbox's history so far opens its first step.
    pub fn start(self) {
        self.clear_step();
        for fields in [self.title, self.challenge] {
            fill(&fields, &BTreeMap::new());
        }
        self.editing.set(None);
        self.shared.set(None);
        self.said.set(None);
        self.recording.set(Some(Recording::new()));
    }

    fn clear_step(self) {
        fill(&self.narration, &BTreeMap::new());
        fill(&self.question, &BTreeMap::new());
        fill(&self.explain, &BTreeMap::new());
        self.ask.set(false);
        self.question_fact.set(String::new());
    }

    /// The step's words as written, and the question's labels for a choice.
    fn draft(self) -> StepDraft {
        let question = self.ask.get_untracked().then(|| {
            let fact = self.question_fact.get_untracked();
            let labels = ["yes", "no"]
                .into_iter()
                .map(|code| {
                    let by_lang = Lang::ALL
                        .into_iter()
                        .map(|lang| {
                            let t = lang.texts();
                            let word = t.explorer.yes_no(code == "yes");
                            (lang, word.to_string())
                        })
                        .collect();
                    (code.to_string(), by_lang)
                })
                .collect();
            QuestionDraft {
                labels,
                fact,
                text: read(&self.question),
                explain: read(&self.explain),
            }
        });
        StepDraft {
            narration: read(&self.narration),
            question,
        }
    }

    /// Marks a step: the sandbox's actions since the last mark, with the words written.
    pub fn mark(self) {
        let Some(mut recording) = self.recording.get_untracked() else {
            return;
        };
        let draft = self.draft();
        let marked = self
            .ctl
            .lab
            .with_untracked(|lab| recording.mark(lab, draft));
        match marked {
            Ok(()) => {
                self.recording.set(Some(recording));
                self.clear_step();
                self.said.set(None);
            }
            Err(error) => self.refuse(error),
        }
    }

    fn refuse_at_end(self, text: String) {
        self.said.set(Some(Said {
            text,
            error: true,
            at_end: true,
        }));
    }

    fn refuse(self, error: RecordError) {
        self.say(self.texts().record_error(&error), true);
    }

    /// Takes the last mark back: its words return to the fields.
    pub fn undo(self) {
        let Some(mut recording) = self.recording.get_untracked() else {
            return;
        };
        match recording.undo() {
            Ok(words) => {
                self.recording.set(Some(recording));
                fill(&self.narration, &words.narration);
                let question = words.question.unwrap_or_default();
                self.ask.set(!question.fact.is_empty());
                self.question_fact.set(question.fact);
                fill(&self.question, &question.text);
                fill(&self.explain, &question.explain);
                self.said.set(None);
            }
            Err(error) => self.refuse(error),
        }
    }

    /// Plays the steps marked so far in the player.
    pub fn preview(self) {
        let Some(recording) = self.recording.get_untracked() else {
            return;
        };
        let untitled = |lang: Lang| lang.texts().teacher.untitled.to_string();
        match recording.preview(&read(&self.title), untitled) {
            Ok(scenario) => self.walk.play_teacher(scenario),
            Err(error) => self.refuse(error),
        }
    }

    /// Ends the recording: the scenario is kept, and its link and file offered.
    pub fn finish(self) {
        let Some(recording) = self.recording.get_untracked() else {
            return;
        };
        let scenario = match recording.finish(&read(&self.title), &read(&self.challenge)) {
            Ok(scenario) => scenario,
            Err(error) => return self.refuse_at_end(self.texts().record_error(&error)),
        };
        let mut shelf = self.shelf.get_untracked();
        let kept = match self.editing.get_untracked() {
            Some(at) => shelf.replace(at, scenario),
            None => shelf.add(scenario),
        };
        match kept {
            Ok(at) => {
                self.shelf.set(shelf);
                self.recording.set(None);
                self.editing.set(None);
                self.shared.set(Some(at));
                self.say(self.texts().saved.to_string(), false);
            }
            Err(error) => {
                let reason = self.page_texts().shelf_error(&error);
                self.refuse_at_end(self.texts().refused(&reason))
            }
        }
    }

    /// Stops recording and drops the steps marked (after the person confirms).
    pub fn stop(self) {
        let marked = self
            .recording
            .with_untracked(|r| r.as_ref().map_or(0, Recording::steps));
        if marked > 0
            && !window()
                .confirm_with_message(self.texts().stop_confirm)
                .unwrap_or(false)
        {
            return;
        }
        self.recording.set(None);
        self.editing.set(None);
        self.said.set(None);
    }

    /// Opens a kept scenario in the recorder: its lab becomes the sandbox
    /// (the person's own can be brought back), its words the recorder's.
    pub fn edit(self, at: usize) {
        let Some(scenario) = self
            .shelf
            .with_untracked(|s| s.scenarios().get(at).cloned())
        else {
            return;
        };
        match Recording::resume(&scenario) {
            Ok((recording, lab)) => {
                let lang = |l: Lang| scenario.words(l);
                let piece = |f: &dyn Fn(&crate::walkthrough::ScenarioText) -> &String| {
                    scenario
                        .languages()
                        .into_iter()
                        .map(|l| (l, f(lang(l).1).clone()))
                        .collect::<BTreeMap<_, _>>()
                };
                fill(&self.title, &piece(&|t| &t.title));
                fill(&self.challenge, &piece(&|t| &t.challenge));
                self.clear_step();
                self.recording.set(Some(recording));
                self.editing.set(Some(at));
                self.shared.set(None);
                self.said.set(None);
                self.ctl.load(lab, Replacement::Teacher);
            }
            Err(error) => self.refuse(error),
        }
    }

    pub fn play(self, at: usize) {
        if let Some(scenario) = self
            .shelf
            .with_untracked(|s| s.scenarios().get(at).cloned())
        {
            self.walk.play_teacher(scenario);
        }
    }

    pub fn delete(self, at: usize) {
        self.shelf.update(|s| drop(s.remove(at)));
        // Places after it moved up by one.
        let moved = |place: Option<usize>| match place {
            Some(p) if p == at => None,
            Some(p) if p > at => Some(p - 1),
            other => other,
        };
        self.shared.update(|s| *s = moved(*s));
        self.editing.update(|e| *e = moved(*e));
    }

    pub fn download(self, at: usize) {
        if let Some(scenario) = self
            .shelf
            .with_untracked(|s| s.scenarios().get(at).cloned())
        {
            page_env::download(&file_name(&scenario), &scenario.to_json());
        }
    }

    pub fn download_all(self) {
        let json = self.shelf.with_untracked(Shelf::to_json);
        page_env::download("idempotency-lab-scenarios.json", &json);
    }

    /// The link that opens a kept scenario, or why it cannot be one.
    pub fn link(self, at: usize) -> Option<Result<String, LinkError>> {
        let scenario = self.shelf.with(|s| s.scenarios().get(at).cloned())?;
        let lang = self.ctl.lang.get();
        Some(to_link(&scenario).map(|token| page_env::teach_link(&token, lang).unwrap_or(token)))
    }
}

/// A file name from the title: letters and digits of any script, the rest dashes.
fn file_name(scenario: &TeacherScenario) -> String {
    let title = scenario.title(Lang::En);
    let mut name = String::new();
    for c in title.chars().take(40) {
        if c.is_alphanumeric() {
            name.extend(c.to_lowercase());
        } else if !name.ends_with('-') && !name.is_empty() {
            name.push('-');
        }
    }
    let name = name.trim_end_matches('-');
    let name = if name.is_empty() { "scenario" } else { name };
    format!("{name}.idempotency-lab.json")
}
