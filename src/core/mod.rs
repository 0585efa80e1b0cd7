//! The article's sample in plain Rust, with no web dependency.

mod delivery;
mod durable;
mod error;
mod first_receipts;
mod grant;
mod identity;
mod in_progress;
mod mail;
mod natural_order;
mod pace;
mod profile;
mod retry;
mod store;
mod worker;

pub use delivery::{answer, deliver, Delivered};
pub use durable::{DurableStore, WriteOrder};
pub use error::GrantError;
pub use grant::{GrantPoints, GrantResult, StoreOutcome};
pub use identity::{authorize, authorize_account};
pub use in_progress::{Claimed, Holder, InFlightPolicy, InProgressRecord, InProgressRecords};
pub use mail::{Email, EmailVia, MailOutcome, MailService};
pub use natural_order::{natural_cmp, operation_order};
pub use pace::{CrashPoint, GrantStore, Pace, StoreStep, Table, Unpaced};
pub use profile::{Language, LanguageSet, Profiles};
pub use retry::{RetryPolicy, BASE_BACKOFF_MS, MAX_ATTEMPTS, MAX_BACKOFF_MS};
pub use store::PointStore;
pub use worker::{PointWorker, Unobserved, WorkerHooks};
