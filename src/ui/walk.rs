//! The walkthrough's state on the page and everything it can do: open a
//! scenario at a step, go forward and truly back, answer, play, fork into the
//! sandbox, and start a challenge. The lab on show is the page's one lab
//! (`Controller::lab`): while the walkthrough is open it holds the script's lab,
//! and the person's sandbox waits aside, untouched and unsaved over.

use std::collections::{HashMap, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::i18n::Lang;
use crate::lab::AttemptId;
use crate::lab::{FieldError, Lab};
use crate::walkthrough::{
    handout_of, has_time, judge, mark, met, play_to, promise_steps, reveal_in, run_step, Content,
    Guest, Handout, Op, Panel, Progress, Scenario, ScenarioText, TeacherScenario,
};

use super::controller::{Controller, Notice, Replacement, Speed, WalkNotice};
use super::deferred::{arrive, with_retries};
use super::{host, page_env};
use crate::host_message::LabEvent;

super::deferred::part! {
    /// Reads the walkthrough's files: in the walkthrough's chunk of a split build.
    walkthrough: fn parse_content(scripts: Rc<String>, text: Rc<String>, lang: &'static str) -> Result<Content, String> {
        // Said in the language the files were fetched for: the page's.
        let texts = Lang::from_tag(lang).unwrap_or(Lang::En).texts();
        Content::parse(&scripts, &text, lang).map_err(|e| texts.content_error(&e))
    }
}

/// Where the walkthrough's files are, beside the page.
const SCRIPTS_URL: &str = "walkthrough/scenarios.json";
/// Autoplay waits this long on a step at each pace (slow, normal, fast).
const PACE_MS: [u32; 3] = [9_000, 6_000, 3_500];

#[derive(Clone)]
pub enum Load {
    Loading,
    Ready(Rc<Content>),
    Failed(String),
}

/// What the learner answered at the current step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Given {
    /// The choice's code, or the number as typed.
    pub answer: String,
    /// `Err`: the typed text is no number (nothing judged).
    pub verdict: Result<bool, FieldError>,
    /// The attempt whose row shows the answer, once the next step has run.
    pub proof: Option<AttemptId>,
}

/// The scenario on show: a section of the course, or a guest, which the
/// course's overview, progress and challenges never count.
#[derive(Clone)]
pub enum OnShow {
    Section(Rc<Content>, usize),
    Guest(Visitor),
}

/// A guest in the player: a history the explorer found, told from what it
/// did, or a teacher's scenario, told in the teacher's words.
#[derive(Clone, PartialEq)]
pub enum Visitor {
    Found(Arc<Guest>),
    Teacher(Arc<TeacherScenario>),
}

impl Visitor {
    pub fn script(&self) -> &Scenario {
        match self {
            Visitor::Found(found) => &found.script,
            Visitor::Teacher(teacher) => teacher.script(),
        }
    }
}

impl OnShow {
    pub fn script(&self) -> &Scenario {
        match self {
            OnShow::Section(content, index) => &content.scripts.scenarios[*index],
            OnShow::Guest(visitor) => visitor.script(),
        }
    }

    /// Its words, in `lang` when it has them, and the language they are in;
    /// none for a found history, which is told from the world alone.
    pub fn words(&self, lang: Lang) -> Option<(Lang, &ScenarioText)> {
        match self {
            OnShow::Section(content, index) => {
                let (_, text) = content.scenario(*index)?;
                Some((lang, text))
            }
            OnShow::Guest(Visitor::Teacher(teacher)) => Some(teacher.words(lang)),
            OnShow::Guest(Visitor::Found(_)) => None,
        }
    }
}

/// A handout ready to print: whose copy, in which language, and which
/// section of how many (none for a teacher's scenario).
#[derive(Debug, Clone, PartialEq)]
pub struct Printed {
    pub handout: Handout,
    pub teacher: bool,
    pub lang: Lang,
    pub section: Option<(usize, usize)>,
}

/// The challenge's last move, which "Show me" left to the learner: the lab's
/// history length it left, to tell whether the learner has moved since.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveLeft {
    pub scenario: usize,
    at: usize,
    pub actions: Vec<crate::lab::Action>,
}

#[derive(Clone, Copy)]
pub struct Walk {
    pub ctl: Controller,
    /// The timeline row to bring into view (shared with the timeline).
    pub reveal: RwSignal<Option<AttemptId>>,
    pub open: RwSignal<bool>,
    pub load: RwSignal<Option<Load>, LocalStorage>,
    /// The course's section on show, or last on show while a guest is.
    pub scenario: RwSignal<usize>,
    /// A guest scenario on show instead of a section.
    pub guest: RwSignal<Option<Visitor>>,
    /// The section's step a guest took the place of, for when it leaves.
    course_step: StoredValue<usize>,
    /// The handout being printed.
    pub handout: RwSignal<Option<Printed>>,
    pub step: RwSignal<usize>,
    pub given: RwSignal<Option<Given>>,
    pub presenter: RwSignal<bool>,
    pub shortcuts: RwSignal<bool>,
    pub help: RwSignal<bool>,
    pub playing: RwSignal<bool>,
    pub pace: RwSignal<usize>,
    pub progress: RwSignal<Progress>,
    /// The scenario whose challenge the sandbox is checking.
    pub challenge: RwSignal<Option<usize>>,
    pub hint: RwSignal<bool>,
    /// What "Show me" left to the learner, while it is left.
    pub move_left: RwSignal<Option<MoveLeft>>,
    /// The question's answer is shown to the room ("Reveal the answer").
    pub answer_shown: RwSignal<bool>,
    /// "Show everything": every panel beside the stage, not only those the
    /// step needs.
    pub everything: RwSignal<bool>,
    /// The person's own lab while the walkthrough's is on show.
    sandbox: StoredValue<Option<Lab>, LocalStorage>,
    speed_before: StoredValue<Speed>,
    /// The sandbox's "replaced, bring back?" notice, taken down while the
    /// walkthrough is open and put up again when the sandbox comes back.
    notice_aside: StoredValue<Option<Notice>>,
    files: StoredValue<HashMap<&'static str, Rc<String>>, LocalStorage>,
    contents: StoredValue<HashMap<&'static str, Rc<Content>>, LocalStorage>,
    /// A step's time is being played (see `walk_play`).
    pub animating: RwSignal<bool>,
    pub(super) anim_run: StoredValue<u64>,
    pub(super) queue: StoredValue<VecDeque<Op>>,
    pub(super) end: StoredValue<crate::lab::Millis>,
    /// The lab as the step being played will leave it: what the narration states.
    target: StoredValue<Option<Lab>, LocalStorage>,
    /// The row that proves an answer, to bring into view once the step has played.
    proof: StoredValue<Option<AttemptId>>,
    /// Counts autoplay runs: a run that is no longer the newest stops.
    play_run: StoredValue<u64>,
    /// A deep link waiting for the files, as written.
    pending: StoredValue<Option<(String, Option<String>)>>,
    /// The deep link asks for presenter mode.
    pending_presenter: StoredValue<bool>,
    /// Progress is read from and kept in the browser (not in tests).
    persist: StoredValue<bool>,
    /// An embed of one scenario (`?embed=1&scenario=…`): its steps alone, and
    /// the rest of the lab in a new tab.
    lesson: StoredValue<bool>,
    progress_read: StoredValue<bool>,
}

impl Walk {
    pub fn new(ctl: Controller, reveal: RwSignal<Option<AttemptId>>) -> Self {
        Self {
            ctl,
            reveal,
            open: RwSignal::new(false),
            load: RwSignal::new_local(None),
            scenario: RwSignal::new(0),
            guest: RwSignal::new(None),
            course_step: StoredValue::new(0),
            handout: RwSignal::new(None),
            step: RwSignal::new(0),
            given: RwSignal::new(None),
            presenter: RwSignal::new(false),
            shortcuts: RwSignal::new(true),
            help: RwSignal::new(false),
            playing: RwSignal::new(false),
            pace: RwSignal::new(1),
            progress: RwSignal::new(Progress::default()),
            challenge: RwSignal::new(None),
            hint: RwSignal::new(false),
            move_left: RwSignal::new(None),
            answer_shown: RwSignal::new(false),
            everything: RwSignal::new(false),
            sandbox: StoredValue::new_local(None),
            speed_before: StoredValue::new(Speed::Normal),
            notice_aside: StoredValue::new(None),
            files: StoredValue::new_local(HashMap::new()),
            contents: StoredValue::new_local(HashMap::new()),
            animating: RwSignal::new(false),
            anim_run: StoredValue::new(0),
            queue: StoredValue::new(VecDeque::new()),
            end: StoredValue::new(0),
            target: StoredValue::new_local(None),
            proof: StoredValue::new(None),
            play_run: StoredValue::new(0),
            pending: StoredValue::new(None),
            pending_presenter: StoredValue::new(false),
            persist: StoredValue::new(false),
            lesson: StoredValue::new(false),
            progress_read: StoredValue::new(false),
        }
    }

    /// Makes the walkthrough a lesson: one scenario's steps, nothing else.
    pub fn make_lesson(self) {
        self.lesson.set_value(true);
    }

    /// Whether the walkthrough is a lesson (see `make_lesson`).
    pub fn lesson(self) -> bool {
        self.lesson.get_value()
    }

    /// Keeps progress and the shortcuts setting in the browser from now on.
    pub fn persist(self) {
        self.persist.set_value(true);
        self.shortcuts.set(page_env::shortcuts_on());
        // Each save adds to what is kept, so two tabs never erase each other's.
        Effect::new(move |_| {
            let mine = self.progress.get();
            let (true, Some(content)) = (self.progress_read.get_value(), self.content_untracked())
            else {
                return;
            };
            let mut kept = page_env::load_progress()
                .map(|json| Progress::fitting(&json, &content.scripts))
                .unwrap_or_default();
            kept.merge(mine);
            page_env::save_progress(&kept.to_json());
        });
    }

    /// Reads the kept progress once the scripts are here to check it against,
    /// keeping what still fits them.
    fn read_progress(self, content: &Content) {
        if !self.persist.get_value() || self.progress_read.get_value() {
            return;
        }
        if let Some(json) = page_env::load_progress() {
            let kept = Progress::fitting(&json, &content.scripts);
            self.progress.update(|p| p.merge(kept));
        }
        self.progress_read.set_value(true);
    }

    /// Files already read (tests, or a page that ships them inline).
    pub fn preload(self, lang: Lang, content: Content) {
        self.contents
            .update_value(|c| drop(c.insert(lang.tag(), Rc::new(content))));
    }

    pub fn content(self) -> Option<Rc<Content>> {
        match self.load.get() {
            Some(Load::Ready(content)) => Some(content),
            _ => None,
        }
    }

    fn content_untracked(self) -> Option<Rc<Content>> {
        match self.load.get_untracked() {
            Some(Load::Ready(content)) => Some(content),
            _ => None,
        }
    }

    /// The scenario on show (tracked).
    pub fn on_show(self) -> Option<OnShow> {
        if let Some(visitor) = self.guest.get() {
            return Some(OnShow::Guest(visitor));
        }
        let (content, index) = self.section()?;
        Some(OnShow::Section(content, index))
    }

    fn on_show_untracked(self) -> Option<OnShow> {
        untrack(move || self.on_show())
    }

    /// The course's section on show (tracked): none while a guest is.
    pub fn section(self) -> Option<(Rc<Content>, usize)> {
        if self.guest.with(Option::is_some) {
            return None;
        }
        let content = self.content()?;
        let index = self.scenario.get();
        (index < content.scripts.scenarios.len()).then_some((content, index))
    }

    /// Makes the language's files ready, fetching what is not yet here, then
    /// opens a waiting deep link.
    pub fn ensure_loaded(self, lang: Lang) {
        if let Some(content) = self.contents.with_value(|c| c.get(lang.tag()).cloned()) {
            self.read_progress(&content);
            self.load.set(Some(Load::Ready(content)));
            self.open_pending();
            return;
        }
        self.load.set(Some(Load::Loading));
        spawn_local(async move {
            let result = self.fetch(lang).await;
            if self.open.is_disposed() || self.ctl.lang.get_untracked() != lang {
                return;
            }
            match result {
                Ok(content) => {
                    let content = Rc::new(content);
                    self.read_progress(&content);
                    self.contents
                        .update_value(|c| drop(c.insert(lang.tag(), content.clone())));
                    self.load.set(Some(Load::Ready(content)));
                    self.open_pending();
                }
                Err(message) => {
                    self.load.set(Some(Load::Failed(message.clone())));
                    self.pending.set_value(None);
                    self.ctl
                        .notice
                        .set(Some(Notice::Walk(WalkNotice::LoadFailed(message))));
                }
            }
        });
    }

    async fn fetch(self, lang: Lang) -> Result<Content, String> {
        let scripts = self.file(SCRIPTS_URL).await?;
        let text_url = format!("walkthrough/{}.json", lang.tag());
        let text = Rc::new(page_env::fetch_text(&text_url).await?);
        let tag = lang.tag();
        let parsed = with_retries(
            || arrive!(parse_content(scripts.clone(), text.clone(), tag)),
            None,
        )
        .await;
        parsed.map_err(|_| lang.texts().part_failed.to_string())?
    }

    async fn file(self, url: &'static str) -> Result<Rc<String>, String> {
        if let Some(text) = self.files.with_value(|f| f.get(url).cloned()) {
            return Ok(text);
        }
        let text = Rc::new(page_env::fetch_text(url).await?);
        self.files
            .update_value(|f| drop(f.insert(url, text.clone())));
        Ok(text)
    }

    /// Opens the walkthrough where it was (the first step the first time).
    pub fn start(self) {
        self.go_to_step(None, self.step.get_untracked() as u64 + 1);
    }

    /// Opens a step (from 1) of the scenario named, or of the one on show,
    /// once the files are here; as a deep link, one the walkthrough lacks is
    /// said and changes nothing.
    pub fn go_to_step(self, scenario: Option<String>, step: u64) {
        let id = scenario.unwrap_or_else(|| format!("s{}", self.scenario.get_untracked() + 1));
        self.pending.set_value(Some((id, Some(step.to_string()))));
        self.ensure_loaded(self.ctl.lang.get_untracked());
    }

    /// A deep link `?scenario=&step=`: opened once the files are here; one that
    /// names what the walkthrough lacks is said and changes nothing.
    pub fn start_from_link(self, id: String, step: Option<String>) {
        self.pending.set_value(Some((id, step)));
        self.pending_presenter.set_value(page_env::presenter_link());
        self.ensure_loaded(self.ctl.lang.get_untracked());
    }

    fn open_pending(self) {
        let Some((id, step)) = self.pending.try_update_value(Option::take).flatten() else {
            return;
        };
        let Some(content) = self.content_untracked() else {
            return;
        };
        let scenarios = content.scripts.scenarios.len();
        let Some(index) = content.find(&id) else {
            self.refuse(WalkNotice::UnknownScenario { id, scenarios });
            return;
        };
        let steps = content.scripts.scenarios[index].steps.len();
        let step_index = match step {
            None => Ok(0),
            Some(text) => crate::lab::parse_whole(&text)
                .ok()
                .filter(|n| (1..=steps as u64).contains(n))
                .map(|n| n as usize - 1)
                .ok_or(text),
        };
        match step_index {
            Ok(step) => {
                self.go(index, step);
                if self.pending_presenter.get_value() {
                    self.presenter.set(true);
                }
            }
            Err(step) => self.refuse(WalkNotice::UnknownStep { id, step, steps }),
        }
    }

    fn refuse(self, notice: WalkNotice) {
        self.ctl.notice.set(Some(Notice::Walk(notice)));
        if !self.open.get_untracked() {
            page_env::remember_walk_in_url(None);
        }
    }

    /// Shows a scenario at a step: its lab rebuilt from the script, so a step
    /// reached any way (back, restart, a link) is the same.
    pub fn go(self, scenario: usize, step: usize) {
        let Some(content) = self.content_untracked() else {
            return;
        };
        if scenario >= content.scripts.scenarios.len() {
            self.fail(format!("#{}", scenario + 1));
            return;
        }
        if self.guest.with_untracked(Option::is_some) {
            self.guest.set(None);
        }
        self.open_at(OnShow::Section(content, scenario), step);
    }

    /// Plays a history the explorer found in the player from its first
    /// step; the course's place is kept for afterwards.
    pub fn play_guest(self, guest: Guest) {
        self.play_visitor(Visitor::Found(Arc::new(guest)));
    }

    /// Plays a teacher's scenario in the player, labelled as one; the
    /// course's place is kept for afterwards.
    pub fn play_teacher(self, scenario: TeacherScenario) {
        self.play_visitor(Visitor::Teacher(Arc::new(scenario)));
    }

    fn play_visitor(self, visitor: Visitor) {
        self.playing.set(false);
        if self.guest.with_untracked(Option::is_none) {
            self.course_step.set_value(self.step.get_untracked());
        }
        self.guest.set(Some(visitor.clone()));
        self.open_at(OnShow::Guest(visitor), 0);
    }

    /// Shows a step of the scenario on show, its lab rebuilt from the script.
    fn open_at(self, on: OnShow, step: usize) {
        self.stop_animation();
        let (step, lab) = match play_to(on.script(), step) {
            Ok(played) => played,
            Err(error) => {
                self.fail_content(&error);
                return;
            }
        };
        if !self.open.get_untracked() {
            self.speed_before.set_value(self.ctl.speed.get_untracked());
            self.ctl.skipping.set(false);
            self.ctl.speed.set(Speed::Paused);
            self.challenge.set(None);
            // "Bring back" would put a lab in the walkthrough's place: the
            // person's own lab is set aside now, and is what comes back.
            // It is put up again when the sandbox comes back, so a link that
            // opened a session and a walkthrough step at once still offers the
            // person's own session back.
            let replaced = self
                .ctl
                .notice
                .with_untracked(|n| matches!(n, Some(Notice::Replaced(_))));
            self.notice_aside.set_value(None);
            if replaced {
                self.notice_aside.set_value(self.ctl.notice.get_untracked());
                self.ctl.notice.set(None);
            }
            let sandbox = self.ctl.show(lab);
            self.sandbox.set_value(Some(sandbox));
            self.open.set(true);
        } else {
            self.ctl.show(lab);
        }
        self.landed(&on, step);
    }

    fn landed(self, on: &OnShow, step: usize) {
        if let OnShow::Section(_, scenario) = on {
            self.scenario.set(*scenario);
        }
        self.step.set(step);
        self.given.set(None);
        self.hint.set(false);
        self.answer_shown.set(false);
        match on {
            OnShow::Section(..) => {
                let id = &on.script().id;
                self.progress.update(|p| p.saw(id, step + 1));
                page_env::remember_walk_in_url(Some((id, step + 1)));
                host::tell(&LabEvent::Step {
                    scenario: id.clone(),
                    step: step + 1,
                });
            }
            // A guest is no place in the course: the address names none.
            OnShow::Guest(_) => page_env::remember_walk_in_url(None),
        }
        let script = &on.script().steps[step];
        // Autoplay stops at a question, so the class can answer it.
        if script.question.is_some() {
            self.playing.set(false);
        }
        // Its proof, read from the lab as the step leaves it (while its
        // time plays, from the end worked out ahead).
        let parts = |lab: &Lab| {
            script
                .marks
                .iter()
                .filter_map(|name| mark(name, lab.state()).ok())
                .collect::<Vec<_>>()
        };
        let marks = self
            .target
            .with_value(|t| t.as_ref().map(parts))
            .unwrap_or_else(|| self.ctl.lab.with_untracked(parts));
        self.ctl.marks.set(marks);
        // A promise an earlier step broke is told as broken then.
        let earlier = promise_steps(on.script(), step)
            .map(|steps| steps.map(|s| s.broken_before(step)))
            .unwrap_or_default();
        self.ctl.broken_earlier.set(earlier);
        // Once drawn, the first mark among the panels is brought into view
        // (the panels may still be arriving after a deep link).
        // It is looked at again for a while: panels arriving or drawn anew
        // after the first look may move it (it is scrolled only when out of
        // view, so a look that finds it in place changes nothing).
        let step_now = self.step;
        spawn_local(async move {
            let mut in_place = 0;
            for _ in 0..20 {
                TimeoutFuture::new(50).await;
                if step_now.try_get_untracked() != Some(step) {
                    return;
                }
                if page_env::show_first_mark() {
                    in_place += 1;
                    if in_place >= 6 {
                        return;
                    }
                }
            }
        });
    }

    /// Whether `panel` is in view beside the stage: in the sandbox always; in
    /// the walkthrough when the step needs it, or with "Show everything".
    pub fn shows(self, panel: Panel) -> bool {
        if !self.open.get() || self.everything.get() {
            return true;
        }
        let step = self.step.get();
        self.on_show()
            .is_none_or(|on| on.script().steps.get(step).is_none_or(|s| s.shows(panel)))
    }

    /// The scenario on show cannot be played or told: why, in the page's words.
    fn fail_content(self, error: &crate::walkthrough::ContentError) {
        self.fail(self.ctl.lang.get_untracked().texts().content_error(error));
    }

    pub(super) fn fail(self, message: String) {
        self.playing.set(false);
        self.ctl
            .notice
            .set(Some(Notice::Walk(WalkNotice::LoadFailed(message))));
    }

    pub fn steps(self) -> usize {
        self.on_show().map_or(0, |on| on.script().steps.len())
    }

    /// Runs the next step on the lab on show. False at the last step.
    pub fn next(self) -> bool {
        let Some(on) = self.on_show_untracked() else {
            return false;
        };
        let step = self.step.get_untracked();
        let Some(next) = on.script().steps.get(step + 1) else {
            self.playing.set(false);
            return false;
        };
        let proof = self.given.get_untracked().and_then(|g| g.proof);
        // A step still playing lands on its end first.
        self.finish();
        if has_time(next) && !page_env::reduced_motion() {
            // Its end, worked out ahead: the narration states it while time plays.
            let target = match play_to(on.script(), step + 1) {
                Ok((_, lab)) => lab,
                Err(error) => {
                    self.fail_content(&error);
                    return false;
                }
            };
            let end = target.state().now();
            self.target.set_value(Some(target));
            self.landed(&on, step + 1);
            self.animate(next, end);
            // Its proof is on the timeline once the step has played.
            self.proof.set_value(proof);
        } else {
            let result = self
                .ctl
                .lab
                .try_update(|lab| run_step(lab, next))
                .unwrap_or(Ok(()));
            if let Err(error) = result {
                self.fail(format!("{error:?}"));
                return false;
            }
            self.landed(&on, step + 1);
            // The answer's proof is on the timeline now: bring its row into view.
            if proof.is_some() {
                self.reveal.set(proof);
            }
        }
        true
    }

    pub(super) fn take_proof(self) -> Option<AttemptId> {
        self.proof.try_update_value(Option::take).flatten()
    }

    pub(super) fn take_target(self) -> Option<Lab> {
        self.target.try_update_value(Option::take).flatten()
    }

    pub fn back(self) {
        let step = self.step.get_untracked();
        if let (Some(before), Some(on)) = (step.checked_sub(1), self.on_show_untracked()) {
            self.open_at(on, before);
        }
    }

    pub fn restart(self) {
        self.playing.set(false);
        if let Some(on) = self.on_show_untracked() {
            self.open_at(on, 0);
        }
    }

    /// Renders `f` of the lab the narration speaks of: the step's end while
    /// its time plays, else the lab on show.
    pub fn with_narrated<R>(self, f: impl Fn(&Lab) -> R) -> R {
        if self.animating.get() {
            if let Some(r) = self.target.try_with_value(|t| t.as_ref().map(&f)).flatten() {
                return r;
            }
        }
        self.ctl.lab.with(f)
    }

    /// Leaves the walkthrough: the person's own lab comes back as it was.
    pub fn close(self) {
        self.stop_animation();
        self.playing.set(false);
        self.help.set(false);
        self.presenter.set(false);
        if let Some(sandbox) = self.sandbox.try_update_value(Option::take).flatten() {
            self.ctl.show(sandbox);
        }
        self.open.set(false);
        if self.guest.with_untracked(Option::is_some) {
            self.guest.set(None);
            // "Walkthrough" opens the course where it was.
            self.step.set(self.course_step.get_value());
        }
        self.ctl.marks.set(Vec::new());
        self.ctl
            .broken_earlier
            .set([None; crate::lab::Invariant::COUNT]);
        self.ctl.speed.set(self.speed_before.get_value());
        if let Some(notice) = self.notice_aside.try_update_value(Option::take).flatten() {
            if self.ctl.can_bring_back() {
                self.ctl.notice.set(Some(notice));
            }
        }
        self.ctl.pump();
        page_env::remember_walk_in_url(None);
    }

    /// "Try it yourself": the lab at this step becomes the sandbox; the person's
    /// earlier sandbox can be brought back from the notice.
    pub fn fork(self) {
        self.finish();
        let Some(sandbox) = self.sandbox.try_update_value(Option::take).flatten() else {
            return;
        };
        let here = self.ctl.show(sandbox);
        self.close();
        self.ctl.load(here, Replacement::Fork);
    }

    /// The challenge of the current scenario, in a new sandbox.
    pub fn start_challenge(self) {
        let scenario = self.scenario.get_untracked();
        if self.open.get_untracked() {
            self.close();
        }
        self.ctl.load(Lab::new(), Replacement::Challenge);
        // The banner says the challenge has begun; the notice stays only to
        // offer the person's own lab back, when there was one.
        if !self.ctl.can_bring_back() {
            self.ctl.notice.set(None);
        }
        self.hint.set(false);
        self.move_left.set(None);
        self.challenge.set(Some(scenario));
    }

    /// "Show me": in a new sandbox, performs the challenge's solution up to its
    /// last step and says which move is left: the last move, and what it
    /// shows, are the learner's. Pressed again before the learner has moved,
    /// it makes that move too, and the challenge is met. The sandbox's
    /// replaced lab stays the one to bring back.
    pub fn show_me(self) {
        let (Some(content), Some(scenario)) =
            (self.content_untracked(), self.challenge.get_untracked())
        else {
            return;
        };
        let solution = &content.scripts.scenarios[scenario].solution;
        let Some((last, before)) = solution.split_last() else {
            return;
        };
        // The second press, on the lab the first one left: the last move.
        let untouched = self.move_left.get_untracked().is_some_and(|left| {
            left.scenario == scenario
                && self
                    .ctl
                    .lab
                    .with_untracked(|lab| lab.history().actions.len() == left.at)
        });
        let steps = if untouched {
            std::slice::from_ref(last)
        } else {
            self.ctl.show(Lab::new());
            before
        };
        for step in steps {
            let result = self.ctl.lab.try_update(|lab| run_step(lab, step));
            if let Some(Err(error)) = result {
                self.fail(format!("{error:?}"));
                return;
            }
        }
        self.move_left.set((!untouched).then(|| {
            MoveLeft {
                scenario,
                at: self
                    .ctl
                    .lab
                    .with_untracked(|lab| lab.history().actions.len()),
                actions: last.actions.clone(),
            }
        }));
        self.hint.set(!untouched);
        self.ctl.pump();
    }

    /// Whether the sandbox meets the running challenge.
    pub fn challenge_met(self) -> Option<bool> {
        let scenario = self.challenge.get()?;
        let content = self.content()?;
        let checks = &content.scripts.scenarios.get(scenario)?.challenge;
        Some(self.ctl.lab.with(|lab| met(checks, lab.state())))
    }

    /// The step on show: its scenario's id and its number from 1.
    /// None while a guest is on show: it is no place in the course.
    pub fn place(self) -> Option<(String, usize)> {
        let (content, index) = self.section()?;
        let id = content.scripts.scenarios[index].id.clone();
        Some((id, self.step.get() + 1))
    }

    /// Prints the handout of the scenario on show (a section, or a teacher's
    /// scenario) in the page's language, or the one a teacher's scenario is
    /// written in: the student's copy, or the teacher's (every narration, and
    /// the answer key on its own page).
    pub fn print(self, teacher: bool) {
        let Some(on) = self.on_show_untracked() else {
            return;
        };
        let Some((lang, text)) = on.words(self.ctl.lang.get_untracked()) else {
            return;
        };
        let section = match &on {
            OnShow::Section(content, index) => Some((index + 1, content.scripts.scenarios.len())),
            OnShow::Guest(_) => None,
        };
        match handout_of(on.script(), text, |n| lang.number(n)) {
            Ok(paper) => {
                self.handout.set(Some(Printed {
                    handout: paper,
                    teacher,
                    lang,
                    section,
                }));
                // Once the handout is drawn.
                spawn_local(async {
                    TimeoutFuture::new(0).await;
                    page_env::print_handout();
                });
            }
            Err(error) => self.fail_content(&error),
        }
    }

    /// Judges an answer to the current step's question.
    pub fn give(self, given: String) {
        let Some(on) = self.on_show_untracked() else {
            return;
        };
        let step = self.step.get_untracked();
        let Ok(Some(revealed)) = reveal_in(on.script(), step) else {
            return;
        };
        let (expected, proof) = (revealed.value, revealed.proof);
        let verdict = judge(&expected, &given);
        // Only the course's sections are kept in the progress and told.
        if let (OnShow::Section(..), Ok(correct)) = (&on, &verdict) {
            let id = &on.script().id;
            if *correct {
                self.progress.update(|p| p.answered(id, step + 1));
            }
            host::tell(&LabEvent::Answered {
                scenario: id.clone(),
                step: step + 1,
                correct: *correct,
            });
        }
        self.given.set(Some(Given {
            answer: given,
            verdict,
            proof,
        }));
    }

    /// Plays the scenario: a step every few seconds, stopping at a question and
    /// at the end.
    pub fn play(self) {
        if self.playing.get_untracked() {
            return;
        }
        self.playing.set(true);
        self.play_run.update_value(|r| *r += 1);
        let run = self.play_run.get_value();
        spawn_local(async move {
            let stopped = move || {
                self.playing.is_disposed()
                    || !self.playing.get_untracked()
                    || self.play_run.get_value() != run
            };
            loop {
                // A step still playing its time is not cut short; then the pace
                // leaves its end on show a while.
                while self.animating.get_untracked() {
                    TimeoutFuture::new(100).await;
                    if stopped() {
                        return;
                    }
                }
                let wait = PACE_MS[self.pace.get_untracked().min(2)];
                let mut waited = 0;
                while waited < wait {
                    TimeoutFuture::new(100).await;
                    if stopped() {
                        return;
                    }
                    waited += 100;
                }
                if !self.open.get_untracked() || !self.next() {
                    self.playing.set(false);
                    return;
                }
            }
        });
    }

    /// A step the person takes by hand: autoplay stops, so it never undoes it.
    pub fn step_forward(self) {
        self.playing.set(false);
        self.next();
    }

    /// From a section's end to the next section's first step (not in a
    /// lesson, which is one section).
    pub fn next_section(self) {
        if self.lesson() || self.guest.with_untracked(Option::is_some) {
            return;
        }
        self.playing.set(false);
        let next = self.scenario.get_untracked() + 1;
        if self
            .content_untracked()
            .is_some_and(|c| next < c.scripts.scenarios.len())
        {
            self.go(next, 0);
        }
    }

    pub fn step_back(self) {
        self.playing.set(false);
        self.back();
    }

    /// Whether the clicker may go on past this section's ends: a section of
    /// the course in the full lab (a lesson is one section; a guest none).
    fn crosses_sections(self) -> bool {
        !self.lesson() && self.guest.with_untracked(Option::is_none)
    }

    /// A clicker's "next" (Page Down, the arrow pointing the text's way): the
    /// next step, and from a section's last step the next section's first, so
    /// a lecturer never walks to the mouse. After the course's last step it
    /// stays there, where the page says the course is done.
    pub fn clicker_forward(self) {
        let at_end = self.step.get_untracked() + 1 >= self.steps_untracked();
        if at_end && self.crosses_sections() {
            self.next_section();
        } else {
            self.step_forward();
        }
    }

    /// A clicker's "previous": the step before, and from a section's first
    /// step the previous section's last.
    pub fn clicker_back(self) {
        if self.step.get_untracked() > 0 || !self.crosses_sections() {
            self.step_back();
            return;
        }
        self.playing.set(false);
        let Some(before) = self.scenario.get_untracked().checked_sub(1) else {
            return;
        };
        let Some(content) = self.content_untracked() else {
            return;
        };
        let last = content.scripts.scenarios[before]
            .steps
            .len()
            .saturating_sub(1);
        self.go(before, last);
    }

    /// The step count of what is on show, read without tracking.
    fn steps_untracked(self) -> usize {
        self.on_show_untracked()
            .map_or(0, |on| on.script().steps.len())
    }

    pub fn toggle_play(self) {
        if self.playing.get_untracked() {
            self.playing.set(false);
        } else {
            self.play();
        }
    }
}
