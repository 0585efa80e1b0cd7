//! The stage: the world drawn as one picture, read from the lab's `Stage` (a
//! fold of the world's log at the world's time). Callers stand at the start of
//! each process's lane, the process at its end; tokens travel the lanes. The
//! layout uses logical sides only, so a right-to-left page mirrors the flow.

use leptos::prelude::*;

use crate::core::PointWorker;
use crate::lab::{
    visible, Action, AttemptId, CallerMark, Decimal, Hop, Lane, ProcessNumber, ProcessState, Stage,
    StageCaller, StagePart, StageProcess, StoreTables, Token, TokenKind, MAX_TOKENS_PER_LANE,
};

use super::controller::{Controller, Speed};
use super::drawer::OpenSettings;
use super::drawers::DrawerId;
use super::stage_promises::StagePromises;

/// The glyph drawn for each kind of token (its name is in the legend and its
/// label).
fn token_glyph(kind: TokenKind) -> &'static str {
    match kind {
        TokenKind::Request => "●",
        TokenKind::Ack => "✓",
        TokenKind::LostAck => "✕",
        TokenKind::Redelivery => "◆",
        TokenKind::Email => "✉",
    }
}

#[component]
pub fn StageView(
    ctl: Controller,
    reveal: RwSignal<Option<AttemptId>>,
    /// What stands in the stage's head beside its title: the world's time.
    children: Children,
) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let stage = Memo::new(move |_| ctl.lab.with(|lab| lab.state().stage()));
    let description = Memo::new(move |_| stage.with(|s| texts().stage.describe(s)));
    // What set out, came back or was lost since the last drawing, kept until
    // something new begins: the live region is told each journey once.
    let travel = Memo::new(move |before: Option<&(Vec<Token>, String)>| {
        let now = stage.with(|s| s.tokens.clone());
        let was = before
            .map(|(tokens, _)| tokens.as_slice())
            .unwrap_or_default();
        let news = texts().stage.travel_news(was, &now);
        let kept = match (news.is_empty(), before) {
            (true, Some((_, said))) => said.clone(),
            _ => news,
        };
        (now, kept)
    });
    let travel_news = Memo::new(move |_| travel.with(|(_, said)| said.clone()));
    // Held still while the clock is stopped; moving only while it runs.
    let frozen = move || ctl.speed.get() == Speed::Paused && !ctl.skipping.get();
    let callers = Memo::new(move |_| stage.with(|s| (s.callers.clone(), s.more_waiting)));
    let deadline = Memo::new(move |_| stage.with(|s| s.caller_timeout));
    let read = Memo::new(move |_| stage.with(|s| s.read.clone()));
    let processes = Memo::new(move |_| stage.with(|s| s.processes.clone()));

    view! {
        <section
            class="panel stage"
            class:frozen=frozen
            data-testid="stage"
            aria-labelledby="stage-title"
            aria-describedby="stage-description"
        >
            <div class="stage-head">
                <div class="stage-name">
                    <h2 id="stage-title" class="stage-title">{move || texts().stage.title}</h2>
                    // How long each caller waits: beside the title, on a line
                    // the title leaves free, so it costs the picture no height.
                    <p
                        class="stage-deadline"
                        data-testid="stage-deadline"
                        data-marked=move || ctl.marked(&StagePart::Callers).then_some("true")
                    >
                        {move || texts().stage.deadline(deadline.get())}
                    </p>
                </div>
                {children()}
            </div>
            <div class="stage-body">
                <div
                    class="stage-callers"
                    role="group"
                    aria-label=move || texts().stage.callers
                    data-marked=move || ctl.marked(&StagePart::Callers).then_some("true")
                >
                    <p class="stage-part-title">
                        <span class="part-name">{move || texts().stage.callers}</span>
                        <OpenSettings ctl=ctl id=DrawerId::Callers />
                    </p>
                    {move || read.get().map(|r| view! {
                        <p
                            class="stage-read"
                            data-testid="stage-read"
                            data-account=r.account_id.clone()
                            data-marked=move || ctl.marked(&StagePart::Read).then_some("true")
                        >
                            {texts().stage.read(&r.account_id, r.balance.ok())}
                        </p>
                    })}
                    {move || {
                        let (drawn, more) = callers.get();
                        if drawn.is_empty() {
                            return view! { <p class="stage-none">{texts().stage.no_callers}</p> }.into_any();
                        }
                        view! {
                            <ul class="stage-caller-list">
                                {drawn.into_iter().map(|c| view! { <CallerFigure ctl=ctl caller=c reveal=reveal /> }).collect_view()}
                            </ul>
                            {(more > 0).then(|| view! { <p class="stage-more">{texts().stage.more_waiting(more)}</p> })}
                        }
                        .into_any()
                    }}
                </div>
                <div class="stage-processes">
                    <For
                        each=move || processes.get()
                        key=|p| (p.process, p.state.code())
                        children=move |p: StageProcess| {
                            let number = p.process;
                            let current = Memo::new(move |_| {
                                stage.with(|s| s.processes.iter().find(|q| q.process == number).cloned())
                            });
                            view! { <ProcessRow ctl=ctl stage=stage process=current reveal=reveal /> }
                        }
                    />
                </div>
                <StoresView ctl=ctl stage=stage reveal=reveal />
            </div>
            <div class="stage-foot">
                <StagePromises ctl=ctl reveal=reveal />
                <Legend ctl=ctl />
            </div>
            <p id="stage-description" class="visually-hidden" data-testid="stage-description">
                {move || description.get()}
            </p>
            <p class="visually-hidden" aria-live="polite" data-testid="stage-travel-news">
                {move || travel_news.get()}
            </p>
        </section>
    }
}

/// One caller: who it calls for, its state, what went wrong, and while it
/// waits, a bar of the time it has left.
#[component]
fn CallerFigure(
    ctl: Controller,
    caller: StageCaller,
    reveal: RwSignal<Option<AttemptId>>,
) -> impl IntoView {
    let t = ctl.lang.get_untracked().texts();
    let attempt = caller.attempt;
    let state_text = t.stage.caller_state(caller.state);
    let mark = caller.mark.map(|m| (m.code(), t.stage.caller_mark(m)));
    let tries = (caller.tries > 1).then(|| t.stage.tries(caller.tries));
    // Its text is its name: what a reader sees is what a screen reader says.
    view! {
        <li class="stage-caller-item">
            <button
                class="stage-caller"
                class:highlighted=move || ctl.highlighted(Some(attempt))
                data-highlighted=move || ctl.highlighted(Some(attempt)).then_some("true")
                data-marked=move || ctl.marked_attempt(Some(attempt)).then_some("true")
                data-testid="stage-caller"
                data-attempt=attempt
                data-process=caller.process
                data-state=caller.state.code()
                data-mark=mark.map(|(code, _)| code)
                on:click=move |_| reveal.set(Some(attempt))
            >
                <span class="caller-head">
                    <span class="caller-id">"#" {t.num(attempt)}</span>
                    " "
                    <bdi class="caller-who">{t.stage.person(&caller.account_id).into_owned()}</bdi>
                    " "
                    <bdi dir="ltr" class="caller-points">"+" {t.num(caller.points)}</bdi>
                </span>
                <span class="caller-state">
                    <bdi dir="ltr" class="caller-key">{visible(&caller.key).into_owned()}</bdi>
                    {t.sep()} {state_text}
                    {tries.map(|tries| view! { {t.sep()} {tries} })}
                    {mark.map(|(code, text)| view! { " " <span class=format!("mark mark-{code}")>{text}</span> })}
                </span>
                {caller.time_left.map(|left| {
                    view! {
                        <span class="deadline" aria-hidden="true">
                            <span class="deadline-left" style:--left=Decimal(left, 3).to_string()></span>
                        </span>
                    }
                })}
            </button>
        </li>
    }
}

/// One process's row: its lane (the arrow from the callers, with the tokens on
/// their way) and its box (queue, consumer, memory).
#[component]
fn ProcessRow(
    ctl: Controller,
    stage: Memo<Stage>,
    process: Memo<Option<StageProcess>>,
    reveal: RwSignal<Option<AttemptId>>,
) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let number = process.with_untracked(|p| p.as_ref().map_or(0, |p| p.process));
    let running =
        process.with_untracked(|p| p.as_ref().is_some_and(|p| p.state == ProcessState::Running));
    let state = move || process.with(|p| p.as_ref().map_or(ProcessState::Ended, |p| p.state));
    let queue = Memo::new(move |_| {
        process.with(|p| p.as_ref().map(|p| p.queue.clone()).unwrap_or_default())
    });
    let in_hand = Memo::new(move |_| process.with(|p| p.as_ref().and_then(|p| p.in_hand)));
    let paused = Memo::new(move |_| stage.with(|s| s.paused));
    let paused = move || paused.get();
    let waiting = Memo::new(move |_| process.with(|p| p.as_ref().map_or(0, |p| p.waiting)));
    let memory = Memo::new(move |_| process.with(|p| p.as_ref().and_then(|p| p.memory.clone())));
    let in_progress = Memo::new(move |_| {
        process.with(|p| {
            p.as_ref()
                .map(|p| p.in_progress.clone())
                .unwrap_or_default()
        })
    });
    let timed_out = Memo::new(move |_| {
        process.with(|p| p.as_ref().map(|p| p.timed_out.clone()).unwrap_or_default())
    });
    // Work whose caller's deadline ran out while it waited: still done, for nobody.
    let late = move |attempt: Option<AttemptId>| {
        attempt.is_some_and(|a| timed_out.with(|t| t.contains(&a)))
    };
    let slots = move || {
        let queue = queue.get();
        (0..PointWorker::CAPACITY)
            .map(|i| {
                let attempt = queue.get(i).copied();
                view! {
                    <li
                        class="stage-slot"
                        class:filled=attempt.is_some()
                        class:timed-out=late(attempt)
                        data-timed-out=late(attempt).then_some("true")
                        class:highlighted=move || ctl.highlighted(attempt)
                        data-highlighted=move || ctl.highlighted(attempt).then_some("true")
                        data-marked=move || ctl.marked_attempt(attempt).then_some("true")
                        data-testid="stage-queue-slot"
                        data-process=number
                        data-attempt=attempt
                    >
                        {attempt.map(|a| view! {
                            <span class="visually-hidden">
                                {texts().attempt_number(a)}
                                {late(Some(a)).then(|| format!(" ({})", texts().stage.deadline_passed()))}
                            </span>
                        })}
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        <div class="stage-row" data-process=number>
            {running.then(|| view! { <LaneView ctl=ctl stage=stage lane=Lane::Process(number) reveal=reveal /> })}
            <div
                class="stage-process"
                data-testid="stage-process"
                data-process=number
                data-state=move || state().code()
                role="group"
                tabindex="0"
                aria-label=move || format!("{}: {}", texts().process_heading(number), texts().stage.process_state(state()))
            >
                <p class="stage-part-title">
                    {move || texts().process_heading(number)}
                    {running.then(|| view! { <OpenSettings ctl=ctl id=DrawerId::World /> })}
                    // Said in words on the title's line, which has room: the
                    // slots taken, and how long the consumer takes a grant.
                    {running.then(|| view! {
                        <span class="stage-figures">
                            <span
                                class="stage-queue-count"
                                data-testid="stage-queue-count"
                                aria-hidden="true"
                                data-marked=move || ctl.marked(&StagePart::Queue).then_some("true")
                            >
                                {move || texts().queue_count(queue.with(Vec::len), PointWorker::CAPACITY)}
                            </span>
                            <span
                                class="stage-work-time"
                                data-testid="stage-work-time"
                                data-marked=move || ctl.marked(&StagePart::Consumer).then_some("true")
                            >
                                {move || texts().stage.work_time(stage.with(|s| s.processing))}
                            </span>
                        </span>
                    })}
                    {move || (state() != ProcessState::Running).then(|| view! {
                        <span class=format!("mark mark-{}", state().code())>{texts().stage.process_state(state())}</span>
                    })}
                </p>
                // A process that ended is drawn empty: no queue, no consumer.
                {running.then(|| view! {
                    <div class="stage-line">
                        <ol
                            class="stage-queue"
                            tabindex="0"
                            aria-label=move || texts().queue_slots(queue.with(Vec::len), PointWorker::CAPACITY)
                            data-marked=move || ctl.marked(&StagePart::Queue).then_some("true")
                        >
                            {slots}
                        </ol>
                        <span
                            class="stage-consumer"
                            class:busy=move || in_hand.with(Option::is_some)
                            class:paused=move || paused() && in_hand.with(Option::is_none)
                            data-paused=move || paused().then_some("true")
                            class:timed-out=move || late(in_hand.get())
                            data-timed-out=move || late(in_hand.get()).then_some("true")
                            class:highlighted=move || ctl.highlighted(in_hand.get())
                            data-highlighted=move || ctl.highlighted(in_hand.get()).then_some("true")
                            data-marked=move || {
                                (ctl.marked(&StagePart::Consumer) || ctl.marked_attempt(in_hand.get())).then_some("true")
                            }
                            data-testid="stage-consumer"
                            data-process=number
                            data-attempt=move || in_hand.get()
                            role="img"
                            tabindex="0"
                            aria-label=move || texts().stage.consumer_state(in_hand.get(), paused())
                        >
                            <span aria-hidden="true">
                                {move || if paused() && in_hand.with(Option::is_none) { "‖" } else { "⚙" }}
                            </span>
                            {move || texts().stage.consumer_label(in_hand.get(), paused())}
                        </span>
                        // Acting on the picture: this process crashes now, and
                        // the room sees what it loses.
                        <button
                            class="stage-crash"
                            data-testid="stage-crash"
                            data-process=number
                            aria-label=move || texts().stage.crash_process(number)
                            title=move || texts().stage.crash_process(number)
                            on:click=move |_| {
                                ctl.dispatch(Action::CrashProcess { process: number });
                            }
                        >
                            // A glyph, to cost the busiest picture no line: its
                            // name says what it does, and so does its tooltip.
                            <span aria-hidden="true">"⚡"</span>
                        </button>
                        <OpenSettings ctl=ctl id=DrawerId::Queue />
                    </div>
                })}
                {move || (waiting.get() > 0).then(|| view! {
                    <p
                        class="stage-waiting"
                        data-testid="stage-waiting"
                        data-process=number
                        data-marked=move || ctl.marked(&StagePart::Waiting).then_some("true")
                    >
                        {texts().stage.waiting_room(waiting.get())}
                    </p>
                })}
                {move || (!in_progress.with(Vec::is_empty)).then(|| view! {
                    <p class="stage-in-progress" data-process=number>
                        {texts().stage.in_progress} ": "
                        {in_progress.get().iter().map(|a| format!("#{}", texts().num(a))).collect::<Vec<_>>().join(" ")}
                    </p>
                })}
                {move || memory.get().map(|tables| view! {
                    <div
                        class="stage-store memory"
                        data-testid="stage-store"
                        data-kind="memory"
                        data-process=number
                        role="group"
                        tabindex="0"
                        aria-label=texts().stage.memory
                        data-marked=move || ctl.marked(&StagePart::Store).then_some("true")
                    >
                        <p class="stage-sub-title">{texts().stage.memory} <OpenSettings ctl=ctl id=DrawerId::Storage /></p>
                        <Tables ctl=ctl tables=tables process=number reveal=reveal />
                    </div>
                })}
            </div>
        </div>
    }
}

/// A lane: the arrow between the callers and a process, or the mail's arrow,
/// with the tokens on their way and a count of those not drawn.
#[component]
fn LaneView(
    ctl: Controller,
    stage: Memo<Stage>,
    lane: Lane,
    reveal: RwSignal<Option<AttemptId>>,
) -> impl IntoView {
    let tokens = Memo::new(move |_| {
        stage.with(|s| {
            s.tokens
                .iter()
                .filter(|t| t.lane == lane)
                .cloned()
                .collect::<Vec<_>>()
        })
    });
    let more = Memo::new(move |_| {
        stage.with(|s| {
            s.lane_counts
                .iter()
                .filter(|c| c.lane == lane)
                .map(|c| c.more)
                .sum::<usize>()
        })
    });
    let lane_code = match lane {
        Lane::Process(n) => format!("process-{n}"),
        Lane::Mail => "mail".to_string(),
    };
    view! {
        <div class="stage-lane" data-lane=lane_code>
            <span class="lane-arrow" aria-hidden="true"></span>
            <For
                each=move || tokens.get()
                // A dropped answer is a new token where the travelling one was.
                key=|t| (t.event, t.hop)
                children=move |t: Token| {
                    let (event, hop) = (t.event, t.hop);
                    let progress = Memo::new(move |_| {
                        tokens.with(|ts| {
                            ts.iter().find(|x| x.event == event && x.hop == hop).map_or(1.0, |x| x.progress)
                        })
                    });
                    view! { <TokenView ctl=ctl token=t progress=progress reveal=reveal /> }
                }
            />
            {move || (more.get() > 0).then(|| view! {
                <span class="lane-more" data-testid="stage-lane-more">{ctl.lang.get().texts().stage.lane_more(more.get())}</span>
            })}
        </div>
    }
}

/// A token on its way. It is drawn where the world's clock puts it, and a CSS
/// animation carries it to its end at the clock's pace, so it arrives even
/// when the world falls idle the moment it leaves. Reduced motion: placed, not moved.
#[component]
fn TokenView(
    ctl: Controller,
    token: Token,
    progress: Memo<f64>,
    reveal: RwSignal<Option<AttemptId>>,
) -> impl IntoView {
    let t = ctl.lang.get_untracked().texts();
    let kind = token.kind;
    let hop = token.hop;
    let end = token.end;
    let from = token.progress.min(end);
    let left = (end - from).max(0.0) * token.travel as f64;
    let duration = ctl.speed.get_untracked().real_ms(left);
    let name = match hop {
        Hop::Dropped => t.stage.caller_mark(CallerMark::LostAck),
        _ => t.stage.token(kind),
    };
    let label = match token.attempt {
        Some(a) => format!("{name}: {}", t.attempt_number(a)),
        None => name.to_string(),
    };
    let attempt = token.attempt;
    // An answer the world has on its way can be lost where it is, by a click
    // or a key: the room acts on the picture itself.
    let losable = token.in_world && hop == Hop::Back && kind == TokenKind::Ack;
    let label = match (losable, attempt) {
        (true, Some(a)) => t.stage.lose_answer(a),
        _ => label,
    };
    let act = move || match (losable, attempt) {
        (true, Some(a)) => {
            ctl.dispatch(Action::LoseAnswer { attempt: a });
        }
        (_, Some(a)) => reveal.set(Some(a)),
        _ => {}
    };
    view! {
        // Otherwise a picture, not a control: tokens come and go in a moment
        // and may overlap. A click still leads to the row; the keyboard's way
        // there is the caller.
        <span
            role=if losable { "button" } else { "img" }
            tabindex=losable.then_some("0")
            title=losable.then(|| label.clone())
            class:losable=losable
            class=format!("stage-token token-{} hop-{}", kind.code(), hop.code())
            class:back=kind.goes_back()
            class:in-world=token.in_world
            class:highlighted=move || ctl.highlighted(attempt)
            data-highlighted=move || ctl.highlighted(attempt).then_some("true")
            data-marked=move || ctl.marked_attempt(attempt).then_some("true")
            data-testid="stage-token"
            data-kind=kind.code()
            data-hop=hop.code()
            data-attempt=attempt
            data-progress=move || Decimal(progress.get(), 2).to_string()
            style:--from=Decimal(from, 3).to_string()
            style:--to=end.to_string()
            style:--travel=format!("{}ms", Decimal(duration, 0))
            style:--rank=token.rank.min(MAX_TOKENS_PER_LANE).to_string()
            style:--p=move || Decimal(progress.get(), 3).to_string()
            aria-label=label.clone()
            on:click=move |_| act()
            on:keydown=move |ev| {
                if losable && (ev.key() == "Enter" || ev.key() == " ") {
                    ev.prevent_default();
                    act();
                }
            }
        >
            <span aria-hidden="true">{token_glyph(kind)}</span>
            // Where an answer dropped, the room reads what happened there.
            {(hop == Hop::Dropped).then(|| view! {
                <span class="mark mark-lost-ack token-dropped" aria-hidden="true">
                    {t.stage.caller_mark(CallerMark::LostAck)}
                </span>
            })}
        </span>
    }
}

/// A store's two tables, as far as the picture draws them: the first balances,
/// the newest receipts, and how many more of each. A receipt leads to the row
/// that wrote it and lights up while a row of its operation is pointed at.
#[component]
fn Tables(
    ctl: Controller,
    tables: StoreTables,
    /// Whose memory: `None` for a store every process shares.
    #[prop(optional)]
    process: Option<ProcessNumber>,
    #[prop(optional)] reveal: Option<RwSignal<Option<AttemptId>>>,
    /// The naive worker's balances: marked by its own facts.
    #[prop(optional)]
    naive: bool,
) -> impl IntoView {
    let t = ctl.lang.get_untracked().texts();
    let pointed_at = Memo::new(move |_| {
        let attempt = ctl.highlight.get()?;
        ctl.lab
            .with_untracked(|lab| lab.state().operation_of(attempt))
    });
    let more_accounts = tables.accounts.saturating_sub(tables.balances.len());
    let more_receipts = tables.receipt_count.saturating_sub(tables.receipts.len());
    view! {
        <div class="stage-tables">
            <div class="stage-table">
                <span class="table-name">{t.stage.balances}</span>
                <dl class="stage-balances" data-testid="stage-balances">
                    // The balances it holds, then the accounts asked about that it
                    // holds nothing for: reading one of those returns 0.
                    {tables.balances.iter().map(|(account, balance)| (account, *balance, false))
                        .chain(tables.unheld.iter().map(|account| (account, 0, true)))
                        .map(|(account, balance, unheld)| {
                        let part = if naive {
                            StagePart::NaiveBalance(account.clone())
                        } else {
                            StagePart::Balance(account.clone())
                        };
                        view! {
                        <div
                            class="stage-balance"
                            class:unheld=unheld
                            data-account=account.clone()
                            data-balance=balance
                            data-unheld=unheld.then_some("true")
                            data-marked=move || ctl.marked(&part).then_some("true")
                        >
                            // The person, as the narration names them (the timeline's
                            // request shows the account's id beside).
                            <dt><bdi>{t.stage.person(account).into_owned()}</bdi></dt>
                            <dd><bdi dir="ltr">{t.num(balance)}</bdi></dd>
                        </div>
                        }
                    }).collect_view()}
                </dl>
                {(tables.accounts == 0 && tables.unheld.is_empty()).then(|| view! { <span class="stage-none">{t.stage.empty}</span> })}
                {(more_accounts > 0).then(|| view! { <span class="stage-more">{t.stage.more_rows(more_accounts)}</span> })}
            </div>
            <div class="stage-table">
                <span class="table-name">{t.stage.receipts}</span>
                <ul class="stage-receipts" data-testid="stage-receipts" data-count=tables.receipt_count>
                    {tables.receipts.into_iter().map(|(account, key, points)| {
                        let lit = {
                            let (account, key) = (account.clone(), key.clone());
                            move || pointed_at.with(|op| op.as_ref().is_some_and(|(a, k)| *a == account && *k == key))
                        };
                        let text = [t.stage.person(&account), visible(&key), format!("+{}", t.num(points)).into()].join(t.sep());
                        let label = t.stage.receipt_lead(&text);
                        let lead = {
                            let (account, key) = (account.clone(), key.clone());
                            move |_| {
                                let row = ctl.lab.with_untracked(|lab| lab.state().receipt_row(process, &account, &key));
                                if let (Some(reveal), Some(row)) = (reveal, row) {
                                    reveal.set(Some(row));
                                }
                            }
                        };
                        view! {
                            <li
                                class="stage-receipt"
                                data-testid="stage-receipt"
                                class:highlighted=lit.clone()
                                data-highlighted=move || lit().then_some("true")
                                data-account=account
                                data-key=key
                            >
                                {match reveal {
                                    Some(_) => view! {
                                        <button class="stage-receipt-lead" aria-label=label on:click=lead>
                                            <bdi>{text}</bdi>
                                        </button>
                                    }.into_any(),
                                    None => view! { <bdi>{text}</bdi> }.into_any(),
                                }}
                            </li>
                        }
                    }).collect_view()}
                    {(tables.receipt_count == 0).then(|| view! { <li class="stage-none">{t.stage.empty}</li> })}
                    {(more_receipts > 0).then(|| view! { <li class="stage-more">{t.stage.more_rows(more_receipts)}</li> })}
                </ul>
            </div>
        </div>
    }
}

/// What lies beyond the processes: the durable store, the naive worker beside,
/// and the confirmation emails' way to the inbox.
#[component]
fn StoresView(
    ctl: Controller,
    stage: Memo<Stage>,
    reveal: RwSignal<Option<AttemptId>>,
) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let durable = Memo::new(move |_| stage.with(|s| s.durable.clone()));
    let naive = Memo::new(move |_| stage.with(|s| s.naive.clone()));
    let mail = Memo::new(move |_| stage.with(|s| s.mail.clone()));
    view! {
        <div class="stage-side">
            {move || durable.get().map(|d| {
                let t = texts();
                view! {
                    <div
                        class="stage-store durable"
                        data-testid="stage-store"
                        data-kind="durable"
                        role="group"
                        tabindex="0"
                        aria-label=t.stage.durable
                        data-marked=move || ctl.marked(&StagePart::Store).then_some("true")
                    >
                        <p class="stage-part-title">
                            {t.stage.durable} <OpenSettings ctl=ctl id=DrawerId::Storage />
                            <span class="stage-retention" data-testid="stage-retention">{t.stage.retention(d.retention_hours)}</span>
                        </p>
                        <Tables ctl=ctl tables=d.tables.clone() reveal=reveal />
                        {(!d.in_progress.is_empty()).then(|| view! {
                            <p class="stage-in-progress">
                                {t.stage.in_progress} ": "
                                {d.in_progress.iter().map(|a| format!("#{}", t.num(a))).collect::<Vec<_>>().join(" ")}
                            </p>
                        })}
                        // The newest mark, and how many more lately.
                        {d.marks.last().map(|m| view! {
                            <p class=format!("mark mark-{}", m.code()) data-testid="stage-store-mark" data-mark=m.code()>
                                {t.stage.store_mark(m)}
                                {(d.marks.len() > 1).then(|| view! { {t.sep()} {t.stage.more_rows(d.marks.len() - 1)} })}
                            </p>
                        })}
                    </div>
                }
            })}
            {move || naive.get().map(|balances| {
                let t = texts();
                view! {
                    <div class="stage-naive" data-testid="stage-naive" role="group" tabindex="0" aria-label=t.stage.naive>
                        <p class="stage-part-title">{t.stage.naive} <OpenSettings ctl=ctl id=DrawerId::World /></p>
                        <Tables ctl=ctl tables=StoreTables { accounts: balances.len(), balances, ..Default::default() } naive=true />
                    </div>
                }
            })}
            {move || mail.get().map(|m| {
                let t = texts();
                let from = if m.outbox { t.stage.outbox } else { t.stage.handler };
                view! {
                    <div
                        class="stage-mail"
                        data-testid="stage-mail"
                        data-delivered=m.delivered
                        data-twice=m.emailed_twice
                        role="group"
                        tabindex="0"
                        aria-label=t.stage.mail
                        data-marked=move || ctl.marked(&StagePart::Mail).then_some("true")
                    >
                        <span class="stage-mail-from">
                            <OpenSettings ctl=ctl id=DrawerId::Callers />
                            {from}
                            {m.outbox.then(|| view! { {t.sep()} {t.stage.pending(m.pending)} " → " {t.stage.relay} })}
                        </span>
                        <LaneView ctl=ctl stage=stage lane=Lane::Mail reveal=reveal />
                        <span class="stage-mail-to">
                            {t.stage.mail} ": " {t.stage.inbox(m.delivered)}
                            {(m.emailed_twice > 0).then(|| view! {
                                <span class="mark mark-second-email" data-mark="second-email">{t.stage.emailed_twice(m.emailed_twice)}</span>
                            })}
                        </span>
                    </div>
                }
            })}
        </div>
    }
}

/// Names every kind of token and mark the stage draws.
#[component]
fn Legend(ctl: Controller) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let tokens = [
        TokenKind::Request,
        TokenKind::Ack,
        TokenKind::LostAck,
        TokenKind::Redelivery,
        TokenKind::Email,
    ];
    let marks = [
        crate::lab::CallerMark::LostAck,
        crate::lab::CallerMark::WaitedInProgress,
        crate::lab::CallerMark::ToldInProgress,
        crate::lab::CallerMark::Refused,
        crate::lab::CallerMark::Rejected,
        crate::lab::CallerMark::ProcessEnded,
        crate::lab::CallerMark::GrantedAgain,
    ];
    view! {
        <details class="stage-legend" data-testid="stage-legend">
            <summary>{move || texts().stage.legend}</summary>
            <ul>
                {move || {
                    let t = texts();
                    let tokens = tokens.into_iter().map(|k| view! {
                        <li data-kind=k.code()>
                            <span class=format!("stage-token still token-{}", k.code()) aria-hidden="true">{token_glyph(k)}</span>
                            " " {t.stage.token(k)}
                        </li>
                    });
                    let callers = marks.into_iter().map(|m| view! {
                        <li data-mark=m.code()><span class=format!("mark mark-{}", m.code())>{t.stage.caller_mark(m)}</span></li>
                    });
                    let others = t.stage.other_marks().into_iter().map(|(code, text)| view! {
                        <li data-mark=code><span class=format!("mark mark-{code}")>{text}</span></li>
                    });
                    let late = view! {
                        <li data-mark="late-work">
                            <span class="stage-slot filled timed-out still" aria-hidden="true"></span>
                            " " {t.stage.late_work()}
                        </li>
                    };
                    (tokens.collect_view(), callers.collect_view(), others.collect_view(), late)
                }}
            </ul>
        </details>
    }
}
