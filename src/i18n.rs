//! Every piece of UI text, in English and Persian. Kept out of the views so a
//! missing translation is a compile error (each language fills the same struct).

use crate::core::GrantError;
use crate::lab::{
    FieldError, LabError, Outcome, SessionError, Truth, MAX_ACTIONS, MAX_FIELD_CHARS, MAX_SENDS,
    MAX_SESSION_BYTES, MAX_SETTING_MS, MAX_WAIT_MS,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    En,
    Fa,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Fa];

    /// `?lang=` wins; otherwise the first browser language we have; else English.
    pub fn choose(query: Option<&str>, browser_languages: &[String]) -> Lang {
        query
            .and_then(Lang::from_tag)
            .or_else(|| browser_languages.iter().find_map(|tag| Lang::from_tag(tag)))
            .unwrap_or(Lang::En)
    }

    /// Reads a language tag such as `fa`, `fa-IR` or `en-GB`.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag.split(['-', '_']).next()?.trim().to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "fa" | "per" | "fas" => Some(Lang::Fa),
            _ => None,
        }
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

/// A number in Persian prose.
fn fa(n: impl std::fmt::Display) -> String {
    Lang::Fa.prose_number(n)
}

/// One language's words. Functions build the sentences that carry values.
pub struct Texts {
    pub title: &'static str,
    pub tagline: &'static str,
    pub language_name: &'static str,
    pub how_to: [&'static str; 4],
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
    pub lost_ack_marker: &'static str,
    pub outcome: fn(Outcome) -> &'static str,
    pub store_applied: &'static str,
    pub store_replayed: &'static str,
    pub store_rejected: &'static str,
    pub caller_receipt: &'static str,
    pub caller_error: &'static str,
    pub caller_timeout: &'static str,
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
    /// When a balance read was made: its virtual time and how many attempts had finished.
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
    /// The lab saved a session in another tab of this browser.
    pub other_tab: &'static str,
    pub step: &'static str,
    pub step_hint: &'static str,
    pub language: &'static str,
    pub share: &'static str,
    pub copy_link: &'static str,
    pub link_hint: &'static str,
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
    pub newer: &'static str,
    pub older: &'static str,
    pub latest: &'static str,
    pub rows_range: fn(Lang, usize, usize, usize) -> String,
    pub receipts_more: fn(Lang, usize) -> String,
    pub chart_recent: fn(Lang, usize) -> String,
    pub world: &'static str,
    pub clock: fn(Lang, u64, u32) -> String,
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
    /// What really became of a timed-out attempt.
    pub truth: fn(Truth) -> &'static str,
    /// "at 1.2 s": when something happened, in virtual time.
    pub at_time: fn(Lang, u64) -> String,
    pub process_marker: fn(Lang, u32) -> String,
    pub granted_again: fn(Lang, u32) -> String,
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
}

static EN: Texts = Texts {
    title: "Idempotency Lab",
    tagline: "Break a retry, then fix it: see why a resent “grant 100 points” must not grant twice.",
    language_name: "English",
    how_to: [
        "Switch on “Lose acknowledgement” and press Send: the points are added, but the caller only hears a timeout.",
        "Press “Retry (same key)”: the store recognises the key and hands back the stored receipt. Nothing is added.",
        "Change the points and send again with the same key: the store refuses, because one key must mean one request.",
        "Press “Retry (fresh key)”: a new key is a new operation, and the points are added a second time.",
    ],
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
    lost_ack_marker: "ack lost",
    outcome: |o| match o {
        Outcome::Applied => "Applied",
        Outcome::Replayed => "Stored receipt",
        Outcome::Rejected => "Rejected",
        Outcome::Timeout => "Timeout",
        Outcome::TimeoutApplied => "Timeout, but applied",
        Outcome::ProcessEnded => "Process ended",
    },
    store_applied: "points added:",
    store_replayed: "returned the stored receipt",
    store_rejected: "rejected",
    caller_receipt: "receipt, balance",
    caller_error: "error:",
    caller_timeout: "timeout: outcome unknown",
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
    balance_read_when: |_, ms, after| match after {
        Some(n) => format!("Read at {} s, right after the store handled attempt {n}.", seconds(ms)),
        None => format!("Read at {} s, before the store handled any attempt.", seconds(ms)),
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
        other => other.to_string(),
    },
    grant_error_short: |e| match e {
        GrantError::EmptyKey => "empty key".to_string(),
        GrantError::EmptyAccount => "empty account".to_string(),
        GrantError::NonPositivePoints => "points below 1".to_string(),
        GrantError::Overflow => "balance would overflow".to_string(),
        GrantError::Timeout => "timeout".to_string(),
        GrantError::WorkerStopped => "worker stopped".to_string(),
        GrantError::PayloadMismatch { stored, .. } => {
            format!("key already used for {} points", stored.points)
        }
    },
    lab_error: |e| match e {
        LabError::NothingToRetry => "Nothing to retry yet: send a request first.".to_string(),
        LabError::CallerTimeout(ms) => format!(
            "Caller timeout (ms): must be 1 to {MAX_SETTING_MS}, not {ms}. Nothing changed."
        ),
        LabError::ProcessingTime(ms) => format!(
            "Processing time (ms): must be 0 to {MAX_SETTING_MS}, not {ms}. Nothing changed."
        ),
        LabError::NothingToUndo => "Nothing to undo yet.".to_string(),
        LabError::NothingToRedo => "Nothing to redo: redo brings back only what Undo took back.".to_string(),
        LabError::StepNotPaused => "Step is for a paused consumer: switch on “Pause consumer” first.".to_string(),
        LabError::NothingToStep => "Nothing to step: the queue is empty, or the consumer is still applying a delivery.".to_string(),
        other => other.to_string(),
    },
    fix_fields: "Nothing was sent: fix the highlighted fields first.",
    dismiss: "Dismiss",
    bring_back: "Bring back the previous session",
    reset_done: "The lab was reset.",
    link_opened: "The link's session is open in place of the one you had.",
    brought_back: "The previous session is back.",
    other_tab: "The lab is also open in another tab. Each tab keeps its own session when reloaded; a new tab opens the one saved last. Export a session to keep it for sure.",
    step: "Step: one delivery",
    step_hint: "While the consumer is paused: it takes one delivery and applies it, then pauses again.",
    language: "Language",
    share: "Share and save",
    copy_link: "Copy link to this state",
    link_hint: "Link to this exact state (also copied, where the browser allows):",
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
        other => other.to_string(),
    },
    open_full: "Open the full lab",
    stress: |_| "Stress: 10,000 grants, 30% duplicates".to_string(),
    newer: "Newer",
    older: "Older",
    latest: "Latest",
    rows_range: |_, from, to, total| format!("Attempts {from}–{to} of {total}"),
    receipts_more: |_, n| format!("… and {n} more"),
    chart_recent: |_, n| format!("last {n} attempts"),
    world: "Time and process",
    clock: |_, ms, process| format!("Virtual time {} s · process {process}", seconds(ms)),
    speed: "Speed",
    speed_paused: "Clock stopped",
    skip_to_idle: "Skip to idle",
    idle: "Idle: nothing will happen until you act.",
    running: "Running: callers, the queue or the consumer still have work due.",
    caller_timeout_label: "Caller timeout (ms)",
    processing_time_label: "Processing time (ms)",
    restart: "Restart process",
    restart_hint: "Ends the process: its memory, queue and work in hand are lost.",
    naive: "Naive worker beside",
    naive_hint: "While this is on, each request sent also goes to a worker that ignores the key and treats every delivery as new.",
    naive_balances: "Naive worker's balances",
    undo: "Undo",
    redo: "Redo",
    truth: |t| match t {
        Truth::NeverApplied => "In truth: never applied.",
        Truth::ReturnedReceipt => "In truth: the store recognised the key and returned the stored receipt; nothing was added.",
        Truth::AppliedBeforeTimeout => "In truth: the store had already applied it; only the answer was lost.",
        Truth::AppliedAfterTimeout => "In truth: still queued or running at the timeout, applied later.",
        Truth::Pending => "In truth: still queued or running; not known yet.",
        Truth::Crashed => "In truth: the process crashed while handling it; the crash row says what was written.",
    },
    at_time: |_, ms| format!("at {} s", seconds(ms)),
    process_marker: |_, n| format!("process {n}"),
    granted_again: |_, p| format!("granted again: process {p} had applied this operation, and the restart forgot its receipt"),
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
};

static FA: Texts = Texts {
    title: "آزمایشگاه ایدمپوتنسی",
    tagline: "ببین تلاش دوباره کجا خرابکاری می‌کند و چطور درستش کنی: چرا فرستادن دوبارهٔ «۱۰۰ امتیاز بده» نباید دو بار امتیاز بدهد.",
    language_name: "فارسی",
    how_to: [
        "«گم‌شدن تأیید» را روشن کن و «ارسال» را بزن: امتیاز اضافه می‌شود، ولی فراخواننده فقط با پایان مهلت (timeout) روبه‌رو می‌شود.",
        "«تلاش دوباره (همان کلید)» را بزن: مخزن کلید را می‌شناسد و همان رسید ذخیره‌شده را برمی‌گرداند. چیزی اضافه نمی‌شود.",
        "امتیاز را عوض کن و با همان کلید دوباره بفرست: مخزن رد می‌کند، چون هر کلید فقط یک درخواست را نام می‌برد.",
        "«تلاش دوباره (کلید تازه)» را بزن: کلید تازه یعنی عملیات تازه، و امتیاز برای بار دوم اضافه می‌شود.",
    ],
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
    lost_ack_marker: "تأیید گم شد",
    outcome: |o| match o {
        Outcome::Applied => "اعمال شد",
        Outcome::Replayed => "رسید ذخیره‌شده",
        Outcome::Rejected => "رد شد",
        Outcome::Timeout => "مهلت گذشت",
        Outcome::TimeoutApplied => "مهلت گذشت، ولی اعمال شد",
        Outcome::ProcessEnded => "فرایند پایان یافت",
    },
    store_applied: "امتیاز افزوده شد:",
    store_replayed: "رسید ذخیره‌شده را برگرداند",
    store_rejected: "رد کرد",
    caller_receipt: "رسید، موجودی",
    caller_error: "خطا:",
    caller_timeout: "مهلت گذشت: نتیجه نامعلوم",
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
    balance_read_when: |_, ms, after| match after {
        Some(n) => format!("خوانده‌شده در {}، درست پس از آنکه مخزن به تلاش {} رسیدگی کرد.", fa_seconds(ms), fa(n)),
        None => format!("خوانده‌شده در {}، پیش از آنکه مخزن به هیچ تلاشی رسیدگی کند.", fa_seconds(ms)),
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
        LabError::CallerTimeout(ms) => format!(
            "مهلت فراخواننده باید از ۱ تا {} میلی‌ثانیه باشد، نه {}.",
            fa(MAX_SETTING_MS),
            fa(ms)
        ),
        LabError::ProcessingTime(ms) => format!(
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
        LabError::Processes(n) => format!(
            "شمار فرایندها باید ۱ یا {} باشد، نه {}.",
            fa(crate::sim::MAX_PROCESSES),
            fa(n)
        ),
        LabError::RoutingSlot(n) => format!(
            "فرایند {} وجود ندارد: فرایندها از ۱ تا {} شماره دارند.",
            fa(n),
            fa(crate::sim::MAX_PROCESSES)
        ),
        LabError::Retention(h) => format!(
            "نگه‌داری رسیدها باید از ۱ تا {} ساعت باشد، نه {}. چیزی تغییر نکرد.",
            fa(crate::lab::MAX_RETENTION_HOURS),
            fa(h)
        ),
        LabError::ClockMove(ms) => format!(
            "ساعت را می‌شود از ۱ میلی‌ثانیه تا یک سال ({} میلی‌ثانیه) جلو برد، نه {}.",
            fa(crate::lab::MAX_CLOCK_MOVE_MS),
            fa(ms)
        ),
    },
    fix_fields: "چیزی فرستاده نشد: اول خانه‌های نشان‌دار را درست کن.",
    dismiss: "بستن",
    bring_back: "بازگرداندن نشست پیشین",
    reset_done: "آزمایشگاه بازنشانی شد.",
    link_opened: "نشستِ پیوند به جای نشستی که داشتی باز شد.",
    brought_back: "نشست پیشین بازگشت.",
    other_tab: "آزمایشگاه در زبانهٔ دیگری هم باز است. هر زبانه با بارگذاری دوباره نشست خودش را نگه می‌دارد؛ زبانهٔ تازه آخرین نشستِ ذخیره‌شده را باز می‌کند. برای نگه‌داشتنِ مطمئن، نشست را برون‌بُرد کن.",
    step: "یک گام: یک تحویل",
    step_hint: "وقتی مصرف‌کننده متوقف است: یک تحویل را برمی‌دارد و اعمال می‌کند، سپس دوباره می‌ایستد.",
    language: "زبان",
    share: "هم‌رسانی و نگه‌داری",
    copy_link: "رونوشت پیوند به همین وضعیت",
    link_hint: "پیوند به همین وضعیت (اگر مرورگر اجازه داده باشد، رونوشت هم گرفته شده است):",
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
    clock: |lang, ms, process| {
        format!("زمان مجازی {} · فرایند {}", fa_seconds(ms), lang.prose_number(process))
    },
    speed: "سرعت",
    speed_paused: "ساعت ایستاده",
    skip_to_idle: "پرش تا بیکاری",
    idle: "بیکار: تا تو کاری نکنی، چیزی رخ نمی‌دهد.",
    running: "در کار: فراخواننده‌ها، صف یا مصرف‌کننده هنوز کاری پیش رو دارند.",
    caller_timeout_label: "مهلت فراخواننده (میلی‌ثانیه)",
    processing_time_label: "زمان پردازش (میلی‌ثانیه)",
    restart: "راه‌اندازی دوبارهٔ فرایند",
    restart_hint: "فرایند را تمام می‌کند: حافظه، صف و کارِ در دست از دست می‌روند.",
    naive: "کارگر ساده‌لوح در کنار",
    naive_hint: "تا این روشن است، هر درخواستی که فرستاده شود به کارگری هم می‌رود که کلید را نادیده می‌گیرد و هر تحویل را تازه می‌شمارد.",
    naive_balances: "موجودی‌های کارگر ساده‌لوح",
    undo: "واگرد",
    redo: "انجام دوباره",
    truth: |t| match t {
        Truth::NeverApplied => "در واقع: هرگز اعمال نشد.",
        Truth::ReturnedReceipt => "در واقع: مخزن کلید را شناخت و رسید ذخیره‌شده را برگرداند؛ چیزی اضافه نشد.",
        Truth::AppliedBeforeTimeout => "در واقع: مخزن پیش‌تر اعمالش کرده بود؛ فقط پاسخ گم شد.",
        Truth::AppliedAfterTimeout => "در واقع: هنگام پایان مهلت هنوز در صف یا در کار بود و بعد اعمال شد.",
        Truth::Pending => "در واقع: هنوز در صف یا در کار است؛ هنوز معلوم نیست.",
        Truth::Crashed => "در واقع: فرایند هنگام رسیدگی به آن از کار افتاد؛ ردیف از کار افتادن می‌گوید چه چیزی نوشته شد.",
    },
    at_time: |_, ms| format!("در {}", fa_seconds(ms)),
    process_marker: |lang, n| format!("فرایند {}", lang.prose_number(n)),
    granted_again: |lang, p| {
        format!(
            "دوباره اعطا شد: فرایند {} این عملیات را اعمال کرده بود و راه‌اندازی دوباره رسیدش را از یاد برد",
            lang.prose_number(p)
        )
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
};
