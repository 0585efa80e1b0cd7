//! The world's settings that say where a grant goes and what keeps it: the store
//! behind the workers, how calls are routed to processes, and how long receipts
//! are kept. Plain data, so a history can name them.

use serde::{Deserialize, Serialize};

use crate::core::WriteOrder;

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
