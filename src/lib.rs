//! Idempotency Lab: the article's points store and worker, a deterministic lab engine
//! built on them, and (in the browser) the Leptos page that lets people drive it.

pub mod address;
pub mod bench;
#[cfg(not(target_arch = "wasm32"))]
pub mod boot_frame;
pub mod core;
pub mod embed_code;
pub mod host_message;
pub mod i18n;
pub mod lab;
pub mod sim;
pub mod walkthrough;

#[cfg(target_arch = "wasm32")]
pub mod ui;

pub use crate::core::{
    deliver, CrashPoint, Delivered, DurableStore, Email, EmailVia, GrantError, GrantPoints,
    GrantResult, GrantStore, InFlightPolicy, InProgressRecord, InProgressRecords, Language,
    LanguageSet, Pace, PointStore, PointWorker, RetryPolicy, StoreOutcome, StoreStep, Table,
    Unpaced, WriteOrder, MAX_BACKOFF_MS,
};
