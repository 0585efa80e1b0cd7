//! The lab: a history of actions, the simulated world it drives, and the folds of
//! the world's events that the page shows.

mod action;
mod chart;
mod engine;
mod fold;
mod form;
mod history;
mod session;
mod timeline;

pub use action::{Action, MAX_BURST};
pub use chart::{
    balance_chart, circles_path, diamonds_path, BalanceChart, Mark, CHART_HEIGHT,
    CHART_MAX_ATTEMPTS, CHART_VIEW_BOX, CHART_WIDTH,
};
pub use engine::{
    BalanceRead, LabError, LabState, MAX_SETTING_MS, MAX_WAIT_MS, MIN_CALLER_TIMEOUT_MS,
    STRESS_CONCURRENCY,
};
pub use form::{parse_millis, parse_points, read_request, FieldError, FormErrors, MAX_FIELD_CHARS};
pub use history::{History, Lab, ReplayError};
pub use session::VERSION as SESSION_VERSION;
pub use session::{
    from_json, from_link_token, to_compact_json, to_json, to_link_token, SessionError, MAX_ACTIONS,
    MAX_SENDS, MAX_SESSION_BYTES,
};
pub use timeline::{page_window, Attempt, AttemptRow, Handling, Origin, Outcome, Truth};
