//! The article's sample in plain Rust, with no web dependency.

mod delivery;
mod error;
mod grant;
mod store;
mod worker;

pub use delivery::{deliver, Delivered};
pub use error::GrantError;
pub use grant::{GrantPoints, GrantResult};
pub use store::{natural_cmp, PointStore, StoreOutcome};
pub use worker::{PointWorker, Unobserved, WorkerHooks};
