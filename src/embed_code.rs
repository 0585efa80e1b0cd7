//! The snippet a docs author pastes to embed the lab, as the full lab's
//! "Embed" dialog writes it: an `<iframe>` sized by attributes (a host's strict
//! Content-Security-Policy drops an inline `style`), and, when asked, the tag
//! of the host script, `embed.js`, a file of the lab's own site
//! (`static/embed.js`) that gives the frame its content's height: a file, so a
//! host that forbids inline scripts allows it by `script-src <lab origin>`.

use crate::host_message::Theme;
use crate::i18n::Lang;

/// What the frame shows, each a view with an address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EmbedView {
    /// A new, empty sandbox.
    Sandbox,
    /// A lesson: one scenario of the walkthrough, from a step (from 1).
    Lesson { scenario: String, step: usize },
    /// A shared session: the sandbox as a permalink's token holds it.
    State { token: String },
}

/// The frame's width: the docs column's, or a fixed one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    Full,
    Pixels(u32),
}

/// The heights the dialog takes: the lab works in any frame from the lower
/// one, and the upper one is more than any screen.
pub const HEIGHTS: std::ops::RangeInclusive<u32> = 480..=4000;
/// The widths the dialog takes in pixels: the phone's column up to a wide page.
pub const WIDTHS: std::ops::RangeInclusive<u32> = 320..=2400;

/// The host script's name, beside the lab's `index.html`.
pub const HOST_SCRIPT_FILE: &str = "embed.js";

/// Everything the snippet says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbedCode {
    /// The lab's address without query or fragment (`https://host/docs/lab/`).
    pub base: String,
    pub view: EmbedView,
    pub lang: Lang,
    pub theme: Theme,
    pub width: Width,
    pub height: u32,
    /// Heights measured at other widths (`(width, height)` in pixels): written
    /// as `data-lab-heights` when the snippet has the host script, which gives
    /// a frame the one for the width nearest its own before the lab arrives,
    /// so a phone's narrower column reserves its own.
    pub heights_at: Vec<(u32, u32)>,
    /// Adds the host script, so the frame takes its content's height.
    pub fit_content: bool,
    /// The frame's title, for screen readers.
    pub title: String,
    /// The frame's name on its page (`?id=`): its session is kept under it,
    /// and its events carry it. Not written when empty.
    pub id: String,
}

impl EmbedCode {
    /// The frame's address: `embed=1`, the language, the theme unless it
    /// follows the system, the lesson's place, the shared state.
    pub fn src(&self) -> String {
        let mut query = form_urlencoded::Serializer::new(String::new());
        query.append_pair("embed", "1");
        query.append_pair("lang", self.lang.tag());
        if !self.id.is_empty() {
            query.append_pair("id", &self.id);
        }
        if self.theme != Theme::Auto {
            query.append_pair("theme", self.theme.code());
        }
        if let EmbedView::Lesson { scenario, step } = &self.view {
            query.append_pair("scenario", scenario);
            query.append_pair("step", &step.to_string());
        }
        let fragment = match &self.view {
            EmbedView::State { token } => format!("{}{token}", crate::address::STATE_FRAGMENT),
            _ => String::new(),
        };
        format!("{}?{}{fragment}", self.base, query.finish())
    }

    /// The lab's origin (`https://host`), which the host script checks.
    pub fn origin(&self) -> &str {
        let after_scheme = self.base.find("://").map_or(0, |i| i + 3);
        let end = self.base[after_scheme..]
            .find('/')
            .map_or(self.base.len(), |i| after_scheme + i);
        &self.base[..end]
    }

    /// The host script's address, in the lab's folder.
    pub fn script_src(&self) -> String {
        let folder = if self.base.ends_with('/') { "" } else { "/" };
        format!("{}{folder}{HOST_SCRIPT_FILE}", self.base)
    }

    /// What a host page's Content-Security-Policy must allow, one directive a
    /// line: the frame, and the host script when the snippet has it.
    pub fn csp_lines(&self) -> Vec<String> {
        let origin = self.origin();
        let mut lines = vec![format!("frame-src {origin}")];
        if self.fit_content {
            lines.push(format!("script-src {origin}"));
        }
        lines
    }

    /// The snippet: the frame, then the host script when asked for.
    pub fn snippet(&self) -> String {
        let width = match self.width {
            Width::Full => "100%".to_owned(),
            Width::Pixels(px) => px.to_string(),
        };
        // The other widths' heights only mean something to the host script.
        let heights_at = if self.fit_content && !self.heights_at.is_empty() {
            let list: Vec<String> = self
                .heights_at
                .iter()
                .map(|(width, height)| format!("{width}:{height}"))
                .collect();
            format!(" data-lab-heights=\"{}\"", list.join(" "))
        } else {
            String::new()
        };
        let frame = format!(
            "<iframe src=\"{}\" title=\"{}\"\n        width=\"{width}\" height=\"{}\"{heights_at} allow=\"clipboard-write\" loading=\"lazy\"></iframe>",
            attribute(&self.src()),
            attribute(&self.title),
            self.height,
        );
        if self.fit_content {
            format!(
                "{frame}\n<script src=\"{}\" async></script>",
                attribute(&self.script_src())
            )
        } else {
            frame
        }
    }
}

/// A value as an HTML attribute's, between double quotes.
fn attribute(value: &str) -> String {
    value
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A phone's docs column (390 px less the page's margins) and a wide page's:
/// the other widths the height is measured at, for `embed.js` to reserve the
/// one nearest a frame's own width.
pub const OTHER_WIDTHS: [u32; 2] = [374, 1024];

/// The widths to measure at, narrowest first: the frame's, and each other one
/// not within 64 px of it.
pub fn measured_widths(width: u32) -> Vec<u32> {
    let mut widths = vec![width];
    widths.extend(
        OTHER_WIDTHS
            .into_iter()
            .filter(|other| other.abs_diff(width) > 64),
    );
    widths.sort_unstable();
    widths
}

/// Why a size was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SizeError {
    /// Not a whole number at all.
    Field(crate::lab::FieldError),
    /// A whole number outside what the dialog takes.
    Range { min: u32, max: u32 },
}

/// Reads a size the person typed: a whole number in `range`, or why not.
pub fn read_size(text: &str, range: &std::ops::RangeInclusive<u32>) -> Result<u32, SizeError> {
    // A negative size is out of range, as 0 is.
    let value = crate::lab::parse_integer(text).map_err(SizeError::Field)?;
    u32::try_from(value)
        .ok()
        .filter(|v| range.contains(v))
        .ok_or(SizeError::Range {
            min: *range.start(),
            max: *range.end(),
        })
}

/// The longest frame name (`?id=`) the dialog writes.
pub const MAX_ID_CHARS: usize = 40;
/// The longest frame title the dialog writes.
pub const MAX_TITLE_CHARS: usize = 120;

/// Reads a frame's name: 1 to [`MAX_ID_CHARS`] ASCII letters, digits, `-` or
/// `_`, so it reads the same in the address, in the events and in a script.
pub fn read_frame_id(text: &str) -> Option<String> {
    let id = text.trim();
    let fits = (1..=MAX_ID_CHARS).contains(&id.chars().count());
    let plain = id
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    (fits && plain).then(|| id.to_owned())
}

/// Reads a frame's title: not blank, at most [`MAX_TITLE_CHARS`] characters.
pub fn read_frame_title(text: &str) -> Option<String> {
    let title = text.trim();
    (!title.is_empty() && title.chars().count() <= MAX_TITLE_CHARS).then(|| title.to_owned())
}
