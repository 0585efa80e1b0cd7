//! A side effect outside the store: a confirmation email through a mail
//! service. The store's receipt keeps a retry from granting twice, but not from
//! sending twice: an email sent inline, after every successful answer, goes out
//! again with every retry. An outbox row written in the same transaction as the
//! grant, relayed with the operation's id, lets the mail service drop the copies
//! a relay delivers more than once.

use serde::{Deserialize, Serialize};

/// How a grant's confirmation email is sent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EmailVia {
    /// The handler calls the mail service itself after the store answers, with
    /// no operation id: a replayed receipt sends the email again.
    #[default]
    Inline,
    /// The grant writes an outbox row with it; a relay delivers the row to the
    /// mail service, operation id included, at least once.
    Outbox,
}

impl EmailVia {
    pub const ALL: [EmailVia; 2] = [EmailVia::Inline, EmailVia::Outbox];

    /// A short stable name, for option values.
    pub fn code(self) -> &'static str {
        match self {
            EmailVia::Inline => "inline",
            EmailVia::Outbox => "outbox",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.code() == code)
    }
}

/// One confirmation email, as the customer sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Email {
    pub account_id: String,
    pub key: String,
    pub points: i32,
}

/// What the mail service did with a delivery.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MailOutcome {
    /// Into the customer's inbox.
    Delivered,
    /// Dropped: an email with this operation id was delivered already.
    Duplicate,
}

/// The mail service and the customers' inboxes.
#[derive(Debug, Default)]
pub struct MailService {
    inbox: Vec<Email>,
    /// Operation ids of the emails delivered, for de-duplication.
    seen: rustc_hash::FxHashSet<(String, String)>,
    duplicates: usize,
}

impl MailService {
    /// Delivers `email`. With `operation_id` the service keeps one email per
    /// operation and drops every later copy; without one it cannot tell a copy
    /// from a new email.
    pub fn deliver(&mut self, email: Email, operation_id: bool) -> MailOutcome {
        if operation_id {
            let id = (email.account_id.clone(), email.key.clone());
            if !self.seen.insert(id) {
                self.duplicates += 1;
                return MailOutcome::Duplicate;
            }
        }
        self.inbox.push(email);
        MailOutcome::Delivered
    }

    /// Every email delivered, oldest first.
    pub fn inbox(&self) -> &[Email] {
        &self.inbox
    }

    /// How many copies the service dropped.
    pub fn duplicates(&self) -> usize {
        self.duplicates
    }
}
