//! The panels below the first screen: storage, callers, queue, share and store,
//! and the "Embed on a page" dialog.
//! A split build keeps them in one chunk of their own, fetched as soon as the
//! first screen is ready (see `deferred`); the request, the world, the stage and
//! the timeline come with the first load. So does the chart: on a phone and in
//! the walkthrough it stands above the timeline, which its arrival would push.

use leptos::prelude::*;

use crate::lab::AttemptId;

use super::callers_view::CallersView;
use super::deferred::{arrive, deferred, part, Build};
use super::embed_dialog::EmbedDialog;
use super::explorer_engine::ExplorerShared;
use super::explorer_view::ExplorerView;
use super::queue_view::QueueView;
use super::share_view::ShareView;
use super::storage_view::StorageView;
use super::store_view::StoreView;
use super::teacher_view::TeacherView;
use super::{Controller, Walk};

/// A panel below the first screen.
#[derive(Clone, Copy)]
pub enum Below {
    Storage,
    Callers,
    Queue,
    Share,
    /// "Try to break it" (its search arrives in a chunk of its own when first used).
    Explorer(ExplorerShared),
    Store,
    /// "Your own scenarios": the recorder and the scenarios this browser keeps.
    /// (Its many signals are kept aside, so every panel's handle stays small.)
    Teacher(StoredValue<super::teacher::Teacher>),
    /// The "Embed on a page" dialog (its openers are in the share panel and the
    /// walkthrough's tools).
    EmbedDialog,
    /// The promises and the chart in the sandbox's column, which stand under
    /// the panels above (their code stays in the first load: a phone and the
    /// walkthrough draw them there).
    Readings {
        reveal: RwSignal<Option<AttemptId>>,
        account: Signal<String>,
        started: RwSignal<u8>,
    },
}

part! {
    /// Builds one of the panels: in the panels' chunk of a split build.
    panels: fn below_panel(ctl: Controller, walk: Walk, which: Below) -> Build {
        Box::new(move || match which {
            Below::Storage => view! { <StorageView ctl=ctl /> }.into_any(),
            Below::Callers => view! { <CallersView ctl=ctl /> }.into_any(),
            Below::Queue => view! { <QueueView ctl=ctl /> }.into_any(),
            Below::Share => view! { <ShareView ctl=ctl /> }.into_any(),
            Below::Explorer(shared) => view! { <ExplorerView ctl=ctl walk=walk shared=shared /> }.into_any(),
            Below::Store => view! { <StoreView ctl=ctl /> }.into_any(),
            Below::Teacher(teacher) => view! { <TeacherView ctl=ctl teacher=teacher.get_value() /> }.into_any(),
            Below::EmbedDialog => view! { <EmbedDialog ctl=ctl walk=walk /> }.into_any(),
            Below::Readings { reveal, account, started } => column_readings(walk, reveal, account, started)(),
        })
    }
}

/// The panel where it stands, once the panels' chunk is here. The promises
/// and the chart, whose code is in the first load, are drawn even when the
/// chunk does not come (its first failure: below the panels that say so).
pub fn below(walk: Walk, which: Below) -> impl IntoView {
    let ctl = walk.ctl;
    deferred(ctl, move || {
        let arriving = arrive!(below_panel(ctl, walk, which));
        async move {
            match (arriving.await, which) {
                (
                    Err(_),
                    Below::Readings {
                        reveal,
                        account,
                        started,
                    },
                ) => Ok(column_readings(walk, reveal, account, started)),
                (arrived, _) => arrived,
            }
        }
    })
}

/// Builds the promises and the chart in the sandbox's column (their code is
/// in the first load).
fn column_readings(
    walk: Walk,
    reveal: RwSignal<Option<AttemptId>>,
    account: Signal<String>,
    started: RwSignal<u8>,
) -> Build {
    Box::new(move || super::readings(walk.ctl, walk, reveal, account, started, true).into_any())
}
