//! A step's picture on paper: the stage's fold of the world when the step has
//! run (`HandoutStep::picture`), drawn in black on white beside the step's
//! text. The callers and what each heard, each process with its queue and its
//! memory, the durable store: what the room saw, without the moving parts.

use leptos::prelude::*;

use crate::core::PointWorker;
use crate::i18n::Lang;
use crate::lab::{visible, Stage, StoreTables};

#[component]
pub fn HandoutPicture(stage: Stage, lang: Lang) -> impl IntoView {
    let t = lang.texts();
    let callers = stage
        .callers
        .iter()
        .map(|caller| {
            let mark = caller.mark.map(|m| view! { " " <em>{t.stage.caller_mark(m)}</em> });
            view! {
                <li class="handout-caller" data-state=caller.state.code()>
                    <strong>
                        "#" {t.num(caller.attempt)} " " <bdi>{t.stage.person(&caller.account_id).into_owned()}</bdi>
                        " " <bdi dir="ltr">"+" {t.num(caller.points)}</bdi>
                    </strong>
                    {t.sep()} <bdi dir="ltr">{visible(&caller.key).into_owned()}</bdi>
                    {t.sep()} {t.stage.caller_state(caller.state)}
                    {mark}
                </li>
            }
        })
        .collect_view();
    let more = (stage.more_waiting > 0)
        .then(|| view! { <li>{t.stage.more_waiting(stage.more_waiting)}</li> });
    let processes = stage
        .processes
        .iter()
        .map(|process| {
            let queue = t.queue_count(process.queue.len(), PointWorker::CAPACITY);
            let memory = process.memory.as_ref().map(|tables| {
                view! { <PrintedTables lang=lang name=t.stage.memory tables=tables.clone() /> }
            });
            view! {
                <div class="handout-process" data-state=process.state.code()>
                    <strong>{t.process_heading(process.process)}</strong>
                    {t.sep()} {t.stage.process_state(process.state)}
                    {t.sep()} {queue}
                    {(process.waiting > 0).then(|| view! { {t.sep()} {t.stage.waiting_room(process.waiting)} })}
                    {memory}
                </div>
            }
        })
        .collect_view();
    let durable = stage.durable.map(|d| {
        let marks = d
            .marks
            .iter()
            .map(|m| view! { <p><em>{t.stage.store_mark(m)}</em></p> })
            .collect_view();
        view! {
            <div class="handout-process">
                <PrintedTables lang=lang name=t.stage.durable tables=d.tables />
                {marks}
            </div>
        }
    });
    view! {
        <figure class="handout-picture" data-testid="handout-picture">
            <ul class="handout-callers">
                {if stage.callers.is_empty() {
                    view! { <li>{t.stage.no_callers}</li> }.into_any()
                } else {
                    callers.into_any()
                }}
                {more}
            </ul>
            {processes}
            {durable}
        </figure>
    }
}

/// A store's two tables on a line: whose balance is what, which receipts it
/// keeps. Each entry isolated, so a name, a key and a number keep their order
/// in either direction.
#[component]
fn PrintedTables(lang: Lang, name: &'static str, tables: StoreTables) -> impl IntoView {
    let t = lang.texts();
    let listed = |entries: Vec<AnyView>| {
        if entries.is_empty() {
            return view! { {t.stage.empty} }.into_any();
        }
        let count = entries.len();
        entries
            .into_iter()
            .enumerate()
            .map(|(i, entry)| view! { {entry} {(i + 1 < count).then_some(t.sep())} })
            .collect_view()
            .into_any()
    };
    let balances = tables
        .balances
        .iter()
        .map(|(account, balance)| {
            view! { <bdi>{t.stage.person(account).into_owned()} " " {t.num(balance)}</bdi> }
                .into_any()
        })
        .collect();
    let receipts = tables
        .receipts
        .iter()
        .map(|(account, key, points)| {
            view! {
                <bdi>
                    {t.stage.person(account).into_owned()} " "
                    <bdi dir="ltr">{visible(key).into_owned()} " +" {t.num(points)}</bdi>
                </bdi>
            }
            .into_any()
        })
        .collect();
    let more = tables.receipt_count.saturating_sub(tables.receipts.len());
    view! {
        <p class="handout-store">
            <strong>{name}</strong> " — " {t.stage.balances} ": " {listed(balances)}
            "; " {t.stage.receipts} ": " {listed(receipts)}
            {(more > 0).then(|| view! { " " {t.stage.more_rows(more)} })}
        </p>
    }
}
