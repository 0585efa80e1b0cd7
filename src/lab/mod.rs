//! The lab: a history of actions, the simulated world it drives, and the folds of
//! the world's events that the page shows.

mod action;
mod chart;
mod decimal;
mod error;
pub mod explore;
mod field_error;
mod fold;
mod form;
mod invariants;
mod json_read;
mod limits;
mod read_action;
mod receipt_row;
mod recorded_lab;
mod row_says;
mod session;
mod stage;
mod stage_part;
mod state;
mod story;
mod text;
mod timeline;
mod tokens;
mod world_reads;

pub use action::{Action, MAX_BURST};
pub use chart::{
    attempt_label_indices, balance_chart, chart_account, chevrons_path, dots_path, percent,
    value_axis, AttemptTick, BalanceChart, ChartRow, ChartSummary, Mark, ValueAxis, ValueTick,
    CHART_HEIGHT, CHART_MAX_ATTEMPTS, CHART_TABLE_ROWS, CHART_VIEW_BOX, CHART_WIDTH,
    MAX_ATTEMPT_LABELS,
};
pub use decimal::Decimal;
pub use state::{BalanceRead, LabError, LabState, StressProgress, STRESS_CONCURRENCY};
// The world's words the page needs (settings, numbers, times), as the lab's
// own: the page reads the lab, never the world.
pub use crate::sim::{
    Acknowledge, AttemptId, Faults, Millis, ProcessNumber, Routing, Setting, SettingError,
    Settings, Slot, StoreKind, HOUR_MS, MAX_PROCESSES, MAX_RETENTION_HOURS, MAX_SETTING_MS,
    MAX_TRANSIT_MS, MIN_CALLER_TIMEOUT_MS,
};
pub use field_error::FieldError;
pub use fold::Line;
pub use form::{
    parse_integer, parse_millis, parse_points, parse_whole, read_request, FormErrors,
    MAX_FIELD_CHARS,
};
pub use invariants::{Break, Invariant, Invariants};
pub use json_read::{read_json, Expected, FieldProblem, Found, ReadError};
pub use limits::{MAX_ACTIONS, MAX_CLOCK_MOVE_MS, MAX_SENDS, MAX_WAIT_MS};
pub use recorded_lab::{History, Lab, ReplayError};
pub use row_says::{AttemptSays, CallerSays, CrashLeft, KnownBy, RowSays, StoreSays};
pub use session::VERSION as SESSION_VERSION;
pub use session::{
    before_transit, field_place, from_json, from_json_counted, from_link_token, to_compact_json,
    to_json, to_link_token, SessionError, MAX_SESSION_BYTES,
};
pub use stage::{
    CallerMark, CallerState, Hop, Lane, LaneCount, ProcessState, Stage, StageCaller, StageDurable,
    StageMail, StageProcess, StoreMark, StoreTables, Token, TokenKind, DROP_MARK_MS, GHOST_MS,
    MAX_CALLERS, MAX_STORE_ROWS, MAX_TOKENS_PER_LANE, STORE_MARK_MS, TRAVEL_MS,
};
pub use stage_part::StagePart;
pub use story::{story_step, STORY_ACCOUNT, STORY_STEPS};
pub use text::{is_invisible, look_alike_problem, visible};
pub use timeline::{
    page_window, Attempt, AttemptRow, DurableWrites, Forbidden, Handling, LookedUp, Marker,
    MarkerKind, MetInProgress, Origin, Outcome, RegrantCause, Truth,
};
