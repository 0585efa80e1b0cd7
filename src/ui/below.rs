//! The panels below the first screen: storage, callers, queue, share and store,
//! and the "Embed on a page" dialog.
//! A split build keeps them in one chunk of their own, fetched as soon as the
//! first screen is ready (see `deferred`); the request, the world, the stage and
//! the timeline come with the first load. So does the chart: on a phone and in
//! the walkthrough it stands above the timeline, which its arrival would push.

use leptos::prelude::*;

use super::callers_view::CallersView;
use super::deferred::{arrive, deferred, part};
use super::embed_dialog::EmbedDialog;
use super::queue_view::QueueView;
use super::share_view::ShareView;
use super::storage_view::StorageView;
use super::store_view::StoreView;
use super::{Controller, Walk};

/// A panel below the first screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Below {
    Storage,
    Callers,
    Queue,
    Share,
    Store,
    /// The "Embed on a page" dialog (its openers are in the share panel and the
    /// walkthrough's tools).
    EmbedDialog,
}

part! {
    /// Builds one of the panels: in the panels' chunk of a split build.
    panels: fn below_panel(ctl: Controller, walk: Walk, which: Below) -> AnyView {
        match which {
            Below::Storage => view! { <StorageView ctl=ctl /> }.into_any(),
            Below::Callers => view! { <CallersView ctl=ctl /> }.into_any(),
            Below::Queue => view! { <QueueView ctl=ctl /> }.into_any(),
            Below::Share => view! { <ShareView ctl=ctl /> }.into_any(),
            Below::Store => view! { <StoreView ctl=ctl /> }.into_any(),
            Below::EmbedDialog => view! { <EmbedDialog ctl=ctl walk=walk /> }.into_any(),
        }
    }
}

/// The panel where it stands, once the panels' chunk is here.
pub fn below(walk: Walk, which: Below) -> impl IntoView {
    let ctl = walk.ctl;
    deferred(ctl, move || arrive!(below_panel(ctl, walk, which)))
}
