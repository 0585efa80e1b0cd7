//! Why the lab refused an action. A refused action changes nothing and is not
//! recorded; the page says the reason in its language.

use std::fmt;

use crate::sim::{Millis, SettingError};

use super::action::MAX_BURST;
use super::limits::{MAX_CLOCK_MOVE_MS, MAX_WAIT_MS};

/// Why an action was refused. A refused action changes nothing and is not recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LabError {
    /// A retry before anything was sent.
    NothingToRetry,
    /// A burst of 0, or of more than [`MAX_BURST`].
    BurstSize(u32),
    /// A wait of no time, or of more than [`MAX_WAIT_MS`].
    WaitLength(Millis),
    /// A setting outside what the lab allows.
    Setting(SettingError),
    /// A stress run's duplicate share above 100 %.
    DuplicatePercent(u8),
    /// The session has reached the size a file or link may carry; reset to go on.
    SessionFull,
    /// Undo with nothing done, or redo with nothing undone.
    NothingToUndo,
    NothingToRedo,
    /// A step while the consumer runs freely: it is taking deliveries already.
    StepNotPaused,
    /// A step with nothing queued, or while the consumer is still applying one.
    NothingToStep,
    /// No running process has this number: there is nothing to crash.
    NoSuchProcess(u32),
    /// No answer to this attempt is on its way back now: there is nothing to lose.
    NoAnswerOnItsWay(u64),
    /// A clock move of no time, or of more than [`MAX_CLOCK_MOVE_MS`].
    ClockMove(Millis),
    /// An account that the request form would refuse (empty, too long, a
    /// space at an end, a character that cannot be seen), for a sign-in or a
    /// preference.
    Account(super::field_error::FieldError),
}

impl fmt::Display for LabError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LabError::NothingToRetry => {
                write!(f, "nothing has been sent yet, so there is nothing to retry")
            }
            LabError::BurstSize(n) => {
                write!(f, "a burst must hold 1 to {MAX_BURST} grants, not {n}")
            }
            LabError::WaitLength(ms) => {
                write!(f, "a wait must last 1 to {MAX_WAIT_MS} ms, not {ms}")
            }
            LabError::Setting(e) => e.fmt(f),
            LabError::DuplicatePercent(p) => {
                write!(f, "the share of duplicates must be 0 to 100 %, not {p} %")
            }
            LabError::SessionFull => write!(
                f,
                "this session is as large as a saved session may be ({} actions, {} grants); \
                 export it if you want to keep it, then reset to go on",
                super::limits::MAX_ACTIONS,
                super::limits::MAX_SENDS
            ),
            LabError::NothingToUndo => write!(f, "there is nothing to undo"),
            LabError::NothingToRedo => write!(f, "there is nothing to redo"),
            LabError::StepNotPaused => write!(
                f,
                "a step is for a paused consumer: pause it first, then step one delivery at a time"
            ),
            LabError::NothingToStep => write!(
                f,
                "nothing to step: the queue is empty, or the consumer is still applying a delivery"
            ),
            LabError::NoSuchProcess(n) => write!(
                f,
                "process {n} is not running, so there is nothing to crash"
            ),
            LabError::NoAnswerOnItsWay(attempt) => write!(
                f,
                "no answer to attempt {attempt} is on its way back now, so there is nothing to lose"
            ),
            LabError::ClockMove(ms) => write!(
                f,
                "the clock moves forward by 1 ms to a year ({MAX_CLOCK_MOVE_MS} ms), not {ms} ms"
            ),
            LabError::Account(e) => write!(f, "that account cannot be used: {e}"),
        }
    }
}

impl std::error::Error for LabError {}

impl From<SettingError> for LabError {
    fn from(e: SettingError) -> Self {
        LabError::Setting(e)
    }
}
