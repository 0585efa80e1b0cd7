//! The classroom walkthrough: the article, section by section, as scripts of lab
//! actions with narration per language. Scripts and narration are data files
//! (`walkthrough/` beside the app, fetched when the walkthrough opens); this
//! module reads them, checks them against each other, and runs a script on the
//! same lab the sandbox uses, so nothing a scenario shows is faked.

mod fact;
mod guest;
mod handout;
mod marks;
mod narration;
mod play;
mod progress;
mod promise_steps;
mod question;
mod recording;
mod script;
mod shelf;
mod teacher;
mod teacher_link;
mod tour;

pub use fact::{Fact, FactError, RowRef, Value};
pub use guest::{Guest, GuestStep, GUEST_ID};
pub use handout::{handout, handout_of, Handout, HandoutQuestion, HandoutStep};
pub use marks::{mark, parse_mark};
pub use narration::{placeholders, render, LanguageFile, ScenarioText, StepText, TemplateError};
pub use play::{advance, has_time, ops, Op};
pub use progress::{Progress, ProgressError, ScenarioProgress, Standing, MAX_PROGRESS_BYTES};
pub use promise_steps::{promise_steps, PromiseSteps};
pub use question::{question_text, question_text_in};
pub use recording::{choices_of, offered, QuestionDraft, RecordError, Recording, StepDraft};
pub use script::{Answer, Check, Compare, Excerpt, Panel, Question, Scenario, Scripts, Step, Than};
pub use shelf::{read_scenarios, Shelf, ShelfError, MAX_SHELF, SHELF_FORMAT};
pub use teacher::{
    Piece, TeacherError, TeacherFile, TeacherScenario, MAX_PIECE_CHARS, MAX_TEACHER_BYTES,
    MAX_TEACHER_STEPS, TEACHER_FORMAT, TEACHER_ID, TEACHER_VERSION,
};
pub use teacher_link::{from_link, to_link, LinkError, MAX_LINK_CHARS, TEACH_FRAGMENT};
pub use tour::{
    answer, judge, met, play_to, reveal, reveal_in, run_step, Content, ContentError, Revealed, Tour,
};
