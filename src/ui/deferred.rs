//! Parts of the page that arrive in a Wasm chunk of their own (issue 28).
//!
//! A release build made with the `wasm-split` feature (see README, "The Wasm
//! split") cuts the Wasm at the functions declared with [`part!`]: everything
//! only they reach goes into a chunk that is fetched the first time one of them
//! is called, so the first load carries what the first screen needs. Without the
//! feature (`trunk serve`, the tests) a part is an ordinary function and is
//! drawn at once.
//!
//! A chunk that does not arrive is fetched again (the splitter's loader keeps
//! no failure), twice, after a pause; then the part says so with a button to
//! try again, and the rest of the page goes on working. When any part arrives
//! later, the parts still waiting try again by themselves.

use std::future::Future;

use leptos::prelude::*;

/// A part's chunk could not be fetched or started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkError;

#[cfg(feature = "wasm-split")]
impl From<leptos::wasm_split::SplitLoaderError> for ChunkError {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        ChunkError
    }
}

/// What builds a part's view: its code is in the part's chunk, and it is
/// called in a task of its own once the chunk is here, so parts arriving
/// together do not make one long task of their drawing.
pub type Build = Box<dyn FnOnce() -> AnyView + Send>;

/// What a part gives: its view's builder, or why it could not arrive.
pub type Arrival = Result<Build, ChunkError>;

/// Pauses before fetching a chunk again, in milliseconds: a brief network
/// hiccup is ridden out, a lasting failure is said within seconds.
const RETRY_PAUSES_MS: [u32; 2] = [400, 1_600];

/// Declares a part of the page in the chunk `$chunk`: a function whose body
/// is any value (for a view, its `Build`er). Called through [`arrive!`].
macro_rules! part {
    ($(#[$doc:meta])* $chunk:ident: fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $out:ty $body:block) => {
        $(#[$doc])*
        #[cfg_attr(
            feature = "wasm-split",
            ::leptos::wasm_split::wasm_split($chunk, wasm_split_path = ::leptos::wasm_split, fallible)
        )]
        #[allow(improper_ctypes_definitions)]
        fn $name($($arg: $ty),*) -> Result<$out, $crate::ui::deferred::ChunkError> {
            Ok($body)
        }
    };
}
pub(crate) use part;

/// A future of a part's value: fetches its chunk first in a split build. The
/// arguments are taken when this is written, so a closure around it stays `Fn`.
macro_rules! arrive {
    ($name:ident($($arg:expr),* $(,)?)) => {{
        #[cfg(feature = "wasm-split")]
        let arriving = $name($($arg),*);
        #[cfg(not(feature = "wasm-split"))]
        let arriving = ::std::future::ready($name($($arg),*));
        arriving
    }};
}
pub(crate) use arrive;

/// Calls a part, fetching its chunk again after a pause when it fails, up to
/// the pauses there are. `first`: the outcome of a first call already made.
pub async fn with_retries<T, Fut>(
    call: impl Fn() -> Fut,
    first: Option<Result<T, ChunkError>>,
) -> Result<T, ChunkError>
where
    Fut: Future<Output = Result<T, ChunkError>>,
{
    let mut result = match first {
        Some(result) => result,
        None => call().await,
    };
    for pause in RETRY_PAUSES_MS {
        if result.is_ok() {
            break;
        }
        gloo_timers::future::TimeoutFuture::new(pause).await;
        result = call().await;
    }
    result
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Arriving,
    Here,
    Failed,
}

/// The page's parts still on their way. A part placed while the page starts
/// is fetched once the first screen is ready, so its download never holds
/// that back; the page is settled (`body[data-settled]`) when every part
/// placed by then has arrived or said it could not.
#[derive(Clone, Copy)]
pub struct Arrivals {
    ready: RwSignal<bool>,
    pending: RwSignal<usize>,
}

impl Arrivals {
    /// Gives the page's parts their tally (the page itself, not tests).
    pub fn provide() -> Self {
        let arrivals = Arrivals {
            ready: RwSignal::new(false),
            pending: RwSignal::new(0),
        };
        provide_context(arrivals);
        arrivals
    }

    /// The first screen is ready: the parts waiting for it are fetched now.
    pub fn mark_ready(self) {
        self.ready.set(true);
    }

    /// Ready, and no part placed is still on its way.
    pub fn settled(self) -> bool {
        self.ready.get() && self.pending.get() == 0
    }
}

/// Draws a part where this stands: at once when the Wasm is whole; in a split
/// build once its chunk has arrived (nothing stands here until then), or, when
/// it cannot arrive, a message that says so and a button to try again.
/// `load` builds the part each time it is called (see [`arrive!`]).
pub fn deferred<Fut>(
    ctl: super::Controller,
    load: impl Fn() -> Fut + Copy + Send + Sync + 'static,
) -> impl IntoView
where
    Fut: Future<Output = Arrival> + 'static,
{
    let state = RwSignal::new(State::Arriving);
    let view = StoredValue::new_local(None::<AnyView>);
    // Counted in the page's tally until it first arrives or fails.
    let counted = StoredValue::new(None::<Arrivals>);
    let uncount = move || {
        if let Some(arrivals) = counted.try_update_value(Option::take).flatten() {
            arrivals.pending.try_update(|n| *n = n.saturating_sub(1));
        }
    };
    // The part's own owner: a fetch may begin in an effect (the page became
    // ready, another part arrived), whose owner is not the part's.
    let owner = StoredValue::new(Owner::current().unwrap_or_default());
    let fetch = move |first: Option<Arrival>| {
        state.set(State::Arriving);
        // The view is built under this part's owner, and reads no signal on
        // behalf of whatever was running when the fetch began.
        let arriving = async move {
            let result = with_retries(load, first).await;
            // Drawn in a task of its own (see `Build`), in the order arrived.
            if result.is_ok() {
                super::startup::next_task().await;
            }
            if view.is_disposed() {
                return;
            }
            match result {
                Ok(build) => {
                    view.set_value(Some(build()));
                    state.set(State::Here);
                    arrivals_seen().update(|n| *n += 1);
                }
                Err(ChunkError) => state.set(State::Failed),
            }
            uncount();
        };
        let Some(arriving) = owner.try_with_value(|owner| {
            owner.with(|| leptos::reactive::computed::ScopedFuture::new_untracked(arriving))
        }) else {
            return;
        };
        leptos::task::spawn_local(arriving);
    };
    // A first call already made, that failed (only where nothing is fetched).
    #[cfg_attr(feature = "wasm-split", allow(unused_mut))]
    let mut first_call = None;
    #[cfg(not(feature = "wasm-split"))]
    {
        use futures::FutureExt;
        // Nothing to fetch: the part is drawn in the same task as its place.
        match load().now_or_never() {
            Some(Ok(build)) => {
                view.set_value(Some(build()));
                state.set(State::Here);
            }
            failed => first_call = failed,
        }
    }
    // The network is back for one part: the others that failed try again.
    Effect::new(move |seen: Option<u64>| {
        let now = arrivals_seen().get();
        if seen.is_some_and(|seen| seen != now) && state.get_untracked() == State::Failed {
            fetch(None);
        }
        now
    });
    if state.get_untracked() == State::Arriving {
        match use_context::<Arrivals>() {
            Some(arrivals) if !arrivals.ready.get_untracked() => {
                counted.set_value(Some(arrivals));
                arrivals.pending.update(|n| *n += 1);
                on_cleanup(uncount);
                Effect::new(move |fetched: Option<bool>| {
                    if fetched == Some(true) {
                        return true;
                    }
                    let ready = arrivals.ready.get();
                    if ready {
                        fetch(None);
                    }
                    ready
                });
            }
            _ => fetch(first_call),
        }
    }
    move || match state.get() {
        State::Arriving => None,
        State::Here => view.try_update_value(Option::take).flatten(),
        State::Failed => Some(not_arrived(ctl, move || fetch(None)).into_any()),
    }
}

thread_local! {
    /// Counts the parts that arrived, on the whole page. Reference-counted:
    /// owned by no part, so no part's end disposes of it.
    static ARRIVALS_SEEN: ArcRwSignal<u64> = ArcRwSignal::new(0);
}

fn arrivals_seen() -> ArcRwSignal<u64> {
    ARRIVALS_SEEN.with(ArcRwSignal::clone)
}

/// Said in place of a part that could not arrive.
fn not_arrived(
    ctl: super::Controller,
    retry: impl Fn() + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    view! {
        <div class="part-failed" role="alert" data-testid="part-failed">
            <p>{move || texts().part_failed}</p>
            <button on:click=move |_| retry()>{move || texts().try_again}</button>
        </div>
    }
}
