//! The explorer's words (keys `explorer.*` in `texts/<tag>.json`): its
//! controls, where a search stands, the promises it checks beside the
//! panel's three, and each step of a history it found, in words.

use std::ops::Deref;

use super::catalog::{Arg, Catalog};
use super::declare::words;
use crate::core::CrashPoint;
use crate::lab::explore::{Promise, Said};
use crate::lab::{Action, Setting};

words!(
    /// The explorer's messages that take no value.
    ExplorerWords, "explorer." {
    title, intro, start, cancel, seed_label, histories_label, progress_label, history_title,
    try_it, link, link_hint, opened, end, replay, safety_title, safety_start,
    safety_recommended, safety_open, close, col_store, col_processes, col_in_flight, col_ack,
    col_ledger, col_email, safety_keeps_all, safety_legend,
});

pub struct ExplorerTexts {
    catalog: &'static Catalog,
    words: ExplorerWords,
}

impl Deref for ExplorerTexts {
    type Target = ExplorerWords;

    fn deref(&self) -> &ExplorerWords {
        &self.words
    }
}

fn count(n: u64) -> Arg<'static> {
    Arg::Count(n)
}

impl ExplorerTexts {
    pub(super) fn new(catalog: &'static Catalog) -> ExplorerTexts {
        ExplorerTexts {
            catalog,
            words: ExplorerWords::read(catalog),
        }
    }

    fn word(&self, key: &'static str) -> &'static str {
        self.catalog.word(key)
    }

    fn say(&self, key: &str, args: &[(&str, Arg)]) -> String {
        self.catalog.say(key, args)
    }

    /// The promise's name: the panel's own for its three.
    pub fn promise(
        &self,
        promise: Promise,
        panel: impl Fn(crate::lab::Invariant) -> &'static str,
    ) -> &'static str {
        match promise {
            Promise::Kept(invariant) => panel(invariant),
            Promise::OneEmail => self.word("explorer.promise.one_email"),
            Promise::OwnAccount => self.word("explorer.promise.own_account"),
        }
    }

    /// While it runs: how many histories so far, and for how long.
    pub fn running(&self, histories: u64, ms: u64) -> String {
        self.say(
            "explorer.running",
            &[
                ("histories", Arg::Grouped(histories)),
                ("seconds", Arg::Seconds(ms)),
            ],
        )
    }

    /// A history broke `promise`: it is being shrunk.
    pub fn shrinking(&self, histories: u64, promise: &str) -> String {
        self.say(
            "explorer.shrinking",
            &[
                ("n", Arg::Grouped(histories)),
                ("promise", Arg::Text(promise.to_owned())),
            ],
        )
    }

    /// Found: which promise, after how many histories, in how many steps.
    pub fn broken(&self, promise: &str, histories: u64, steps: usize) -> String {
        self.say(
            "explorer.broken",
            &[
                ("promise", Arg::Text(promise.to_owned())),
                ("histories", Arg::Grouped(histories)),
                ("steps", count(steps as u64)),
            ],
        )
    }

    /// Nothing broken in the whole search.
    pub fn held(&self, histories: u64, steps: usize, seed: u64) -> String {
        self.say(
            "explorer.held",
            &[
                ("histories", Arg::Grouped(histories)),
                ("steps", count(steps as u64)),
                ("seed", Arg::Count(seed)),
            ],
        )
    }

    /// The walkthrough player's first step of a found history: the lab with
    /// the search's settings, before anything is done.
    pub fn guest_setup(&self, promise: &str) -> String {
        self.say(
            "explorer.guest_setup",
            &[("promise", Arg::Text(promise.to_owned()))],
        )
    }

    /// A promise's short name, for the safety table's head.
    pub fn short(&self, promise: Promise) -> &'static str {
        self.word(match promise {
            Promise::Kept(crate::lab::Invariant::AtMostOnce) => "explorer.short.at_most_once",
            Promise::Kept(crate::lab::Invariant::PaidOnce) => "explorer.short.paid_once",
            Promise::Kept(crate::lab::Invariant::GrantedHasReceipt) => {
                "explorer.short.granted_has_receipt"
            }
            Promise::Kept(crate::lab::Invariant::ReceiptHasGrant) => {
                "explorer.short.receipt_has_grant"
            }
            Promise::OneEmail => "explorer.short.one_email",
            Promise::OwnAccount => "explorer.short.own_account",
        })
    }

    pub fn yes_no(&self, yes: bool) -> &'static str {
        self.word(if yes { "explorer.yes" } else { "explorer.no" })
    }

    /// What the table does, with how many histories each row tries.
    pub fn safety_intro(&self, histories: u64) -> String {
        self.say("explorer.safety_intro", &[("n", Arg::Grouped(histories))])
    }

    pub fn safety_running(&self, rows: usize, all: usize, histories: u64, ms: u64) -> String {
        self.say(
            "explorer.safety_running",
            &[
                ("rows", count(rows as u64)),
                ("all", count(all as u64)),
                ("histories", Arg::Grouped(histories)),
                ("seconds", Arg::Seconds(ms)),
            ],
        )
    }

    pub fn safety_done(&self, histories: u64, ms: u64, keeps: usize, all: usize) -> String {
        self.say(
            "explorer.safety_done",
            &[
                ("histories", Arg::Grouped(histories)),
                ("seconds", Arg::Seconds(ms)),
                ("keeps", count(keeps as u64)),
                ("all", count(all as u64)),
            ],
        )
    }

    pub fn safety_cancelled(&self, rows: usize) -> String {
        self.say("explorer.safety_cancelled", &[("rows", count(rows as u64))])
    }

    /// A cell that held: in how many histories.
    pub fn safety_held(&self, histories: u64) -> String {
        self.say("explorer.safety_held", &[("n", Arg::Grouped(histories))])
    }

    /// A cell that broke: which history, and that it can be shown.
    pub fn safety_broken(&self, history: u64) -> String {
        self.say("explorer.safety_broken", &[("n", Arg::Grouped(history))])
    }

    /// A found history's step in the walkthrough player: what it was, and
    /// what it did.
    pub fn guest_step(&self, what: &str, did: &str) -> String {
        self.say(
            "explorer.guest_step",
            &[
                ("what", Arg::Text(what.to_owned())),
                ("did", Arg::Text(did.to_owned())),
            ],
        )
    }

    /// A number of histories outside what a search may be asked for (a
    /// negative one too).
    pub fn histories_range(&self, asked: i128, most: u64) -> String {
        self.say(
            "explorer.histories_range",
            &[("n", Arg::Whole(asked)), ("most", Arg::Grouped(most))],
        )
    }

    /// Cancelled before the end, nothing broken.
    pub fn cancelled(&self, histories: u64) -> String {
        self.say(
            "explorer.cancelled",
            &[("histories", Arg::Grouped(histories))],
        )
    }

    /// One step of a found history, as a person would do it in the sandbox.
    pub fn step(
        &self,
        step: &Action,
        crash_point: impl Fn(Option<CrashPoint>) -> &'static str,
    ) -> String {
        let lost = |lose: bool| {
            Arg::Text(if lose {
                self.word("explorer.step.ack_lost").to_owned()
            } else {
                String::new()
            })
        };
        match step {
            Action::Send {
                grant,
                lose_acknowledgement,
            } => self.say(
                "explorer.step.send",
                &[
                    ("points", Arg::Amount(grant.points.into())),
                    ("account", Arg::Id(&grant.account_id)),
                    ("key", Arg::Id(&grant.key)),
                    ("lost", lost(*lose_acknowledgement)),
                ],
            ),
            Action::RetrySame {
                lose_acknowledgement,
            } => self.say(
                "explorer.step.retry_same",
                &[("lost", lost(*lose_acknowledgement))],
            ),
            Action::RetryFresh {
                lose_acknowledgement,
            } => self.say(
                "explorer.step.retry_fresh",
                &[("lost", lost(*lose_acknowledgement))],
            ),
            Action::Burst {
                account_id,
                count: n,
                ..
            }
            | Action::Stress {
                account_id,
                count: n,
                ..
            } => self.say(
                "explorer.step.burst",
                &[("n", count((*n).into())), ("account", Arg::Id(account_id))],
            ),
            Action::Step => self.word("explorer.step.step").to_owned(),
            Action::Wait { ms } => self.say("explorer.step.wait", &[("span", Arg::Span(*ms))]),
            Action::CheckBalance { account_id } => self.say(
                "explorer.step.check_balance",
                &[("account", Arg::Id(account_id))],
            ),
            Action::Restart => self.word("explorer.step.restart").to_owned(),
            Action::Set(Setting::Paused(true)) => self.word("explorer.step.pause").to_owned(),
            Action::Set(Setting::Paused(false)) => self.word("explorer.step.release").to_owned(),
            Action::Set(_) => self.word("explorer.step.setting").to_owned(),
            Action::SetCrashPoint { point: None } => self.word("explorer.step.disarm").to_owned(),
            Action::SetCrashPoint { point } => self.say(
                "explorer.step.crash",
                &[("point", Arg::Text(crash_point(*point).to_owned()))],
            ),
            Action::MoveClock { ms } => {
                self.say("explorer.step.move_clock", &[("span", Arg::Span(*ms))])
            }
            Action::SetRedeliver { on: true } => self.word("explorer.step.redeliver").to_owned(),
            Action::CrashProcess { process } => self.say(
                "explorer.step.crash_process",
                &[("n", Arg::Count(*process as u64))],
            ),
            Action::LoseAnswer { attempt } => {
                self.say("explorer.step.lose_answer", &[("n", Arg::Count(*attempt))])
            }
            Action::SetRedeliver { on: false } => {
                self.word("explorer.step.no_redeliver").to_owned()
            }
            Action::SignIn {
                account_id: Some(account_id),
            } => self.say("explorer.step.sign_in", &[("account", Arg::Id(account_id))]),
            Action::SignIn { account_id: None } => self.word("explorer.step.sign_out").to_owned(),
            Action::SetPreferredLanguage { account_id, .. } => self.say(
                "explorer.step.language",
                &[("account", Arg::Id(account_id))],
            ),
        }
    }

    /// What one step did, in words: its clauses joined, or that nothing
    /// visible happened.
    pub fn did(
        &self,
        said: &[Said],
        crash_point: impl Fn(Option<CrashPoint>) -> &'static str,
        promise: impl Fn(Promise) -> &'static str,
    ) -> String {
        if said.is_empty() {
            return self.word("explorer.said.nothing").to_owned();
        }
        let clauses: Vec<String> = said
            .iter()
            .map(|clause| self.clause(clause, &crash_point, &promise))
            .collect();
        clauses.join(self.word("explorer.said.and"))
    }

    fn clause(
        &self,
        said: &Said,
        crash_point: &impl Fn(Option<CrashPoint>) -> &'static str,
        promise: &impl Fn(Promise) -> &'static str,
    ) -> String {
        match said {
            Said::Applied {
                attempt,
                points,
                account,
                balance,
            } => self.say(
                "explorer.said.applied",
                &[
                    ("attempt", Arg::Attempt(*attempt)),
                    ("points", Arg::Amount((*points).into())),
                    ("account", Arg::Id(account)),
                    ("balance", Arg::Amount((*balance).into())),
                ],
            ),
            Said::Replayed { attempt } => self.say(
                "explorer.said.replayed",
                &[("attempt", Arg::Attempt(*attempt))],
            ),
            Said::Refused { attempt } => self.say(
                "explorer.said.refused",
                &[("attempt", Arg::Attempt(*attempt))],
            ),
            Said::AckLost { attempt } => self.say(
                "explorer.said.ack_lost",
                &[("attempt", Arg::Attempt(*attempt))],
            ),
            Said::TimedOut { attempt } => self.say(
                "explorer.said.timed_out",
                &[("attempt", Arg::Attempt(*attempt))],
            ),
            Said::Crashed { attempt, point } => self.say(
                "explorer.said.crashed",
                &[
                    ("attempt", Arg::Attempt(*attempt)),
                    ("point", Arg::Text(crash_point(Some(*point)).to_owned())),
                ],
            ),
            Said::Ended { process } => {
                self.say("explorer.said.ended", &[("n", count((*process).into()))])
            }
            Said::Redelivered { attempt, of } => self.say(
                "explorer.said.redelivered",
                &[
                    ("attempt", Arg::Attempt(*attempt)),
                    ("of", Arg::Attempt(*of)),
                ],
            ),
            Said::Expired { key } => self.say("explorer.said.expired", &[("key", Arg::Id(key))]),
            Said::Emailed { account } => {
                self.say("explorer.said.emailed", &[("account", Arg::Id(account))])
            }
            Said::Forbidden { attempt } => self.say(
                "explorer.said.forbidden",
                &[("attempt", Arg::Attempt(*attempt))],
            ),
            Said::Broke(broken) => self.say(
                "explorer.said.broke",
                &[("promise", Arg::Text(promise(*broken).to_owned()))],
            ),
        }
    }
}
