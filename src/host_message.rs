//! The lab's side of the `postMessage` conversation with the page that frames
//! it: what the host may ask (read here, listened to in `ui::host`, from the
//! parent window alone) and what the lab tells it (written here, posted by
//! `ui::host` to the parent alone). The README's "Embedding" documents both.
//!
//! Taken from the host, anything else left alone:
//! - `{type: "idempotency-lab:theme", theme: "light" | "dark" | "auto"}` sets the
//!   lab's colours as `?theme=` does before the first paint (index.html's boot
//!   script reads that parameter the same way: any other value is `auto`).
//! - `{type: "idempotency-lab:lang", lang: "en" | "fa"}` shows the lab in that
//!   language, as its own language switch does.
//! - `{type: "idempotency-lab:go-to-step", step: 2}` (and optionally
//!   `scenario: "s4"`) opens that step of the walkthrough, as `?scenario=&step=`
//!   does; without `scenario`, of the scenario on show.
//! - `{type: "idempotency-lab:measure"}` asks for the frame's height at once (a
//!   `resize` message), for a host script that starts after the lab told it.
//!
//! Told to the host: `ready`, `resize` (`height`), `step` (`scenario`, `step`),
//! `answered` (`scenario`, `step`, `correct`) and `challenge-met` (`scenario`),
//! each as `{type: "idempotency-lab:<name>", …}`, with the frame's `id` when
//! its address gives one.

use serde_json::{json, Map, Value};

use crate::i18n::Lang;

/// The lab's colours: as the system says, or light or dark whatever it says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    #[default]
    Auto,
    Light,
    Dark,
}

impl Theme {
    pub const ALL: [Theme; 3] = [Theme::Auto, Theme::Light, Theme::Dark];

    pub fn parse(value: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.code() == value)
    }

    pub fn code(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// The class on `<html>` that fixes the colours (`style/main.css`); none
    /// for `Auto`, which follows the system.
    pub fn class(self) -> Option<&'static str> {
        match self {
            Theme::Auto => None,
            Theme::Light => Some("theme-light"),
            Theme::Dark => Some("theme-dark"),
        }
    }
}

/// The `type` of a message that sets the theme.
pub const THEME_MESSAGE: &str = "idempotency-lab:theme";
/// The `type` of a message that sets the language.
pub const LANG_MESSAGE: &str = "idempotency-lab:lang";
/// The `type` of a message that opens a walkthrough step.
pub const GO_TO_STEP_MESSAGE: &str = "idempotency-lab:go-to-step";
/// The `type` of a message that asks for the frame's height.
pub const MEASURE_MESSAGE: &str = "idempotency-lab:measure";

/// A message from the host page the lab acts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostMessage {
    Theme(Theme),
    Lang(Lang),
    /// A step (from 1) of the named scenario, or of the one on show. Checked
    /// against the walkthrough as a deep link's is, which says what it lacks.
    GoToStep {
        scenario: Option<String>,
        step: u64,
    },
    /// Tell the frame's height now, even if it was told before.
    Measure,
}

impl HostMessage {
    /// Reads a message's data; `None` for anything the lab does not take
    /// (another type, a field missing or of another kind, a value it does not
    /// have).
    pub fn read(data: &Value) -> Option<HostMessage> {
        let text = |name: &str| data.get(name).and_then(Value::as_str);
        match text("type")? {
            THEME_MESSAGE => Theme::parse(text("theme")?).map(HostMessage::Theme),
            LANG_MESSAGE => Lang::from_tag(text("lang")?).map(HostMessage::Lang),
            GO_TO_STEP_MESSAGE => {
                let step = data.get("step")?.as_u64().filter(|n| *n >= 1)?;
                let scenario = match data.get("scenario") {
                    None | Some(Value::Null) => None,
                    Some(value) => Some(value.as_str()?.to_owned()),
                };
                Some(HostMessage::GoToStep { scenario, step })
            }
            MEASURE_MESSAGE => Some(HostMessage::Measure),
            _ => None,
        }
    }
}

/// What the lab tells the page that frames it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LabEvent {
    /// The lab can be used (the page's `body[data-ready]`).
    Ready,
    /// The height, in CSS pixels, at which the frame shows all of the lab
    /// with nothing scrolling inside it.
    Resize { height: u32 },
    /// A walkthrough step is on show (`step` from 1).
    Step { scenario: String, step: usize },
    /// A question was answered (an answer that is not one, such as a word
    /// where a number is asked, is not told).
    Answered {
        scenario: String,
        step: usize,
        correct: bool,
    },
    /// The sandbox now meets a scenario's challenge.
    ChallengeMet { scenario: String },
}

impl LabEvent {
    /// The event's name, after `idempotency-lab:` in its `type`.
    pub fn name(&self) -> &'static str {
        match self {
            LabEvent::Ready => "ready",
            LabEvent::Resize { .. } => "resize",
            LabEvent::Step { .. } => "step",
            LabEvent::Answered { .. } => "answered",
            LabEvent::ChallengeMet { .. } => "challenge-met",
        }
    }

    /// The message as posted: its type, its fields, and `id` when the
    /// frame's address has one (so a host with several frames can tell them
    /// apart without comparing windows).
    pub fn message(&self, id: Option<&str>) -> Value {
        let mut message = match self {
            LabEvent::Ready => json!({}),
            LabEvent::Resize { height } => json!({ "height": height }),
            LabEvent::Step { scenario, step } => json!({ "scenario": scenario, "step": step }),
            LabEvent::Answered {
                scenario,
                step,
                correct,
            } => json!({ "scenario": scenario, "step": step, "correct": correct }),
            LabEvent::ChallengeMet { scenario } => json!({ "scenario": scenario }),
        };
        let fields: &mut Map<String, Value> = message
            .as_object_mut()
            .expect("every event is written as an object");
        fields.insert(
            "type".into(),
            Value::from(format!("idempotency-lab:{}", self.name())),
        );
        if let Some(id) = id {
            fields.insert("id".into(), Value::from(id));
        }
        message
    }
}

/// The origin to post to: the parent's own when the browser says it (an
/// ancestor origin, else the referrer's), so nothing reaches a page that has
/// since navigated the frame's parent elsewhere; `*` when it is unknown or
/// opaque (`null`, which `postMessage` cannot name).
pub fn target_origin(ancestor: Option<&str>, referrer: Option<&str>) -> String {
    let origin_of = |url: &str| -> Option<String> {
        let (scheme, rest) = url.split_once("://")?;
        let host = rest.split(['/', '?', '#']).next()?;
        (!host.is_empty() && matches!(scheme, "http" | "https"))
            .then(|| format!("{scheme}://{host}"))
    };
    ancestor
        .and_then(origin_of)
        .or_else(|| referrer.and_then(origin_of))
        .unwrap_or_else(|| "*".to_owned())
}
