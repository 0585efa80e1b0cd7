//! The messages on their way, as the stage draws them: folded from the recent
//! event log at one moment. A message that takes time in the world (a transit
//! set) is on its arrow exactly while the world says it travels, so what it
//! causes is drawn when it arrives. A message that takes none (a world without
//! transit, a session from before it) is drawn for a moment after its event.

use crate::sim::{AttemptId, Event, Happening, Millis, ProcessNumber, MAX_TRANSIT_MS};

/// How long, in virtual time, a message that takes none is drawn along its arrow.
pub const TRAVEL_MS: Millis = 400;
/// How long an answer that dropped stays drawn where it dropped, with its mark.
pub const DROP_MARK_MS: Millis = 2_000;
/// Tokens drawn at most on one lane; the rest are counted on the arrow.
pub const MAX_TOKENS_PER_LANE: usize = 6;
/// The newest events read for tokens at most: a stress run's thousands of
/// events in one instant are counted from these, never all walked every frame.
const SCAN_LIMIT: usize = 4_000;
/// How far back an event can still have a token drawn for it.
const WINDOW: Millis = MAX_TRANSIT_MS + DROP_MARK_MS;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TokenKind {
    Request,
    Ack,
    LostAck,
    Redelivery,
    Email,
}

impl TokenKind {
    /// The stable name used in `data-kind`.
    pub fn code(self) -> &'static str {
        match self {
            TokenKind::Request => "request",
            TokenKind::Ack => "ack",
            TokenKind::LostAck => "lost-ack",
            TokenKind::Redelivery => "redelivery",
            TokenKind::Email => "email",
        }
    }

    /// Whether it travels from the process back towards the caller.
    pub fn goes_back(self) -> bool {
        matches!(self, TokenKind::Ack | TokenKind::LostAck)
    }
}

/// Where a token is on its way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Hop {
    /// From the caller towards the process (or the relay towards the mail).
    Out,
    /// From the process back towards the caller.
    Back,
    /// An answer that dropped on its way back: it stays where it dropped,
    /// marked, for [`DROP_MARK_MS`].
    Dropped,
}

impl Hop {
    /// The stable name used in `data-hop`.
    pub fn code(self) -> &'static str {
        match self {
            Hop::Out => "out",
            Hop::Back => "back",
            Hop::Dropped => "dropped",
        }
    }
}

/// Which arrow a token travels: a process's (between the callers and it), or
/// the mail's (from the relay to the mail service).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Lane {
    Process(ProcessNumber),
    Mail,
}

/// Something on its way along an arrow.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    /// The event that sent it on its way, by its place in the log: tells
    /// tokens apart (two emails of one instant have no attempt).
    pub event: usize,
    pub attempt: Option<AttemptId>,
    pub kind: TokenKind,
    pub hop: Hop,
    pub lane: Lane,
    /// When it set off.
    pub at: Millis,
    /// How long its whole way takes, in virtual time.
    pub travel: Millis,
    /// How far along its way it is now: 0 where it starts, 1 where it arrives.
    pub progress: f64,
    /// Where it stops: 1, or where an answer drops (or will drop).
    pub end: f64,
    /// Its way takes time in the world: the clock places it at every moment
    /// (and the slider scrubs it). Otherwise it takes none, and is only
    /// carried along for a moment after its event.
    pub in_world: bool,
    /// Its place in a train of tokens of its kind that left its lane at the same
    /// moment (0 leads): drawn one behind the other rather than on top.
    pub rank: usize,
}

/// Tokens on one lane beyond those drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaneCount {
    pub lane: Lane,
    pub kind: TokenKind,
    pub more: usize,
}

/// The tokens on their way at `now`, from the newest events of `log`.
/// `attempt_of` gives an attempt's process and its transit. At most
/// [`MAX_TOKENS_PER_LANE`] of a kind are drawn on a lane (the newest); the rest
/// are counted.
pub fn tokens(
    log: &[Event],
    now: Millis,
    attempt_of: impl Fn(AttemptId) -> Option<(ProcessNumber, Millis)>,
) -> (Vec<Token>, Vec<LaneCount>) {
    let mut tokens: Vec<Token> = Vec::new();
    let mut counts: Vec<LaneCount> = Vec::new();
    // Answers lost on their way, met first as the log is read newest first.
    let mut lost: Vec<(AttemptId, Millis)> = Vec::new();
    let recent = log
        .iter()
        .enumerate()
        .rev()
        .take(SCAN_LIMIT)
        .take_while(|(_, e)| e.at + WINDOW > now);
    for (index, event) in recent {
        if let Happening::AnswerLost { attempt } = event.what {
            lost.push((attempt, event.at));
            continue;
        }
        let lost_at = |a: AttemptId| lost.iter().find(|(l, _)| *l == a).map(|(_, at)| *at);
        let Some(flight) = flight_of(event, now, &attempt_of, lost_at) else {
            continue;
        };
        let drawn = tokens
            .iter()
            .filter(|t| t.lane == flight.lane && t.kind == flight.kind)
            .count();
        if drawn == MAX_TOKENS_PER_LANE {
            match counts
                .iter_mut()
                .find(|c| c.lane == flight.lane && c.kind == flight.kind)
            {
                Some(count) => count.more += 1,
                None => counts.push(LaneCount {
                    lane: flight.lane,
                    kind: flight.kind,
                    more: 1,
                }),
            }
            continue;
        }
        tokens.push(Token {
            event: index,
            attempt: event.what.attempt(),
            kind: flight.kind,
            hop: flight.hop,
            lane: flight.lane,
            at: event.at,
            travel: flight.travel,
            progress: flight.progress,
            end: flight.end,
            in_world: flight.in_world,
            rank: 0,
        });
    }
    tokens.reverse();
    for i in 0..tokens.len() {
        let (lane, kind, at) = (tokens[i].lane, tokens[i].kind, tokens[i].at);
        tokens[i].rank = tokens[..i]
            .iter()
            .filter(|t| t.lane == lane && t.kind == kind && t.at == at)
            .count();
    }
    counts.sort_by_key(|c| (c.lane, c.kind));
    (tokens, counts)
}

/// A token as one event sets it on its way, before it is counted and ranked.
struct Flight {
    kind: TokenKind,
    hop: Hop,
    lane: Lane,
    travel: Millis,
    progress: f64,
    end: f64,
    in_world: bool,
}

/// The token `event` has on its way at `now`, if it has one then.
fn flight_of(
    event: &Event,
    now: Millis,
    attempt_of: &impl Fn(AttemptId) -> Option<(ProcessNumber, Millis)>,
    lost_at: impl Fn(AttemptId) -> Option<Millis>,
) -> Option<Flight> {
    let since = now.saturating_sub(event.at);
    // A message that takes no time in the world: drawn for a moment after it.
    let moment = |kind: TokenKind, hop: Hop, lane: Lane, end: f64| {
        (since < TRAVEL_MS).then(|| Flight {
            kind,
            hop,
            lane,
            travel: TRAVEL_MS,
            progress: (since as f64 / TRAVEL_MS as f64).min(end),
            end,
            in_world: false,
        })
    };
    if let Happening::Emailed { .. } = event.what {
        return moment(TokenKind::Email, Hop::Out, Lane::Mail, 1.0);
    }
    let attempt = event.what.attempt()?;
    let (process, transit) = attempt_of(attempt)?;
    let lane = Lane::Process(process);
    // The way back: an answer leaves when the store has dealt with the request,
    // or when the process refused it or told it to retry later.
    let answer_leaves = match &event.what {
        Happening::Handled {
            acknowledgement_lost,
            ..
        } => Some(*acknowledgement_lost),
        Happening::Forbidden { .. } | Happening::InProgress { waits: false, .. } => Some(false),
        _ => None,
    };
    if transit == 0 {
        return match &event.what {
            Happening::Sent {
                redelivery_of: Some(_),
                ..
            } => moment(TokenKind::Redelivery, Hop::Out, lane, 1.0),
            Happening::Sent { .. } => moment(TokenKind::Request, Hop::Out, lane, 1.0),
            Happening::Answered { .. } => moment(TokenKind::Ack, Hop::Back, lane, 1.0),
            Happening::Handled {
                acknowledgement_lost: true,
                ..
            } => moment(TokenKind::LostAck, Hop::Back, lane, 0.5),
            _ => None,
        };
    }
    let travelling = |kind: TokenKind, hop: Hop, end: f64| {
        let progress = since as f64 / transit as f64;
        (progress < end).then_some(Flight {
            kind,
            hop,
            lane,
            travel: transit,
            progress,
            end,
            in_world: true,
        })
    };
    if let Happening::Sent { .. } = event.what {
        return travelling(TokenKind::Request, Hop::Out, 1.0);
    }
    let doomed = answer_leaves?;
    // Dropped where the world dropped it (every event in the log is past):
    // drawn there, marked, for a while.
    if let Some(lost) = lost_at(attempt) {
        let end = lost.saturating_sub(event.at) as f64 / transit as f64;
        return (now < lost + DROP_MARK_MS).then_some(Flight {
            kind: TokenKind::LostAck,
            hop: Hop::Dropped,
            lane,
            travel: transit,
            progress: end,
            end,
            in_world: true,
        });
    }
    // Lost when it was sent: the world drops it half way.
    match doomed {
        true => travelling(TokenKind::LostAck, Hop::Back, 0.5),
        false => travelling(TokenKind::Ack, Hop::Back, 1.0),
    }
}
