//! The stage's words (keys `stage.*` in `texts/<tag>.json`): the parts of the
//! picture, the states and marks its legend names, and the short description
//! a screen reader hears.

use std::borrow::Cow;
use std::ops::Deref;

use super::catalog::{Arg, Catalog};
use super::declare::words;
use crate::core::{PointWorker, Table};
use crate::lab::{CallerMark, CallerState, Hop, ProcessState, Stage, StoreMark, Token, TokenKind};

words!(
    /// The stage's messages that take no value.
    StageWords, "stage." {
    title, legend, callers, no_callers, queue, consumer, memory, durable, balances, receipts,
    naive, outbox, relay, handler, mail, in_progress, empty,
});

/// The accounts the course's people hold, and the message that names each.
const PEOPLE: [(&str, &str); 4] = [
    ("alice", "stage.person.alice"),
    ("bob", "stage.person.bob"),
    ("carol", "stage.person.carol"),
    ("dave", "stage.person.dave"),
];

pub struct StageTexts {
    catalog: &'static Catalog,
    words: StageWords,
}

impl Deref for StageTexts {
    type Target = StageWords;

    fn deref(&self) -> &StageWords {
        &self.words
    }
}

fn count(n: usize) -> Arg<'static> {
    Arg::Count(n as u64)
}

impl StageTexts {
    pub(super) fn new(catalog: &'static Catalog) -> StageTexts {
        StageTexts {
            catalog,
            words: StageWords::read(catalog),
        }
    }

    fn word(&self, key: &'static str) -> &'static str {
        self.catalog.word(key)
    }

    fn say(&self, key: &str, args: &[(&str, Arg)]) -> String {
        self.catalog.say(key, args)
    }

    /// The person an account belongs to, named as the narration names them
    /// ("Alice", "آلیس"); an account the course names nobody for is shown as
    /// it is (any character that cannot be seen made visible).
    pub fn person<'a>(&self, account: &'a str) -> Cow<'a, str> {
        match PEOPLE.iter().find(|(id, _)| *id == account) {
            Some((_, key)) => Cow::Borrowed(self.word(key)),
            None => crate::lab::visible(account),
        }
    }

    /// Whether the account's id is shown beside its person's name: only for
    /// one of the course's people, where the two differ by more than a capital
    /// letter (any other account is shown as its id already).
    pub fn id_beside(&self, account: &str) -> bool {
        PEOPLE.iter().any(|(id, _)| *id == account)
            && !self.person(account).eq_ignore_ascii_case(account)
    }

    pub fn caller_state(&self, state: CallerState) -> &'static str {
        self.word(match state {
            CallerState::Waiting => "stage.state.waiting",
            CallerState::Answered => "stage.state.answered",
            CallerState::TimedOut => "stage.state.timed_out",
            CallerState::GaveUp => "stage.state.gave_up",
        })
    }

    pub fn process_state(&self, state: ProcessState) -> &'static str {
        self.word(match state {
            ProcessState::Running => "stage.process.running",
            ProcessState::Crashed => "stage.process.crashed",
            ProcessState::Ended => "stage.process.ended",
        })
    }

    pub fn token(&self, kind: TokenKind) -> &'static str {
        self.word(match kind {
            TokenKind::Request => "stage.token.request",
            TokenKind::Ack => "stage.token.ack",
            TokenKind::LostAck => "stage.token.lost_ack",
            TokenKind::Redelivery => "stage.token.redelivery",
            TokenKind::Email => "stage.token.email",
        })
    }

    /// The name of the button that crashes process `n`.
    pub fn crash_process(&self, n: u32) -> String {
        self.say("stage.crash_process", &[("n", count(n as usize))])
    }

    /// The name of an answer on its way that a click loses.
    pub fn lose_answer(&self, attempt: u64) -> String {
        self.say("stage.lose_answer", &[("n", Arg::Count(attempt))])
    }

    pub fn caller_mark(&self, mark: CallerMark) -> &'static str {
        self.word(match mark {
            CallerMark::LostAck => "stage.mark.lost_ack",
            CallerMark::WaitedInProgress => "stage.mark.waited_in_progress",
            CallerMark::ToldInProgress => "stage.mark.told_in_progress",
            CallerMark::Refused => "stage.mark.refused",
            CallerMark::Rejected => "stage.mark.rejected",
            CallerMark::ProcessEnded => "stage.mark.process_ended",
            CallerMark::GrantedAgain => "stage.mark.granted_again",
        })
    }

    /// The mark of work whose caller's deadline passed while it waited.
    pub fn deadline_passed(&self) -> &'static str {
        self.word("stage.mark.timed_out")
    }

    /// The legend's name of a queue slot whose caller stopped waiting.
    pub fn late_work(&self) -> &'static str {
        self.word("stage.late_work")
    }

    /// The legend's names of the marks that are not a caller's: a deadline that
    /// passed, a crash, a torn write, a conflict, an expiry, a second email.
    pub fn other_marks(&self) -> [(&'static str, &'static str); 6] {
        [
            ("timed-out", "stage.mark.timed_out"),
            ("crashed", "stage.mark.crashed"),
            ("torn-write", "stage.mark.torn_write"),
            ("conflict", "stage.mark.conflict"),
            ("expired", "stage.mark.expired"),
            ("second-email", "stage.mark.second_email"),
        ]
        .map(|(code, key)| (code, self.word(key)))
    }

    pub fn store_mark(&self, mark: &StoreMark) -> String {
        match mark {
            StoreMark::TornWrite {
                wrote: Table::Balance,
                ..
            } => self.word("stage.torn.balance").to_string(),
            StoreMark::TornWrite {
                wrote: Table::Receipt,
                ..
            } => self.word("stage.torn.receipt").to_string(),
            StoreMark::Conflict { attempt } => {
                self.say("stage.conflict", &[("n", Arg::Count(*attempt))])
            }
            StoreMark::Expired { count: n } => {
                self.say("stage.expired", &[("n", Arg::Count(u64::from(*n)))])
            }
        }
    }

    pub fn more_waiting(&self, n: usize) -> String {
        self.say("stage.more_waiting", &[("n", count(n))])
    }

    /// Tokens on a lane beyond those drawn.
    pub fn lane_more(&self, n: usize) -> String {
        self.say("stage.lane_more", &[("n", count(n))])
    }

    /// Rows of a store's table beyond those drawn.
    pub fn more_rows(&self, n: usize) -> String {
        self.say("stage.more_rows", &[("n", count(n))])
    }

    /// A receipt's name as a way to the row that wrote it.
    pub fn receipt_lead(&self, receipt: &str) -> String {
        self.say(
            "stage.receipt_lead",
            &[("receipt", Arg::Text(receipt.to_string()))],
        )
    }

    pub fn tries(&self, n: u32) -> String {
        self.say("stage.tries", &[("n", count(n as usize))])
    }

    /// How long each caller waits for its answer, in the callers' column.
    pub fn deadline(&self, ms: u64) -> String {
        self.say("stage.deadline", &[("ms", Arg::Count(ms))])
    }

    /// How long the consumer takes over each grant.
    pub fn work_time(&self, ms: u64) -> String {
        self.say("stage.work_time", &[("ms", Arg::Count(ms))])
    }

    /// How long the durable store keeps a receipt.
    pub fn retention(&self, hours: u32) -> String {
        self.say("stage.retention", &[("hours", Arg::Count(hours.into()))])
    }

    /// The last separate balance read: the account and what it returned, or
    /// that it was refused.
    pub fn read(&self, account: &str, balance: Option<i32>) -> String {
        match balance {
            Some(b) => self.say(
                "stage.read",
                &[
                    ("account", Arg::Id(&self.person(account))),
                    ("balance", Arg::Amount(b.into())),
                ],
            ),
            None => self.say(
                "stage.read_refused",
                &[("account", Arg::Id(&self.person(account)))],
            ),
        }
    }

    pub fn waiting_room(&self, n: usize) -> String {
        self.say("stage.waiting_room", &[("n", count(n))])
    }

    pub fn inbox(&self, n: usize) -> String {
        self.say("stage.inbox", &[("n", count(n))])
    }

    pub fn pending(&self, n: usize) -> String {
        self.say("stage.pending", &[("n", count(n))])
    }

    pub fn emailed_twice(&self, n: usize) -> String {
        self.say("stage.emailed_twice", &[("n", count(n))])
    }

    /// What a consumer is doing: applying an attempt, or idle.
    /// What the consumer is doing: applying an attempt, idle, or paused
    /// (holding nothing, taking nothing from the queue).
    pub fn consumer_state(&self, in_hand: Option<crate::lab::AttemptId>, paused: bool) -> String {
        match in_hand {
            Some(a) => self.say("stage.describe.hand", &[("a", Arg::Count(a))]),
            None if paused => self.word("stage.describe.paused").to_string(),
            None => self.word("stage.describe.idle").to_string(),
        }
    }

    /// The consumer's own label in the picture.
    pub fn consumer_label(&self, in_hand: Option<crate::lab::AttemptId>, paused: bool) -> String {
        match in_hand {
            Some(a) => format!("{} #{}", self.consumer, self.catalog.number(a)),
            None if paused => self.word("stage.consumer_paused").to_string(),
            None => self.consumer.to_string(),
        }
    }

    /// What a screen reader hears of the picture: each process, the callers
    /// drawn, and what is on its way.
    pub fn describe(&self, stage: &Stage) -> String {
        let mut parts: Vec<String> = Vec::new();
        for p in &stage.processes {
            if p.state != ProcessState::Running {
                parts.push(self.say("stage.describe.gone", &[("n", count(p.process as usize))]));
                continue;
            }
            let hand = self.consumer_state(p.in_hand, stage.paused);
            parts.push(self.say(
                "stage.describe.process",
                &[
                    ("n", count(p.process as usize)),
                    ("queued", count(p.queue.len())),
                    ("cap", count(PointWorker::CAPACITY)),
                    ("waiting", count(p.waiting)),
                    ("hand", Arg::Text(hand)),
                ],
            ));
        }
        if stage.callers.is_empty() {
            parts.push(self.no_callers.to_string());
        } else {
            parts.push(self.say(
                "stage.describe.callers",
                &[
                    ("waiting", count(stage.callers_in(CallerState::Waiting))),
                    ("answered", count(stage.callers_in(CallerState::Answered))),
                    ("timed_out", count(stage.callers_in(CallerState::TimedOut))),
                    ("gave_up", count(stage.callers_in(CallerState::GaveUp))),
                ],
            ));
        }
        let moving = stage
            .tokens
            .iter()
            .filter(|t| t.progress < 1.0 && t.hop != Hop::Dropped)
            .count()
            + stage.lane_counts.iter().map(|c| c.more).sum::<usize>();
        parts.push(self.say("stage.describe.moving", &[("n", count(moving))]));
        // Each message the world has on its way, by its attempt: where it goes,
        // or where an answer was lost.
        parts.extend(stage.tokens.iter().filter_map(|t| self.travel(t)));
        parts.join(". ") + "."
    }

    /// Where one message of the world's is: on its way out or back, or lost on
    /// its way back. `None` for a token the world does not hold (drawn after
    /// its event) or one of no attempt.
    pub fn travel(&self, token: &Token) -> Option<String> {
        let attempt = token.attempt.filter(|_| token.in_world)?;
        let key = match token.hop {
            Hop::Out => "stage.describe.hop.out",
            Hop::Back => "stage.describe.hop.back",
            Hop::Dropped => "stage.describe.hop.dropped",
        };
        // An answer the world will lose is, until it drops, an answer on its way.
        let kind = match (token.kind, token.hop) {
            (TokenKind::LostAck, Hop::Back) => TokenKind::Ack,
            (kind, _) => kind,
        };
        Some(self.say(
            key,
            &[
                ("token", Arg::Text(self.token(kind).to_string())),
                (
                    "attempt",
                    Arg::Text(self.say("attempt_number", &[("n", Arg::Count(attempt))])),
                ),
            ],
        ))
    }

    /// What began since `before`: each message that set out, came back or was
    /// lost, said once, for a polite live region. Empty when nothing began.
    pub fn travel_news(&self, before: &[Token], now: &[Token]) -> String {
        let seen = |t: &Token| {
            before
                .iter()
                .any(|b| b.attempt == t.attempt && b.hop == t.hop && b.kind == t.kind && b.in_world)
        };
        let news: Vec<String> = now
            .iter()
            .filter(|t| !seen(t))
            .filter_map(|t| self.travel(t))
            .collect();
        if news.is_empty() {
            String::new()
        } else {
            news.join(". ") + "."
        }
    }
}
