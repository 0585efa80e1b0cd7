//! The page's only way to change the lab: dispatch an action. And the clock pump:
//! the world's virtual time follows the wall clock (gloo-timers), scaled by the
//! speed control, while something in the world is still due to happen.

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::drawers::Drawers;
use super::page_env::now_ms;
use crate::i18n::Lang;
use crate::lab::{Action, FieldError, Lab, LabError, SessionError, Settings};

/// How often the pump moves the clock at a paced speed.
const TICK_MS: u32 = 50;
/// A real gap longer than this (a hidden tab, a debugger) moves the world by this
/// much only, so it never leaps ahead while nobody watches.
const LONGEST_TICK_MS: f64 = 1_000.0;
/// When skipping to idle, the world runs in slices of about this long, yielding to
/// the browser between them, so a 10,000-grant run never blocks it.
const SLICE_MS: f64 = 6.0;
/// While skipping, the page is redrawn at most this often: drawing a page of new
/// timeline rows costs more than the slices of work between two draws.
const SKIP_REDRAW_MS: f64 = 100.0;
/// A big batch (a stress run) is applied now and drawn in the next task.
const BIG_BATCH: u64 = 1_000;

/// How fast virtual time runs against the wall clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speed {
    Paused,
    Quarter,
    Half,
    Normal,
    Double,
    Quadruple,
}

impl Speed {
    pub const ALL: [Speed; 6] = [
        Speed::Paused,
        Speed::Quarter,
        Speed::Half,
        Speed::Normal,
        Speed::Double,
        Speed::Quadruple,
    ];

    /// Virtual milliseconds per real millisecond, in quarters.
    fn quarters(self) -> u32 {
        match self {
            Speed::Paused => 0,
            Speed::Quarter => 1,
            Speed::Half => 2,
            Speed::Normal => 4,
            Speed::Double => 8,
            Speed::Quadruple => 16,
        }
    }

    /// How long `virtual_ms` of the world's time lasts on the wall clock at
    /// this speed (stopped: as at normal speed, for a picture held still).
    pub fn real_ms(self, virtual_ms: f64) -> f64 {
        let quarters = match self.quarters() {
            0 => 4,
            q => q,
        };
        virtual_ms * 4.0 / f64::from(quarters)
    }

    /// The option's value and its label ("1x"), the same in every language.
    pub fn code(self) -> &'static str {
        match self {
            Speed::Paused => "0",
            Speed::Quarter => "0.25x",
            Speed::Half => "0.5x",
            Speed::Normal => "1x",
            Speed::Double => "2x",
            Speed::Quadruple => "4x",
        }
    }

    pub fn from_code(code: &str) -> Option<Speed> {
        Speed::ALL.into_iter().find(|s| s.code() == code)
    }
}

/// A message above the lab, until the next accepted action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    Lab(LabError),
    /// The form has invalid fields; nothing was sent.
    FixFields,
    /// The link's session could not be opened; the lab kept what it had.
    Link(SessionError),
    /// The chosen file could not be imported; the lab kept what it had.
    Import(SessionError),
    /// A session was imported, with this many actions.
    Imported(usize),
    /// The session saved before the reload could not be restored.
    Saved(SessionError),
    /// The saved session or the address's link could not be read at start:
    /// the part of the lab that reads them did not arrive. Both are kept for
    /// a reload, and nothing is saved over them meanwhile.
    SessionsUnread,
    /// A link pasted later could not be read: that part did not arrive; the
    /// link stays in the address.
    LinkUnread,
    /// The browser refused to keep the session (storage off or full).
    NotKept,
    /// The browser gives no storage to this frame at all, and the page that
    /// frames it is another site's: the session lasts the visit.
    NotKeptFramed,
    /// A setting's field (named by its label) does not hold a number; nothing changed.
    Setting(&'static str, FieldError),
    /// A reset, a link or an import replaced the session; the old one can come back.
    Replaced(Replacement),
    /// The session a reset, link or import replaced is back.
    BroughtBack,
    /// Another tab saved its session under this lab's key.
    OtherTab,
    /// A newer build of the lab is kept for offline use and waits for the
    /// person to take it (never swapped in mid-lesson).
    UpdateReady,
    /// A stress run was asked for while the last one still runs: nothing started.
    StressRunning(crate::lab::StressProgress),
    /// Undo or redo landed on a moment with work still due, and the clock was
    /// stopped there so it can be looked at.
    ClockStopped,
    /// About the walkthrough: a link it cannot open, its files, progress.
    Walk(WalkNotice),
    /// The texts of the language asked for did not load: the page stays as it is.
    Language(Lang, String),
    /// About a teacher's scenario: opened, kept, or refused (with why), in
    /// the page's words.
    Teacher {
        text: String,
        error: bool,
    },
    /// A new tab was asked for and the browser did not open it (a frame
    /// sandboxed without `allow-popups`, or a popup blocker).
    PopupBlocked,
}

/// What the walkthrough has to tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WalkNotice {
    /// A link names a scenario the walkthrough lacks (it has `scenarios`).
    UnknownScenario {
        id: String,
        scenarios: usize,
    },
    /// A link names a step the scenario lacks (it has `steps`).
    UnknownStep {
        id: String,
        step: String,
        steps: usize,
    },
    /// The walkthrough's files could not be fetched or read.
    LoadFailed(String),
    ProgressImported,
    ProgressFailed(crate::walkthrough::ProgressError),
}

/// What put a new session in place of the old one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replacement {
    Reset,
    Link,
    /// An imported file, with this many actions.
    Import(usize),
    /// "Try it yourself": the walkthrough's lab at its step.
    Fork,
    /// A new sandbox for a walkthrough challenge.
    Challenge,
    /// "Try it yourself": the history the explorer found.
    Explorer,
    /// A teacher's scenario opened in the recorder to be edited: its lab.
    Teacher,
}

impl Notice {
    /// Errors are announced at once (role "alert"); the rest politely. Storage that
    /// is off (a sandboxed embed, say) is worth knowing, not an alarm.
    pub fn is_error(&self) -> bool {
        !matches!(
            self,
            Notice::Imported(_)
                | Notice::NotKept
                | Notice::NotKeptFramed
                | Notice::Replaced(_)
                | Notice::BroughtBack
                | Notice::OtherTab
                | Notice::UpdateReady
                | Notice::ClockStopped
                | Notice::Walk(WalkNotice::ProgressImported)
                | Notice::Teacher { error: false, .. }
        )
    }
}

/// Signals shared by every component. `Copy`, so closures can capture it freely.
#[derive(Clone, Copy)]
pub struct Controller {
    pub lab: RwSignal<Lab, LocalStorage>,
    pub lang: RwSignal<Lang>,
    pub notice: RwSignal<Option<Notice>>,
    pub speed: RwSignal<Speed>,
    /// Running the world as fast as it goes until it is idle.
    pub skipping: RwSignal<bool>,
    /// Counts whole-lab replacements (reset, import, link), so views keyed by
    /// attempt id know a new lab's attempt 1 is not the old one's.
    pub epoch: RwSignal<u64>,
    /// Which settings drawers are open.
    pub drawers: Drawers,
    /// The attempt whose timeline row is pointed at or focused: the stage
    /// marks its parts.
    pub highlight: RwSignal<Option<crate::lab::AttemptId>>,
    /// What proves the walkthrough step's point: marked where it is drawn.
    pub marks: RwSignal<Vec<crate::lab::StagePart>>,
    /// In the walkthrough, each promise (in `Invariant::ALL`'s order) an
    /// earlier step broke and none broke since: that step, from 0. Shown as
    /// broken then, not as the state of the step on show.
    pub broken_earlier: RwSignal<[Option<usize>; crate::lab::Invariant::COUNT]>,
    /// "Embed on a page" is open (`embed_dialog`); its openers set it.
    pub embedding: RwSignal<bool>,
    pump_running: StoredValue<bool>,
    /// When the page last drew what a skip did.
    skip_drawn_at: StoredValue<f64>,
    /// The session the last reset, link or import replaced, until it is brought
    /// back or the person acts on the new one.
    replaced: StoredValue<Option<Lab>, LocalStorage>,
}

impl Controller {
    /// One of the world's settings, as a value a control can watch.
    pub fn setting<T>(self, read: fn(&Settings) -> T) -> Memo<T>
    where
        T: PartialEq + Clone + Send + Sync + 'static,
    {
        Memo::new(move |_| self.lab.with(|lab| read(&lab.state().settings())))
    }

    pub fn new(lang: Lang, lab: Lab) -> Self {
        Self {
            lab: RwSignal::new_local(lab),
            lang: RwSignal::new(lang),
            notice: RwSignal::new(None),
            speed: RwSignal::new(Speed::Normal),
            skipping: RwSignal::new(false),
            epoch: RwSignal::new(0),
            drawers: Drawers::new(),
            highlight: RwSignal::new(None),
            marks: RwSignal::new(Vec::new()),
            broken_earlier: RwSignal::new([None; crate::lab::Invariant::COUNT]),
            embedding: RwSignal::new(false),
            pump_running: StoredValue::new(false),
            skip_drawn_at: StoredValue::new(0.0),
            replaced: StoredValue::new_local(None),
        }
    }

    /// Carries out an action; a refusal is shown and changes nothing. Says whether
    /// the action was accepted.
    pub fn dispatch(self, action: Action) -> bool {
        // Building thousands of callers and redrawing the page then never add up
        // to one long task.
        let big = action.sends() > BIG_BATCH;
        let apply = |lab: &mut Lab| lab.dispatch(action);
        let result = if big {
            self.lab.try_update_untracked(apply)
        } else {
            self.lab.try_update(apply)
        }
        .unwrap_or(Ok(()));
        self.settle_result(result.map(|()| big))
    }

    fn settle_result(self, result: Result<bool, LabError>) -> bool {
        match result {
            Ok(big) => {
                self.notice.set(None);
                if big {
                    spawn_local(async move {
                        TimeoutFuture::new(0).await;
                        self.lab.notify();
                    });
                }
                self.pump();
                true
            }
            Err(error) => {
                self.notice.set(Some(Notice::Lab(error)));
                false
            }
        }
    }

    /// Steps back over the last thing done. The clock stops if the world would
    /// otherwise run on at once, so the class sees the earlier moment.
    pub fn undo(self) {
        let result = self.lab.try_update(Lab::undo).unwrap_or(Ok(()));
        self.after_time_travel(result);
    }

    pub fn redo(self) {
        let result = self.lab.try_update(Lab::redo).unwrap_or(Ok(()));
        self.after_time_travel(result);
    }

    /// Whether the timeline row pointed at or focused is `attempt`'s.
    pub fn highlighted(self, attempt: Option<crate::lab::AttemptId>) -> bool {
        attempt.is_some() && self.highlight.get() == attempt
    }

    /// Whether the walkthrough's step marks `part` as its proof.
    pub fn marked(self, part: &crate::lab::StagePart) -> bool {
        self.marks.with(|m| m.contains(part))
    }

    /// Whether the step marks `attempt` (wherever the attempt is drawn).
    pub fn marked_attempt(self, attempt: Option<crate::lab::AttemptId>) -> bool {
        attempt.is_some_and(|a| self.marked(&crate::lab::StagePart::Attempt(a)))
    }

    /// Takes the lab to a moment of its history (the time slider): forward again
    /// to the end, or on from there, as after an undo.
    pub fn travel_to(self, at: crate::lab::Millis) {
        self.lab.update(|lab| lab.travel_to(at));
        self.after_time_travel(Ok(()));
    }

    fn after_time_travel(self, result: Result<(), LabError>) {
        // Told when the clock stops here, and still told on a further undo or
        // redo while it stays stopped.
        let told = self
            .notice
            .with_untracked(|n| n == &Some(Notice::ClockStopped));
        let stop =
            result.is_ok() && self.busy() && (told || self.speed.get_untracked() != Speed::Paused);
        if result.is_ok() && self.busy() {
            self.skipping.set(false);
            self.speed.set(Speed::Paused);
        }
        self.settle_result(result.map(|()| false));
        // Said after the settling, which clears the notices of the last action.
        if stop {
            self.notice.set(Some(Notice::ClockStopped));
        }
    }

    /// Replaces the whole lab (reset, an imported or linked session) and lets it
    /// run on. Nothing is lost: the old session, if anything was done in it, can be
    /// brought back from the notice that says what happened.
    pub fn load(self, lab: Lab, by: Replacement) {
        // The same session again (a frame's shared state, reloaded before the
        // reader changed it) replaces nothing worth bringing back.
        let same = self
            .lab
            .with_untracked(|now| now.history() == lab.history());
        let old = self.swap(lab);
        let worth_keeping = !old.history().actions.is_empty() && !same;
        self.replaced.set_value(worth_keeping.then_some(old));
        self.notice.set(match by {
            Replacement::Import(actions) if !worth_keeping => Some(Notice::Imported(actions)),
            // Nothing was replaced: a link opened in a fresh browser just opens.
            Replacement::Reset | Replacement::Link | Replacement::Explorer if !worth_keeping => {
                None
            }
            _ => Some(Notice::Replaced(by)),
        });
    }

    pub fn reset(self) {
        self.load(Lab::new(), Replacement::Reset);
    }

    /// Whether a replaced session is waiting to be brought back.
    pub fn can_bring_back(self) -> bool {
        self.replaced.with_value(Option::is_some)
    }

    /// Puts back the session the last reset, link or import replaced.
    pub fn bring_back(self) {
        if let Some(old) = self.replaced.try_update_value(Option::take).flatten() {
            self.swap(old);
            self.notice.set(Some(Notice::BroughtBack));
        }
    }

    /// Puts a lab on show with no notice and no way back (the walkthrough's
    /// steps, and the sandbox it set aside); returns the one it replaced.
    pub fn show(self, lab: Lab) -> Lab {
        self.swap(lab)
    }

    /// Puts `lab` in place and returns the one it replaced.
    fn swap(self, lab: Lab) -> Lab {
        self.epoch.update(|e| *e += 1);
        let old = self
            .lab
            .try_update(|current| std::mem::replace(current, lab))
            .unwrap_or_default();
        self.pump();
        old
    }

    pub fn set_speed(self, speed: Speed) {
        self.speed.set(speed);
        self.clear_clock_stopped();
        self.pump();
    }

    /// Runs the world until nothing more is due, as fast as the page allows.
    pub fn skip_to_idle(self) {
        self.skipping.set(true);
        self.clear_clock_stopped();
        self.pump();
    }

    /// The clock runs again: the notice that said it was stopped is done.
    fn clear_clock_stopped(self) {
        if self
            .notice
            .with_untracked(|n| n == &Some(Notice::ClockStopped))
        {
            self.notice.set(None);
        }
    }

    /// Whether something in the world is still due to happen by itself.
    fn busy(self) -> bool {
        self.lab
            .with_untracked(|lab| lab.state().until_next().is_some())
    }

    /// Moves the world's clock while it is busy: with the wall clock at the chosen
    /// speed, or in slices when skipping. One pump at a time; it stops when the
    /// world is idle or the clock is paused, and the next action starts it again.
    pub fn pump(self) {
        if self.pump_running.get_value() || !self.busy() {
            if !self.busy() {
                self.skipping.set(false);
            }
            return;
        }
        self.pump_running.set_value(true);
        spawn_local(async move {
            let mut last = now_ms();
            loop {
                TimeoutFuture::new(if self.skipping.get_untracked() {
                    0
                } else {
                    TICK_MS
                })
                .await;
                // The page (or a test's mount) that owned the lab is gone.
                if self.lab.is_disposed() {
                    return;
                }
                let now = now_ms();
                let real = (now - last).min(LONGEST_TICK_MS);
                last = now;
                if !self.busy() {
                    break;
                }
                if self.skipping.get_untracked() {
                    if self.skip_slice() {
                        continue;
                    }
                    break;
                }
                let quarters = self.speed.get_untracked().quarters();
                if quarters == 0 {
                    break;
                }
                let ms = (real * f64::from(quarters) / 4.0).round().max(1.0) as u64;
                if !self.dispatch_quietly(Action::Wait { ms }) {
                    break;
                }
            }
            if !self.busy() {
                self.skipping.set(false);
            }
            self.pump_running.set_value(false);
        });
    }

    /// Jumps from event to event for one slice of real time, then lets the page
    /// draw. False when the lab refused to go on (a full session), with its message.
    fn skip_slice(self) -> bool {
        let started = now_ms();
        let result = self.lab.try_update_untracked(|lab| {
            while now_ms() - started < SLICE_MS && lab.skip_to_next()? {}
            Ok(())
        });
        let done = !self.busy();
        if done || now_ms() - self.skip_drawn_at.get_value() >= SKIP_REDRAW_MS {
            self.skip_drawn_at.set_value(now_ms());
            self.lab.notify();
        }
        match result {
            Some(Err(error)) => {
                self.skipping.set(false);
                self.notice.set(Some(Notice::Lab(error)));
                false
            }
            _ => true,
        }
    }

    /// A tick of the clock: no notice is cleared, and a refusal (a full session)
    /// stops the pump with its message.
    fn dispatch_quietly(self, action: Action) -> bool {
        match self.lab.try_update(|lab| lab.dispatch(action)) {
            Some(Err(error)) => {
                self.notice.set(Some(Notice::Lab(error)));
                false
            }
            _ => true,
        }
    }
}
