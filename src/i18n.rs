//! Every piece of UI text, in English and Persian. Kept out of the views so a
//! missing translation is a compile error (each language fills the same struct).

use crate::core::{
    CrashPoint, EmailVia, GrantError, GrantPoints, GrantResult, InFlightPolicy, Language,
};
use crate::lab::{
    Expected, FieldError, FieldProblem, LabError, Outcome, SessionError, SettingError, Truth,
    MAX_ACTIONS, MAX_FIELD_CHARS, MAX_SENDS, MAX_SESSION_BYTES, MAX_SETTING_MS, MAX_WAIT_MS,
};
use crate::sim::{Acknowledge, Routing, StoreKind};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    En,
    Fa,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Fa];

    /// The language whose tag (`en`, `fa`) this is: how the page reads the
    /// choice index.html's boot script wrote on `<html lang>`, the one place
    /// where the address and the browser's languages are weighed.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|lang| lang.tag() == tag)
    }

    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fa => "fa",
        }
    }

    pub fn dir(self) -> &'static str {
        match self {
            Lang::En => "ltr",
            Lang::Fa => "rtl",
        }
    }

    pub fn texts(self) -> &'static Texts {
        match self {
            Lang::En => &EN,
            Lang::Fa => &FA,
        }
    }

    /// A number for prose: Persian digits in Persian. Data (amounts, balances,
    /// keys) stays in ASCII digits so it reads the same as in the article's code.
    pub fn prose_number(self, n: impl std::fmt::Display) -> String {
        let ascii = n.to_string();
        match self {
            Lang::En => ascii,
            Lang::Fa => ascii
                .chars()
                .map(|c| match c.to_digit(10) {
                    Some(d) => char::from_u32(0x06F0 + d).unwrap_or(c),
                    None => c,
                })
                .collect(),
        }
    }
}

/// Left-to-right data (a key, an account) inside right-to-left prose, where no
/// `<bdi>` can go (a `title`): Unicode's first-strong isolate keeps it whole.
/// Characters that cannot be seen are shown as signs (see `lab::visible`).
fn isolate(text: &str) -> String {
    format!("\u{2068}{}\u{2069}", crate::lab::visible(text))
}

/// Virtual time as seconds with one decimal ("1.2"), from integers only: the
/// float printer would cost the bundle about 10 KB.
fn seconds(ms: u64) -> String {
    let tenths = (ms + 50) / 100;
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// Seconds in Persian prose: Persian digits and decimal separator.
fn fa_seconds(ms: u64) -> String {
    format!("{} ثانیه", fa(seconds(ms)).replace('.', "٫"))
}

/// A count with a comma between thousands: 10,000.
fn grouped(n: u32) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A number in Persian prose.
fn fa(n: impl std::fmt::Display) -> String {
    Lang::Fa.prose_number(n)
}

/// What a session file's field gets wrong, in English.
fn en_field_problem(problem: &FieldProblem) -> String {
    match problem {
        FieldProblem::UnknownField(name) => format!("there is no field {} there", isolate(name)),
        FieldProblem::UnknownName(name) => format!("{} is not a name the lab knows", isolate(name)),
        FieldProblem::Missing(name) => format!("the field {} is missing", isolate(name)),
        FieldProblem::Wrong { found, expected } => {
            let fits = match expected {
                Expected::Whole { min, max } => format!("a whole number from {min} to {max}"),
                Expected::Text => "text".to_string(),
                Expected::YesNo => "true or false".to_string(),
                Expected::Other(words) => words.clone(),
            };
            format!("{} does not fit there, which takes {fits}", isolate(found))
        }
        FieldProblem::Other(words) => words.clone(),
    }
}

/// The same in Persian; the parser's leftover words stay as they are.
fn fa_field_problem(problem: &FieldProblem) -> String {
    match problem {
        FieldProblem::UnknownField(name) => format!("فیلدی به نام {} آنجا نیست", isolate(name)),
        FieldProblem::UnknownName(name) => {
            format!("{} نامی نیست که آزمایشگاه بشناسد", isolate(name))
        }
        FieldProblem::Missing(name) => format!("فیلد {} نیامده است", isolate(name)),
        FieldProblem::Wrong { found, expected } => {
            let fits = match expected {
                Expected::Whole { min, max } => format!("عددی درست از {} تا {}", fa(min), fa(max)),
                Expected::Text => "متن".to_string(),
                Expected::YesNo => "true یا false".to_string(),
                Expected::Other(words) => isolate(words),
            };
            format!("{} آنجا جا نمی‌شود؛ آنجا {fits} می‌آید", isolate(found))
        }
        FieldProblem::Other(words) => isolate(words),
    }
}

/// The virtual clock for reading: seconds under an hour ("12.3 s"), then hours,
/// minutes and seconds ("02:00:00.1"), with days in front from a day on ("1 d
/// 02:00:00.1"). Integers only, as for `seconds`.
pub fn clock_time(lang: Lang, ms: u64) -> String {
    let tenths = (ms + 50) / 100;
    if tenths < 36_000 {
        return match lang {
            Lang::En => format!("{} s", seconds(ms)),
            Lang::Fa => fa_seconds(ms),
        };
    }
    let (days, rest) = (tenths / 864_000, tenths % 864_000);
    let hms = format!(
        "{:02}:{:02}:{:02}.{}",
        rest / 36_000,
        rest / 600 % 60,
        rest / 10 % 60,
        rest % 10
    );
    match lang {
        Lang::En if days > 0 => format!("{days} d {hms}"),
        Lang::En => hms,
        Lang::Fa => {
            // Kept whole and left to right inside right-to-left prose.
            let hms = format!("\u{2068}{}\u{2069}", fa(hms).replace('.', "٫"));
            if days > 0 {
                format!("{} روز {hms}", fa(days))
            } else {
                hms
            }
        }
    }
}

/// "24 hours", "1 hour": a retention in prose.
fn hours_en(h: u32) -> String {
    match h {
        1 => "1 hour".to_string(),
        h => format!("{h} hours"),
    }
}

/// One language's words. Functions build the sentences that carry values.
pub struct Texts {
    pub title: &'static str,
    pub tagline: &'static str,
    pub language_name: &'static str,
    /// The article's story in four steps (`lab::story_step` carries each out).
    pub how_to: [&'static str; 4],
    /// The button that carries out one of those steps.
    pub how_to_do: fn(Lang, usize) -> String,
    pub request: &'static str,
    pub account: &'static str,
    pub key: &'static str,
    pub points: &'static str,
    pub lose_ack: &'static str,
    pub lose_ack_hint: &'static str,
    pub send: &'static str,
    pub retry_same: &'static str,
    pub retry_fresh: &'static str,
    pub retries_resend: &'static str,
    pub check_balance: &'static str,
    pub reset: &'static str,
    pub burst: fn(Lang, u32) -> String,
    pub queue: &'static str,
    pub queue_slots: fn(Lang, usize, usize) -> String,
    pub consumer_holds: &'static str,
    pub consumer_idle: &'static str,
    pub consumer_paused: &'static str,
    pub consumer_next: &'static str,
    /// "attempt 12": names a queued delivery the way the timeline's # column does.
    pub attempt_number: fn(Lang, u64) -> String,
    pub producers_waiting: fn(Lang, usize) -> String,
    pub pause: &'static str,
    pub timeline: &'static str,
    pub timeline_empty: &'static str,
    pub col_attempt: &'static str,
    pub col_request: &'static str,
    pub col_store: &'static str,
    pub col_caller: &'static str,
    pub col_balance: &'static str,
    pub nth_attempt: fn(Lang, u32) -> String,
    /// In place of "first" for a request that reuses an earlier request's key
    /// with other points.
    pub key_reused: &'static str,
    pub lost_ack_marker: &'static str,
    pub outcome: fn(Outcome) -> &'static str,
    pub store_applied: &'static str,
    pub store_replayed: &'static str,
    pub store_rejected: &'static str,
    pub caller_receipt: &'static str,
    pub caller_error: &'static str,
    pub caller_timeout: &'static str,
    /// The caller cell of a row whose caller has heard nothing yet.
    pub caller_waiting: &'static str,
    pub chart_title: &'static str,
    pub chart_current: &'static str,
    pub chart_receipt: &'static str,
    pub chart_unseen: &'static str,
    pub chart_empty: &'static str,
    pub store: &'static str,
    pub balances: &'static str,
    pub receipts: &'static str,
    pub no_balances: &'static str,
    pub no_receipts: &'static str,
    pub receipt_balance: &'static str,
    /// The name of the receipts table's scrolling region (it must not repeat a
    /// field's label, such as "Key").
    pub receipts_table: &'static str,
    pub balance_read: &'static str,
    pub balance_read_note: &'static str,
    /// A read refused by the identity check, in place of its number.
    pub balance_read_refused: &'static str,
    /// When a balance read was made: its virtual time and the attempt the store had handled last.
    pub balance_read_when: fn(Lang, u64, Option<u64>) -> String,
    /// The read is out of date: what the balance is now.
    pub balance_read_stale: fn(Lang, i32) -> String,
    pub field_error: fn(FieldError) -> String,
    pub grant_error: fn(&GrantError) -> String,
    /// A few words for a table cell; the full sentence is in `grant_error`.
    pub grant_error_short: fn(&GrantError) -> String,
    pub lab_error: fn(&LabError) -> String,
    pub fix_fields: &'static str,
    pub dismiss: &'static str,
    /// After a reset, import or link replaced the session: the way back to it.
    pub bring_back: &'static str,
    pub reset_done: &'static str,
    pub link_opened: &'static str,
    pub brought_back: &'static str,
    /// Undo or redo stopped the clock at a moment with work still due.
    pub clock_stopped: &'static str,
    /// The world has work due, but the clock is stopped.
    pub stopped_with_work: &'static str,
    /// The lab saved a session in another tab of this browser.
    pub other_tab: &'static str,
    pub step: &'static str,
    pub step_hint: &'static str,
    pub language: &'static str,
    pub share: &'static str,
    pub copy_link: &'static str,
    pub link_hint: &'static str,
    /// Whether the link reached the clipboard: asking, copied, refused.
    pub link_copying: &'static str,
    pub link_copied: &'static str,
    pub link_not_copied: &'static str,
    pub export: &'static str,
    pub import: &'static str,
    pub imported: fn(Lang, usize) -> String,
    pub link_failed: &'static str,
    pub import_failed: &'static str,
    pub saved_failed: &'static str,
    pub not_kept: &'static str,
    pub session_error: fn(&SessionError) -> String,
    pub open_full: &'static str,
    pub stress: fn(Lang) -> String,
    /// A stress run under way: how many of its callers have heard back, of how many.
    pub stress_progress: fn(Lang, u32, u32) -> String,
    /// The stress button pressed while a run is under way.
    pub stress_refused: fn(Lang, u32, u32) -> String,
    pub newer: &'static str,
    pub older: &'static str,
    pub latest: &'static str,
    pub rows_range: fn(Lang, usize, usize, usize) -> String,
    pub receipts_more: fn(Lang, usize) -> String,
    pub chart_recent: fn(Lang, usize) -> String,
    pub world: &'static str,
    /// The clock line: virtual time, and the running processes' numbers by slot.
    pub clock: fn(Lang, u64, &[u32]) -> String,
    pub speed: &'static str,
    pub speed_paused: &'static str,
    pub skip_to_idle: &'static str,
    pub idle: &'static str,
    pub running: &'static str,
    pub caller_timeout_label: &'static str,
    pub processing_time_label: &'static str,
    pub restart: &'static str,
    pub restart_hint: &'static str,
    pub naive: &'static str,
    pub naive_hint: &'static str,
    pub naive_balances: &'static str,
    pub undo: &'static str,
    pub redo: &'static str,
    /// Moving the clock: an hour, a day, or to a time (hours:minutes since the start).
    pub move_hour: &'static str,
    pub move_day: &'static str,
    pub move_to_label: &'static str,
    pub move_to: &'static str,
    pub move_to_hint: &'static str,
    pub time_format: &'static str,
    pub time_minutes: &'static str,
    /// A time to move to that is not after now (the clock's time now).
    pub time_not_after_now: fn(Lang, u64) -> String,
    /// The storage and processes panel.
    pub storage: &'static str,
    pub store_kind_label: &'static str,
    pub store_kind: fn(StoreKind) -> &'static str,
    pub store_kind_hint: fn(StoreKind) -> &'static str,
    pub crash_label: &'static str,
    pub crash_point: fn(Option<CrashPoint>) -> &'static str,
    pub crash_hint: &'static str,
    /// Before the armed point's name, in full (a narrow select may cut it).
    pub crash_armed: &'static str,
    pub processes_label: &'static str,
    pub processes_hint: &'static str,
    pub routing_label: &'static str,
    pub routing: fn(Lang, Routing) -> String,
    pub routing_hint: fn(Routing) -> &'static str,
    /// Said beside the routing while one process runs.
    pub routing_one_process: &'static str,
    pub retention_label: &'static str,
    pub retention_hint: &'static str,
    /// A retention that was refused: what is still in force.
    pub retention_unchanged: fn(Lang, u32) -> String,
    pub ledger_label: &'static str,
    pub ledger_hint: &'static str,
    /// Beside a durable-only setting while the store is in memory.
    pub durable_only: &'static str,
    /// "Process 3": one process's queue or memory.
    pub process_heading: fn(Lang, u32) -> String,
    /// Which store the store panel shows: the durable one (its retention, hours).
    pub store_shows_durable: fn(Lang, u32) -> String,
    /// ... or one process's memory.
    pub store_shows_memory: fn(Lang, u32) -> String,
    /// ... or two processes' memories, the first shown first.
    pub store_shows_memories: fn(Lang, u32, u32) -> String,
    pub memory_of: fn(Lang, u32) -> String,
    /// The store panel's heading: the durable store, one process's memory, or two.
    pub store_title_durable: &'static str,
    pub store_title_memory: fn(Lang, u32) -> String,
    pub store_title_memories: &'static str,
    /// What really became of a timed-out attempt.
    pub truth: fn(Truth) -> &'static str,
    /// "at 1.2 s": when something happened, in virtual time.
    pub at_time: fn(Lang, u64) -> String,
    pub process_marker: fn(Lang, u32) -> String,
    /// Why an attempt granted again: the first attempt, its process, the cause.
    pub granted_again: fn(Lang, AttemptId, u32, RegrantCause) -> String,
    pub store_not_yet: &'static str,
    pub store_never: &'static str,
    pub caller_process_ended: &'static str,
    /// The chart's value axis, its attempt axis, and what its marks mean.
    pub chart_value_axis: &'static str,
    pub chart_attempt_axis: &'static str,
    pub chart_below: &'static str,
    pub chart_connector: &'static str,
    /// The value axis starts above 0: where.
    pub chart_floor: fn(Lang, i64) -> String,
    /// The chart in words: lowest and highest attempt drawn, how many, and the
    /// current balance before and after them.
    pub chart_summary: fn(Lang, u64, u64, usize, i32, i32) -> String,
    /// Receipts, those older than the current balance, and grants never seen.
    pub chart_counts: fn(Lang, usize, usize, usize) -> String,
    pub chart_table: &'static str,
    /// How many of the drawn attempts the table lists.
    pub chart_table_caption: fn(Lang, usize, usize) -> String,
    pub chart_col_attempt: &'static str,
    pub chart_col_balance: &'static str,
    pub chart_col_mark: &'static str,
    pub chart_mark_receipt: &'static str,
    pub chart_mark_older: &'static str,
    pub chart_mark_unseen: &'static str,
    pub chart_mark_none: &'static str,
    /// The promises panel (src/ui/invariant_view.rs): its heading, a line on
    /// what it checks, each promise in words, and its two states.
    pub invariants_title: &'static str,
    pub invariants_intro: &'static str,
    pub invariant: fn(Invariant) -> &'static str,
    pub invariant_holds: &'static str,
    pub invariant_broken: &'static str,
    /// "Broken by attempt #2 at 3.1 s": the first attempt that broke a promise.
    pub broken_by: fn(Lang, AttemptId, Millis) -> String,
    /// The button that brings that attempt's timeline row into view.
    pub show_attempt: fn(Lang, AttemptId) -> String,
    /// Said once, politely, when a promise breaks.
    pub announce_broken: fn(Lang, Invariant, AttemptId, Millis) -> String,
    /// Receipts the sweeper deleted so far, and the retention now (hours): context, not a break.
    pub receipts_expired: fn(Lang, u32, u32) -> String,
    /// A timeline row that is not an attempt: what happened, in words.
    pub marker_text: fn(Lang, &Marker) -> String,
    /// More markers between two rows than the timeline shows.
    pub markers_more: fn(Lang, usize) -> String,
    /// An attempt row's store cell: where its process crashed while handling it.
    pub crashed_at: fn(CrashPoint) -> &'static str,
    /// The unique constraint refused the attempt: another attempt committed first.
    pub lost_race: &'static str,
    /// ... and the store returned the receipt that attempt committed.
    pub lost_race_receipt: &'static str,
    /// How the durable store wrote a grant.
    pub durable_writes: fn(DurableWrites) -> &'static str,
    /// Its receipt had expired; the operation's ledger row recognised it.
    pub by_ledger: &'static str,
    /// A tag on the attempt row that first broke a promise.
    pub broke_promise: fn(Invariant) -> &'static str,
    /// The callers and queue panel (src/ui/callers_view.rs).
    pub callers: &'static str,
    pub in_flight_label: &'static str,
    pub in_flight_policy: fn(InFlightPolicy) -> &'static str,
    pub in_flight_hint: fn(InFlightPolicy) -> &'static str,
    /// The in-progress records held now.
    pub in_progress_title: &'static str,
    pub in_progress_none: &'static str,
    /// One record: its attempt, since when, and where it is kept (durable, or a
    /// process's memory).
    pub in_progress_record: fn(Lang, AttemptId, Millis, Option<u32>) -> String,
    /// A row's note: it found attempt #N in progress, and waited or was told to retry.
    pub met_in_progress: fn(Lang, AttemptId, bool) -> String,
    /// The buttons that set the account's preferred language.
    pub set_language: fn(Language) -> &'static str,
    pub set_language_hint: &'static str,
    /// The queue's fault: the next message is delivered twice.
    pub redeliver_label: &'static str,
    pub redeliver_hint: &'static str,
    pub acknowledge_label: &'static str,
    pub acknowledge: fn(Acknowledge) -> &'static str,
    pub acknowledge_hint: fn(Acknowledge) -> &'static str,
    /// A copy's request cell: which attempt's message the queue delivered again.
    pub redelivery_of: fn(Lang, AttemptId) -> String,
    /// A copy's caller cell: nobody waits; the queue takes the answer as the acknowledgement.
    pub caller_queue: &'static str,
    /// Who is signed in: nobody (the request's account is trusted), or an account.
    pub signed_in_label: &'static str,
    pub signed_in_nobody: &'static str,
    pub signed_in_hint: &'static str,
    /// What a store that trusted a refused request would have given away: the
    /// receipt stored for that account and key...
    pub would_leak: fn(Lang, &GrantResult) -> String,
    /// ... or, with none stored, the points it would have added to that account.
    pub would_grant: fn(Lang, &GrantPoints) -> String,
    /// Confirmation emails: the switch, how they go, and the customers' inbox.
    pub email_label: &'static str,
    pub email_hint: &'static str,
    pub email_via_label: &'static str,
    pub email_via: fn(EmailVia) -> &'static str,
    pub email_via_hint: fn(EmailVia) -> &'static str,
    pub inbox_title: &'static str,
    pub inbox_empty: &'static str,
    /// One email: the account it went to, the key, the points.
    pub email_line: fn(Lang, &str, &str, i32) -> String,
    /// Copies the mail service dropped by operation id.
    pub inbox_dropped: fn(Lang, usize) -> String,
    /// The automatic retry policy: the switch, its attempts, the backoff chart.
    pub auto_retry_label: &'static str,
    pub auto_retry_hint: &'static str,
    pub max_attempts_label: &'static str,
    pub backoff_title: &'static str,
    /// One bar of the chart: retry n waits between low and high ms.
    pub backoff_row: fn(Lang, u32, u64, u64) -> String,
    /// A retry's request cell: the attempt whose failure it follows.
    pub retry_of: fn(Lang, AttemptId) -> String,
    /// The last attempt's note: what looking the operation up found.
    pub looked_up: fn(Lang, Option<&GrantResult>) -> String,
}

static EN: Texts = Texts {
    title: "Idempotency Lab",
    tagline: "Break a retry, then fix it: see why a resent “grant 100 points” must not grant twice.",
    language_name: "English",
    how_to: [
        "Lose the acknowledgement: 100 points for order-1042 reach the store (balance 100), but the caller hears only a timeout.",
        "Retry with the same key: the store knows order-1042 and returns its stored receipt (balance 100). Nothing is added.",
        "Change the payload: order-1042 again, now for 200 points, is refused. One key means one request.",
        "A later purchase adds 25 (balance 125). Retry the first grant: its receipt still says 100; the account holds 125.",
    ],
    how_to_do: |_, step| format!("Do step {step}"),
    request: "Request",
    account: "Account",
    key: "Key",
    points: "Points",
    lose_ack: "Lose acknowledgement",
    lose_ack_hint: "Next delivery only: the grant is applied, then the answer is lost.",
    send: "Send",
    retry_same: "Retry (same key)",
    retry_fresh: "Retry (fresh key)",
    retries_resend: "Retries resend:",
    check_balance: "Check balance",
    reset: "Reset",
    burst: |_, n| format!("Burst: {n} grants at once"),
    queue: "Worker queue",
    queue_slots: |_, used, cap| format!("{used} of {cap} slots taken"),
    consumer_holds: "Consumer is applying",
    consumer_idle: "Consumer is idle: the queue is empty",
    consumer_paused: "Consumer is paused: it takes nothing from the queue",
    consumer_next: "Consumer is taking the next delivery",
    attempt_number: |_, n| format!("attempt {n}"),
    producers_waiting: |_, n| match n {
        0 => "No producer is waiting".to_string(),
        1 => "1 producer waiting for room".to_string(),
        n => format!("{n} producers waiting for room"),
    },
    pause: "Pause consumer",
    timeline: "Timeline",
    timeline_empty: "No attempt yet. Send a request to start.",
    col_attempt: "Attempt",
    col_request: "Request",
    col_store: "Store did",
    col_caller: "Caller got",
    col_balance: "Balance after",
    nth_attempt: |_, n| match n {
        1 => "first".to_string(),
        n => format!("retry #{}", n - 1),
    },
    key_reused: "key reused, other points",
    lost_ack_marker: "ack lost",
    outcome: |o| match o {
        Outcome::Pending => "Waiting for an answer",
        Outcome::Applied => "Applied",
        Outcome::Replayed => "Stored receipt",
        Outcome::Rejected => "Rejected",
        Outcome::Timeout => "Timeout",
        Outcome::TimeoutApplied => "Timeout, but applied",
        Outcome::ProcessEnded => "Process ended",
        Outcome::InProgress => "In progress",
        Outcome::Redelivered => "Redelivered",
        Outcome::Forbidden => "Forbidden",
        Outcome::GaveUpLookedUp => "Gave up, looked up",
    },
    store_applied: "points added:",
    store_replayed: "returned the stored receipt",
    store_rejected: "rejected",
    caller_receipt: "receipt, balance",
    caller_error: "error:",
    caller_timeout: "timeout: outcome unknown",
    caller_waiting: "no answer yet: still waiting",
    chart_title: "Balance after each attempt:",
    chart_current: "current balance (the store’s)",
    chart_receipt: "balance printed on the receipt the caller got (may be older than now)",
    chart_unseen: "applied, but the caller never got the receipt: what it would have said",
    chart_empty: "Nothing for this account yet.",
    store: "Store",
    balances: "Balances",
    receipts: "Receipts by (account, key)",
    no_balances: "No account has points yet.",
    no_receipts: "No receipt stored yet.",
    receipt_balance: "Balance on receipt",
    receipts_table: "Receipts table",
    balance_read: "Balance of",
    balance_read_note: "A separate read of the store, not a receipt.",
    balance_read_refused: "refused, nothing was read",
    balance_read_when: |_, ms, after| match after {
        Some(n) => format!("Read at {}, right after the store handled attempt {n}.", clock_time(Lang::En, ms)),
        None => format!("Read at {}, before the store handled any attempt.", clock_time(Lang::En, ms)),
    },
    balance_read_stale: |_, now| format!("Out of date: the balance is {now} now. Press “Check balance” to read it again."),
    field_error: |e| match e {
        FieldError::Empty => "Required: it cannot be empty or only spaces.".to_string(),
        FieldError::TooLong => format!("Too long: at most {MAX_FIELD_CHARS} characters."),
        FieldError::NotANumber => "Not a whole number.".to_string(),
        FieldError::NotPositive => "Must be 1 or more.".to_string(),
        FieldError::TooLarge => format!("Too large: at most {}.", i32::MAX),
        FieldError::EdgeSpace => "Remove the space at the start or end: it is invisible.".to_string(),
        FieldError::DoubleSpace => "Two spaces in a row look like one: use one.".to_string(),
        FieldError::Invisible => "Has a character that cannot be seen: remove it.".to_string(),
    },
    grant_error: |e| match e {
        GrantError::PayloadMismatch { stored, rejected } => format!(
            "Key “{}” on account “{}” was already used for {} points; a request for {} points under the same key is rejected.",
            isolate(&stored.key),
            isolate(&stored.account_id),
            stored.points,
            rejected.points
        ),
        GrantError::Forbidden { signed_in, named } => format!(
            "Signed in as “{}”, this request may not act on account “{}”. A key is not a credential.",
            isolate(signed_in),
            isolate(named)
        ),
        GrantError::EmptyKey => "The key is empty; give the operation a key.".to_string(),
        GrantError::EmptyAccount => "The account is empty; say which account to credit.".to_string(),
        GrantError::NonPositivePoints => "Points must be 1 or more.".to_string(),
        GrantError::Overflow => format!(
            "The new balance would exceed {}; nothing was changed.",
            i32::MAX
        ),
        GrantError::Timeout => "No acknowledgement arrived; the grant may or may not have been applied, so retry with the same key.".to_string(),
        GrantError::WorkerStopped => "The worker has stopped and takes no new work.".to_string(),
        GrantError::InProgress => "Another attempt with this key is still being handled; retry in a moment.".to_string(),
    },
    grant_error_short: |e| match e {
        GrantError::EmptyKey => "empty key".to_string(),
        GrantError::EmptyAccount => "empty account".to_string(),
        GrantError::NonPositivePoints => "points below 1".to_string(),
        GrantError::Overflow => "balance would overflow".to_string(),
        GrantError::Timeout => "timeout".to_string(),
        GrantError::WorkerStopped => "worker stopped".to_string(),
        GrantError::InProgress => "in progress: retry later".to_string(),
        GrantError::Forbidden { .. } => "forbidden: not the signed-in account".to_string(),
        GrantError::PayloadMismatch { stored, .. } => {
            format!("key already used for {} points", stored.points)
        }
    },
    lab_error: |e| match e {
        LabError::NothingToRetry => "Nothing to retry yet: send a request first.".to_string(),
        LabError::Setting(SettingError::CallerTimeout(ms)) => format!(
            "Caller timeout (ms): must be 1 to {MAX_SETTING_MS}, not {ms}. Nothing changed."
        ),
        LabError::Setting(SettingError::ProcessingTime(ms)) => format!(
            "Processing time (ms): must be 0 to {MAX_SETTING_MS}, not {ms}. Nothing changed."
        ),
        LabError::NothingToUndo => "Nothing to undo yet.".to_string(),
        LabError::NothingToRedo => "Nothing to redo: redo brings back only what Undo took back.".to_string(),
        LabError::StepNotPaused => "Step is for a paused consumer: switch on “Pause consumer” first.".to_string(),
        LabError::NothingToStep => "Nothing to step: the queue is empty, or the consumer is still applying a delivery.".to_string(),
        LabError::Setting(SettingError::Retention(h)) => format!(
            "Retention (hours): must be 1 to {}, not {h}. Nothing changed.",
            crate::lab::MAX_RETENTION_HOURS
        ),
        LabError::ClockMove(ms) => format!(
            "The clock moves forward 1 ms to a year ({} ms) at a time, not {ms} ms. Nothing changed.",
            crate::lab::MAX_CLOCK_MOVE_MS
        ),
        LabError::Account(e) => format!("Account: {} Nothing changed.", (EN.field_error)(*e)),
        LabError::Setting(SettingError::MaxAttempts(n)) => format!(
            "Max attempts: must be 1 to {}, not {n}. Nothing changed.",
            crate::core::MAX_ATTEMPTS
        ),
        LabError::Setting(SettingError::Processes(n)) => format!(
            "Processes: must be 1 or {}, not {n}. Nothing changed.",
            crate::sim::MAX_PROCESSES
        ),
        LabError::Setting(SettingError::RoutingSlot(n)) => format!(
            "Routing: there is no process {n}; processes are numbered 1 to {}. Nothing changed.",
            crate::sim::MAX_PROCESSES
        ),
        LabError::BurstSize(n) => format!(
            "A burst must hold 1 to {} grants, not {n}.",
            crate::lab::MAX_BURST
        ),
        LabError::WaitLength(ms) => format!("A wait must last 1 to {MAX_WAIT_MS} ms, not {ms}."),
        LabError::DuplicatePercent(p) => {
            format!("The share of duplicates must be 0 to 100 %, not {p} %.")
        }
        LabError::SessionFull => format!(
            "This session is as large as a saved session may be ({MAX_ACTIONS} actions, {MAX_SENDS} grants); export it if you want to keep it, then reset to go on."
        ),
    },
    fix_fields: "Nothing was sent: fix the highlighted fields first.",
    dismiss: "Dismiss",
    bring_back: "Bring back the previous session",
    reset_done: "The lab was reset.",
    link_opened: "The link's session is open in place of the one you had.",
    brought_back: "The previous session is back.",
    clock_stopped: "The clock is stopped at this earlier moment, so you can look at it: work is still due here. Choose a speed, or Skip to idle, to run on.",
    stopped_with_work: "Clock stopped: callers, the queue or the consumer have work due. Choose a speed, or Skip to idle, to run on.",
    other_tab: "The lab is also open in another tab. Each tab keeps its own session when reloaded; a new tab opens the one saved last. Export a session to keep it for sure.",
    step: "Step: one delivery",
    step_hint: "While the consumer is paused: it takes one delivery and applies it, then pauses again. With two processes, each consumer takes one from its own queue.",
    language: "Language",
    share: "Share and save",
    copy_link: "Copy link to this state",
    link_hint: "Link to this exact state:",
    link_copying: "Copying it to the clipboard…",
    link_copied: "Copied to the clipboard.",
    link_not_copied: "Not copied: this browser did not allow it here. Select the link and copy it yourself.",
    export: "Export JSON",
    import: "Import JSON",
    imported: |_, n| match n {
        1 => "Session imported: 1 action replayed.".to_string(),
        n => format!("Session imported: {n} actions replayed."),
    },
    link_failed: "The link's session could not be opened, so the lab kept its state:",
    import_failed: "The file was not imported, so the lab kept its state:",
    saved_failed: "The session saved before the reload could not be restored, so the lab starts empty:",
    not_kept: "This browser is not keeping the session (its storage is off or full), so a reload would lose it. Export it to keep it.",
    session_error: |e| match e {
        // The parser's own words ("EOF while parsing…") mean nothing to a learner.
        SessionError::NotJson(_) => "this is not a lab session file (it cannot be read as JSON)".to_string(),
        SessionError::BadField { path, problem } => {
            let place = match crate::lab::field_place(path) {
                (Some(n), "") => format!("action {n}"),
                (Some(n), field) => format!("action {n}, field {}", isolate(field)),
                (None, "") => "the file".to_string(),
                (None, field) => format!("the field {}", isolate(field)),
            };
            format!("the file is JSON, but {place} breaks a rule: {}.", en_field_problem(problem))
        }
        SessionError::NoRoomForTime => format!(
            "the session has {MAX_ACTIONS} actions and the last is not a wait. A session holds at most {MAX_ACTIONS}, the last place kept for time to pass, so that the work it queued can finish."
        ),
        SessionError::Replay(e) => format!(
            "action {} cannot be replayed. {}",
            e.index + 1,
            (EN.lab_error)(&e.error)
        ),
        SessionError::TooLarge { bytes } => format!(
            "the session is {bytes} bytes; at most {MAX_SESSION_BYTES} are accepted"
        ),
        SessionError::BadLink => "the link is damaged or cut short".to_string(),
        SessionError::WrongFormat => "this JSON is not a lab session".to_string(),
        SessionError::UnsupportedVersion(v) => format!(
            "session version {v} is not supported (this lab reads {})",
            crate::lab::SESSION_VERSION
        ),
        SessionError::TooManyActions(n) => {
            format!("the session has {n} actions; at most {MAX_ACTIONS} are accepted")
        }
        SessionError::TooManySends(n) => {
            format!("the session sends {n} grants; at most {MAX_SENDS} are accepted")
        }
        SessionError::TextTooLong { index } => format!(
            "action {} has an account or key over {MAX_FIELD_CHARS} characters",
            index + 1
        ),
    },
    open_full: "Open the full lab",
    stress: |_| "Stress: 10,000 grants, 30% duplicates".to_string(),
    stress_progress: |_, answered, total| {
        format!("Stress run under way: {} of {} answered.", grouped(answered), grouped(total))
    },
    stress_refused: |_, answered, total| {
        format!(
            "No new stress run: the last one is still under way ({} of {} answered). A new one can start once every one of its callers has heard back.",
            grouped(answered),
            grouped(total)
        )
    },
    newer: "Newer",
    older: "Older",
    latest: "Latest",
    rows_range: |_, from, to, total| format!("Attempts {from}–{to} of {total}"),
    receipts_more: |_, n| format!("… and {n} more"),
    chart_recent: |_, n| format!("last {n} attempts"),
    world: "Time and process",
    clock: |lang, ms, processes| match processes {
        [a, b] => format!("Virtual time {} · processes {a} and {b}", clock_time(lang, ms)),
        [a, ..] => format!("Virtual time {} · process {a}", clock_time(lang, ms)),
        [] => format!("Virtual time {}", clock_time(lang, ms)),
    },
    speed: "Speed",
    speed_paused: "Clock stopped",
    skip_to_idle: "Skip to idle",
    idle: "Idle: nothing will happen until you act.",
    running: "Running: callers, the queue or the consumer still have work due.",
    caller_timeout_label: "Caller timeout (ms)",
    processing_time_label: "Processing time (ms)",
    restart: "Restart process",
    restart_hint: "Ends the process (both, when two run): its memory, queue and work in hand are lost. A durable store keeps what it committed.",
    naive: "Naive worker beside",
    naive_hint: "While this is on, each request sent also goes to a worker that ignores the key and treats every delivery as new.",
    naive_balances: "Naive worker's balances",
    undo: "Undo",
    redo: "Redo",
    move_hour: "+1 hour",
    move_day: "+1 day",
    move_to_label: "Move clock to (h:mm)",
    move_to: "Move",
    move_to_hint: "A time since the start, as hours:minutes (25:30) or whole hours (48). The clock only moves forward; whatever falls due on the way happens in order.",
    time_format: "Write the time as hours:minutes, such as 25:30, or as whole hours. Nothing changed.",
    time_minutes: "Minutes run from 00 to 59. Nothing changed.",
    time_not_after_now: |lang, now| {
        format!(
            "That time is not after now ({}): the clock only moves forward. Nothing changed.",
            clock_time(lang, now)
        )
    },
    storage: "Storage and processes",
    store_kind_label: "Store",
    store_kind: |k| match k {
        StoreKind::InMemory => "In memory",
        StoreKind::ReceiptFirst => "Durable: receipt first",
        StoreKind::BalanceFirst => "Durable: balance first",
        StoreKind::OneTransaction => "Durable: one transaction",
    },
    store_kind_hint: |k| match k {
        StoreKind::InMemory => "The article's store: each process keeps balances and receipts in its own memory and forgets them when it ends.",
        StoreKind::ReceiptFirst => "Outlives the process. Writes the receipt, then adds the points, as two separate writes: a crash in between leaves a receipt for points never added.",
        StoreKind::BalanceFirst => "Outlives the process. Adds the points, then writes the receipt, as two separate writes: a crash in between leaves points with no receipt, so a retry adds them again.",
        StoreKind::OneTransaction => "Outlives the process. Points and receipt go in one transaction, both or neither, with one unique key per operation; the answer leaves only after the commit.",
    },
    crash_label: "Crash point",
    crash_point: |p| match p {
        None => "None",
        Some(CrashPoint::BeforeWrites) => "Before anything is written",
        Some(CrashPoint::BetweenWrites) => "Between the two writes",
        Some(CrashPoint::AfterCommit) => "After commit, before acknowledgement",
    },
    crash_hint: "Crashes the next handling that reaches this moment, once: its process ends there and a new one takes its place. Then this goes back to None.",
    crash_armed: "Armed:",
    processes_label: "Processes",
    processes_hint: "Two processes run side by side, each with its own queue and consumer, and, in memory, its own store.",
    routing_label: "Routing",
    routing: |_, r| match r {
        Routing::RoundRobin => "Round robin".to_string(),
        Routing::KeyHash => "By hash of the key".to_string(),
        Routing::Only(n) => format!("Always process {n}"),
    },
    routing_hint: |r| match r {
        Routing::RoundRobin => "Calls take turns: one to process 1, the next to process 2.",
        Routing::KeyHash => "Every attempt with the same key goes to the same process.",
        Routing::Only(_) => "Every call goes to that one process.",
    },
    routing_one_process: "Only one process runs now, so every call goes to it: routing matters once 2 run.",
    retention_label: "Retention (hours)",
    retention_hint: "How long the durable store keeps each receipt before deleting it. After that, a retry with the old key looks new. Balances and ledger rows stay.",
    retention_unchanged: |_, h| format!("Nothing changed: receipts are still kept {}.", hours_en(h)),
    ledger_label: "Recognise by ledger row",
    ledger_hint: "The durable store also writes a ledger row for every grant and never deletes it, while the receipt goes when its retention runs out. With this on, a retry whose receipt is gone is recognised by its ledger row and adds nothing.",
    durable_only: "Applies to the durable store only.",
    process_heading: |_, n| format!("Process {n}"),
    store_shows_durable: |_, h| {
        format!(
            "Durable store, shared by every process and kept across restarts: committed balances and receipts. Receipts are deleted {} after they were written; balances and ledger rows stay.",
            hours_en(h)
        )
    },
    store_shows_memory: |_, n| format!("The article's in-memory store, inside process {n}: lost when that process ends."),
    store_shows_memories: |_, a, b| {
        format!("Each process has its own memory: process {a}'s first, then process {b}'s. Neither knows what the other granted.")
    },
    memory_of: |_, n| format!("Process {n}'s memory"),
    store_title_durable: "Durable store",
    store_title_memory: |_, n| format!("Store: process {n}'s memory"),
    store_title_memories: "Stores: each process's memory",
    truth: |t| match t {
        Truth::NeverApplied => "In truth: never applied.",
        Truth::ReturnedReceipt => "In truth: the store recognised the key and returned the stored receipt; nothing was added.",
        Truth::AppliedBeforeTimeout => "In truth: the store had already applied it; only the answer was lost.",
        Truth::AppliedAfterTimeout => "In truth: still queued or running at the timeout, applied later.",
        Truth::Pending => "In truth: still queued or running; not known yet.",
        Truth::Crashed => "In truth: the process crashed while handling it; the crash row says what was written.",
    },
    at_time: |lang, ms| format!("at {}", clock_time(lang, ms)),
    process_marker: |_, n| format!("process {n}"),
    granted_again: |_, first, p, cause| match cause {
        RegrantCause::Restart => format!("granted again: process {p} had applied this operation, and the restart forgot its receipt"),
        RegrantCause::OtherProcess => format!("granted again: process {p} had applied this operation in its own memory, which this process cannot see"),
        RegrantCause::CrashLeftNoReceipt => format!("granted again: attempt #{first} added these points, then process {p} crashed before writing its receipt"),
        RegrantCause::ReceiptExpired => format!("granted again: attempt #{first} had applied this operation, but its receipt expired, so the store took this for a new one"),
        RegrantCause::Race => format!("granted again: attempt #{first} (process {p}) was applying this operation at the same moment, and neither found a receipt"),
    },
    store_not_yet: "not handled yet",
    store_never: "never reached the store",
    caller_process_ended: "error: the process ended before answering",
    chart_value_axis: "Balance (points)",
    chart_attempt_axis: "Attempt # (as in the timeline’s first column)",
    chart_below: "receipt below the scale: an older, lower balance",
    chart_connector: "dotted line: from the current balance at that attempt to its mark",
    chart_floor: |_, floor| format!("The scale starts at {floor}, not at 0."),
    chart_summary: |_, first, last, drawn, from, to| match drawn {
        1 => format!("Attempt {first}: the current balance went from {from} to {to}."),
        n => format!("Attempts {first} to {last} ({n} drawn): the current balance went from {from} to {to}."),
    },
    chart_counts: |_, receipts, older, unseen| {
        let receipts = match receipts {
            1 => "1 receipt".to_string(),
            n => format!("{n} receipts"),
        };
        let unseen = match unseen {
            1 => "1 grant".to_string(),
            n => format!("{n} grants"),
        };
        format!("{receipts} reached callers, {older} of them showing a balance older than the current one; {unseen} applied without the caller getting the receipt.")
    },
    chart_table: "The chart as a table",
    chart_table_caption: |_, shown, drawn| {
        if shown == drawn {
            format!("Every attempt drawn ({drawn}), oldest first.")
        } else {
            format!("The newest {shown} of the {drawn} attempts drawn, oldest first.")
        }
    },
    chart_col_attempt: "Attempt #",
    chart_col_balance: "Current balance right after",
    chart_col_mark: "On the chart",
    chart_mark_receipt: "receipt, balance",
    chart_mark_older: "older than the current balance",
    chart_mark_unseen: "no receipt reached the caller; it would say",
    chart_mark_none: "no mark",
    invariants_title: "Promises (invariants)",
    invariants_intro: "Checked after every step against what the stores wrote.",
    invariant: |i| match i {
        Invariant::AtMostOnce => "Every operation is granted at most once",
        Invariant::GrantedHasReceipt => "Every granted operation has a receipt",
        Invariant::ReceiptHasGrant => "Every receipt matches a grant",
    },
    invariant_holds: "Holds",
    invariant_broken: "Broken",
    broken_by: |_, attempt, at| format!("Broken by attempt #{attempt} at {}", clock_time(Lang::En, at)),
    show_attempt: |_, attempt| format!("Show attempt #{attempt} in the timeline"),
    announce_broken: |_, i, attempt, at| {
        format!(
            "Promise broken: “{}”, by attempt #{attempt} at {}.",
            (EN.invariant)(i),
            clock_time(Lang::En, at)
        )
    },
    receipts_expired: |_, n, hours| {
        let receipts = match n {
            1 => "1 receipt".to_string(),
            n => format!("{n} receipts"),
        };
        format!(
            "{receipts} expired after the retention (now {}). Not a broken promise: the store kept each as long as it said it would, but a retry after that looks new.",
            hours_long_en(hours)
        )
    },
    marker_text: marker_text_en,
    markers_more: |_, n| match n {
        1 => "… and 1 more event here, not shown".to_string(),
        n => format!("… and {n} more events here, not shown"),
    },
    crashed_at: |p| match p {
        CrashPoint::BeforeWrites => "crashed before anything was written",
        CrashPoint::BetweenWrites => "crashed between the two writes",
        CrashPoint::AfterCommit => "crashed after the commit, before the answer left",
    },
    lost_race: "lost the race: another attempt committed first",
    lost_race_receipt: "lost the race: returned the committed receipt",
    durable_writes: |w| match w {
        DurableWrites::OneCommit => "committed: both writes in one transaction",
        DurableWrites::ReceiptThenBalance => "written: the receipt, then the balance, each on its own",
        DurableWrites::BalanceThenReceipt => "written: the balance, then the receipt, each on its own",
    },
    by_ledger: "recognised by the ledger row: no receipt was found, but the ledger says this operation was granted",
    broke_promise: |i| match i {
        Invariant::AtMostOnce => "broke “at most once”",
        Invariant::GrantedHasReceipt => "broke “granted has a receipt”",
        Invariant::ReceiptHasGrant => "broke “receipt matches a grant”",
    },
    callers: "Callers and queue",
    in_flight_label: "Duplicate in flight gets",
    in_flight_policy: |p| match p {
        InFlightPolicy::NoRecord => "No record: the store decides",
        InFlightPolicy::Wait => "Wait for the first",
        InFlightPolicy::RetryLater => "In progress, retry later",
    },
    in_flight_hint: |p| match p {
        InFlightPolicy::NoRecord => "Nothing marks an operation as started: a duplicate sent while the first attempt is queued or at work goes on to the store.",
        InFlightPolicy::Wait => "The first attempt writes an in-progress record. A duplicate that finds it waits until the first is done, then gets the same receipt.",
        InFlightPolicy::RetryLater => "The first attempt writes an in-progress record. A duplicate that finds it is answered at once: in progress, retry later (409 Conflict).",
    },
    in_progress_title: "In-progress records",
    in_progress_none: "None now.",
    in_progress_record: |lang, attempt, since, process| {
        let place = match process {
            None => "in the durable store".to_string(),
            Some(p) => format!("in process {p}'s memory"),
        };
        format!("held by attempt #{attempt} since {}, {place}", clock_time(lang, since))
    },
    met_in_progress: |_, holder, waited| {
        if waited {
            format!("found attempt #{holder} in progress and waited for it")
        } else {
            format!("found attempt #{holder} in progress: told to retry later")
        }
    },
    set_language: |l| match l {
        Language::English => "Set language to English",
        Language::Persian => "Set language to Persian",
    },
    set_language_hint: "Idempotent by nature: setting a value twice leaves it as once, with no key.",
    redeliver_label: "Redeliver the next message",
    redeliver_hint: "Next message only: the queue delivers it twice, as an at-least-once queue (such as SQS standard) may. Nobody waits for the copy.",
    acknowledge_label: "Acknowledge",
    acknowledge: |a| match a {
        Acknowledge::BeforeWork => "Before the work",
        Acknowledge::AfterWork => "After the work",
    },
    acknowledge_hint: |a| match a {
        Acknowledge::BeforeWork => "Taking a message acknowledges it, as the article's in-process channel does: if the process ends, what it held is lost.",
        Acknowledge::AfterWork => "The queue keeps each message until the store has answered: if the process ends first, the message is delivered again to the process that takes over.",
    },
    redelivery_of: |_, n| format!("the queue delivered #{n} again"),
    caller_queue: "nobody: the queue took the answer as its acknowledgement",
    signed_in_label: "Signed in as",
    signed_in_nobody: "Nobody signed in",
    signed_in_hint: "Signed in, a call acts on that account only: the account comes from who is signed in, not from the request. A key is not a credential.",
    would_leak: |_, r| format!(
        "a store that trusted the request would have handed over {}'s receipt: +{}, balance {}",
        isolate(&r.account_id),
        r.points,
        r.balance
    ),
    would_grant: |_, g| format!(
        "a store that trusted the request would have added {} points to {}",
        g.points,
        isolate(&g.account_id)
    ),
    email_label: "Send confirmation email",
    email_hint: "Each grant also emails the customer, through a mail service outside the store.",
    email_via_label: "Email through",
    email_via: |v| match v {
        EmailVia::Inline => "Inline call",
        EmailVia::Outbox => "Outbox",
    },
    email_via_hint: |v| match v {
        EmailVia::Inline => "The handler calls the mail service after the store answers, with no operation id: a retry that gets the stored receipt sends the email again.",
        EmailVia::Outbox => "The grant writes an outbox row in the same step as its points; a relay sends it with the operation id, at least once (here always twice), and the mail service keeps one email per operation.",
    },
    inbox_title: "Customer inbox",
    inbox_empty: "No email yet.",
    email_line: |_, account, key, points| format!("To {account}: {points} points added ({key})"),
    inbox_dropped: |_, n| match n {
        1 => "The mail service dropped 1 copy with an operation id it had already delivered.".to_string(),
        n => format!("The mail service dropped {n} copies with operation ids it had already delivered."),
    },
    auto_retry_label: "Automatic retries",
    auto_retry_hint: "A person's caller retries by itself, same key and payload, only after what may go away (a timeout, in progress), waiting an exponential backoff with jitter; out of attempts, it looks the operation up instead.",
    max_attempts_label: "Max attempts",
    backoff_title: "Backoff before each retry",
    backoff_row: |_, n, low, high| format!("retry {n}: waits {low}–{high} ms"),
    retry_of: |_, n| format!("automatic retry after #{n}"),
    looked_up: |_, receipt| match receipt {
        Some(r) => format!(
            "out of attempts; looked up {}: it was applied (+{}, balance {})",
            isolate(&r.key),
            r.points,
            r.balance
        ),
        None => "out of attempts; looked it up: not found, no grant so far".to_string(),
    },
};

static FA: Texts = Texts {
    title: "آزمایشگاه ایدمپوتنسی",
    tagline: "ببین تلاش دوباره کجا خرابکاری می‌کند و چطور درستش کنی: چرا فرستادن دوبارهٔ «۱۰۰ امتیاز بده» نباید دو بار امتیاز بدهد.",
    language_name: "فارسی",
    how_to: [
        "تأیید گم می‌شود: ۱۰۰ امتیازِ order-1042 به مخزن می‌رسد (موجودی ۱۰۰)، ولی فراخواننده فقط پایان مهلت (timeout) را می‌بیند.",
        "تلاش دوباره با همان کلید: مخزن order-1042 را می‌شناسد و رسید ذخیره‌شده‌اش را برمی‌گرداند (موجودی ۱۰۰). چیزی اضافه نمی‌شود.",
        "محتوا عوض می‌شود: order-1042 این بار با ۲۰۰ امتیاز رد می‌شود. هر کلید یعنی یک درخواست.",
        "خرید بعدی ۲۵ امتیاز می‌افزاید (موجودی ۱۲۵). تلاش دوباره برای نخستین اعطا: رسیدش هنوز ۱۰۰ می‌گوید؛ حساب ۱۲۵ دارد.",
    ],
    how_to_do: |lang, step| format!("انجام گام {}", lang.prose_number(step)),
    request: "درخواست",
    account: "حساب",
    key: "کلید",
    points: "امتیاز",
    lose_ack: "گم‌شدن تأیید",
    lose_ack_hint: "فقط برای تحویل بعدی: امتیاز ثبت می‌شود و بعد پاسخ گم می‌شود.",
    send: "ارسال",
    retry_same: "تلاش دوباره (همان کلید)",
    retry_fresh: "تلاش دوباره (کلید تازه)",
    retries_resend: "تلاش دوباره این را می‌فرستد:",
    check_balance: "دیدن موجودی",
    reset: "بازنشانی",
    burst: |lang, n| format!("هجوم: {} درخواست هم‌زمان", lang.prose_number(n)),
    queue: "صف کارگر",
    queue_slots: |lang, used, cap| {
        format!("{} خانه از {} خانه پر است", lang.prose_number(used), lang.prose_number(cap))
    },
    consumer_holds: "در دست مصرف‌کننده",
    consumer_idle: "مصرف‌کننده بیکار است: صف خالی است",
    consumer_paused: "مصرف‌کننده متوقف است: چیزی از صف برنمی‌دارد",
    consumer_next: "مصرف‌کننده تحویل بعدی را برمی‌دارد",
    attempt_number: |lang, n| format!("تلاش {}", lang.prose_number(n)),
    producers_waiting: |lang, n| match n {
        0 => "هیچ تولیدکننده‌ای منتظر نیست".to_string(),
        n => format!("{} تولیدکننده منتظر جای خالی‌اند", lang.prose_number(n)),
    },
    pause: "توقف مصرف‌کننده",
    timeline: "خط زمان",
    timeline_empty: "هنوز تلاشی نشده. برای شروع یک درخواست بفرست.",
    col_attempt: "تلاش",
    col_request: "درخواست",
    col_store: "مخزن چه کرد",
    col_caller: "فراخواننده چه گرفت",
    col_balance: "موجودی پس از آن",
    nth_attempt: |lang, n| match n {
        1 => "تلاش نخست".to_string(),
        n => format!("تلاش دوباره، بار {}", lang.prose_number(n - 1)),
    },
    key_reused: "کلید تکراری، امتیاز دیگر",
    lost_ack_marker: "تأیید گم شد",
    outcome: |o| match o {
        Outcome::Pending => "در انتظار پاسخ",
        Outcome::Applied => "اعمال شد",
        Outcome::Replayed => "رسید ذخیره‌شده",
        Outcome::Rejected => "رد شد",
        Outcome::Timeout => "مهلت گذشت",
        Outcome::TimeoutApplied => "مهلت گذشت، ولی اعمال شد",
        Outcome::ProcessEnded => "فرایند پایان یافت",
        Outcome::InProgress => "در جریان",
        Outcome::Redelivered => "دوباره تحویل شد",
        Outcome::Forbidden => "ممنوع",
        Outcome::GaveUpLookedUp => "دست کشید و جویا شد",
    },
    store_applied: "امتیاز افزوده شد:",
    store_replayed: "رسید ذخیره‌شده را برگرداند",
    store_rejected: "رد کرد",
    caller_receipt: "رسید، موجودی",
    caller_error: "خطا:",
    caller_timeout: "مهلت گذشت: نتیجه نامعلوم",
    caller_waiting: "هنوز پاسخی نرسیده: در انتظار",
    chart_title: "موجودی پس از هر تلاش:",
    chart_current: "موجودی فعلی (در مخزن)",
    chart_receipt: "موجودیِ چاپ‌شده روی رسیدی که فراخواننده گرفت (شاید قدیمی‌تر از اکنون)",
    chart_unseen: "اعمال شد، ولی رسیدش هرگز به فراخواننده نرسید: آنچه رسید می‌گفت",
    chart_empty: "هنوز چیزی برای این حساب نیست.",
    store: "مخزن",
    balances: "موجودی‌ها",
    receipts: "رسیدها بر پایهٔ (حساب، کلید)",
    no_balances: "هنوز هیچ حسابی امتیاز ندارد.",
    no_receipts: "هنوز رسیدی ذخیره نشده.",
    receipt_balance: "موجودی روی رسید",
    receipts_table: "جدول رسیدها",
    balance_read: "موجودی",
    balance_read_note: "خواندنِ جداگانهٔ مخزن، نه یک رسید.",
    balance_read_refused: "رد شد، چیزی خوانده نشد",
    balance_read_when: |_, ms, after| match after {
        Some(n) => format!("خوانده‌شده در {}، درست پس از آنکه مخزن به تلاش {} رسیدگی کرد.", clock_time(Lang::Fa, ms), fa(n)),
        None => format!("خوانده‌شده در {}، پیش از آنکه مخزن به هیچ تلاشی رسیدگی کند.", clock_time(Lang::Fa, ms)),
    },
    balance_read_stale: |_, now| {
        format!("کهنه شده: موجودی اکنون {now} است. برای خواندن دوباره «دیدن موجودی» را بزن.")
    },
    field_error: |e| match e {
        FieldError::Empty => "لازم است: نمی‌تواند خالی یا فقط فاصله باشد.".to_string(),
        FieldError::TooLong => format!("بیش از اندازه بلند: حداکثر {} نویسه.", fa(MAX_FIELD_CHARS)),
        FieldError::NotANumber => "عدد صحیح نیست.".to_string(),
        FieldError::NotPositive => "باید ۱ یا بیشتر باشد.".to_string(),
        FieldError::TooLarge => format!("بیش از اندازه بزرگ: حداکثر {}.", fa(i32::MAX)),
        FieldError::EdgeSpace => "فاصلهٔ آغاز یا پایان را بردار: دیده نمی‌شود.".to_string(),
        FieldError::DoubleSpace => "دو فاصلهٔ پشت سر هم یکی دیده می‌شوند: یکی بگذار.".to_string(),
        FieldError::Invisible => "نویسه‌ای دارد که دیده نمی‌شود: حذفش کن.".to_string(),
    },
    grant_error: |e| match e {
        GrantError::EmptyKey => "کلید خالی است؛ به عملیات یک کلید بده.".to_string(),
        GrantError::EmptyAccount => "حساب خالی است؛ بگو امتیاز به کدام حساب برود.".to_string(),
        GrantError::NonPositivePoints => "امتیاز باید ۱ یا بیشتر باشد.".to_string(),
        GrantError::Overflow => format!(
            "موجودی تازه از {} بیشتر می‌شد؛ چیزی تغییر نکرد.",
            fa(i32::MAX)
        ),
        GrantError::Timeout => {
            "تأییدی نرسید؛ شاید امتیاز ثبت شده باشد، شاید نه. با همان کلید دوباره بفرست.".to_string()
        }
        GrantError::WorkerStopped => "کارگر متوقف شده و کار تازه نمی‌پذیرد.".to_string(),
        GrantError::InProgress => {
            "تلاش دیگری با همین کلید هنوز در دست رسیدگی است؛ کمی بعد دوباره بفرست.".to_string()
        }
        GrantError::Forbidden { signed_in, named } => format!(
            "با حساب «{}» وارد شده‌ای؛ این درخواست نمی‌تواند روی حساب «{}» کار کند. کلید، مجوز نیست.",
            isolate(signed_in),
            isolate(named)
        ),
        GrantError::PayloadMismatch { stored, rejected } => format!(
            "کلید «{}» روی حساب «{}» پیش‌تر برای {} امتیاز به کار رفته؛ درخواست {} امتیاز با همان کلید رد می‌شود.",
            isolate(&stored.key),
            isolate(&stored.account_id),
            stored.points,
            rejected.points
        ),
    },
    grant_error_short: |e| match e {
        GrantError::EmptyKey => "کلید خالی".to_string(),
        GrantError::EmptyAccount => "حساب خالی".to_string(),
        GrantError::NonPositivePoints => "امتیاز کمتر از ۱".to_string(),
        GrantError::Overflow => "سرریز موجودی".to_string(),
        GrantError::Timeout => "مهلت گذشت".to_string(),
        GrantError::WorkerStopped => "کارگر متوقف شده".to_string(),
        GrantError::InProgress => "در جریان: بعداً دوباره بفرست".to_string(),
        GrantError::Forbidden { .. } => "ممنوع: حساب واردشده نیست".to_string(),
        GrantError::PayloadMismatch { stored, .. } => {
            format!("کلید پیش‌تر برای {} امتیاز به کار رفته", stored.points)
        }
    },
    lab_error: |e| match e {
        LabError::NothingToRetry => "هنوز چیزی برای تلاش دوباره نیست: اول یک درخواست بفرست.".to_string(),
        LabError::BurstSize(n) => format!(
            "اندازهٔ هجوم باید از ۱ تا {} باشد، نه {}.",
            fa(crate::lab::MAX_BURST),
            fa(n)
        ),
        LabError::WaitLength(ms) => format!(
            "زمان انتظار باید از ۱ تا {} میلی‌ثانیه باشد، نه {}.",
            fa(MAX_WAIT_MS),
            fa(ms)
        ),
        LabError::Setting(SettingError::CallerTimeout(ms)) => format!(
            "مهلت فراخواننده باید از ۱ تا {} میلی‌ثانیه باشد، نه {}.",
            fa(MAX_SETTING_MS),
            fa(ms)
        ),
        LabError::Setting(SettingError::ProcessingTime(ms)) => format!(
            "زمان پردازش باید از ۰ تا {} میلی‌ثانیه باشد، نه {}.",
            fa(MAX_SETTING_MS),
            fa(ms)
        ),
        LabError::NothingToUndo => "چیزی برای واگرد نیست.".to_string(),
        LabError::NothingToRedo => "چیزی برای انجام دوباره نیست: انجام دوباره فقط آنچه را واگرد برگردانده بازمی‌آورد.".to_string(),
        LabError::StepNotPaused => "گام برای مصرف‌کنندهٔ متوقف است: اول «توقف مصرف‌کننده» را روشن کن.".to_string(),
        LabError::NothingToStep => "گامی نمانده: صف خالی است، یا مصرف‌کننده هنوز سرگرم اعمال یک تحویل است.".to_string(),
        LabError::DuplicatePercent(p) => format!(
            "سهم تکراری‌ها باید از ۰ تا ۱۰۰ درصد باشد، نه {}.",
            fa(p)
        ),
        LabError::SessionFull => format!(
            "این نشست به بیشترین اندازهٔ یک نشست ذخیره‌شده رسیده است ({} کنش، {} درخواست)؛ اگر می‌خواهی نگهش داری برون‌بُردش کن و بعد برای ادامه بازنشانی کن.",
            fa(MAX_ACTIONS),
            fa(MAX_SENDS)
        ),
        LabError::Setting(SettingError::Processes(n)) => format!(
            "شمار فرایندها باید ۱ یا {} باشد، نه {}.",
            fa(crate::sim::MAX_PROCESSES),
            fa(n)
        ),
        LabError::Setting(SettingError::RoutingSlot(n)) => format!(
            "فرایند {} وجود ندارد: فرایندها از ۱ تا {} شماره دارند.",
            fa(n),
            fa(crate::sim::MAX_PROCESSES)
        ),
        LabError::Setting(SettingError::Retention(h)) => format!(
            "نگه‌داری رسیدها باید از ۱ تا {} ساعت باشد، نه {}. چیزی تغییر نکرد.",
            fa(crate::lab::MAX_RETENTION_HOURS),
            fa(h)
        ),
        LabError::ClockMove(ms) => format!(
            "ساعت را می‌شود از ۱ میلی‌ثانیه تا یک سال ({} میلی‌ثانیه) جلو برد، نه {}.",
            fa(crate::lab::MAX_CLOCK_MOVE_MS),
            fa(ms)
        ),
        LabError::Account(e) => format!("حساب: {} چیزی تغییر نکرد.", (FA.field_error)(*e)),
        LabError::Setting(SettingError::MaxAttempts(n)) => format!(
            "بیشترین تلاش‌ها: باید از ۱ تا {} باشد، نه {}. چیزی تغییر نکرد.",
            fa(crate::core::MAX_ATTEMPTS),
            fa(n)
        ),
    },
    fix_fields: "چیزی فرستاده نشد: اول خانه‌های نشان‌دار را درست کن.",
    dismiss: "بستن",
    bring_back: "بازگرداندن نشست پیشین",
    reset_done: "آزمایشگاه بازنشانی شد.",
    link_opened: "نشستِ پیوند به جای نشستی که داشتی باز شد.",
    brought_back: "نشست پیشین بازگشت.",
    clock_stopped: "ساعت در همین لحظهٔ پیشین ایستاده تا بتوانی آن را ببینی: اینجا هنوز کاری مانده است. برای ادامه، سرعتی برگزین یا «پرش تا بیکاری» را بزن.",
    stopped_with_work: "ساعت ایستاده است: فراخواننده‌ها، صف یا مصرف‌کننده کاری در پیش دارند. برای ادامه، سرعتی برگزین یا «پرش تا بیکاری» را بزن.",
    other_tab: "آزمایشگاه در زبانهٔ دیگری هم باز است. هر زبانه با بارگذاری دوباره نشست خودش را نگه می‌دارد؛ زبانهٔ تازه آخرین نشستِ ذخیره‌شده را باز می‌کند. برای نگه‌داشتنِ مطمئن، نشست را برون‌بُرد کن.",
    step: "یک گام: یک تحویل",
    step_hint: "وقتی مصرف‌کننده متوقف است: یک تحویل را برمی‌دارد و اعمال می‌کند، سپس دوباره می‌ایستد. با دو فرایند، هر مصرف‌کننده یکی از صف خودش برمی‌دارد.",
    language: "زبان",
    share: "هم‌رسانی و نگه‌داری",
    copy_link: "رونوشت پیوند به همین وضعیت",
    link_hint: "پیوند به همین وضعیت:",
    link_copying: "در حال رونوشت در کلیپ‌بورد…",
    link_copied: "در کلیپ‌بورد رونوشت شد.",
    link_not_copied: "رونوشت نشد: این مرورگر اینجا اجازه نداد. پیوند را برگزین و خودت رونوشت کن.",
    export: "برون‌بُرد JSON",
    import: "درون‌بُرد JSON",
    imported: |lang, n| format!("نشست درون‌بُرد شد: {} کنش دوباره اجرا شد.", lang.prose_number(n)),
    link_failed: "نشستِ پیوند باز نشد، پس آزمایشگاه وضعیت خود را نگه داشت:",
    import_failed: "پرونده درون‌بُرد نشد، پس آزمایشگاه وضعیت خود را نگه داشت:",
    saved_failed: "نشستی که پیش از بارگذاری دوباره ذخیره شده بود بازیابی نشد، پس آزمایشگاه خالی آغاز می‌شود:",
    not_kept: "این مرورگر نشست را نگه نمی‌دارد (فضای ذخیره‌اش خاموش یا پر است)، پس با بارگذاری دوباره از دست می‌رود. برای نگه‌داشتنش آن را برون‌بُرد کن.",
    session_error: |e| match e {
        SessionError::TooLarge { bytes } => format!(
            "اندازهٔ نشست {} بایت است؛ حداکثر {} بایت پذیرفته می‌شود.",
            fa(bytes),
            fa(MAX_SESSION_BYTES)
        ),
        SessionError::BadLink => "پیوند آسیب دیده یا بریده شده است.".to_string(),
        // The parser's own words are English; the Persian sentence stands alone.
        SessionError::NotJson(_) => "این پروندهٔ نشست آزمایشگاه نیست.".to_string(),
        SessionError::WrongFormat => "این JSON نشست آزمایشگاه نیست.".to_string(),
        SessionError::UnsupportedVersion(v) => format!("نسخهٔ نشست {} پشتیبانی نمی‌شود.", fa(v)),
        SessionError::TooManyActions(n) => {
            format!("نشست {} کنش دارد؛ حداکثر {} پذیرفته می‌شود.", fa(n), fa(MAX_ACTIONS))
        }
        SessionError::TooManySends(n) => {
            format!("نشست {} درخواست می‌فرستد؛ حداکثر {} پذیرفته می‌شود.", fa(n), fa(MAX_SENDS))
        }
        SessionError::TextTooLong { index } => format!(
            "کنش {} حساب یا کلیدی بلندتر از {} نویسه دارد.",
            fa(index + 1),
            fa(MAX_FIELD_CHARS)
        ),
        SessionError::BadField { path, problem } => {
            let place = match crate::lab::field_place(path) {
                (Some(n), "") => format!("کنش {}", fa(n)),
                (Some(n), field) => format!("فیلد {} در کنش {}", isolate(field), fa(n)),
                (None, "") => "پرونده".to_string(),
                (None, field) => format!("فیلد {}", isolate(field)),
            };
            format!("پرونده JSON است، اما {place} قاعده‌ای را می‌شکند: {}.", fa_field_problem(problem))
        }
        SessionError::NoRoomForTime => format!(
            "نشست {} کنش دارد و آخرینش گذشت زمان نیست. نشست حداکثر {} کنش دارد و جای آخر برای گذشت زمان نگه داشته می‌شود تا کارِ در صف تمام شود.",
            fa(MAX_ACTIONS),
            fa(MAX_ACTIONS)
        ),
        SessionError::Replay(e) => format!(
            "کنش {} را نمی‌توان دوباره اجرا کرد: {}",
            fa(e.index + 1),
            (FA.lab_error)(&e.error)
        ),
    },
    open_full: "باز کردن آزمایشگاه کامل",
    stress: |lang| {
        format!(
            "آزمون بار: {} درخواست، {}٪ تکراری",
            lang.prose_number("10,000").replace(',', "٬"),
            lang.prose_number(30)
        )
    },
    stress_progress: |lang, answered, total| {
        format!(
            "آزمون بار در جریان است: {} از {} پاسخ گرفته‌اند.",
            lang.prose_number(grouped(answered)).replace(',', "٬"),
            lang.prose_number(grouped(total)).replace(',', "٬")
        )
    },
    stress_refused: |lang, answered, total| {
        format!(
            "آزمون بار تازه‌ای آغاز نشد: آزمون پیشین هنوز در جریان است ({} از {} پاسخ گرفته‌اند). آزمون تازه وقتی آغاز می‌شود که همهٔ فراخواننده‌های آن پاسخی شنیده باشند.",
            lang.prose_number(grouped(answered)).replace(',', "٬"),
            lang.prose_number(grouped(total)).replace(',', "٬")
        )
    },
    newer: "تازه‌تر",
    older: "قدیمی‌تر",
    latest: "تازه‌ترین",
    rows_range: |lang, from, to, total| {
        format!(
            "تلاش‌های {} تا {} از {}",
            lang.prose_number(from),
            lang.prose_number(to),
            lang.prose_number(total)
        )
    },
    receipts_more: |lang, n| format!("… و {} رسید دیگر", lang.prose_number(n)),
    chart_recent: |lang, n| format!("{} تلاش آخر", lang.prose_number(n)),
    world: "زمان و فرایند",
    clock: |lang, ms, processes| match processes {
        [a, b] => format!(
            "زمان مجازی {} · فرایندهای {} و {}",
            clock_time(lang, ms),
            lang.prose_number(a),
            lang.prose_number(b)
        ),
        [a, ..] => format!("زمان مجازی {} · فرایند {}", clock_time(lang, ms), lang.prose_number(a)),
        [] => format!("زمان مجازی {}", clock_time(lang, ms)),
    },
    speed: "سرعت",
    speed_paused: "ساعت ایستاده",
    skip_to_idle: "پرش تا بیکاری",
    idle: "بیکار: تا تو کاری نکنی، چیزی رخ نمی‌دهد.",
    running: "در کار: فراخواننده‌ها، صف یا مصرف‌کننده هنوز کاری پیش رو دارند.",
    caller_timeout_label: "مهلت فراخواننده (میلی‌ثانیه)",
    processing_time_label: "زمان پردازش (میلی‌ثانیه)",
    restart: "راه‌اندازی دوبارهٔ فرایند",
    restart_hint: "فرایند را تمام می‌کند (هر دو را، اگر دو فرایند کار کنند): حافظه، صف و کارِ در دست از دست می‌روند. مخزن ماندگار آنچه را ثبت کرده نگه می‌دارد.",
    naive: "کارگر ساده‌لوح در کنار",
    naive_hint: "تا این روشن است، هر درخواستی که فرستاده شود به کارگری هم می‌رود که کلید را نادیده می‌گیرد و هر تحویل را تازه می‌شمارد.",
    naive_balances: "موجودی‌های کارگر ساده‌لوح",
    undo: "واگرد",
    redo: "انجام دوباره",
    // No "+" sign: in right-to-left text it would land on the wrong side of the digit.
    move_hour: "یک ساعت جلو",
    move_day: "یک روز جلو",
    move_to_label: "بردن ساعت به (ساعت:دقیقه)",
    move_to: "ببر",
    move_to_hint: "زمانی از آغاز، به شکل ساعت:دقیقه (۲۵:۳۰) یا ساعتِ درست (۴۸). ساعت فقط جلو می‌رود؛ هر چه در این میان سررسید شود به ترتیب رخ می‌دهد.",
    time_format: "زمان را به شکل ساعت:دقیقه بنویس، مانند ۲۵:۳۰، یا ساعتِ درست. چیزی تغییر نکرد.",
    time_minutes: "دقیقه از ۰۰ تا ۵۹ است. چیزی تغییر نکرد.",
    time_not_after_now: |lang, now| {
        format!(
            "این زمان پس از اکنون ({}) نیست: ساعت فقط جلو می‌رود. چیزی تغییر نکرد.",
            clock_time(lang, now)
        )
    },
    storage: "ذخیره‌سازی و فرایندها",
    store_kind_label: "مخزن",
    store_kind: |k| match k {
        StoreKind::InMemory => "در حافظه",
        StoreKind::ReceiptFirst => "ماندگار: اول رسید",
        StoreKind::BalanceFirst => "ماندگار: اول موجودی",
        StoreKind::OneTransaction => "ماندگار: یک تراکنش",
    },
    store_kind_hint: |k| match k {
        StoreKind::InMemory => "مخزن مقاله: هر فرایند موجودی‌ها و رسیدها را در حافظهٔ خودش نگه می‌دارد و با پایانش همه را از یاد می‌برد.",
        StoreKind::ReceiptFirst => "از فرایند بیشتر می‌ماند. اول رسید را می‌نویسد و بعد امتیاز را اضافه می‌کند، در دو نوشتنِ جدا: از کار افتادن در این میان رسیدی می‌گذارد برای امتیازی که هرگز اضافه نشد.",
        StoreKind::BalanceFirst => "از فرایند بیشتر می‌ماند. اول امتیاز را اضافه می‌کند و بعد رسید را می‌نویسد، در دو نوشتنِ جدا: از کار افتادن در این میان امتیازی بی‌رسید می‌گذارد، پس تلاش دوباره آن را باز اضافه می‌کند.",
        StoreKind::OneTransaction => "از فرایند بیشتر می‌ماند. امتیاز و رسید در یک تراکنش نوشته می‌شوند، هر دو یا هیچ‌کدام، با یک کلید یکتا برای هر عملیات؛ پاسخ فقط پس از ثبت نهایی (commit) می‌رود.",
    },
    crash_label: "نقطهٔ از کار افتادن",
    crash_point: |p| match p {
        None => "هیچ",
        Some(CrashPoint::BeforeWrites) => "پیش از هر نوشتنی",
        Some(CrashPoint::BetweenWrites) => "میان دو نوشتن",
        Some(CrashPoint::AfterCommit) => "پس از ثبت نهایی، پیش از تأیید",
    },
    crash_hint: "رسیدگی بعدی را که به این لحظه برسد، یک بار، از کار می‌اندازد: فرایندش همان‌جا تمام می‌شود و فرایندی تازه جایش را می‌گیرد. سپس این دوباره «هیچ» می‌شود.",
    crash_armed: "آماده:",
    processes_label: "فرایندها",
    processes_hint: "دو فرایند کنار هم کار می‌کنند، هر کدام با صف و مصرف‌کنندهٔ خودش و، در حالت «در حافظه»، مخزن خودش.",
    routing_label: "مسیریابی",
    routing: |lang, r| match r {
        Routing::RoundRobin => "نوبتی".to_string(),
        Routing::KeyHash => "بر پایهٔ درهم‌سازی کلید".to_string(),
        Routing::Only(n) => format!("همیشه فرایند {}", lang.prose_number(n)),
    },
    routing_hint: |r| match r {
        Routing::RoundRobin => "فراخوانی‌ها به نوبت می‌روند: یکی به فرایند ۱، بعدی به فرایند ۲.",
        Routing::KeyHash => "همهٔ تلاش‌های یک کلید به یک فرایند می‌روند.",
        Routing::Only(_) => "همهٔ فراخوانی‌ها به همان یک فرایند می‌روند.",
    },
    routing_one_process: "اکنون فقط یک فرایند کار می‌کند و هر فراخوانی به آن می‌رود: مسیریابی وقتی به کار می‌آید که ۲ فرایند کار کنند.",
    retention_label: "نگه‌داری رسید (ساعت)",
    retention_hint: "مخزن ماندگار هر رسید را این مدت نگه می‌دارد و سپس پاکش می‌کند. پس از آن، تلاش دوباره با کلید قدیمی تازه به نظر می‌رسد. موجودی‌ها و ردیف‌های دفتر می‌مانند.",
    retention_unchanged: |lang, h| {
        format!("چیزی تغییر نکرد: رسیدها هنوز {} ساعت نگه داشته می‌شوند.", lang.prose_number(h))
    },
    ledger_label: "شناختن از روی ردیف دفتر",
    ledger_hint: "مخزن ماندگار برای هر اعطا یک ردیف در دفتر (ledger) هم می‌نویسد و هرگز پاکش نمی‌کند، ولی رسید با سرآمدن زمان نگه‌داری پاک می‌شود. با روشن بودن این، تلاش دوباره‌ای که رسیدش رفته از روی ردیف دفتر شناخته می‌شود و چیزی اضافه نمی‌کند.",
    durable_only: "فقط در مخزن ماندگار اثر دارد.",
    process_heading: |lang, n| format!("فرایند {}", lang.prose_number(n)),
    store_shows_durable: |lang, h| {
        format!(
            "مخزن ماندگار، مشترک میان همهٔ فرایندها و ماندگار در راه‌اندازی دوباره: موجودی‌ها و رسیدهای ثبت‌شده. رسیدها {} ساعت پس از نوشته‌شدن پاک می‌شوند؛ موجودی‌ها و ردیف‌های دفتر می‌مانند.",
            lang.prose_number(h)
        )
    },
    store_shows_memory: |lang, n| {
        format!(
            "مخزن درون‌حافظهٔ مقاله، درون فرایند {}: با پایان همان فرایند از دست می‌رود.",
            lang.prose_number(n)
        )
    },
    store_shows_memories: |lang, a, b| {
        format!(
            "هر فرایند حافظهٔ خودش را دارد: اول حافظهٔ فرایند {}، سپس حافظهٔ فرایند {}. هیچ‌کدام نمی‌داند دیگری چه اعطا کرده است.",
            lang.prose_number(a),
            lang.prose_number(b)
        )
    },
    memory_of: |lang, n| format!("حافظهٔ فرایند {}", lang.prose_number(n)),
    store_title_durable: "مخزن ماندگار",
    store_title_memory: |lang, n| format!("مخزن: حافظهٔ فرایند {}", lang.prose_number(n)),
    store_title_memories: "مخزن‌ها: حافظهٔ هر فرایند",
    truth: |t| match t {
        Truth::NeverApplied => "در واقع: هرگز اعمال نشد.",
        Truth::ReturnedReceipt => "در واقع: مخزن کلید را شناخت و رسید ذخیره‌شده را برگرداند؛ چیزی اضافه نشد.",
        Truth::AppliedBeforeTimeout => "در واقع: مخزن پیش‌تر اعمالش کرده بود؛ فقط پاسخ گم شد.",
        Truth::AppliedAfterTimeout => "در واقع: هنگام پایان مهلت هنوز در صف یا در کار بود و بعد اعمال شد.",
        Truth::Pending => "در واقع: هنوز در صف یا در کار است؛ هنوز معلوم نیست.",
        Truth::Crashed => "در واقع: فرایند هنگام رسیدگی به آن از کار افتاد؛ ردیف از کار افتادن می‌گوید چه چیزی نوشته شد.",
    },
    at_time: |lang, ms| format!("در {}", clock_time(lang, ms)),
    process_marker: |lang, n| format!("فرایند {}", lang.prose_number(n)),
    granted_again: |lang, first, p, cause| {
        let (first, p) = (attempt_tag(first), lang.prose_number(p));
        match cause {
            RegrantCause::Restart => format!(
                "دوباره اعطا شد: فرایند {p} این عملیات را اعمال کرده بود و راه‌اندازی دوباره رسیدش را از یاد برد"
            ),
            RegrantCause::OtherProcess => format!(
                "دوباره اعطا شد: فرایند {p} این عملیات را در حافظهٔ خودش اعمال کرده بود که این فرایند آن را نمی‌بیند"
            ),
            RegrantCause::CrashLeftNoReceipt => format!(
                "دوباره اعطا شد: تلاش {first} این امتیاز را اضافه کرد و فرایند {p} پیش از نوشتن رسیدش از کار افتاد"
            ),
            RegrantCause::ReceiptExpired => format!(
                "دوباره اعطا شد: تلاش {first} این عملیات را اعمال کرده بود، ولی رسیدش منقضی شد و مخزن این را عملیاتی تازه گرفت"
            ),
            RegrantCause::Race => format!(
                "دوباره اعطا شد: تلاش {first} (فرایند {p}) همان لحظه سرگرم اعمال همین عملیات بود و هیچ‌کدام رسیدی پیدا نکردند"
            ),
        }
    },
    store_not_yet: "هنوز رسیدگی نشده",
    store_never: "هرگز به مخزن نرسید",
    caller_process_ended: "خطا: فرایند پیش از پاسخ پایان یافت",
    chart_value_axis: "موجودی (امتیاز)",
    chart_attempt_axis: "شمارهٔ تلاش (همان ستون اول خط زمانی)",
    chart_below: "رسید زیر کف مقیاس: موجودیِ قدیمی‌تر و کمتر",
    chart_connector: "خط نقطه‌چین: از موجودی فعلیِ همان تلاش تا نشانه‌اش",
    chart_floor: |_, floor| format!("مقیاس از {} شروع می‌شود، نه از صفر.", isolate(&floor.to_string())),
    chart_summary: |lang, first, last, drawn, from, to| {
        let (first, last) = (isolate(&first.to_string()), isolate(&last.to_string()));
        let (from, to) = (isolate(&from.to_string()), isolate(&to.to_string()));
        match drawn {
            1 => format!("تلاش {first}: موجودی فعلی از {from} به {to} رسید."),
            n => format!(
                "تلاش‌های {first} تا {last} ({} تلاش رسم شده): موجودی فعلی از {from} به {to} رسید.",
                lang.prose_number(n)
            ),
        }
    },
    chart_counts: |lang, receipts, older, unseen| {
        format!(
            "فراخواننده‌ها {} رسید گرفتند که {} تا از آن‌ها موجودیِ قدیمی‌تر از موجودی فعلی را نشان می‌دهند؛ {} اعطا اعمال شد بی‌آنکه فراخواننده‌اش رسیدی بگیرد.",
            lang.prose_number(receipts),
            lang.prose_number(older),
            lang.prose_number(unseen)
        )
    },
    chart_table: "نمودار به شکل جدول",
    chart_table_caption: |lang, shown, drawn| {
        if shown == drawn {
            format!("همهٔ تلاش‌های رسم‌شده ({})، قدیمی‌ترین نخست.", lang.prose_number(drawn))
        } else {
            format!(
                "{} تلاشِ تازه‌تر از {} تلاش رسم‌شده، قدیمی‌ترین نخست.",
                lang.prose_number(shown),
                lang.prose_number(drawn)
            )
        }
    },
    chart_col_attempt: "شمارهٔ تلاش",
    chart_col_balance: "موجودی فعلی درست پس از آن",
    chart_col_mark: "روی نمودار",
    chart_mark_receipt: "رسید، موجودی",
    chart_mark_older: "قدیمی‌تر از موجودی فعلی",
    chart_mark_unseen: "هیچ رسیدی به فراخواننده نرسید؛ رسید می‌گفت",
    chart_mark_none: "بی‌نشانه",
    invariants_title: "وعده‌ها (ناورداها)",
    invariants_intro: "پس از هر گام با آنچه مخزن‌ها نوشته‌اند سنجیده می‌شوند.",
    invariant: |i| match i {
        Invariant::AtMostOnce => "هر عملیات حداکثر یک بار اعطا می‌شود",
        Invariant::GrantedHasReceipt => "هر عملیاتِ اعطاشده رسید دارد",
        Invariant::ReceiptHasGrant => "پشت هر رسید اعطایی واقعی هست",
    },
    invariant_holds: "برقرار است",
    invariant_broken: "شکسته شد",
    broken_by: |_, attempt, at| {
        format!("شکسته با تلاش {} در {}", attempt_tag(attempt), clock_time(Lang::Fa, at))
    },
    show_attempt: |_, attempt| format!("نمایش تلاش {} در خط زمان", attempt_tag(attempt)),
    announce_broken: |_, i, attempt, at| {
        format!(
            "وعده شکست: «{}»، با تلاش {} در {}.",
            (FA.invariant)(i),
            attempt_tag(attempt),
            clock_time(Lang::Fa, at)
        )
    },
    receipts_expired: |lang, n, hours| {
        format!(
            "{} رسید پس از زمان نگه‌داری (اکنون {} ساعت) پاک شد. این شکستن وعده نیست: مخزن هر رسید را تا جایی که گفته بود نگه داشت، ولی تلاش دوباره پس از آن تازه به نظر می‌رسد.",
            lang.prose_number(n),
            lang.prose_number(hours)
        )
    },
    marker_text: marker_text_fa,
    markers_more: |lang, n| format!("… و {} رویداد دیگر در همین‌جا، که نشان داده نمی‌شوند", lang.prose_number(n)),
    crashed_at: |p| match p {
        CrashPoint::BeforeWrites => "پیش از هر نوشتنی از کار افتاد",
        CrashPoint::BetweenWrites => "میان دو نوشتن از کار افتاد",
        CrashPoint::AfterCommit => "پس از ثبت نهایی و پیش از رفتن پاسخ از کار افتاد",
    },
    lost_race: "در مسابقه باخت: تلاش دیگری زودتر ثبت نهایی شد",
    lost_race_receipt: "در مسابقه باخت: رسیدِ ثبت‌شده را برگرداند",
    durable_writes: |w| match w {
        DurableWrites::OneCommit => "ثبت شد: هر دو نوشتن در یک تراکنش",
        DurableWrites::ReceiptThenBalance => "نوشته شد: اول رسید، بعد موجودی، هر کدام جدا",
        DurableWrites::BalanceThenReceipt => "نوشته شد: اول موجودی، بعد رسید، هر کدام جدا",
    },
    by_ledger: "از روی ردیف دفتر شناخته شد: رسیدی پیدا نشد، ولی دفتر می‌گوید این عملیات اعطا شده بود",
    broke_promise: |i| match i {
        Invariant::AtMostOnce => "«حداکثر یک بار» را شکست",
        Invariant::GrantedHasReceipt => "«هر اعطا رسید دارد» را شکست",
        Invariant::ReceiptHasGrant => "«پشت هر رسید اعطایی هست» را شکست",
    },
    callers: "فراخواننده‌ها و صف",
    in_flight_label: "تکراریِ در جریان چه می‌گیرد",
    in_flight_policy: |p| match p {
        InFlightPolicy::NoRecord => "بی‌رکورد: مخزن تصمیم می‌گیرد",
        InFlightPolicy::Wait => "منتظر اولی می‌ماند",
        InFlightPolicy::RetryLater => "در جریان است؛ بعداً دوباره بفرست",
    },
    in_flight_hint: |p| match p {
        InFlightPolicy::NoRecord => "هیچ چیز آغاز یک عملیات را نشان نمی‌دهد: تکراری‌ای که وقتی تلاش نخست در صف یا در کار است برسد، تا مخزن می‌رود.",
        InFlightPolicy::Wait => "تلاش نخست رکورد «در جریان» می‌نویسد. تکراری‌ای که آن را ببیند صبر می‌کند تا کار اولی تمام شود، و همان رسید را می‌گیرد.",
        InFlightPolicy::RetryLater => "تلاش نخست رکورد «در جریان» می‌نویسد. تکراری‌ای که آن را ببیند بی‌درنگ پاسخ می‌گیرد: در جریان است، بعداً دوباره بفرست (\u{2066}409 Conflict\u{2069}).",
    },
    in_progress_title: "رکوردهای «در جریان»",
    in_progress_none: "فعلاً رکوردی نیست.",
    in_progress_record: |lang, attempt, since, process| {
        let place = match process {
            None => "در مخزن ماندگار".to_string(),
            Some(p) => format!("در حافظهٔ فرایند {}", lang.prose_number(p)),
        };
        format!("در اختیار تلاش {} از {}، {place}", attempt_tag(attempt), clock_time(lang, since))
    },
    met_in_progress: |_, holder, waited| {
        if waited {
            format!("تلاش {} را در جریان دید و منتظرش ماند", attempt_tag(holder))
        } else {
            format!("تلاش {} را در جریان دید: پاسخ گرفت که بعداً دوباره بفرستد", attempt_tag(holder))
        }
    },
    set_language: |l| match l {
        Language::English => "زبان را انگلیسی کن",
        Language::Persian => "زبان را فارسی کن",
    },
    set_language_hint: "ذاتاً idempotent است: دو بار گذاشتن یک مقدار همان یک بار است، بی هیچ کلیدی.",
    redeliver_label: "پیام بعدی دوباره تحویل شود",
    redeliver_hint: "فقط پیام بعدی: صف آن را دو بار تحویل می‌دهد، همان‌طور که یک صف «دست‌کم یک بار» (مثل SQS استاندارد) ممکن است بدهد. کسی منتظر نسخهٔ دوم نیست.",
    acknowledge_label: "تأیید دریافت",
    acknowledge: |a| match a {
        Acknowledge::BeforeWork => "پیش از کار",
        Acknowledge::AfterWork => "پس از کار",
    },
    acknowledge_hint: |a| match a {
        Acknowledge::BeforeWork => "برداشتن پیام یعنی تأیید آن، مثل کانال درون‌فرایندی مقاله: اگر فرایند پایان یابد، آنچه در دست داشت از دست می‌رود.",
        Acknowledge::AfterWork => "صف هر پیام را نگه می‌دارد تا مخزن پاسخ دهد: اگر فرایند زودتر پایان یابد، پیام دوباره به فرایندی که جایش را می‌گیرد تحویل می‌شود.",
    },
    redelivery_of: |_, n| format!("صف پیام {} را دوباره تحویل داد", attempt_tag(n)),
    caller_queue: "هیچ‌کس: صف پاسخ را تأیید دریافت گرفت",
    signed_in_label: "واردشده با حساب",
    signed_in_nobody: "هیچ‌کس وارد نشده",
    signed_in_hint: "وقتی کسی وارد شده، هر فراخوانی فقط روی حساب او کار می‌کند: حساب از کسی می‌آید که وارد شده، نه از درخواست. کلید، مجوز نیست.",
    would_leak: |_, r| format!(
        "مخزنی که به درخواست اعتماد می‌کرد، رسید {} را لو می‌داد: +{}، موجودی {}",
        isolate(&r.account_id),
        r.points,
        r.balance
    ),
    would_grant: |_, g| format!(
        "مخزنی که به درخواست اعتماد می‌کرد، {} امتیاز به {} می‌افزود",
        g.points,
        isolate(&g.account_id)
    ),
    email_label: "فرستادن ایمیل تأیید",
    email_hint: "هر اعطا برای مشتری ایمیل هم می‌فرستد، از راه یک سرویس ایمیل بیرون از مخزن.",
    email_via_label: "ایمیل از راه",
    email_via: |v| match v {
        EmailVia::Inline => "فراخوانی مستقیم",
        EmailVia::Outbox => "صندوق خروجی (Outbox)",
    },
    email_via_hint: |v| match v {
        EmailVia::Inline => "پردازشگر پس از پاسخ مخزن، سرویس ایمیل را بی شناسهٔ عملیات صدا می‌زند: تلاش دوباره‌ای که رسید ذخیره‌شده را می‌گیرد، ایمیل را دوباره می‌فرستد.",
        EmailVia::Outbox => "اعطا در همان گامِ افزودن امتیاز، یک ردیف در صندوق خروجی می‌نویسد؛ رله آن را با شناسهٔ عملیات دست‌کم یک بار (این‌جا همیشه دو بار) می‌فرستد و سرویس ایمیل برای هر عملیات یک ایمیل نگه می‌دارد.",
    },
    inbox_title: "صندوق ورودی مشتری",
    inbox_empty: "هنوز ایمیلی نیامده.",
    email_line: |lang, account, key, points| {
        format!("به {}: {} امتیاز افزوده شد ({})", isolate(account), lang.prose_number(points), isolate(key))
    },
    inbox_dropped: |lang, n| format!(
        "سرویس ایمیل {} نسخه را که شناسهٔ عملیاتش پیش‌تر رسیده بود کنار گذاشت.",
        lang.prose_number(n)
    ),
    auto_retry_label: "تلاش دوبارهٔ خودکار",
    auto_retry_hint: "فراخوانندهٔ آدم خودش دوباره می‌فرستد، با همان کلید و همان محتوا، فقط پس از خطای گذرا (پایان مهلت، در جریان)، با صبرِ نمایی و لرزش؛ وقتی تلاش‌ها تمام شود، به جای تلاش بی‌پایان، وضعیت عملیات را جویا می‌شود.",
    max_attempts_label: "بیشترین تلاش‌ها",
    backoff_title: "صبر پیش از هر تلاش دوباره",
    backoff_row: |lang, n, low, high| format!(
        "تلاش دوبارهٔ {}: {} تا {} میلی‌ثانیه صبر",
        lang.prose_number(n),
        lang.prose_number(low),
        lang.prose_number(high)
    ),
    retry_of: |_, n| format!("تلاش دوبارهٔ خودکار پس از {}", attempt_tag(n)),
    looked_up: |lang, receipt| match receipt {
        Some(r) => format!(
            "تلاش‌ها تمام شد؛ {} را جویا شد: اعمال شده بود (+{}، موجودی {})",
            isolate(&r.key),
            lang.prose_number(r.points),
            lang.prose_number(r.balance)
        ),
        None => "تلاش‌ها تمام شد؛ جویا شد: پیدا نشد، تا اکنون اعطایی نیست".to_string(),
    },
};

// The promises panel and the timeline's marker rows.

use crate::lab::{CrashLeft, DurableWrites, Invariant, Marker, MarkerKind, RegrantCause};
use crate::sim::{AttemptId, Millis};

/// "#2", an attempt named as the timeline's first column names it, kept whole
/// and left to right inside right-to-left prose.
fn attempt_tag(attempt: AttemptId) -> String {
    format!("\u{2066}#{attempt}\u{2069}")
}

fn hours_long_en(h: u32) -> String {
    match h {
        1 => "1 hour".to_string(),
        h => format!("{h} hours"),
    }
}

/// A length of virtual time as days, hours, minutes and seconds (to a tenth),
/// leaving out the parts that are zero.
fn span_parts(ms: Millis) -> [(u64, usize); 4] {
    let tenths = (ms + 50) / 100;
    [
        (tenths / 864_000, 0),
        (tenths / 36_000 % 24, 1),
        (tenths / 600 % 60, 2),
        (tenths % 600, 3),
    ]
}

fn span_en(ms: Millis) -> String {
    const UNITS: [(&str, &str); 4] = [
        ("day", "days"),
        ("hour", "hours"),
        ("minute", "minutes"),
        ("second", "seconds"),
    ];
    let parts: Vec<String> = span_parts(ms)
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, unit)| {
            let (one, many) = UNITS[unit];
            match (unit, n) {
                (3, n) if n % 10 != 0 => format!("{}.{} {many}", n / 10, n % 10),
                (3, 10) | (0..=2, 1) => format!("1 {one}"),
                (3, n) => format!("{} {many}", n / 10),
                (_, n) => format!("{n} {many}"),
            }
        })
        .collect();
    if parts.is_empty() {
        "0 seconds".to_string()
    } else {
        parts.join(" ")
    }
}

fn span_fa(ms: Millis) -> String {
    const UNITS: [&str; 4] = ["روز", "ساعت", "دقیقه", "ثانیه"];
    let parts: Vec<String> = span_parts(ms)
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, unit)| match unit {
            3 if n % 10 != 0 => format!("{}٫{} {}", fa(n / 10), fa(n % 10), UNITS[3]),
            3 => format!("{} {}", fa(n / 10), UNITS[3]),
            unit => format!("{} {}", fa(n), UNITS[unit]),
        })
        .collect();
    if parts.is_empty() {
        format!("{} {}", fa(0), UNITS[3])
    } else {
        parts.join(" و ")
    }
}

fn marker_text_en(_: Lang, marker: &Marker) -> String {
    match &marker.kind {
        MarkerKind::Crash {
            process,
            attempt,
            point,
            wrote,
            durable,
        } => {
            let when = match point {
                CrashPoint::BeforeWrites => "before anything was written",
                CrashPoint::BetweenWrites => "between the two writes",
                CrashPoint::AfterCommit => "after the commit, before the answer left",
            };
            let left = match CrashLeft::of(*point, wrote, *durable) {
                CrashLeft::Nothing => "nothing was written, so a retry starts afresh.",
                CrashLeft::ReceiptOnly => "the receipt was written, the points were not. Receipt first leaves a completion with no points: a retry gets that receipt, and the points are never added.",
                CrashLeft::PointsOnly => "the points were added, the receipt was not. Balance first leaves points with no receipt: a retry finds no receipt and adds them again (unless the ledger check recognises the operation).",
                CrashLeft::StagedGone => "nothing is half-done. In one transaction the staged writes are gone with the process, and a retry starts afresh.",
                CrashLeft::Committed => "points and receipt were committed, the answer was never sent. A retry finds the receipt and returns it.",
                CrashLeft::MemoryGone => "its store was its memory, so the points and the receipt it wrote are gone with it, and a retry adds them again.",
            };
            format!("Process {process} crashed {when} while handling attempt #{attempt}: {left}")
        }
        MarkerKind::Restart { ended, started, .. } => format!(
            "Process {ended} ended; process {started} took its place: memory, queue and work in hand are gone."
        ),
        MarkerKind::ProcessStarted { process, .. } => format!(
            "Process {process} started as a second process, with its own queue and consumer."
        ),
        MarkerKind::ProcessEnded { process } => format!(
            "Process {process} was stopped: its memory, queue and work in hand are gone."
        ),
        MarkerKind::CommitConflict {
            attempt,
            process,
            rolled_back,
            points_stay,
        } => {
            let rest = if *rolled_back {
                "another attempt of the operation committed first; its transaction rolled back and it returned the committed receipt."
            } else if *points_stay {
                "another attempt of the operation wrote its receipt first; the unique key refused this one's receipt, but the points it added stay."
            } else {
                "another attempt of the operation wrote its receipt first; the unique key refused this one's receipt before it added anything, and it returned that receipt."
            };
            format!("Attempt #{attempt} (process {process}) lost the race: {rest}")
        }
        MarkerKind::Expired {
            count,
            account_id,
            key,
            retention,
        } => {
            let hours = retention / crate::sim::HOUR_MS;
            let (account, key) = (isolate(account_id), isolate(key));
            match count {
                1 => format!("The receipt for {account} · {key} expired (retention {hours} h)."),
                n => format!(
                    "{n} receipts expired (retention {hours} h), the first for {account} · {key}."
                ),
            }
        }
        MarkerKind::Clock { from } => format!(
            "Clock moved forward by {}.",
            span_en(marker.at.saturating_sub(*from))
        ),
        MarkerKind::Backoff {
            attempt,
            wait,
            retry,
        } => format!(
            "Attempt #{attempt} failed with what may go away: the caller waits {} ms (backoff with jitter), then makes retry {retry}.",
            wait
        ),
        MarkerKind::Email {
            account_id,
            key,
            outbox,
            delivered,
        } => {
            let (account, key) = (isolate(account_id), isolate(key));
            match (outbox, delivered) {
                (true, true) => format!("The relay sent the confirmation email for {account} · {key} with its operation id: it is in the inbox."),
                (true, false) => format!("The relay sent the email for {account} · {key} again; the mail service already had this operation id and dropped the copy."),
                (false, _) => format!("Confirmation email for {account} · {key} sent inline, with no operation id: it is in the inbox."),
            }
        }
        MarkerKind::LanguageSet {
            account_id,
            language,
            previous,
        } => {
            let account = isolate(account_id);
            let name = |l: Language| match l {
                Language::English => "English",
                Language::Persian => "Persian",
            };
            match previous {
                Some(p) if p == language => format!(
                    "{account}'s preferred language set to {} again: it already was, so nothing changed. \
                     Setting a value twice is the same as once, with no key; adding 100 points twice adds 200.",
                    name(*language)
                ),
                Some(p) => format!(
                    "{account}'s preferred language set to {} (it was {}).",
                    name(*language),
                    name(*p)
                ),
                None => format!("{account}'s preferred language set to {}.", name(*language)),
            }
        }
    }
}

fn marker_text_fa(lang: Lang, marker: &Marker) -> String {
    let n = |n: u32| lang.prose_number(n);
    match &marker.kind {
        MarkerKind::Crash {
            process,
            attempt,
            point,
            wrote,
            durable,
        } => {
            let when = match point {
                CrashPoint::BeforeWrites => "پیش از هر نوشتنی",
                CrashPoint::BetweenWrites => "میان دو نوشتن",
                CrashPoint::AfterCommit => "پس از ثبت نهایی و پیش از رفتن پاسخ",
            };
            let left = match CrashLeft::of(*point, wrote, *durable) {
                CrashLeft::Nothing => "چیزی نوشته نشد، پس تلاش دوباره از نو آغاز می‌کند.",
                CrashLeft::ReceiptOnly => "رسید نوشته شد، امتیاز نه. «اول رسید» کاری انجام‌شده بی‌امتیاز به جا می‌گذارد: تلاش دوباره همان رسید را می‌گیرد و امتیاز هرگز اضافه نمی‌شود.",
                CrashLeft::PointsOnly => "امتیاز اضافه شد، رسید نه. «اول موجودی» امتیازی بی‌رسید به جا می‌گذارد: تلاش دوباره رسیدی نمی‌یابد و امتیاز را باز اضافه می‌کند (مگر آنکه بررسی دفتر عملیات را بشناسد).",
                CrashLeft::StagedGone => "چیزی نیمه‌کاره نماند. در یک تراکنش، نوشته‌های آماده‌شده با فرایند از میان رفتند و تلاش دوباره از نو آغاز می‌کند.",
                CrashLeft::Committed => "امتیاز و رسید ثبت نهایی شدند، ولی پاسخ هرگز فرستاده نشد. تلاش دوباره رسید را می‌یابد و برمی‌گرداند.",
                CrashLeft::MemoryGone => "مخزنش حافظهٔ خودش بود، پس امتیاز و رسیدی که نوشت با آن از میان رفتند و تلاش دوباره آن‌ها را باز اضافه می‌کند.",
            };
            format!(
                "فرایند {} {when} هنگام رسیدگی به تلاش {} از کار افتاد: {left}",
                n(*process),
                attempt_tag(*attempt)
            )
        }
        MarkerKind::Restart { ended, started, .. } => format!(
            "فرایند {} پایان یافت و فرایند {} جایش را گرفت: حافظه، صف و کارِ در دست از دست رفتند.",
            n(*ended),
            n(*started)
        ),
        MarkerKind::ProcessStarted { process, .. } => format!(
            "فرایند {} به عنوان فرایند دوم آغاز شد، با صف و مصرف‌کنندهٔ خودش.",
            n(*process)
        ),
        MarkerKind::ProcessEnded { process } => format!(
            "فرایند {} متوقف شد: حافظه، صف و کارِ در دستش از دست رفتند.",
            n(*process)
        ),
        MarkerKind::CommitConflict {
            attempt,
            process,
            rolled_back,
            points_stay,
        } => {
            let rest = if *rolled_back {
                "تلاش دیگری از همین عملیات زودتر ثبت نهایی شد؛ تراکنش این یکی برگشت خورد و رسیدِ ثبت‌شده را برگرداند."
            } else if *points_stay {
                "تلاش دیگری از همین عملیات زودتر رسیدش را نوشت؛ کلید یکتا رسید این یکی را نپذیرفت، ولی امتیازی که اضافه کرده بود می‌ماند."
            } else {
                "تلاش دیگری از همین عملیات زودتر رسیدش را نوشت؛ کلید یکتا رسید این یکی را پیش از آنکه چیزی اضافه کند نپذیرفت و همان رسید را برگرداند."
            };
            format!(
                "تلاش {} (فرایند {}) در مسابقه باخت: {rest}",
                attempt_tag(*attempt),
                n(*process)
            )
        }
        MarkerKind::Expired {
            count,
            account_id,
            key,
            retention,
        } => {
            let hours = n((retention / crate::sim::HOUR_MS) as u32);
            let (account, key) = (isolate(account_id), isolate(key));
            match count {
                1 => format!("رسید {account} · {key} منقضی شد (نگه‌داری {hours} ساعت)."),
                c => format!(
                    "{} رسید منقضی شد (نگه‌داری {hours} ساعت)، نخستینِ آن‌ها برای {account} · {key}.",
                    n(*c)
                ),
            }
        }
        MarkerKind::Clock { from } => {
            format!("ساعت {} جلو رفت.", span_fa(marker.at.saturating_sub(*from)))
        }
        MarkerKind::Backoff {
            attempt,
            wait,
            retry,
        } => format!(
            "تلاش {} با خطایی گذرا شکست خورد: فراخواننده {} میلی‌ثانیه صبر می‌کند (عقب‌نشینی با لرزش)، سپس تلاش دوبارهٔ {} را می‌فرستد.",
            attempt_tag(*attempt),
            lang.prose_number(*wait),
            n(*retry)
        ),
        MarkerKind::Email {
            account_id,
            key,
            outbox,
            delivered,
        } => {
            let (account, key) = (isolate(account_id), isolate(key));
            match (outbox, delivered) {
                (true, true) => format!("رله ایمیل تأیید {account} · {key} را با شناسهٔ عملیات فرستاد: در صندوق ورودی است."),
                (true, false) => format!("رله ایمیل {account} · {key} را دوباره فرستاد؛ سرویس ایمیل این شناسهٔ عملیات را داشت و نسخهٔ دوم را کنار گذاشت."),
                (false, _) => format!("ایمیل تأیید {account} · {key} مستقیم و بی شناسهٔ عملیات فرستاده شد: در صندوق ورودی است."),
            }
        }
        MarkerKind::LanguageSet {
            account_id,
            language,
            previous,
        } => {
            let account = isolate(account_id);
            let name = |l: Language| match l {
                Language::English => "انگلیسی",
                Language::Persian => "فارسی",
            };
            match previous {
                Some(p) if p == language => format!(
                    "زبان دلخواه {account} دوباره {} شد: از پیش همین بود، پس چیزی تغییر نکرد. \
                     دو بار گذاشتن یک مقدار همان یک بار است، بی هیچ کلیدی؛ دو بار افزودن ۱۰۰ امتیاز ۲۰۰ می‌افزاید.",
                    name(*language)
                ),
                Some(p) => format!(
                    "زبان دلخواه {account} {} شد (پیش‌تر {} بود).",
                    name(*language),
                    name(*p)
                ),
                None => format!("زبان دلخواه {account} {} شد.", name(*language)),
            }
        }
    }
}
