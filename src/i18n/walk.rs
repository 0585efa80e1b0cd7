//! The walkthrough's own controls and messages (keys `walk.*` in
//! `texts/<tag>.json`). The narration is not here: it is in
//! `walkthrough/<tag>.json`, fetched when the walkthrough opens.

use std::ops::Deref;

use super::catalog::{Arg, Catalog};
use super::declare::words;
use crate::lab::FieldError;
use crate::walkthrough::{ProgressError, Standing};

words!(
    /// The walkthrough's messages that take no value.
    WalkWords, "walk." {
    open, region, section, next, previous, restart, skip, try_it, presenter, close, play,
    pause, pace, keys, shortcuts, everything, next_section, course_done, walked, reveal_answer, the_answer, keys_title, keys_off, close_keys, predict, answer, check,
    right, wrong, proof, code, deciding, challenge, hint, start_challenge, show_me,
    challenge_pending, challenge_open, leave_challenge, loading, load_failed, done, progress,
    export_progress, import_progress, progress_imported, forked, challenge_started, panels,
    overview, not_started, challenge_left, back_to_lesson, continue_full, print_handout,
    print_teacher, handout_student, handout_teacher, handout_answer_space, handout_observe,
    handout_challenge, handout_key, handout_name,
});

/// How many single-key shortcuts the walkthrough lists.
pub const SHORTCUTS: usize = 8;

pub struct WalkTexts {
    catalog: &'static Catalog,
    words: WalkWords,
}

impl Deref for WalkTexts {
    type Target = WalkWords;

    fn deref(&self) -> &WalkWords {
        &self.words
    }
}

fn count(n: usize) -> Arg<'static> {
    Arg::Count(n as u64)
}

impl WalkTexts {
    pub(super) fn new(catalog: &'static Catalog) -> WalkTexts {
        WalkTexts {
            catalog,
            words: WalkWords::read(catalog),
        }
    }

    /// The three paces of playing, slowest first.
    pub fn paces(&self) -> [&'static str; 3] {
        ["walk.pace.1", "walk.pace.2", "walk.pace.3"].map(|key| self.catalog.word(key))
    }

    /// The single-key shortcuts: the key as the keyboard names it, and what it does.
    /// An embedded lesson leaves Page Down, Page Up and Space to the docs page,
    /// and has no presenter mode: its list names the keys it takes.
    pub fn keys_list(&self, lesson: bool) -> Vec<(&'static str, &'static str)> {
        const KEYS: [(&str, &str); SHORTCUTS] = [
            ("walk.shortcut.1", "walk.shortcut.1.does"),
            ("walk.shortcut.2", "walk.shortcut.2.does"),
            ("walk.shortcut.3", "walk.shortcut.3.does"),
            ("walk.shortcut.4", "walk.shortcut.4.does"),
            ("walk.shortcut.5", "walk.shortcut.5.does"),
            ("walk.shortcut.6", "walk.shortcut.6.does"),
            ("walk.shortcut.7", "walk.shortcut.7.does"),
            ("walk.shortcut.8", "walk.shortcut.8.does"),
        ];
        const IN_A_LESSON: [(&str, &str); 6] = [
            ("walk.shortcut.1.lesson", "walk.shortcut.1.does"),
            ("walk.shortcut.2.lesson", "walk.shortcut.2.does"),
            ("walk.shortcut.4", "walk.shortcut.4.does"),
            ("walk.shortcut.5", "walk.shortcut.5.does"),
            ("walk.shortcut.7", "walk.shortcut.7.does"),
            ("walk.shortcut.8.lesson", "walk.shortcut.8.lesson.does"),
        ];
        let keys: &[(&str, &str)] = if lesson { &IN_A_LESSON } else { &KEYS };
        keys.iter()
            .map(|(key, does)| (self.catalog.word(key), self.catalog.word(does)))
            .collect()
    }

    /// What "Show me" left to the learner: the move, told in words.
    pub fn move_left(&self, moves: &str) -> String {
        self.catalog
            .say("walk.move_left", &[("move", Arg::Text(moves.to_owned()))])
    }

    /// A handout's step heading.
    pub fn handout_step(&self, n: usize) -> String {
        self.catalog.say("walk.handout_step", &[("n", count(n))])
    }

    /// A handout's question heading (numbered through the scenario).
    pub fn handout_question(&self, n: usize) -> String {
        self.catalog
            .say("walk.handout_question", &[("n", count(n))])
    }

    pub fn section_of(&self, k: usize, n: usize) -> String {
        self.catalog
            .say("walk.section_of", &[("k", count(k)), ("n", count(n))])
    }

    /// How many sections were walked to their end, and how many of those are
    /// done (their challenge met too), for the overview's heading.
    pub fn overview_count(&self, walked: usize, done: usize, n: usize) -> String {
        self.catalog.say(
            "walk.overview_count",
            &[
                ("walked", count(walked)),
                ("done", count(done)),
                ("n", count(n)),
            ],
        )
    }

    /// Where a learner stands in a section, and what is left to finish it.
    pub fn standing(&self, standing: Standing) -> String {
        match standing {
            Standing::NotStarted => self.not_started.to_string(),
            Standing::AtStep { furthest, steps } => self.catalog.say(
                "walk.at_step",
                &[("k", count(furthest)), ("n", count(steps))],
            ),
            Standing::Walked {
                questions_left,
                challenge_left,
            } => {
                let mut parts = vec![self.walked.to_string()];
                if questions_left > 0 {
                    let n = [("n", count(questions_left))];
                    parts.push(self.catalog.say("walk.questions_left", &n));
                }
                if challenge_left {
                    parts.push(self.challenge_left.to_string());
                }
                parts.join(self.catalog.word("separator"))
            }
            Standing::Done => self.done.to_string(),
        }
    }

    pub fn step_of(&self, k: usize, n: usize) -> String {
        self.catalog
            .say("walk.step_of", &[("k", count(k)), ("n", count(n))])
    }

    pub fn bad_answer(&self, error: FieldError) -> &'static str {
        self.catalog.word(match error {
            FieldError::Empty => "walk.bad_answer.empty",
            _ => "walk.bad_answer.other",
        })
    }

    pub fn unknown_scenario(&self, id: &str, scenarios: usize) -> String {
        let args = [
            ("id", Arg::Text(id.to_string())),
            ("last", Arg::Text(format!("s{scenarios}"))),
        ];
        self.catalog.say("walk.unknown_scenario", &args)
    }

    pub fn unknown_step(&self, id: &str, step: &str, steps: usize) -> String {
        let args = [
            ("id", Arg::Text(id.to_string())),
            ("step", Arg::Text(step.to_string())),
            ("first", count(1)),
            ("n", count(steps)),
        ];
        self.catalog.say("walk.unknown_step", &args)
    }

    pub fn progress_failed(&self, error: &ProgressError) -> String {
        let key = match error {
            ProgressError::TooLarge => "walk.progress_failed.too_large",
            ProgressError::NotProgress => "walk.progress_failed.not_progress",
            ProgressError::Version(v) => {
                let version = Arg::Count(u64::from(*v));
                return self
                    .catalog
                    .say("walk.progress_failed.version", &[("version", version)]);
            }
            ProgressError::UnknownScenario(id) => {
                let id = Arg::Text(id.to_string());
                return self
                    .catalog
                    .say("walk.progress_failed.unknown_scenario", &[("id", id)]);
            }
            ProgressError::UnknownStep { scenario, step } => {
                let args = [
                    ("scenario", Arg::Text(scenario.to_string())),
                    ("step", count(*step)),
                ];
                return self.catalog.say("walk.progress_failed.unknown_step", &args);
            }
        };
        self.catalog.word(key).to_string()
    }
}
