//! The simulated world the lab runs in: the article's worker and store as tasks
//! on a single-threaded executor, a virtual clock, processes that can restart,
//! and a log of everything that happened. No web dependency, no real time.

mod broker;
mod clock;
mod event;
mod gate;
mod outbox;
mod settings;
mod world;

pub use clock::{Clock, Millis, Sleep};
pub use event::{AttemptId, Event, Happening, ProcessNumber};
pub use settings::{Acknowledge, Routing, Slot, StoreKind, DEFAULT_RETENTION_HOURS, MAX_PROCESSES};
pub use world::{StoreRef, World, DEFAULT_CALLER_TIMEOUT_MS, DEFAULT_PROCESSING_MS, HOUR_MS};
