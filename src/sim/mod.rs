//! The simulated world the lab runs in: the article's worker and store as tasks
//! on a single-threaded executor, a virtual clock, processes that can restart,
//! and a log of everything that happened. No web dependency, no real time.

mod broker;
mod caller;
mod clock;
mod event;
mod gate;
mod hooks;
mod outbox;
mod outbox_relay;
mod process;
mod settings;
mod shared;
mod store_ref;
mod world;

pub use clock::{Clock, Millis, Sleep};
pub use event::{AttemptId, Event, Happening, Origin, ProcessNumber};
pub use settings::{
    Acknowledge, Faults, Routing, Setting, SettingError, Settings, Slot, StoreKind,
    DEFAULT_CALLER_TIMEOUT_MS, DEFAULT_PROCESSING_MS, DEFAULT_RETENTION_HOURS, DEFAULT_TRANSIT_MS,
    HOUR_MS, MAX_PROCESSES, MAX_RETENTION_HOURS, MAX_SETTING_MS, MAX_TRANSIT_MS,
    MIN_CALLER_TIMEOUT_MS,
};
pub use store_ref::StoreRef;
pub use world::World;
