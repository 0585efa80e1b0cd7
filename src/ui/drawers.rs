//! Which of the sandbox's settings drawers are open (see `drawer` for the
//! drawers themselves): the controller keeps it, so every view can open one.

use leptos::prelude::*;

use crate::i18n::Texts;

/// The drawers, in the order the page shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawerId {
    World,
    Storage,
    Callers,
    Queue,
    Share,
}

impl DrawerId {
    pub const ALL: [DrawerId; 5] = [
        DrawerId::World,
        DrawerId::Storage,
        DrawerId::Callers,
        DrawerId::Queue,
        DrawerId::Share,
    ];

    /// Its name in `data-drawer` and in its elements' ids (`world-title` ...).
    pub fn code(self) -> &'static str {
        match self {
            DrawerId::World => "world",
            DrawerId::Storage => "storage",
            DrawerId::Callers => "callers",
            DrawerId::Queue => "queue",
            DrawerId::Share => "share",
        }
    }

    pub fn title(self, t: &Texts) -> &'static str {
        match self {
            DrawerId::World => t.world,
            DrawerId::Storage => t.storage,
            DrawerId::Callers => t.callers,
            DrawerId::Queue => t.queue,
            DrawerId::Share => t.share,
        }
    }

    /// Open when the page starts: the clock, its speed and "Skip to idle" are
    /// used all the time; the rest waits until asked for.
    fn starts_open(self) -> bool {
        self == DrawerId::World
    }

    pub fn button_id(self) -> String {
        format!("{}-drawer-button", self.code())
    }
}

/// Which drawers are open.
#[derive(Clone, Copy)]
pub struct Drawers {
    open: RwSignal<[bool; DrawerId::ALL.len()]>,
}

impl Drawers {
    pub fn new() -> Self {
        Drawers {
            open: RwSignal::new(DrawerId::ALL.map(DrawerId::starts_open)),
        }
    }

    pub fn is_open(self, id: DrawerId) -> bool {
        self.open.with(|open| open[id as usize])
    }

    pub fn toggle(self, id: DrawerId) {
        self.open
            .update(|open| open[id as usize] = !open[id as usize]);
    }

    pub fn set(self, id: DrawerId, on: bool) {
        self.open.update(|open| open[id as usize] = on);
    }

    pub fn all_open(self) -> bool {
        self.open.with(|open| open.iter().all(|o| *o))
    }

    pub fn set_all(self, on: bool) {
        self.open.set([on; DrawerId::ALL.len()]);
    }

    /// Opens a drawer and takes the keyboard to its heading, in view: a stage
    /// part's way to the settings that change it.
    pub fn reveal(self, id: DrawerId) {
        self.set(id, true);
        request_animation_frame(move || {
            let Some(button) = document().get_element_by_id(&id.button_id()) else {
                return;
            };
            if let Some(section) = button.closest("section").ok().flatten() {
                section.scroll_into_view_with_bool(true);
            }
            if let Ok(button) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(button) {
                let _ = button.focus();
            }
        });
    }
}

impl Default for Drawers {
    fn default() -> Self {
        Drawers::new()
    }
}
