//! The Leptos page: renders the lab's state and turns clicks into actions.
//! No business rule lives here; it all sits in `core` and `lab`.

mod below;
mod callers_view;
mod chart_view;
mod choice;
mod controller;
mod deferred;
mod drawer;
mod drawers;
mod embed_dialog;
mod embed_measure;
mod explorer_engine;
mod explorer_view;
mod handout_picture;
mod handout_view;
mod host;
mod invariant_view;
mod newest_result;
mod page_env;
mod queue_view;
mod request_form;
mod retry_view;
mod safety_table_view;
mod session_read;
mod session_save;
mod share_view;
#[cfg(not(feature = "no-stage"))]
mod stage_promises;
#[cfg(not(feature = "no-stage"))]
mod stage_view;
mod startup;
mod storage_view;
mod store_view;
mod teacher;
mod teacher_view;
mod time_bar;
mod timeline_view;
mod walk;
mod walk_keys;
mod walk_overview;
mod walk_play;
mod walk_view;
mod world_view;

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::i18n::Lang;
use crate::lab::{to_link_token, Lab};
use crate::walkthrough::Panel;

pub use controller::{Controller, Notice, Replacement, Speed, WalkNotice};
pub use deferred::{deferred, Arrival, Build, ChunkError};
pub use startup::{later, StartUp};
pub use walk::Walk;

use below::{below, Below};
use chart_view::ChartView;
use deferred::Arrivals;
use drawer::ShowAllSettings;
use invariant_view::InvariantView;
use request_form::RequestForm;
use session_read::AtStart;
#[cfg(not(feature = "no-stage"))]
use stage_view::StageView;
use startup::next_task;
use time_bar::TimeBar;
use timeline_view::TimelineView;
use walk_view::{walk_panel_later, ChallengeBanner};
use world_view::WorldView;

/// The account the chart follows before anything was sent.
const DEFAULT_ACCOUNT: &str = "account-7";

/// The page is mounted after the header in this many stages, a short task
/// each: the panels' frame, then the panels in the order a phone shows them
/// and each column of a wider screen too (the time drawer and the timeline
/// together), so a panel arriving never pushes one already drawn (see `App`'s
/// `restore`).
const PANELS: u8 = 10;
/// How long after the lab is ready its offline copy starts to fill.
const OFFLINE_AFTER_MS: u32 = 1_500;

/// Mounts the lab on the page's body, in place of index.html's first paint.
pub fn start() {
    console_error_panic_hook::set_once();
    // Not in the task that instantiated the Wasm: that one is long enough.
    // (Leptos's own executor starts with the mount.)
    wasm_bindgen_futures::spawn_local(async {
        next_task().await;
        // The lab the page starts from, built a task ahead of the mount.
        let lab = Lab::default();
        next_task().await;
        // Chosen by index.html's boot script before the first paint.
        let lang = page_env::initial_lang();
        // Only this language's words: the boot script started their fetch.
        let installed = match page_env::language_texts(lang).await {
            Ok(json) => crate::i18n::install(lang, &json).map_err(|e| e.to_string()),
            Err(e) => Err(e),
        };
        if let Err(reason) = installed {
            page_env::show_boot_failure(&reason);
            return;
        }
        let embed = page_env::is_embed();
        leptos::mount::mount_to_body(
            move || view! { <App lang=lang embed=embed restore=true lab=lab /> },
        );
        // Same task: the app's header and steps stand where the frame's were,
        // and the browser paints only the app's.
        page_env::remove_boot_frame();
    });
}

/// The session saved before the reload (none if nothing was saved or it could
/// not be read), what to tell about it, and the permalink's session if the
/// address has one: it replaces the saved one the way a link opened later does,
/// so the saved one can be brought back. A link that cannot be opened is
/// reported, never silently dropped.
fn restore_session(found: AtStart) -> (Option<Lab>, Option<Notice>, Option<Lab>) {
    let (saved, notice) = match found.saved {
        None => (None, None),
        Some(Ok(lab)) => (Some(lab), None),
        Some(Err(error)) => (None, Some(Notice::Saved(error))),
    };
    match found.linked {
        None => (saved, notice, None),
        Some(Ok(lab)) => (saved, notice, Some(lab)),
        // A bad link is reported; the saved session stays as it was.
        Some(Err(error)) => (saved, Some(Notice::Link(error)), None),
    }
}

/// The lab page. `restore` makes it the page itself: it starts in short tasks
/// (the header and steps first, then the saved session or permalink, then the
/// panels' frame and the panels stage by stage, a heavier panel's lower part a
/// task after it, see `startup`; then `data-ready`), and keeps the session
/// across reloads.
/// Tests mount it without, whole and at once, on a clean slate.
#[component]
pub fn App(
    lang: Lang,
    #[prop(optional)] embed: bool,
    #[prop(optional)] restore: bool,
    /// A lab to start from instead of a new one: the page's, built a task
    /// ahead (a saved session may replace it), or a test's.
    #[prop(optional)]
    lab: Option<Lab>,
    /// The walkthrough's files, already read, to open it at its first step
    /// (tests); the page fetches them when the walkthrough opens.
    #[prop(optional)]
    walkthrough: Option<crate::walkthrough::Content>,
) -> impl IntoView {
    let ctl = Controller::new(lang, lab.unwrap_or_default());
    if page_env::settings_open() {
        ctl.drawers.set_all(true);
    }
    // The promises panel and the walkthrough ask the timeline to bring an
    // attempt's row into view.
    let reveal = RwSignal::new(None::<crate::lab::AttemptId>);
    let walk = Walk::new(ctl, reveal);
    // Shared by the explorer's panel and the safety table.
    let explorer = explorer_engine::ExplorerShared::new();
    let teacher = teacher::Teacher::new(ctl, walk);
    if let Some(content) = walkthrough {
        walk.preload(lang, content);
        walk.start();
    }
    // How far the start-up has come: 0 is the header alone (see `PANELS`).
    let stage = RwSignal::new(if restore { 0 } else { PANELS });
    let mounted = move |panel: u8| move || stage.get() >= panel;
    // The sandbox's columns, read once: the panels arrive in their order.
    let columns = page_env::sandbox_in_columns();
    if restore {
        let arrivals = Arrivals::provide();
        Effect::new(move |was: Option<bool>| {
            let settled = was == Some(true) || arrivals.settled();
            if settled && was != Some(true) {
                page_env::mark_settled();
            }
            settled
        });
        let owner = Owner::current();
        spawn_local(async move {
            next_task().await;
            let found = session_read::at_start().await;
            let Some(owner) = owner else { return };
            owner.with(|| {
                restore_page(ctl, walk, found);
                if !embed {
                    open_teachers(teacher);
                }
                host::follow_host(ctl, walk);
                StartUp::run(stage, PANELS, move || {
                    page_env::mark_ready();
                    host::tell_ready();
                    arrivals.mark_ready();
                    // The offline copy fills once the lab is ready and idle.
                    if !embed {
                        spawn_local(async {
                            TimeoutFuture::new(OFFLINE_AFTER_MS).await;
                            page_env::keep_offline_copy();
                        });
                    }
                });
                // A newer build kept for offline use waits for the person.
                let listener = window_event_listener_untyped(page_env::UPDATE_READY, move |_| {
                    ctl.notice.set(Some(Notice::UpdateReady));
                });
                on_cleanup(move || listener.remove());
            });
        });
    }
    Effect::new(move |_| page_env::apply_lang(ctl.lang.get()));
    // The walkthrough's words follow the page's language.
    Effect::new(move |_| {
        let lang = ctl.lang.get();
        if walk.open.get_untracked() || walk.challenge.get_untracked().is_some() {
            walk.ensure_loaded(lang);
        }
    });
    Effect::new(move |_| page_env::mark_presenter(walk.presenter.get()));
    // Presenter mode is in the address while the walkthrough shows it.
    Effect::new(move |first: Option<()>| {
        let on = walk.open.get() && walk.presenter.get();
        // A deep link's own `presenter=1` stays until the walkthrough opens.
        if first.is_some() || on {
            page_env::remember_presenter(on);
        }
    });
    Effect::new(move |_| page_env::mark_walking(walk.open.get()));
    // An embedded lesson is drawn once its walkthrough opens, or once a
    // notice says why it cannot (an unknown step, files that did not load).
    if page_env::lesson_starting() {
        Effect::new(move |done: Option<bool>| {
            if done == Some(true) {
                return true;
            }
            let drawn = walk.open.get() || ctl.notice.with(Option::is_some);
            if drawn {
                page_env::lesson_drawn();
                host::lesson_drawn();
            }
            drawn
        });
    }
    let texts = move || ctl.lang.get().texts();
    // The chart follows the account of the newest attempt.
    let chart_account = Signal::derive(move || {
        ctl.lab.with(|lab| {
            crate::lab::chart_account(lab.state().timeline())
                .unwrap_or(DEFAULT_ACCOUNT)
                .to_string()
        })
    });
    let notice = move || {
        ctl.notice.get().map(|notice| {
            let t = texts();
            let text = match &notice {
                Notice::Lab(error) => t.lab_error(error),
                Notice::FixFields => t.fix_fields.to_string(),
                Notice::Link(error) => format!("{} {}", t.link_failed, t.session_error(error)),
                Notice::Import(error) => {
                    format!("{} {}", t.import_failed, t.session_error(error))
                }
                Notice::Imported(actions) => t.imported(*actions),
                Notice::Saved(error) => format!("{} {}", t.saved_failed, t.session_error(error)),
                Notice::NotKept => t.not_kept.to_string(),
                Notice::NotKeptFramed => t.not_kept_framed.to_string(),
                Notice::Setting(label, error) => format!("{label}: {}", t.field_error(*error)),
                Notice::Replaced(Replacement::Reset) => t.reset_done.to_string(),
                Notice::Replaced(Replacement::Link) => t.link_opened.to_string(),
                Notice::Replaced(Replacement::Import(actions)) => {
                    t.imported(*actions)
                }
                Notice::Replaced(Replacement::Fork) => ctl.lang.get().walk().forked.to_string(),
                Notice::Replaced(Replacement::Challenge) => {
                    ctl.lang.get().walk().challenge_started.to_string()
                }
                Notice::Replaced(Replacement::Explorer) => t.explorer.opened.to_string(),
                Notice::Replaced(Replacement::Teacher) => t.teacher.editing.to_string(),
                Notice::Teacher { text, .. } => text.clone(),
                Notice::BroughtBack => t.brought_back.to_string(),
                Notice::OtherTab => t.other_tab.to_string(),
                Notice::UpdateReady => t.update_ready.to_string(),
                Notice::ClockStopped => t.clock_stopped.to_string(),
                Notice::StressRunning(p) => t.stress_refused(p.answered, p.total),
                Notice::Walk(notice) => walk_notice(ctl.lang.get(), notice),
                Notice::Language(lang, reason) => t.language_failed(*lang, reason),
                Notice::PopupBlocked => t.popup_blocked.to_string(),
                Notice::SessionsUnread => t.sessions_unread.to_string(),
                Notice::LinkUnread => format!("{} {}", t.link_failed, t.part_failed),
            };
            let error = notice.is_error();
            let replaced = matches!(notice, Notice::Replaced(_)) && ctl.can_bring_back();
            let update = matches!(notice, Notice::UpdateReady);
            // Floats over the page's foot: a message never moves a control, so a
            // second click lands where the first one did; on a phone it is seen
            // wherever the page is scrolled.
            view! {
                <div
                    class="notice"
                    class:info=!error
                    role=if error { "alert" } else { "status" }
                    data-testid="notice"
                >
                    <p>{text}</p>
                    <div class="notice-actions">
                        {update.then(|| view! {
                            <button data-testid="take-update" on:click=move |_| page_env::take_update()>
                                {t.update_now}
                            </button>
                        })}
                        {replaced
                            .then(|| {
                                view! {
                                    <button data-testid="bring-back" on:click=move |_| ctl.bring_back()>
                                        {t.bring_back}
                                    </button>
                                }
                            })}
                        <button data-testid="dismiss" on:click=move |_| ctl.notice.set(None)>
                            {t.dismiss}
                        </button>
                    </div>
                </div>
            }
        })
    };
    let reset = move |_| {
        page_env::forget_link();
        ctl.reset();
    };

    view! {
        <header class="top">
            <div class="brand">
                <h1>{move || texts().title}</h1>
                {(!embed).then(|| view! { <p class="tagline">{move || texts().tagline}</p> })}
            </div>
            <div class="top-actions">
                {embed.then(|| view! { <OpenFullLab ctl=ctl walk=walk /> })}
                {move || {
                    (!walk.open.get())
                        .then(|| {
                            view! {
                                <button class="open-walk" on:click=move |_| walk.start()>
                                    {move || ctl.lang.get().walk().open}
                                </button>
                            }
                        })
                }}
                <LanguageSwitch ctl=ctl />
                {move || {
                    (!walk.open.get())
                        .then(|| {
                            view! { <button class="reset" on:click=reset>{move || texts().reset}</button> }
                        })
                }}
            </div>
        </header>
        <main class="lab">
            // An embedded lesson's box until the lesson is drawn (style/main.css).
            {embed.then(|| view! { <p class="lesson-loading" role="status">{move || texts().boot_loading}</p> })}
            // The how-to steps aside for a walkthrough and for a challenge,
            // which say what to do themselves.
            {move || (!embed && !walk.open.get() && walk.challenge.get().is_none()).then(|| view! {
                <ol class="how-to">
                    {move || {
                        let t = texts();
                        t.how_to()
                            .iter()
                            .enumerate()
                            .map(|(i, step)| {
                                view! {
                                    <li>
                                        {*step}
                                        " "
                                        <button class="do-step" data-testid=format!("do-step-{}", i + 1) on:click=move |_| do_story_step(ctl, i + 1)>
                                            {t.how_to_do(i + 1)}
                                        </button>
                                    </li>
                                }
                            })
                            .collect_view()
                    }}
                </ol>
            })}
            // The rest of the page: the panels' frame first, in a task of its own.
            <Show when=mounted(1)>
            // The walkthrough's two parts, the stage and the panels:
            // style/main.css lays them out for the sandbox, the walkthrough
            // (one screen) and a phone.
            <ChallengeBanner walk=walk />
            <div class="lab-area">
            {move || walk.open.get().then(|| walk_panel_later(walk))}
            <Show when=mounted(3)>{stage_panel(ctl, reveal, walk)}</Show>
            // In the walkthrough these panels scroll inside their own region,
            // which the keyboard can reach and scroll.
            <div
                class="columns"
                // A step that needs no panel beside the stage leaves the stage alone.
                hidden=move || walk.open.get() && Panel::ALL.iter().all(|p| !walk.shows(*p))
                tabindex=move || walk.open.get().then_some("0")
                role=move || walk.open.get().then_some("region")
                aria-label=move || walk.open.get().then(|| ctl.lang.get().walk().panels)
            >
                // Panels that only grow (the store's receipts) come after the ones
                // with controls, so a growing table never moves a button. While
                // the walkthrough runs, the lab shows its script and these
                // controls rest ("Try it yourself" hands them over); the promises,
                // chart and timeline stay readable and browsable.
                // Mounted stage by stage in the order a phone shows them
                // (style/main.css), which keeps each column's order too: a
                // panel arriving never pushes one already drawn.
                // In the sandbox the timeline has the stage's column to itself,
                // and the promises and the chart stand under the settings (the
                // stage shows the promises too); in the walkthrough they go
                // with the timeline (see `readings`).
                // The sandbox's own controls are out of the way while walking
                // (until "Show everything"): the script drives the lab.
                <div
                    class="column"
                    hidden=move || walk.open.get() && !walk.everything.get()
                    inert=move || walk.open.get()
                    role=move || (!walk.open.get()).then_some("region")
                    aria-label=move || (!walk.open.get()).then(|| texts().request_and_settings)
                >
                    <Show when=mounted(2)><RequestForm ctl=ctl /></Show>
                    <Show when=mounted(5)>
                        <div class="settings-switch"><ShowAllSettings ctl=ctl /></div>
                        <WorldView ctl=ctl />
                    </Show>
                    <Show when=mounted(6)>{below(walk, Below::Storage)}</Show>
                    <Show when=mounted(7)>{below(walk, Below::Callers)}</Show>
                    <Show when=mounted(8)>{below(walk, Below::Queue)}</Show>
                    <Show when=mounted(9)>{below(walk, Below::Share)}</Show>
                    {move || (!walk.open.get()).then(|| sandbox_readings(walk, reveal, chart_account, stage, columns))}
                    <Show when=mounted(10)>
                        {below(walk, Below::Explorer(explorer))}
                        {(!embed).then(|| below(walk, Below::Teacher(StoredValue::new(teacher))))}
                        {below(walk, Below::Store)}
                    </Show>
                </div>
                // Drawn with the stage above it, so its box never moves down
                // when the stage arrives.
                <Show when=mounted(3)>
                <div class="column wide">
                    {move || walk.open.get().then(|| readings(ctl, walk, reveal, chart_account, stage, false))}
                    <Show when=mounted(5)>
                        <PanelSlot walk=walk panel=Panel::Timeline><TimelineView ctl=ctl reveal=reveal /></PanelSlot>
                    </Show>
                </div>
                </Show>
            </div>
            </div>
            </Show>
        </main>
        // The dialog says it did not arrive only once it is asked for.
        {(!embed).then(|| view! {
            <div class="embed-slot" class:asked=move || ctl.embedding.get()>
                {below(walk, Below::EmbedDialog)}
            </div>
        })}
        {notice}
        // Shown only when printed (see `style/main.css`).
        <handout_view::HandoutSheet walk=walk />
    }
}

/// The promises and the chart in the sandbox. In its columns they stand
/// under the panels that arrive in a chunk of a split build, so they arrive
/// with them, in their order, and never push one down (see `below`).
fn sandbox_readings(
    walk: Walk,
    reveal: RwSignal<Option<crate::lab::AttemptId>>,
    account: Signal<String>,
    started: RwSignal<u8>,
    in_columns: bool,
) -> AnyView {
    if in_columns {
        below(
            walk,
            Below::Readings {
                reveal,
                account,
                started,
            },
        )
        .into_any()
    } else {
        readings(walk.ctl, walk, reveal, account, started, false).into_any()
    }
}

/// The promises and the chart: in the sandbox's column under the settings,
/// where their growing moves no control; above the timeline in the
/// walkthrough. The promises come first, named by the timeline's rows.
/// `in_columns`: the sandbox is laid out in columns (not a phone's one), so
/// they arrive in that column's order, with the share panel above them.
fn readings(
    ctl: Controller,
    walk: Walk,
    reveal: RwSignal<Option<crate::lab::AttemptId>>,
    account: Signal<String>,
    started: RwSignal<u8>,
    in_columns: bool,
) -> impl IntoView {
    let (promises_at, chart_at) = if in_columns { (9, 9) } else { (3, 4) };
    let mounted = move |panel: u8| move || started.get() >= panel;
    view! {
        <Show when=mounted(promises_at)>
            <PanelSlot walk=walk panel=Panel::Promises><InvariantView ctl=ctl reveal=reveal /></PanelSlot>
        </Show>
        <Show when=mounted(chart_at)>
            <PanelSlot walk=walk panel=Panel::Chart><ChartView ctl=ctl account=account /></PanelSlot>
        </Show>
    }
}

/// A panel beside the stage, out of the way in a walkthrough step that does
/// not need it (until "Show everything"). It adds no box of its own.
#[component]
fn PanelSlot(walk: Walk, panel: Panel, children: Children) -> impl IntoView {
    view! {
        <div class="panel-slot" data-panel=panel.code() hidden=move || !walk.shows(panel)>
            {children()}
        </div>
    }
}

/// The world drawn as one picture, with its time. While the walkthrough runs,
/// its pace drives the clock and the time's controls rest.
#[cfg(not(feature = "no-stage"))]
fn stage_panel(
    ctl: Controller,
    reveal: RwSignal<Option<crate::lab::AttemptId>>,
    walk: Walk,
) -> impl IntoView {
    let playing = walk.playing_until();
    view! {
        <StageView ctl=ctl reveal=reveal>
            <TimeBar ctl=ctl resting=walk.open playing=playing />
        </StageView>
    }
}

/// The benchmark's build without the stage, to measure the bytes it adds: the
/// world's time alone.
#[cfg(feature = "no-stage")]
fn stage_panel(
    ctl: Controller,
    _: RwSignal<Option<crate::lab::AttemptId>>,
    walk: Walk,
) -> impl IntoView {
    let playing = walk.playing_until();
    view! { <section class="panel stage"><TimeBar ctl=ctl resting=walk.open playing=playing /></section> }
}

/// Carries out one of the article's four steps above the sandbox. The first
/// starts from a fresh lab, so the numbers come out as the article writes them;
/// work already done can be brought back from the notice that says so.
fn do_story_step(ctl: Controller, step: usize) {
    let Some(actions) = crate::lab::story_step(step) else {
        return;
    };
    let fresh = step == 1
        && ctl
            .lab
            .with_untracked(|lab| !lab.history().actions.is_empty());
    if fresh {
        page_env::forget_link();
        ctl.reset();
    }
    let said = ctl.notice.get_untracked();
    for action in actions {
        if !ctl.dispatch(action) {
            return;
        }
    }
    // Sending clears the notices of earlier actions; the reset's stays, with
    // its way back.
    if fresh {
        ctl.notice.set(said);
    }
}

/// The page's own session, after the first paint: the one saved before the
/// reload, or the permalink's; a walkthrough deep link; then it keeps the
/// session saved and hears links pasted and other tabs' saves. Runs inside the
/// `App`'s owner, so its effects and listeners end with the page.
fn restore_page(ctl: Controller, walk: Walk, found: Result<AtStart, ChunkError>) {
    // What was saved, or the link, could not be read (the chunk that reads
    // them did not arrive): both stay as they are for a reload, and nothing
    // done here is saved over them.
    let keep = found.is_ok();
    let (saved, notice, linked) = match found {
        Ok(found) => restore_session(found),
        Err(ChunkError) => (None, Some(Notice::SessionsUnread), None),
    };
    // The page started with a new lab: it stays when nothing was saved.
    if let Some(saved) = saved {
        ctl.show(saved);
    }
    ctl.notice.set(notice);
    // A link's session must be saved at once, even an empty one: the link has
    // left the address.
    let from_link = linked.is_some();
    if let Some(lab) = linked {
        ctl.load(lab, Replacement::Link);
    }
    walk.persist();
    // A deep link into the walkthrough (`?scenario=s3&step=2`); embedded, a
    // lesson of that scenario alone.
    if let Some((id, mut step)) = page_env::walk_link() {
        if page_env::is_embed() {
            walk.make_lesson();
            // The step the reader was at before a reload, not the address's.
            step = page_env::lesson_place(&id).or(step);
            Effect::new(move |_| {
                if let (true, Some((scenario, step))) = (walk.open.get(), walk.place()) {
                    page_env::save_lesson_place(&scenario, step);
                }
            });
        }
        walk.start_from_link(id, step);
    }
    ctl.pump();
    if keep {
        session_save::keep_saved(ctl, walk, from_link);
    }
    // A permalink pasted into this tab changes only the address's fragment, so
    // the page does not reload: open its session here, as a fresh load would.
    let listener = window_event_listener(leptos::ev::hashchange, move |_| {
        let Some(token) = page_env::link_token() else {
            return;
        };
        spawn_local(async move {
            match session_read::link(token).await {
                // The link's lab goes to the sandbox: the walkthrough steps aside first.
                Ok(Ok(lab)) => {
                    if walk.open.get_untracked() {
                        walk.close();
                    }
                    ctl.load(lab, Replacement::Link)
                }
                Ok(Err(error)) => ctl.notice.set(Some(Notice::Link(error))),
                Err(ChunkError) => ctl.notice.set(Some(Notice::LinkUnread)),
            }
        });
    });
    on_cleanup(move || listener.remove());
    // Another tab saving under this lab's key: said once, since each tab keeps
    // its own session on reload but a new tab opens whichever was saved last.
    let told_other_tab = StoredValue::new(false);
    let stop = page_env::on_other_tab_save(move || {
        if !told_other_tab.get_value() && ctl.notice.with_untracked(Option::is_none) {
            told_other_tab.set_value(true);
            ctl.notice.set(Some(Notice::OtherTab));
        }
    });
    on_cleanup(stop);
}

/// The teacher's scenarios this browser keeps, and the one a `#teach=` link
/// opens (at start, or pasted into this tab later): kept, then played.
fn open_teachers(teacher: teacher::Teacher) {
    teacher.start_up();
    let listener = window_event_listener(leptos::ev::hashchange, move |_| {
        if let Some(token) = page_env::teach_token() {
            teacher.open_link(token);
        }
    });
    on_cleanup(move || listener.remove());
}

/// In an iframe: a way out to the full page, carrying the current state along:
/// the lab's, or the walkthrough's place in it (the address says which step).
#[component]
fn OpenFullLab(ctl: Controller, walk: Walk) -> impl IntoView {
    let href = move || {
        let lang = ctl.lang.get();
        if walk.open.get() {
            let place = walk.place();
            let place = place.as_ref().map(|(id, step)| (id.as_str(), *step));
            return page_env::full_page(lang, place).unwrap_or_default();
        }
        let token = ctl.lab.with(|lab| to_link_token(lab.history()));
        page_env::permalink(&token, lang).unwrap_or_default()
    };
    view! {
        <a class="open-full" href=href target="_blank" rel="noopener" on:click=new_tab_click(ctl)>
            {move || ctl.lang.get().texts().open_full}
            " ↗"
        </a>
    }
}

/// A link's click that opens its new tab itself, so a tab the browser
/// refuses (a frame sandboxed without `allow-popups` refuses it silently) is
/// said. A click with a modifier, or not the main button, is the browser's.
pub(super) fn new_tab_click(ctl: Controller) -> impl Fn(leptos::ev::MouseEvent) + Copy {
    move |ev| {
        if ev.button() != 0 || ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.alt_key() {
            return;
        }
        let Some(href) = ev
            .current_target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlAnchorElement>(t).ok())
            .map(|a| a.href())
        else {
            return;
        };
        ev.prevent_default();
        if !page_env::open_in_new_tab(&href) {
            ctl.notice.set(Some(Notice::PopupBlocked));
        }
    }
}

#[component]
fn LanguageSwitch(ctl: Controller) -> impl IntoView {
    view! {
        <div class="lang-switch" role="group" aria-label=move || ctl.lang.get().texts().language>
            {Lang::ALL
                .into_iter()
                .map(|lang| {
                    view! {
                        <button
                            lang=lang.tag()
                            aria-pressed=move || (ctl.lang.get() == lang).to_string()
                            on:click=move |_| switch_language(ctl, lang)
                        >
                            {lang.name()}
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}

/// Shows the page in `lang`, reading its texts first if the page has not yet:
/// only the first language comes with the page.
pub(super) fn switch_language(ctl: Controller, lang: Lang) {
    with_language(ctl, lang, move || {
        ctl.lang.set(lang);
        page_env::remember_lang_in_url(lang);
    });
}

/// Runs `then` once `lang`'s texts are here, reading them first if the page
/// has not yet; a language that cannot be read is said, and `then` not run.
pub(super) fn with_language(ctl: Controller, lang: Lang, then: impl FnOnce() + 'static) {
    let switch = then;
    if crate::i18n::is_installed(lang) {
        return switch();
    }
    leptos::task::spawn_local(async move {
        let installed = match page_env::language_texts(lang).await {
            Ok(json) => crate::i18n::install(lang, &json).map_err(|e| e.to_string()),
            Err(e) => Err(e),
        };
        match installed {
            Ok(()) => switch(),
            Err(reason) => ctl.notice.set(Some(Notice::Language(lang, reason))),
        }
    });
}

fn walk_notice(lang: Lang, notice: &WalkNotice) -> String {
    let t = lang.walk();
    match notice {
        WalkNotice::UnknownScenario { id, scenarios } => t.unknown_scenario(id, *scenarios),
        WalkNotice::UnknownStep { id, step, steps } => t.unknown_step(id, step, *steps),
        WalkNotice::LoadFailed(message) => format!("{} {message}", t.load_failed),
        WalkNotice::ProgressImported => t.progress_imported.to_string(),
        WalkNotice::ProgressFailed(error) => t.progress_failed(error),
    }
}
