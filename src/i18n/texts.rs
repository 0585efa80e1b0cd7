//! The lab's words in the language in use: the messages that take no value as
//! fields ([`Words`]), and one method per message that does, which decides
//! which message a case needs and what values fill it. The words themselves are
//! in `texts/<tag>.json`.

use std::ops::Deref;

use super::catalog::{Arg, Catalog};
use super::declare::words;
use super::explorer::ExplorerTexts;
use super::stage::StageTexts;
use super::teacher::TeacherTexts;
use super::walk::WalkTexts;
use super::Lang;
use crate::core::{
    CrashPoint, EmailVia, GrantError, GrantPoints, GrantResult, InFlightPolicy, Language,
};
use crate::lab::{
    CrashLeft, DurableWrites, FieldError, Invariant, LabError, Marker, MarkerKind, Outcome,
    RegrantCause, SettingError, Truth, MAX_ACTIONS, MAX_FIELD_CHARS, MAX_SENDS, MAX_SETTING_MS,
    MAX_WAIT_MS,
};
use crate::sim::{Acknowledge, AttemptId, Millis, Routing, StoreKind};

words!(
    /// The lab's messages that take no value.
    Words, "" {
    title, tagline, request, account, key, points, lose_ack, lose_ack_hint, send, retry_same,
    retry_fresh, retries_resend, check_balance, reset, queue, consumer_holds, consumer_idle,
    consumer_paused, consumer_next, pause, timeline, timeline_empty, col_attempt, col_request,
    col_store, col_caller, col_balance, key_reused, lost_ack_marker, store_applied,
    store_replayed, store_rejected, caller_receipt, caller_error, caller_timeout, caller_waiting,
    chart_title, chart_current, chart_receipt, chart_unseen, chart_empty, store, balances,
    receipts, no_balances, no_receipts, receipt_balance, receipts_table, balance_read,
    balance_read_note, balance_read_refused, fix_fields, dismiss, bring_back, reset_done,
    boot_failed, link_opened, brought_back, clock_stopped, stopped_with_work, other_tab, update_ready, update_now, step, step_hint,
    language, share, copy_link, link_hint, link_copying, link_copied, link_not_copied_framed, link_not_copied, export,
    import, link_failed, import_failed, saved_failed, not_kept, not_kept_framed, open_full, popup_blocked, part_failed, try_again, sessions_unread,
    embed_open, embed_title, embed_intro, embed_shows, embed_sandbox, embed_state, embed_lesson,
    embed_theme, embed_theme_auto, embed_theme_light, embed_theme_dark, embed_full_width,
    embed_width, embed_height, embed_fit, embed_code, embed_copy, embed_close, embed_id,
    embed_id_error, embed_frame_title, embed_title_error, embed_csp, embed_csp_frame, boot_loading, boot_sandboxed, newer, older, latest,
    world, speed, speed_paused, skip_to_idle, idle, running, caller_timeout_label,
    processing_time_label, transit_label, transit_hint, restart, restart_hint, naive, naive_hint, naive_balances, undo, redo,
    move_hour, move_day, move_to_label, move_to, move_to_hint, time_format, time_minutes,
    storage, store_kind_label, crash_label, crash_hint, crash_armed, processes_label,
    processes_hint, routing_label, routing_one_process, retention_label, retention_hint,
    ledger_label, ledger_hint, durable_only, store_title_durable, store_title_memories,
    store_not_yet, store_never, caller_process_ended, chart_value_axis, chart_attempt_axis,
    chart_below, chart_connector, chart_table, chart_col_attempt, chart_col_balance,
    chart_col_mark, chart_mark_receipt, chart_mark_older, chart_mark_unseen, chart_mark_none,
    invariants_title, invariants_intro, invariant_holds, invariant_broken, lost_race,
    lost_race_receipt, by_ledger, callers, in_flight_label, in_progress_title, in_progress_none,
    set_language_hint, acknowledge_label, caller_queue,
    signed_in_label, signed_in_nobody, signed_in_hint, email_via_label,
    inbox_title, inbox_empty, auto_retry_label, auto_retry_hint, max_attempts_label,
    backoff_title, show_all_settings, request_and_settings, history_slider, history_end,
    outcome_applied_again, see_in_picture,
});

/// One language's words: those that take no value as fields (through
/// `Deref`), the rest as methods, and the walkthrough's in `walk`.
pub struct Texts {
    pub lang: Lang,
    catalog: &'static Catalog,
    words: Words,
    pub walk: WalkTexts,
    pub stage: StageTexts,
    pub explorer: ExplorerTexts,
    pub teacher: TeacherTexts,
}

impl Deref for Texts {
    type Target = Words;

    fn deref(&self) -> &Words {
        &self.words
    }
}

fn count(n: impl TryInto<u64>) -> Arg<'static> {
    Arg::Count(n.try_into().unwrap_or(u64::MAX))
}

/// A number a refusal names (a limit, a value refused): grouped as the page
/// writes numbers, sign and all.
fn whole(n: impl TryInto<i128>) -> Arg<'static> {
    Arg::Whole(n.try_into().unwrap_or(i128::MAX))
}

impl Texts {
    pub(super) fn new(lang: Lang, catalog: Catalog) -> Texts {
        // Kept for the page's life, so the words can be borrowed for as long.
        let catalog: &'static Catalog = Box::leak(Box::new(catalog));
        Texts {
            lang,
            catalog,
            words: Words::read(catalog),
            walk: WalkTexts::new(catalog),
            stage: StageTexts::new(catalog),
            explorer: ExplorerTexts::new(catalog),
            teacher: TeacherTexts::new(lang, catalog),
        }
    }

    pub fn catalog(&self) -> &'static Catalog {
        self.catalog
    }

    /// A number as the page shows it: in this language's digits.
    pub fn num(&self, n: impl std::fmt::Display) -> String {
        self.catalog.number(n)
    }

    /// A count with its thousands grouped, in this language's digits (10,000).
    pub fn grouped(&self, n: u64) -> String {
        self.catalog.grouped(n.into())
    }

    fn say(&self, key: &str, args: &[(&str, Arg)]) -> String {
        self.catalog.say(key, args)
    }

    /// What stands between the parts of a line ("order-1 · answered"): a mark
    /// no digit of the language can be taken for (Persian's zero is a dot).
    pub fn sep(&self) -> &'static str {
        self.catalog.word("separator")
    }

    fn word(&self, key: &'static str) -> &'static str {
        self.catalog.word(key)
    }

    /// The article's story in four steps (`lab::story_step` carries each out).
    pub fn how_to(&self) -> [&'static str; 4] {
        ["how_to.1", "how_to.2", "how_to.3", "how_to.4"].map(|key| self.word(key))
    }

    /// The button that carries out one of those steps.
    pub fn how_to_do(&self, step: usize) -> String {
        self.say("how_to_do", &[("step", count(step))])
    }

    pub fn burst(&self, n: u32) -> String {
        self.say("burst", &[("n", count(n))])
    }

    /// The timeline's rows, counted in its heading.
    pub fn timeline_count(&self, n: usize) -> String {
        self.say("timeline_count", &[("n", count(n))])
    }

    /// The slots taken, short, beside the queue's picture.
    pub fn queue_count(&self, used: usize, cap: usize) -> String {
        self.say("queue_count", &[("used", count(used)), ("cap", count(cap))])
    }

    pub fn queue_slots(&self, used: usize, cap: usize) -> String {
        self.say("queue_slots", &[("used", count(used)), ("cap", count(cap))])
    }

    /// "attempt 12": names a queued delivery the way the timeline's # column does.
    pub fn attempt_number(&self, n: u64) -> String {
        self.say("attempt_number", &[("n", count(n))])
    }

    pub fn producers_waiting(&self, n: usize) -> String {
        self.say("producers_waiting", &[("n", count(n))])
    }

    /// "first", or which retry of its operation an attempt is.
    pub fn nth_attempt(&self, n: u32) -> String {
        let retry = count(n.saturating_sub(1));
        self.say("nth_attempt", &[("n", count(n)), ("retry", retry)])
    }

    pub fn outcome(&self, outcome: Outcome) -> &'static str {
        self.word(match outcome {
            Outcome::Pending => "outcome.pending",
            Outcome::Applied => "outcome.applied",
            Outcome::Replayed => "outcome.replayed",
            Outcome::Rejected => "outcome.rejected",
            Outcome::Timeout => "outcome.timeout",
            Outcome::TimeoutApplied => "outcome.timeout_applied",
            Outcome::ProcessEnded => "outcome.process_ended",
            Outcome::InProgress => "outcome.in_progress",
            Outcome::Redelivered => "outcome.redelivered",
            Outcome::Forbidden => "outcome.forbidden",
            Outcome::GaveUpLookedUp => "outcome.gave_up_looked_up",
        })
    }

    /// When a balance read was made: its virtual time and the attempt the store had handled last.
    pub fn balance_read_when(&self, ms: Millis, after: Option<u64>) -> String {
        let time = ("time", Arg::Time(ms));
        match after {
            Some(n) => self.say("balance_read_when.after", &[time, ("n", count(n))]),
            None => self.say("balance_read_when.before", &[time]),
        }
    }

    /// The read is out of date: what the balance is now.
    pub fn balance_read_stale(&self, now: i32) -> String {
        self.say(
            "balance_read_stale",
            &[("balance", Arg::Amount(now.into()))],
        )
    }

    /// Why a size in the embed dialog was refused.
    pub fn size_error(&self, error: crate::embed_code::SizeError) -> String {
        match error {
            crate::embed_code::SizeError::Field(error) => self.field_error(error),
            crate::embed_code::SizeError::Range { min, max } => self.say(
                "session_error.problem.whole",
                &[("min", whole(min)), ("max", whole(max))],
            ),
        }
    }

    pub fn field_error(&self, error: FieldError) -> String {
        let key = match error {
            FieldError::Empty => "field_error.empty",
            FieldError::TooLong => {
                return self.say("field_error.too_long", &[("max", whole(MAX_FIELD_CHARS))])
            }
            FieldError::NotANumber => "field_error.not_a_number",
            FieldError::NotPositive => "field_error.not_positive",
            FieldError::Negative => "field_error.negative",
            FieldError::TooLarge => {
                return self.say("field_error.too_large", &[("max", whole(i32::MAX))])
            }
            FieldError::EdgeSpace => "field_error.edge_space",
            FieldError::DoubleSpace => "field_error.double_space",
            FieldError::Invisible => "field_error.invisible",
        };
        self.word(key).to_string()
    }

    pub fn grant_error(&self, error: &GrantError) -> String {
        let key = match error {
            GrantError::PayloadMismatch { stored, rejected } => {
                return self.say(
                    "grant_error.payload_mismatch",
                    &[
                        ("key", Arg::Id(&stored.key)),
                        ("account", Arg::Id(&stored.account_id)),
                        ("stored", Arg::Amount(stored.points.into())),
                        ("rejected", Arg::Amount(rejected.points.into())),
                    ],
                )
            }
            GrantError::Forbidden { signed_in, named } => {
                return self.say(
                    "grant_error.forbidden",
                    &[("signed_in", Arg::Id(signed_in)), ("named", Arg::Id(named))],
                )
            }
            GrantError::Overflow => {
                return self.say("grant_error.overflow", &[("max", whole(i32::MAX))])
            }
            GrantError::EmptyKey => "grant_error.empty_key",
            GrantError::EmptyAccount => "grant_error.empty_account",
            GrantError::NonPositivePoints => "grant_error.non_positive_points",
            GrantError::Timeout => "grant_error.timeout",
            GrantError::WorkerStopped => "grant_error.worker_stopped",
            GrantError::InProgress => "grant_error.in_progress",
        };
        self.word(key).to_string()
    }

    /// A few words for a table cell; the full sentence is in `grant_error`.
    pub fn grant_error_short(&self, error: &GrantError) -> String {
        let key = match error {
            GrantError::PayloadMismatch { stored, .. } => {
                return self.say(
                    "grant_error_short.payload_mismatch",
                    &[("stored", Arg::Amount(stored.points.into()))],
                )
            }
            GrantError::EmptyKey => "grant_error_short.empty_key",
            GrantError::EmptyAccount => "grant_error_short.empty_account",
            GrantError::NonPositivePoints => "grant_error_short.non_positive_points",
            GrantError::Overflow => "grant_error_short.overflow",
            GrantError::Timeout => "grant_error_short.timeout",
            GrantError::WorkerStopped => "grant_error_short.worker_stopped",
            GrantError::InProgress => "grant_error_short.in_progress",
            GrantError::Forbidden { .. } => "grant_error_short.forbidden",
        };
        self.word(key).to_string()
    }

    pub fn lab_error(&self, error: &LabError) -> String {
        let refused = |key: &str, max: u64, value: u64| {
            self.say(key, &[("max", whole(max)), ("value", whole(value))])
        };
        let key = match error {
            LabError::Setting(setting) => {
                let (key, max, value) = match *setting {
                    SettingError::CallerTimeout(ms) => {
                        ("lab_error.caller_timeout", MAX_SETTING_MS, ms)
                    }
                    SettingError::ProcessingTime(ms) => {
                        ("lab_error.processing_time", MAX_SETTING_MS, ms)
                    }
                    SettingError::Transit(ms) => {
                        ("lab_error.transit", crate::sim::MAX_TRANSIT_MS, ms)
                    }
                    SettingError::Retention(h) => (
                        "lab_error.retention",
                        crate::lab::MAX_RETENTION_HOURS.into(),
                        h,
                    ),
                    SettingError::MaxAttempts(n) => (
                        "lab_error.max_attempts",
                        crate::core::MAX_ATTEMPTS.into(),
                        n,
                    ),
                    SettingError::Processes(n) => (
                        "lab_error.processes",
                        crate::sim::MAX_PROCESSES as u64,
                        n as u64,
                    ),
                    SettingError::RoutingSlot(n) => (
                        "lab_error.routing_slot",
                        crate::sim::MAX_PROCESSES as u64,
                        n as u64,
                    ),
                };
                return refused(key, max, value);
            }
            LabError::ClockMove(ms) => {
                return refused("lab_error.clock_move", crate::lab::MAX_CLOCK_MOVE_MS, *ms)
            }
            LabError::BurstSize(n) => {
                return refused(
                    "lab_error.burst_size",
                    crate::lab::MAX_BURST.into(),
                    (*n).into(),
                )
            }
            LabError::WaitLength(ms) => return refused("lab_error.wait_length", MAX_WAIT_MS, *ms),
            LabError::DuplicatePercent(p) => {
                return self.say("lab_error.duplicate_percent", &[("value", count(*p))])
            }
            LabError::Account(e) => {
                let problem = Arg::Text(self.field_error(*e));
                return self.say("lab_error.account", &[("problem", problem)]);
            }
            LabError::SessionFull => {
                return self.say(
                    "lab_error.session_full",
                    &[("actions", whole(MAX_ACTIONS)), ("sends", whole(MAX_SENDS))],
                )
            }
            LabError::NoSuchProcess(n) => {
                return self.say("lab_error.no_such_process", &[("n", count(*n))])
            }
            LabError::NoAnswerOnItsWay(attempt) => {
                return self.say("lab_error.no_answer_on_way", &[("n", count(*attempt))])
            }
            LabError::NothingToRetry => "lab_error.nothing_to_retry",
            LabError::NothingToUndo => "lab_error.nothing_to_undo",
            LabError::NothingToRedo => "lab_error.nothing_to_redo",
            LabError::StepNotPaused => "lab_error.step_not_paused",
            LabError::NothingToStep => "lab_error.nothing_to_step",
        };
        self.word(key).to_string()
    }

    /// Another language's texts did not load, so the page stays in this one.
    pub fn language_failed(&self, lang: Lang, reason: &str) -> String {
        let args = [
            ("language", Arg::Text(lang.name().to_string())),
            ("reason", Arg::Text(reason.to_string())),
        ];
        self.say("language_failed", &args)
    }

    pub fn imported(&self, n: usize) -> String {
        self.say("imported", &[("n", count(n))])
    }

    pub fn stress(&self, grants: u32, duplicate_percent: u8) -> String {
        self.say(
            "stress",
            &[
                ("n", Arg::Grouped(grants.into())),
                ("percent", count(duplicate_percent)),
            ],
        )
    }

    /// A stress run under way: how many of its callers have heard back, of how many.
    pub fn stress_progress(&self, answered: u32, total: u32) -> String {
        let args = [
            ("answered", Arg::Grouped(answered.into())),
            ("total", Arg::Grouped(total.into())),
        ];
        self.say("stress_progress", &args)
    }

    /// The stress button pressed while a run is under way.
    pub fn stress_refused(&self, answered: u32, total: u32) -> String {
        let args = [
            ("answered", Arg::Grouped(answered.into())),
            ("total", Arg::Grouped(total.into())),
        ];
        self.say("stress_refused", &args)
    }

    pub fn rows_range(&self, from: usize, to: usize, total: usize) -> String {
        let args = [
            ("from", count(from)),
            ("to", count(to)),
            ("total", count(total)),
        ];
        self.say("rows_range", &args)
    }

    pub fn receipts_more(&self, n: usize) -> String {
        self.say("receipts_more", &[("n", count(n))])
    }

    pub fn chart_recent(&self, n: usize) -> String {
        self.say("chart_recent", &[("n", count(n))])
    }

    /// The clock line: virtual time, and the running processes' numbers by slot.
    pub fn clock(&self, ms: Millis, processes: &[u32]) -> String {
        let time = ("time", Arg::Time(ms));
        match processes {
            [a, b] => self.say("clock.two", &[time, ("a", count(*a)), ("b", count(*b))]),
            [a, ..] => self.say("clock.one", &[time, ("a", count(*a))]),
            [] => self.say("clock.none", &[time]),
        }
    }

    /// Beside the clock while a walkthrough step plays its time: the moment the
    /// step ends, which its narration already tells.
    pub fn clock_playing(&self, end: Millis) -> String {
        self.say("clock.playing", &[("end", Arg::Time(end))])
    }

    /// A time to move to that is not after now (the clock's time now).
    pub fn time_not_after_now(&self, now: Millis) -> String {
        self.say("time_not_after_now", &[("now", Arg::Time(now))])
    }

    pub fn store_kind(&self, kind: StoreKind) -> &'static str {
        self.word(match kind {
            StoreKind::InMemory => "store_kind.in_memory",
            StoreKind::ReceiptFirst => "store_kind.receipt_first",
            StoreKind::BalanceFirst => "store_kind.balance_first",
            StoreKind::OneTransaction => "store_kind.one_transaction",
        })
    }

    pub fn store_kind_hint(&self, kind: StoreKind) -> &'static str {
        self.word(match kind {
            StoreKind::InMemory => "store_kind_hint.in_memory",
            StoreKind::ReceiptFirst => "store_kind_hint.receipt_first",
            StoreKind::BalanceFirst => "store_kind_hint.balance_first",
            StoreKind::OneTransaction => "store_kind_hint.one_transaction",
        })
    }

    /// A promise the explorer checks, by name: the panel's own for its three.
    pub fn promise(&self, promise: crate::lab::explore::Promise) -> &'static str {
        self.explorer
            .promise(promise, |invariant| self.invariant(invariant))
    }

    /// What one step of a found history did, in words.
    pub fn explorer_did(&self, said: &[crate::lab::explore::Said]) -> String {
        self.explorer.did(
            said,
            |point| self.crash_point(point),
            |promise| self.promise(promise),
        )
    }

    /// One step of a history the explorer found, in words.
    pub fn explorer_step(&self, step: &crate::lab::Action) -> String {
        self.explorer.step(step, |point| self.crash_point(point))
    }

    pub fn crash_point(&self, point: Option<CrashPoint>) -> &'static str {
        self.word(match point {
            None => "crash_point.none",
            Some(CrashPoint::BeforeWrites) => "crash_point.before_writes",
            Some(CrashPoint::BetweenWrites) => "crash_point.between_writes",
            Some(CrashPoint::AfterCommit) => "crash_point.after_commit",
        })
    }

    pub fn routing(&self, routing: Routing) -> String {
        match routing {
            Routing::RoundRobin => self.word("routing.round_robin").to_string(),
            Routing::KeyHash => self.word("routing.key_hash").to_string(),
            Routing::Only(n) => self.say("routing.only", &[("n", count(n))]),
        }
    }

    pub fn routing_hint(&self, routing: Routing) -> &'static str {
        self.word(match routing {
            Routing::RoundRobin => "routing_hint.round_robin",
            Routing::KeyHash => "routing_hint.key_hash",
            Routing::Only(_) => "routing_hint.only",
        })
    }

    /// "24 hours": a retention in prose.
    fn hours(&self, hours: u32) -> Arg<'static> {
        Arg::Text(self.say("hours", &[("n", count(hours))]))
    }

    /// A retention that was refused: what is still in force.
    pub fn retention_unchanged(&self, hours: u32) -> String {
        self.say("retention_unchanged", &[("hours", self.hours(hours))])
    }

    /// "Process 3": one process's queue or memory.
    /// The name of a stage part's way to its settings drawer.
    pub fn open_settings(&self, title: &str) -> String {
        self.say("open_settings", &[("title", Arg::Text(title.to_string()))])
    }

    pub fn process_heading(&self, n: u32) -> String {
        self.say("process_heading", &[("n", count(n))])
    }

    /// Which store the store panel shows: the durable one (its retention, hours).
    pub fn store_shows_durable(&self, hours: u32) -> String {
        self.say("store_shows_durable", &[("hours", self.hours(hours))])
    }

    /// ... or one process's memory.
    pub fn store_shows_memory(&self, n: u32) -> String {
        self.say("store_shows_memory", &[("n", count(n))])
    }

    /// ... or two processes' memories, the first shown first.
    pub fn store_shows_memories(&self, a: u32, b: u32) -> String {
        self.say("store_shows_memories", &[("a", count(a)), ("b", count(b))])
    }

    pub fn memory_of(&self, n: u32) -> String {
        self.say("memory_of", &[("n", count(n))])
    }

    pub fn store_title_memory(&self, n: u32) -> String {
        self.say("store_title_memory", &[("n", count(n))])
    }

    /// What really became of a timed-out attempt.
    pub fn truth(&self, truth: Truth) -> &'static str {
        self.word(match truth {
            Truth::NeverApplied => "truth.never_applied",
            Truth::ReturnedReceipt => "truth.returned_receipt",
            Truth::AppliedBeforeTimeout => "truth.applied_before_timeout",
            Truth::AppliedAfterTimeout => "truth.applied_after_timeout",
            Truth::Pending => "truth.pending",
            Truth::Crashed => "truth.crashed",
        })
    }

    /// Where the time slider stands: "3.2 s of 12.5 s".
    pub fn history_at(&self, at: Millis, end: Millis) -> String {
        self.say(
            "history_at",
            &[("time", Arg::Time(at)), ("end", Arg::Time(end))],
        )
    }

    /// "at 1.2 s": when something happened, in virtual time.
    pub fn at_time(&self, ms: Millis) -> String {
        self.say("at_time", &[("time", Arg::Time(ms))])
    }

    pub fn process_marker(&self, n: u32) -> String {
        self.say("process_marker", &[("n", count(n))])
    }

    /// Why an attempt granted again: the first attempt, its process, the cause.
    pub fn granted_again(&self, first: AttemptId, process: u32, cause: RegrantCause) -> String {
        let key = match cause {
            RegrantCause::Restart => "granted_again.restart",
            RegrantCause::OtherProcess => "granted_again.other_process",
            RegrantCause::CrashLeftNoReceipt => "granted_again.crash_left_no_receipt",
            RegrantCause::ReceiptExpired => "granted_again.receipt_expired",
            RegrantCause::Race => "granted_again.race",
        };
        self.say(
            key,
            &[("first", Arg::Attempt(first)), ("process", count(process))],
        )
    }

    /// The value axis starts above 0: where.
    pub fn chart_floor(&self, floor: i64) -> String {
        self.say("chart_floor", &[("floor", Arg::Amount(floor))])
    }

    /// The chart in words: lowest and highest attempt drawn, how many, and the
    /// current balance before and after them.
    pub fn chart_summary(&self, first: u64, last: u64, drawn: usize, from: i32, to: i32) -> String {
        let args = [
            ("first", Arg::Amount(first as i64)),
            ("last", Arg::Amount(last as i64)),
            ("drawn", count(drawn)),
            ("from", Arg::Amount(from.into())),
            ("to", Arg::Amount(to.into())),
        ];
        self.say("chart_summary", &args)
    }

    /// Receipts, those older than the current balance, and grants never seen.
    pub fn chart_counts(&self, receipts: usize, older: usize, unseen: usize) -> String {
        let receipts = self.say("receipts_count", &[("n", count(receipts))]);
        let grants = self.say("grants_count", &[("n", count(unseen))]);
        let args = [
            ("receipts", Arg::Text(receipts)),
            ("older", count(older)),
            ("grants", Arg::Text(grants)),
        ];
        self.say("chart_counts", &args)
    }

    /// How many of the drawn attempts the table lists.
    pub fn chart_table_caption(&self, shown: usize, drawn: usize) -> String {
        if shown == drawn {
            self.say("chart_table_caption.all", &[("drawn", count(drawn))])
        } else {
            let args = [("shown", count(shown)), ("drawn", count(drawn))];
            self.say("chart_table_caption.newest", &args)
        }
    }

    /// Each promise in words.
    pub fn invariant(&self, invariant: Invariant) -> &'static str {
        self.word(match invariant {
            Invariant::AtMostOnce => "invariant.at_most_once",
            Invariant::GrantedHasReceipt => "invariant.granted_has_receipt",
            Invariant::ReceiptHasGrant => "invariant.receipt_has_grant",
            Invariant::PaidOnce => "invariant.paid_once",
        })
    }

    /// "Broken by attempt #2 at 3.1 s": the first attempt that broke a promise.
    pub fn broken_by(&self, attempt: AttemptId, at: Millis) -> String {
        self.say(
            "broken_by",
            &[("attempt", Arg::Attempt(attempt)), ("time", Arg::Time(at))],
        )
    }

    /// The button that brings that attempt's timeline row into view.
    pub fn show_attempt(&self, attempt: AttemptId) -> String {
        self.say("show_attempt", &[("attempt", Arg::Attempt(attempt))])
    }

    /// Said once, politely, when a promise breaks.
    pub fn announce_broken(&self, invariant: Invariant, attempt: AttemptId, at: Millis) -> String {
        let args = [
            ("promise", Arg::Text(self.invariant(invariant).to_string())),
            ("attempt", Arg::Attempt(attempt)),
            ("time", Arg::Time(at)),
        ];
        self.say("announce_broken", &args)
    }

    /// Receipts the sweeper deleted so far, and the retention now (hours): context, not a break.
    pub fn receipts_expired(&self, n: u32, hours: u32) -> String {
        let receipts = Arg::Text(self.say("receipts_count", &[("n", count(n))]));
        self.say(
            "receipts_expired",
            &[("receipts", receipts), ("hours", self.hours(hours))],
        )
    }

    /// As `receipts_expired`, when a retry that came after the sweep was
    /// granted again: why "at most once" broke.
    pub fn receipts_expired_regranted(&self, n: u32, hours: u32) -> String {
        let receipts = Arg::Text(self.say("receipts_count", &[("n", count(n))]));
        self.say(
            "receipts_expired_regranted",
            &[("receipts", receipts), ("hours", self.hours(hours))],
        )
    }

    /// A promise a walkthrough's earlier step broke and none broke since.
    pub fn invariant_broken_at(&self, step: usize) -> String {
        self.say("invariant_broken_at", &[("n", count(step))])
    }

    /// More markers between two rows than the timeline shows.
    pub fn markers_more(&self, n: usize) -> String {
        self.say("markers_more", &[("n", count(n))])
    }

    /// An attempt row's store cell: where its process crashed while handling it.
    pub fn crashed_at(&self, point: CrashPoint) -> &'static str {
        self.word(match point {
            CrashPoint::BeforeWrites => "crashed_at.before_writes",
            CrashPoint::BetweenWrites => "crashed_at.between_writes",
            CrashPoint::AfterCommit => "crashed_at.after_commit",
        })
    }

    /// How the durable store wrote a grant.
    pub fn durable_writes(&self, writes: DurableWrites) -> &'static str {
        self.word(match writes {
            DurableWrites::OneCommit => "durable_writes.one_commit",
            DurableWrites::ReceiptThenBalance => "durable_writes.receipt_then_balance",
            DurableWrites::BalanceThenReceipt => "durable_writes.balance_then_receipt",
        })
    }

    /// A tag on the attempt row that first broke a promise.
    pub fn broke_promise(&self, invariant: Invariant) -> &'static str {
        self.word(match invariant {
            Invariant::AtMostOnce => "broke_promise.at_most_once",
            Invariant::GrantedHasReceipt => "broke_promise.granted_has_receipt",
            Invariant::ReceiptHasGrant => "broke_promise.receipt_has_grant",
            Invariant::PaidOnce => "broke_promise.paid_once",
        })
    }

    pub fn in_flight_policy(&self, policy: InFlightPolicy) -> &'static str {
        self.word(match policy {
            InFlightPolicy::NoRecord => "in_flight_policy.no_record",
            InFlightPolicy::Wait => "in_flight_policy.wait",
            InFlightPolicy::RetryLater => "in_flight_policy.retry_later",
        })
    }

    pub fn in_flight_hint(&self, policy: InFlightPolicy) -> &'static str {
        self.word(match policy {
            InFlightPolicy::NoRecord => "in_flight_hint.no_record",
            InFlightPolicy::Wait => "in_flight_hint.wait",
            InFlightPolicy::RetryLater => "in_flight_hint.retry_later",
        })
    }

    /// One record: its attempt, since when, and where it is kept (durable, or a
    /// process's memory).
    pub fn in_progress_record(
        &self,
        attempt: AttemptId,
        since: Millis,
        process: Option<u32>,
    ) -> String {
        let (attempt, time) = (
            ("attempt", Arg::Attempt(attempt)),
            ("time", Arg::Time(since)),
        );
        match process {
            None => self.say("in_progress_record.durable", &[attempt, time]),
            Some(p) => self.say(
                "in_progress_record.memory",
                &[attempt, time, ("process", count(p))],
            ),
        }
    }

    /// A row's note: it found attempt #N in progress, and waited or was told to retry.
    pub fn met_in_progress(&self, holder: AttemptId, waited: bool) -> String {
        let key = if waited {
            "met_in_progress.waited"
        } else {
            "met_in_progress.told"
        };
        self.say(key, &[("attempt", Arg::Attempt(holder))])
    }

    /// The buttons that set the account's preferred language.
    pub fn set_language(&self, language: Language) -> &'static str {
        self.word(match language {
            Language::English => "set_language.english",
            Language::Persian => "set_language.persian",
        })
    }

    pub fn acknowledge(&self, acknowledge: Acknowledge) -> &'static str {
        self.word(match acknowledge {
            Acknowledge::BeforeWork => "acknowledge.before_work",
            Acknowledge::AfterWork => "acknowledge.after_work",
        })
    }

    pub fn acknowledge_hint(&self, acknowledge: Acknowledge) -> &'static str {
        self.word(match acknowledge {
            Acknowledge::BeforeWork => "acknowledge_hint.before_work",
            Acknowledge::AfterWork => "acknowledge_hint.after_work",
        })
    }

    /// A copy's request cell: which attempt's message the queue delivered again.
    pub fn redelivery_of(&self, attempt: AttemptId) -> String {
        self.say("redelivery_of", &[("attempt", Arg::Attempt(attempt))])
    }

    /// What a store that trusted a refused request would have given away: the
    /// receipt stored for that account and key...
    pub fn would_leak(&self, receipt: &GrantResult) -> String {
        let args = [
            ("account", Arg::Id(&self.stage.person(&receipt.account_id))),
            ("points", Arg::Amount(receipt.points.into())),
            ("balance", Arg::Amount(receipt.balance.into())),
        ];
        self.say("would_leak", &args)
    }

    /// What "Retry (fresh key)" sends: the request under a key no attempt used.
    pub fn fresh_sends(&self, key: &str) -> String {
        self.say("fresh_sends", &[("key", Arg::Id(key))])
    }

    /// ... or, with none stored, the points it would have added to that account.
    pub fn would_grant(&self, grant: &GrantPoints) -> String {
        let args = [
            ("points", Arg::Amount(grant.points.into())),
            ("account", Arg::Id(&self.stage.person(&grant.account_id))),
        ];
        self.say("would_grant", &args)
    }

    pub fn email_via(&self, via: EmailVia) -> &'static str {
        self.word(match via {
            EmailVia::Inline => "email_via.inline",
            EmailVia::Outbox => "email_via.outbox",
        })
    }

    pub fn email_via_hint(&self, via: EmailVia) -> &'static str {
        self.word(match via {
            EmailVia::Inline => "email_via_hint.inline",
            EmailVia::Outbox => "email_via_hint.outbox",
        })
    }

    /// One email: the account it went to, the key, the points.
    pub fn email_line(&self, account: &str, key: &str, points: i32) -> String {
        let args = [
            ("account", Arg::Id(account)),
            ("key", Arg::Id(key)),
            ("points", count(points)),
        ];
        self.say("email_line", &args)
    }

    /// Copies the mail service dropped by operation id.
    pub fn inbox_dropped(&self, n: usize) -> String {
        self.say("inbox_dropped", &[("n", count(n))])
    }

    /// One bar of the chart: retry n waits between low and high ms.
    pub fn backoff_row(&self, n: u32, low: u64, high: u64) -> String {
        let args = [("n", count(n)), ("low", count(low)), ("high", count(high))];
        self.say("backoff_row", &args)
    }

    /// A store cell: the points went in again for a purchase `attempt` had
    /// already paid, under another key.
    pub fn paid_again(&self, attempt: AttemptId) -> String {
        self.say("paid_again", &[("attempt", Arg::Attempt(attempt))])
    }

    /// The line under the buttons: the newest attempt, what became of it, and
    /// the balance once known.
    pub fn newest_result(
        &self,
        attempt: AttemptId,
        key: &str,
        outcome: &str,
        balance: Option<i32>,
    ) -> String {
        let mut args = vec![
            ("attempt", Arg::Attempt(attempt)),
            ("key", Arg::Id(key)),
            ("outcome", Arg::Text(outcome.to_string())),
        ];
        match balance {
            Some(b) => {
                args.push(("balance", Arg::Amount(b.into())));
                self.say("newest_result.balance", &args)
            }
            None => self.say("newest_result.waiting", &args),
        }
    }

    /// Added to the line under the buttons when a purchase was paid again.
    pub fn newest_paid_twice(&self, first: AttemptId) -> String {
        self.say(
            "newest_result.paid_twice",
            &[("attempt", Arg::Attempt(first))],
        )
    }

    /// Why no store setting keeps "each purchase is paid once".
    pub fn paid_once_why(&self) -> &'static str {
        self.word("invariant.paid_once_why")
    }

    /// A retry's request cell: the attempt whose failure it follows.
    pub fn retry_of(&self, attempt: AttemptId) -> String {
        self.say("retry_of", &[("attempt", Arg::Attempt(attempt))])
    }

    /// The last attempt's note: what looking the operation up found.
    pub fn looked_up(&self, receipt: Option<&GrantResult>) -> String {
        match receipt {
            Some(r) => self.say(
                "looked_up.found",
                &[
                    ("key", Arg::Id(&r.key)),
                    ("points", count(r.points)),
                    ("balance", count(r.balance)),
                ],
            ),
            None => self.word("looked_up.missing").to_string(),
        }
    }

    /// A timeline row that is not an attempt: what happened, in words.
    pub fn marker_text(&self, marker: &Marker) -> String {
        match &marker.kind {
            MarkerKind::Crash {
                process,
                attempt,
                point,
                wrote,
                durable,
            } => {
                let when = self.word(match point {
                    CrashPoint::BeforeWrites => "marker.crash_when.before_writes",
                    CrashPoint::BetweenWrites => "marker.crash_when.between_writes",
                    CrashPoint::AfterCommit => "marker.crash_when.after_commit",
                });
                let left = self.word(match CrashLeft::of(*point, wrote, *durable) {
                    CrashLeft::Nothing => "marker.crash_left.nothing",
                    CrashLeft::ReceiptOnly => "marker.crash_left.receipt_only",
                    CrashLeft::PointsOnly => "marker.crash_left.points_only",
                    CrashLeft::StagedGone => "marker.crash_left.staged_gone",
                    CrashLeft::Committed => "marker.crash_left.committed",
                    CrashLeft::MemoryGone => "marker.crash_left.memory_gone",
                });
                let args = [
                    ("process", count(*process)),
                    ("when", Arg::Text(when.to_string())),
                    ("attempt", Arg::Attempt(*attempt)),
                    ("left", Arg::Text(left.to_string())),
                ];
                self.say("marker.crash", &args)
            }
            MarkerKind::Restart { ended, started, .. } => self.say(
                "marker.restart",
                &[("ended", count(*ended)), ("started", count(*started))],
            ),
            MarkerKind::ProcessStarted { process, .. } => {
                self.say("marker.process_started", &[("process", count(*process))])
            }
            MarkerKind::ProcessEnded { process } => {
                self.say("marker.process_ended", &[("process", count(*process))])
            }
            MarkerKind::CommitConflict {
                attempt,
                process,
                rolled_back,
                points_stay,
            } => {
                let rest = self.word(if *rolled_back {
                    "marker.conflict.rolled_back"
                } else if *points_stay {
                    "marker.conflict.points_stay"
                } else {
                    "marker.conflict.refused"
                });
                let args = [
                    ("attempt", Arg::Attempt(*attempt)),
                    ("process", count(*process)),
                    ("rest", Arg::Text(rest.to_string())),
                ];
                self.say("marker.commit_conflict", &args)
            }
            MarkerKind::Expired {
                count: n,
                account_id,
                key,
                retention,
            } => {
                let args = [
                    ("count", count(*n)),
                    ("account", Arg::Id(&self.stage.person(account_id))),
                    ("key", Arg::Id(key)),
                    ("hours", count(retention / crate::sim::HOUR_MS)),
                ];
                self.say("marker.expired", &args)
            }
            MarkerKind::Clock { from } => {
                let span = Arg::Span(marker.at.saturating_sub(*from));
                self.say("marker.clock", &[("span", span)])
            }
            MarkerKind::Backoff {
                attempt,
                wait,
                retry,
            } => {
                let args = [
                    ("attempt", Arg::Attempt(*attempt)),
                    ("wait", count(*wait)),
                    ("retry", count(*retry)),
                ];
                self.say("marker.backoff", &args)
            }
            MarkerKind::Email {
                account_id,
                key,
                outbox,
                delivered,
            } => {
                let message = match (outbox, delivered) {
                    (true, true) => "marker.email.delivered",
                    (true, false) => "marker.email.dropped",
                    (false, _) => "marker.email.inline",
                };
                self.say(
                    message,
                    &[
                        ("account", Arg::Id(&self.stage.person(account_id))),
                        ("key", Arg::Id(key)),
                    ],
                )
            }
            MarkerKind::LanguageSet {
                account_id,
                language,
                previous,
            } => {
                let name = |l: Language| {
                    Arg::Text(
                        self.word(match l {
                            Language::English => "language_name.english",
                            Language::Persian => "language_name.persian",
                        })
                        .to_string(),
                    )
                };
                let (account, set) = (
                    ("account", Arg::Id(&self.stage.person(account_id))),
                    ("language", name(*language)),
                );
                match previous {
                    Some(p) if p == language => self.say("marker.language.again", &[account, set]),
                    Some(p) => self.say(
                        "marker.language.changed",
                        &[account, set, ("previous", name(*p))],
                    ),
                    None => self.say("marker.language.set", &[account, set]),
                }
            }
        }
    }
}
