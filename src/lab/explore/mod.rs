//! "Try to break it": the explorer. From the lab's settings it makes random
//! histories from a seed, runs each in a fresh world (the same world and
//! actions as the sandbox), checks every promise the lab knows, and shrinks
//! the first history that breaks one to a smallest that still does.
//! Web-free, so native tests drive it as the page does.

mod generate;
mod narrate;
mod promise;
mod run;
mod search;
mod shrink;
mod table;

pub use generate::{history, rng_for, ACCOUNTS};
pub use narrate::{narrate, Said};
pub use promise::{Broken, Promise, Watch};
pub use run::{fragment, recorded, run, Runner, Trial};
pub use search::{Found, Search, Verdict, DEFAULT_HISTORIES, DEFAULT_MAX_STEPS};
pub use shrink::{shrink, simpler, Shrinker, SHRINK_RUNS};
pub use table::{Cell, Combination, Row, SafetyTable};
