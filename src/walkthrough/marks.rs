//! A step's marks: the facts that prove its point, each turned into the part
//! of the picture that draws it, read from the lab as the step leaves it.

use crate::lab::{LabState, StagePart};

use super::fact::{Fact, FactError, RowRef};

/// The part of the picture that shows `fact`, if the picture shows it at
/// all (a count of rows or a separate read is in no part of it).
fn part_kind(fact: &Fact) -> Option<Part> {
    Some(match fact {
        Fact::Balance(account) => Part::Fixed(StagePart::Balance(account.clone())),
        Fact::NaiveBalance(account) => Part::Fixed(StagePart::NaiveBalance(account.clone())),
        Fact::AccountBalance(at) => Part::AccountOf(*at, false),
        Fact::RowNaiveBalance(at) => Part::AccountOf(*at, true),
        Fact::Queued | Fact::QueueCapacity => Part::Fixed(StagePart::Queue),
        Fact::WaitingForRoom => Part::Fixed(StagePart::Waiting),
        Fact::CallerTimeout => Part::Fixed(StagePart::Callers),
        Fact::ProcessingTime => Part::Fixed(StagePart::Consumer),
        Fact::RetentionHours | Fact::Store => Part::Fixed(StagePart::Store),
        Fact::Emails => Part::Fixed(StagePart::Mail),
        Fact::Holds(invariant) => Part::Fixed(StagePart::Promise(*invariant)),
        Fact::ReadBalance => Part::Fixed(StagePart::Read),
        Fact::Rows => Part::Fixed(StagePart::Timeline),
        // Every other fact reads a row (`Fact::row`): its attempt is drawn.
        _ => Part::AttemptOf(fact.row()?),
    })
}

enum Part {
    Fixed(StagePart),
    /// A row's attempt.
    AttemptOf(RowRef),
    /// A row's account's balance, at the naive worker if true.
    AccountOf(RowRef, bool),
}

/// Reads a mark's fact name: an error when it is no fact, or no part of the
/// picture draws it.
pub fn parse_mark(name: &str) -> Result<(), FactError> {
    let fact = Fact::parse(name)?;
    part_kind(&fact)
        .map(|_| ())
        .ok_or_else(|| FactError::NotDrawn(name.to_string()))
}

/// The part of the picture that shows the fact `name` in `state`.
pub fn mark(name: &str, state: &LabState) -> Result<StagePart, FactError> {
    let fact = Fact::parse(name)?;
    let missing = || FactError::Missing(name.to_string());
    let row = |at: RowRef| {
        let rows = state.timeline();
        at.index(rows.len()).map(|i| &rows[i]).ok_or_else(missing)
    };
    match part_kind(&fact).ok_or_else(|| FactError::NotDrawn(name.to_string()))? {
        Part::Fixed(part) => Ok(part),
        Part::AttemptOf(at) => Ok(StagePart::Attempt(row(at)?.attempt.id)),
        Part::AccountOf(at, naive) => {
            let account = row(at)?.attempt.grant.account_id.clone();
            Ok(if naive {
                StagePart::NaiveBalance(account)
            } else {
                StagePart::Balance(account)
            })
        }
    }
}
