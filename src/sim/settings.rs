//! The world's settings as one plain value ([`Settings`]), a person's change of
//! one of them ([`Setting`]), the rule for which values are allowed, and the
//! faults armed for one occasion ([`Faults`]). Plain data, so a history can
//! name them.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::core::{CrashPoint, EmailVia, InFlightPolicy, RetryPolicy, WriteOrder, MAX_ATTEMPTS};

use super::clock::Millis;

/// An hour of virtual time.
pub const HOUR_MS: Millis = 3_600_000;

/// The store behind every process's worker.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StoreKind {
    /// The article's `PointStore`: one per process, gone when the process ends.
    #[default]
    InMemory,
    /// One durable store shared by every process, writing in the given order.
    ReceiptFirst,
    BalanceFirst,
    OneTransaction,
}

impl StoreKind {
    pub const ALL: [StoreKind; 4] = [
        StoreKind::InMemory,
        StoreKind::ReceiptFirst,
        StoreKind::BalanceFirst,
        StoreKind::OneTransaction,
    ];

    /// The durable store's write order, or `None` for the in-memory store.
    pub fn write_order(self) -> Option<WriteOrder> {
        match self {
            StoreKind::InMemory => None,
            StoreKind::ReceiptFirst => Some(WriteOrder::ReceiptFirst),
            StoreKind::BalanceFirst => Some(WriteOrder::BalanceFirst),
            StoreKind::OneTransaction => Some(WriteOrder::OneTransaction),
        }
    }

    pub fn is_durable(self) -> bool {
        self.write_order().is_some()
    }

    /// A short stable name, for `data-` attributes and option values.
    pub fn code(self) -> &'static str {
        match self {
            StoreKind::InMemory => "in-memory",
            StoreKind::ReceiptFirst => "receipt-first",
            StoreKind::BalanceFirst => "balance-first",
            StoreKind::OneTransaction => "one-transaction",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.code() == code)
    }
}

/// Which process a call goes to, when there are two.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "by", content = "slot")]
pub enum Routing {
    /// The first call to process 1, the next to process 2, and so on.
    #[default]
    RoundRobin,
    /// By a hash of the key: every attempt of one operation goes to one process.
    KeyHash,
    /// Every call to the process in this slot (1 or 2).
    Only(Slot),
}

impl Routing {
    /// A short stable name, for option values.
    pub fn code(self) -> String {
        match self {
            Routing::RoundRobin => "round-robin".into(),
            Routing::KeyHash => "key-hash".into(),
            Routing::Only(slot) => format!("only-{slot}"),
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        match code {
            "round-robin" => Some(Routing::RoundRobin),
            "key-hash" => Some(Routing::KeyHash),
            _ => code
                .strip_prefix("only-")?
                .parse()
                .ok()
                .filter(|s| (1..=MAX_PROCESSES).contains(s))
                .map(Routing::Only),
        }
    }

    /// The slot (from 1) a call with `key` goes to among `count` processes; the
    /// round robin's turn is `turn`.
    pub fn slot(self, key: &str, count: Slot, turn: u64) -> Slot {
        let count = count.max(1);
        match self {
            Routing::RoundRobin => (turn % u64::from(count)) as Slot + 1,
            Routing::KeyHash => (fnv1a(key) % u64::from(count)) as Slot + 1,
            Routing::Only(slot) => slot.clamp(1, count),
        }
    }
}

/// Numbers the places a process runs in, from 1. A restarted process gets a new
/// process number but keeps its slot.
pub type Slot = u8;

/// How many worker processes the lab can run side by side.
pub const MAX_PROCESSES: Slot = 2;

/// Receipts are kept this long unless set: 24 hours, the window Stripe documents
/// for the idempotency keys of its API v1.
pub const DEFAULT_RETENTION_HOURS: u32 = 24;

/// A stable hash (FNV-1a), the same natively and in the browser, so a key always
/// goes to the same process.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// When a consumer acknowledges a message to the queue.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Acknowledge {
    /// As it takes it: the article's in-process channel. A process that ends
    /// loses what it had queued or in hand.
    #[default]
    BeforeWork,
    /// Once the store has answered: the queue keeps the message until then, and
    /// delivers again whatever a process that ended had not finished.
    AfterWork,
}

impl Acknowledge {
    pub const ALL: [Acknowledge; 2] = [Acknowledge::BeforeWork, Acknowledge::AfterWork];

    /// A short stable name, for option values.
    pub fn code(self) -> &'static str {
        match self {
            Acknowledge::BeforeWork => "before-work",
            Acknowledge::AfterWork => "after-work",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.code() == code)
    }
}

/// The longest caller timeout and processing time a person may set: ten minutes
/// of virtual time is more than any lesson needs.
pub const MAX_SETTING_MS: Millis = 600_000;
/// The shortest caller timeout: a caller waits at least a moment.
pub const MIN_CALLER_TIMEOUT_MS: Millis = 1;
/// The longest receipt retention a person may set: a year, in hours.
pub const MAX_RETENTION_HOURS: u32 = 365 * 24;
/// How long a caller waits for its answer, and how long applying takes, unless set.
/// Chosen so a burst of 20 finishes within every caller's deadline, and a lost
/// acknowledgement is a short wait in class.
pub const DEFAULT_CALLER_TIMEOUT_MS: Millis = 3_000;
pub const DEFAULT_PROCESSING_MS: Millis = 100;
/// How long a message takes over the network, each way, unless set: long
/// enough for a room to see a request travel and an answer drop at 1x, short
/// enough that a burst of 20 is still answered within the caller timeout.
/// Sessions, links and teachers' files from before the lab had it replay
/// with 0 set first: their messages arrived at once.
pub const DEFAULT_TRANSIT_MS: Millis = 400;
/// The longest transit a person may set: far below any caller's patience.
pub const MAX_TRANSIT_MS: Millis = 10_000;

/// Everything a person can set about the world, as one value: the world reads it
/// when it needs a setting, so a change applies from then on. A new setting is a
/// field here (with its start value and its [`Setting`]), the control that sets
/// it, its texts, and the part of the world that reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Settings {
    /// Whether the consumers are held (a step lets each take one delivery).
    pub paused: bool,
    /// How long a caller sent from now on waits for its answer.
    pub caller_timeout_ms: Millis,
    /// How long a consumer works on each delivery it takes from now on.
    pub processing_ms: Millis,
    /// How long a request sent from now on takes to reach its process, and
    /// its answer to come back.
    pub transit_ms: Millis,
    /// Whether calls made from now on also go to the naive worker beside.
    pub naive: bool,
    /// The store every process's worker uses from its next delivery on.
    pub store: StoreKind,
    /// How many worker processes run side by side.
    pub processes: Slot,
    pub routing: Routing,
    /// How long the durable store keeps a receipt before the sweeper deletes it.
    pub retention_hours: u32,
    /// Whether the durable store also recognises an operation by its ledger row.
    pub ledger_check: bool,
    /// What a duplicate that finds its operation in progress is given, and
    /// whether records are kept at all.
    pub in_flight: InFlightPolicy,
    /// When consumers acknowledge, from the next delivery taken on.
    pub acknowledge: Acknowledge,
    /// A person's callers retry by themselves under this policy, if set.
    pub auto_retry: Option<RetryPolicy>,
    /// Whether each grant also sends a confirmation email.
    pub email: bool,
    /// How confirmation emails go (kept while emails are off).
    pub email_via: EmailVia,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            paused: false,
            caller_timeout_ms: DEFAULT_CALLER_TIMEOUT_MS,
            processing_ms: DEFAULT_PROCESSING_MS,
            transit_ms: DEFAULT_TRANSIT_MS,
            naive: false,
            store: StoreKind::default(),
            processes: 1,
            routing: Routing::default(),
            retention_hours: DEFAULT_RETENTION_HOURS,
            ledger_check: false,
            in_flight: InFlightPolicy::default(),
            acknowledge: Acknowledge::default(),
            auto_retry: None,
            email: false,
            email_via: EmailVia::default(),
        }
    }
}

/// One change of one setting, as a person makes it: what a history records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Setting {
    Paused(bool),
    CallerTimeoutMs(Millis),
    ProcessingMs(Millis),
    TransitMs(Millis),
    Naive(bool),
    Store(StoreKind),
    Processes(Slot),
    Routing(Routing),
    RetentionHours(u32),
    LedgerCheck(bool),
    InFlight(InFlightPolicy),
    Acknowledge(Acknowledge),
    AutoRetry(Option<RetryPolicy>),
    Email(bool),
    EmailVia(EmailVia),
}

/// Why a setting was refused: a value outside what the lab allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingError {
    /// A caller timeout outside 1 ms to [`MAX_SETTING_MS`].
    CallerTimeout(Millis),
    /// A processing time over [`MAX_SETTING_MS`].
    ProcessingTime(Millis),
    /// A transit over [`MAX_TRANSIT_MS`].
    Transit(Millis),
    /// A process count other than 1 to [`MAX_PROCESSES`].
    Processes(u8),
    /// Routing to a process slot that cannot exist.
    RoutingSlot(u8),
    /// A retention outside 1 hour to [`MAX_RETENTION_HOURS`] (as typed: a
    /// number too large for the setting is still named as it was).
    Retention(u64),
    /// An automatic retry policy of no attempts, or of more than [`MAX_ATTEMPTS`].
    MaxAttempts(u64),
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingError::CallerTimeout(ms) => write!(
                f,
                "the caller timeout must be 1 to {MAX_SETTING_MS} ms, not {ms}"
            ),
            SettingError::ProcessingTime(ms) => write!(
                f,
                "the processing time must be 0 to {MAX_SETTING_MS} ms, not {ms}"
            ),
            SettingError::Transit(ms) => write!(
                f,
                "a message's transit must be 0 to {MAX_TRANSIT_MS} ms, not {ms}"
            ),
            SettingError::Processes(n) => {
                write!(f, "the lab runs 1 to {MAX_PROCESSES} processes, not {n}")
            }
            SettingError::RoutingSlot(n) => write!(
                f,
                "there is no process {n} to route to: processes are numbered 1 to {MAX_PROCESSES}"
            ),
            SettingError::Retention(h) => write!(
                f,
                "receipts are kept 1 to {MAX_RETENTION_HOURS} hours, not {h}"
            ),
            SettingError::MaxAttempts(n) => {
                write!(f, "a caller makes 1 to {MAX_ATTEMPTS} attempts, not {n}")
            }
        }
    }
}

impl std::error::Error for SettingError {}

impl Settings {
    /// These settings with one changed.
    pub fn with(mut self, change: Setting) -> Settings {
        match change {
            Setting::Paused(on) => self.paused = on,
            Setting::CallerTimeoutMs(ms) => self.caller_timeout_ms = ms,
            Setting::ProcessingMs(ms) => self.processing_ms = ms,
            Setting::TransitMs(ms) => self.transit_ms = ms,
            Setting::Naive(on) => self.naive = on,
            Setting::Store(kind) => self.store = kind,
            Setting::Processes(count) => self.processes = count,
            Setting::Routing(routing) => self.routing = routing,
            Setting::RetentionHours(hours) => self.retention_hours = hours,
            Setting::LedgerCheck(on) => self.ledger_check = on,
            Setting::InFlight(policy) => self.in_flight = policy,
            Setting::Acknowledge(when) => self.acknowledge = when,
            Setting::AutoRetry(policy) => self.auto_retry = policy,
            Setting::Email(on) => self.email = on,
            Setting::EmailVia(via) => self.email_via = via,
        }
        self
    }

    /// The changes that make these settings from the lab's first ones, in the
    /// order of [`Setting`]'s variants: what a new world is told to stand where
    /// this one stands (the inverse of [`with`](Self::with)).
    pub fn changes(&self) -> Vec<Setting> {
        let start = Settings::default();
        [
            (self.paused != start.paused).then_some(Setting::Paused(self.paused)),
            (self.caller_timeout_ms != start.caller_timeout_ms)
                .then_some(Setting::CallerTimeoutMs(self.caller_timeout_ms)),
            (self.processing_ms != start.processing_ms)
                .then_some(Setting::ProcessingMs(self.processing_ms)),
            (self.transit_ms != start.transit_ms).then_some(Setting::TransitMs(self.transit_ms)),
            (self.naive != start.naive).then_some(Setting::Naive(self.naive)),
            (self.store != start.store).then_some(Setting::Store(self.store)),
            (self.processes != start.processes).then_some(Setting::Processes(self.processes)),
            (self.routing != start.routing).then_some(Setting::Routing(self.routing)),
            (self.retention_hours != start.retention_hours)
                .then_some(Setting::RetentionHours(self.retention_hours)),
            (self.ledger_check != start.ledger_check)
                .then_some(Setting::LedgerCheck(self.ledger_check)),
            (self.in_flight != start.in_flight).then_some(Setting::InFlight(self.in_flight)),
            (self.acknowledge != start.acknowledge)
                .then_some(Setting::Acknowledge(self.acknowledge)),
            (self.auto_retry != start.auto_retry).then_some(Setting::AutoRetry(self.auto_retry)),
            (self.email != start.email).then_some(Setting::Email(self.email)),
            (self.email_via != start.email_via).then_some(Setting::EmailVia(self.email_via)),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// Whether every setting is one the lab allows; the first that is not, if any.
    pub fn validate(&self) -> Result<(), SettingError> {
        if !(MIN_CALLER_TIMEOUT_MS..=MAX_SETTING_MS).contains(&self.caller_timeout_ms) {
            return Err(SettingError::CallerTimeout(self.caller_timeout_ms));
        }
        if self.processing_ms > MAX_SETTING_MS {
            return Err(SettingError::ProcessingTime(self.processing_ms));
        }
        if self.transit_ms > MAX_TRANSIT_MS {
            return Err(SettingError::Transit(self.transit_ms));
        }
        if !(1..=MAX_PROCESSES).contains(&self.processes) {
            return Err(SettingError::Processes(self.processes));
        }
        if let Routing::Only(slot) = self.routing {
            if !(1..=MAX_PROCESSES).contains(&slot) {
                return Err(SettingError::RoutingSlot(slot));
            }
        }
        if !(1..=MAX_RETENTION_HOURS).contains(&self.retention_hours) {
            return Err(SettingError::Retention(self.retention_hours.into()));
        }
        if let Some(RetryPolicy { max_attempts, .. }) = self.auto_retry {
            if !(1..=MAX_ATTEMPTS).contains(&max_attempts) {
                return Err(SettingError::MaxAttempts(max_attempts.into()));
            }
        }
        Ok(())
    }

    /// How long receipts are kept, in virtual time.
    pub fn retention_ms(&self) -> Millis {
        Millis::from(self.retention_hours) * HOUR_MS
    }

    /// How a grant handled now sends its confirmation email, if it sends one.
    pub fn email_through(&self) -> Option<EmailVia> {
        self.email.then_some(self.email_via)
    }

    /// Whether calls made now claim an in-progress record.
    pub fn keeps_records(&self) -> bool {
        self.in_flight != InFlightPolicy::NoRecord
    }
}

/// The faults a person arms for one occasion: each disarms itself once it struck.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Faults {
    /// The first handling to reach this point crashes its process.
    pub crash_point: Option<CrashPoint>,
    /// The queue delivers the next message twice.
    pub redeliver_next: bool,
}
