//! Sessions of format 2 (until the world's settings became one value): each
//! setting had an action of its own (`set-naive`, `set-store`, ...). Read here,
//! exactly as that format wrote them, and converted to today's actions.

use serde::Deserialize;

use crate::core::{CrashPoint, EmailVia, GrantPoints, InFlightPolicy, Language, RetryPolicy};
use crate::sim::{Acknowledge, Routing, Setting, StoreKind};

use super::action::Action;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) enum ActionV2 {
    Send {
        grant: GrantPoints,
        #[serde(default)]
        lose_acknowledgement: bool,
    },
    RetrySame {
        #[serde(default)]
        lose_acknowledgement: bool,
    },
    RetryFresh {
        #[serde(default)]
        lose_acknowledgement: bool,
    },
    Burst {
        account_id: String,
        points: i32,
        count: u32,
    },
    Stress {
        account_id: String,
        points: i32,
        count: u32,
        duplicate_percent: u8,
    },
    SetPaused {
        paused: bool,
    },
    Step,
    Wait {
        ms: u64,
    },
    CheckBalance {
        account_id: String,
    },
    Restart,
    SetCallerTimeout {
        ms: u64,
    },
    SetProcessingTime {
        ms: u64,
    },
    SetNaive {
        on: bool,
    },
    SetStore {
        kind: StoreKind,
    },
    SetCrashPoint {
        point: Option<CrashPoint>,
    },
    SetProcesses {
        count: u8,
    },
    SetRouting {
        routing: Routing,
    },
    SetRetention {
        hours: u32,
    },
    SetLedgerCheck {
        on: bool,
    },
    MoveClock {
        ms: u64,
    },
    SetInFlight {
        policy: InFlightPolicy,
    },
    SetRedeliver {
        on: bool,
    },
    SetAcknowledge {
        when: Acknowledge,
    },
    SetAutoRetry {
        policy: Option<RetryPolicy>,
    },
    SetEmail {
        on: bool,
    },
    SetEmailVia {
        via: EmailVia,
    },
    SignIn {
        account_id: Option<String>,
    },
    SetPreferredLanguage {
        account_id: String,
        language: Language,
    },
}

impl From<ActionV2> for Action {
    fn from(old: ActionV2) -> Action {
        use ActionV2 as V2;
        let set = Action::Set;
        match old {
            V2::Send {
                grant,
                lose_acknowledgement,
            } => Action::Send {
                grant,
                lose_acknowledgement,
            },
            V2::RetrySame {
                lose_acknowledgement,
            } => Action::RetrySame {
                lose_acknowledgement,
            },
            V2::RetryFresh {
                lose_acknowledgement,
            } => Action::RetryFresh {
                lose_acknowledgement,
            },
            V2::Burst {
                account_id,
                points,
                count,
            } => Action::Burst {
                account_id,
                points,
                count,
            },
            V2::Stress {
                account_id,
                points,
                count,
                duplicate_percent,
            } => Action::Stress {
                account_id,
                points,
                count,
                duplicate_percent,
            },
            V2::Step => Action::Step,
            V2::Wait { ms } => Action::Wait { ms },
            V2::CheckBalance { account_id } => Action::CheckBalance { account_id },
            V2::Restart => Action::Restart,
            V2::SetCrashPoint { point } => Action::SetCrashPoint { point },
            V2::MoveClock { ms } => Action::MoveClock { ms },
            V2::SetRedeliver { on } => Action::SetRedeliver { on },
            V2::SignIn { account_id } => Action::SignIn { account_id },
            V2::SetPreferredLanguage {
                account_id,
                language,
            } => Action::SetPreferredLanguage {
                account_id,
                language,
            },
            V2::SetPaused { paused } => set(Setting::Paused(paused)),
            V2::SetCallerTimeout { ms } => set(Setting::CallerTimeoutMs(ms)),
            V2::SetProcessingTime { ms } => set(Setting::ProcessingMs(ms)),
            V2::SetNaive { on } => set(Setting::Naive(on)),
            V2::SetStore { kind } => set(Setting::Store(kind)),
            V2::SetProcesses { count } => set(Setting::Processes(count)),
            V2::SetRouting { routing } => set(Setting::Routing(routing)),
            V2::SetRetention { hours } => set(Setting::RetentionHours(hours)),
            V2::SetLedgerCheck { on } => set(Setting::LedgerCheck(on)),
            V2::SetInFlight { policy } => set(Setting::InFlight(policy)),
            V2::SetAcknowledge { when } => set(Setting::Acknowledge(when)),
            V2::SetAutoRetry { policy } => set(Setting::AutoRetry(policy)),
            V2::SetEmail { on } => set(Setting::Email(on)),
            V2::SetEmailVia { via } => set(Setting::EmailVia(via)),
        }
    }
}
