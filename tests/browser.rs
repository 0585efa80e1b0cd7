//! Component tests in headless Chrome: mount the real `App`, click and type through
//! the DOM, and read back what a person would see.
#![cfg(target_arch = "wasm32")]

use gloo_timers::future::TimeoutFuture;
use idempotency_lab::i18n::Lang;
use idempotency_lab::lab::{Action, Lab, Setting};
use idempotency_lab::sim::StoreKind;
use idempotency_lab::ui::App;
use idempotency_lab::{CrashPoint, GrantPoints};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

mod explorer_fixture;
use web_sys::{Element, HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

/// A mounted lab in its own container, removed when the test ends.
struct Mounted {
    root: HtmlElement,
    _handle: leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        self.root.remove();
    }
}

async fn mount(lang: Lang) -> Mounted {
    mount_with(lang, None).await
}

/// The texts of every language, as the page would fetch them: the page in
/// the browser installs its first language before it mounts.
fn install_texts() {
    let files = [
        (Lang::En, include_str!("../texts/en.json")),
        (Lang::Fa, include_str!("../texts/fa.json")),
    ];
    for (lang, json) in files {
        idempotency_lab::i18n::install(lang, json).unwrap();
    }
}

/// A container of its own on the page, for one test's mount.
fn new_root() -> HtmlElement {
    let root: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&root).unwrap();
    root
}

/// A new lab whose messages arrive at once: for a test of a panel's drawing,
/// not of the network (the motion tests and tests/transit.rs have that), so
/// what it checks stands the moment it is sent.
fn instant_lab() -> Lab {
    let mut lab = Lab::new();
    lab.dispatch(Action::Set(Setting::TransitMs(0))).unwrap();
    lab
}

/// [`mount`] on an [`instant_lab`].
async fn mount_instant(lang: Lang) -> Mounted {
    mount_with(lang, Some(instant_lab())).await
}

/// Mounts the page on `lab` (a new lab when `None`) in its own container.
async fn mount_with(lang: Lang, lab: Option<Lab>) -> Mounted {
    install_texts();
    let root = new_root();
    let handle = leptos::mount::mount_to(root.clone(), move || match lab {
        Some(lab) => view! { <App lang=lang lab=lab /> }.into_any(),
        None => view! { <App lang=lang /> }.into_any(),
    });
    settle().await;
    Mounted {
        root,
        _handle: handle,
    }
}

/// Lets Leptos run the effects and renders a change scheduled.
async fn settle() {
    TimeoutFuture::new(10).await;
}

/// Waits, a task at a time, until `ready` holds (at most 5 s: then the
/// assertion after it says what is wrong).
async fn until(ready: impl Fn() -> bool) {
    for _ in 0..500 {
        if ready() {
            return;
        }
        TimeoutFuture::new(10).await;
    }
}

/// A button's text as a screen reader says it: without what is hidden from
/// it (an icon beside the words).
fn spoken_text(element: &Element) -> String {
    let mut text = element.text_content().unwrap_or_default();
    let hidden = element.query_selector_all("[aria-hidden=true]").unwrap();
    for node in (0..hidden.length()).filter_map(|i| hidden.item(i)) {
        if let Some(icon) = node.text_content() {
            text = text.replacen(&icon, "", 1);
        }
    }
    text.trim().to_string()
}

impl Mounted {
    fn find(&self, selector: &str) -> Option<Element> {
        self.root.query_selector(selector).unwrap()
    }

    fn all(&self, selector: &str) -> Vec<Element> {
        let list = self.root.query_selector_all(selector).unwrap();
        (0..list.length())
            .filter_map(|i| list.item(i))
            .map(|n| n.unchecked_into())
            .collect()
    }

    fn button(&self, name: &str) -> HtmlElement {
        self.all("button")
            .into_iter()
            .find(|b| spoken_text(b) == name)
            .unwrap_or_else(|| panic!("no button named {name:?}"))
            .unchecked_into()
    }

    async fn click(&self, name: &str) {
        self.button(name).click();
        settle().await;
    }

    /// Clicks, then lets the world run until nothing more is due.
    async fn act(&self, name: &str) {
        self.click(name).await;
        self.idle().await;
    }

    /// Skips the world's clock ahead until it is idle, and waits for the page to
    /// show it: what a person gets from the "Skip to idle" button.
    async fn idle(&self) {
        let clock = self.find("[data-testid=clock]").unwrap();
        // Does nothing when the world is idle already.
        let skip: web_sys::HtmlElement = self
            .find("[data-testid=skip-to-idle]")
            .unwrap()
            .unchecked_into();
        skip.click();
        for _ in 0..200 {
            if clock.get_attribute("data-idle").as_deref() == Some("true") {
                settle().await;
                return;
            }
            TimeoutFuture::new(10).await;
        }
        panic!("the world never became idle");
    }

    async fn set_number(&self, id: &str, value: &str) {
        let input: HtmlInputElement = self.find(&format!("#{id}")).unwrap().unchecked_into();
        input.set_value(value);
        input
            .dispatch_event(&web_sys::Event::new("change").unwrap())
            .unwrap();
        settle().await;
    }

    async fn type_into(&self, id: &str, text: &str) {
        let input: HtmlInputElement = self.find(&format!("#{id}")).unwrap().unchecked_into();
        input.set_value(text);
        input
            .dispatch_event(&web_sys::Event::new("input").unwrap())
            .unwrap();
        settle().await;
    }

    async fn toggle_pause(&self) {
        let switch: HtmlElement = self
            .find(".queue input[type=checkbox]")
            .unwrap()
            .unchecked_into();
        switch.click();
        settle().await;
    }

    async fn toggle_lose_ack(&self) {
        let switch: HtmlElement = self
            .find(".request input[type=checkbox]")
            .unwrap()
            .unchecked_into();
        switch.click();
        settle().await;
    }

    /// The rows whose caller has heard something (a row is there, pending,
    /// from the moment its request is sent).
    fn rows(&self) -> Vec<(String, Option<String>, String)> {
        self.all("[data-testid=timeline-row]:not([data-outcome=pending])")
            .into_iter()
            .map(|row| {
                (
                    row.get_attribute("data-outcome").unwrap(),
                    row.get_attribute("data-receipt-balance"),
                    row.get_attribute("data-current-balance").unwrap(),
                )
            })
            .collect()
    }

    fn balance(&self, account: &str) -> Option<String> {
        self.find(&format!("[data-testid=balance-{account}]"))
            .and_then(|e| e.text_content())
    }
}

#[wasm_bindgen_test]
async fn send_applies_the_grant_and_shows_receipt_and_balance() {
    let lab = mount(Lang::En).await;
    lab.act("Send").await;
    assert_eq!(
        lab.rows(),
        vec![("applied".into(), Some("100".into()), "100".into())]
    );
    assert_eq!(lab.balance("account-7").as_deref(), Some("100"));
}

#[wasm_bindgen_test]
async fn the_lose_acknowledgement_switch_arms_one_delivery_only() {
    let lab = mount(Lang::En).await;
    lab.toggle_lose_ack().await;
    lab.act("Send").await;
    lab.act("Retry (same key)").await;
    assert_eq!(
        lab.rows(),
        vec![
            ("timeout-applied".into(), None, "100".into()),
            ("replayed".into(), Some("100".into()), "100".into()),
        ]
    );
    let switch: HtmlInputElement = lab
        .find(".request input[type=checkbox]")
        .unwrap()
        .unchecked_into();
    assert!(
        !switch.checked(),
        "the switch turns itself off after one delivery"
    );
}

#[wasm_bindgen_test]
async fn an_invalid_field_shows_its_error_and_sends_nothing() {
    let lab = mount(Lang::En).await;
    lab.type_into("field-points", "abc").await;
    let input = lab.find("#field-points").unwrap();
    assert_eq!(input.get_attribute("aria-invalid").as_deref(), Some("true"));
    let error = lab
        .find("#field-points-error")
        .unwrap()
        .text_content()
        .unwrap();
    assert!(error.contains("whole number"), "got {error:?}");
    lab.act("Send").await;
    assert!(lab.rows().is_empty());
    assert!(lab.find("[data-testid=notice]").is_some());

    lab.type_into("field-points", "25").await;
    assert_eq!(
        input.get_attribute("aria-invalid").as_deref(),
        Some("false")
    );
    lab.act("Send").await;
    assert_eq!(lab.rows().len(), 1);
    assert!(
        lab.find("[data-testid=notice]").is_none(),
        "an accepted action clears the notice"
    );
}

#[wasm_bindgen_test]
async fn a_changed_payload_under_the_same_key_is_rejected() {
    let lab = mount(Lang::En).await;
    lab.act("Send").await;
    lab.type_into("field-points", "200").await;
    lab.act("Send").await;
    assert_eq!(lab.rows()[1].0, "rejected");
    assert_eq!(lab.balance("account-7").as_deref(), Some("100"));
}

#[wasm_bindgen_test]
async fn a_processing_time_holds_the_delivery_before_answering() {
    let lab = mount_instant(Lang::En).await;
    lab.set_number("processing-time", "300").await;
    lab.click("Send").await;
    assert!(lab.rows().is_empty(), "still in the consumer's hand");
    let consumer = lab.find("[data-testid=consumer]").unwrap();
    assert!(consumer.class_list().contains("busy"));
    // Answered once 300 ms of virtual time have passed at 1x; wait for it rather
    // than for a fixed time.
    for _ in 0..100 {
        if !lab.rows().is_empty() {
            break;
        }
        TimeoutFuture::new(20).await;
    }
    assert_eq!(
        lab.rows(),
        vec![("applied".into(), Some("100".into()), "100".into())]
    );
    let clock = lab.find("[data-testid=clock]").unwrap();
    let now: u64 = clock.get_attribute("data-now").unwrap().parse().unwrap();
    assert!(
        now >= 300,
        "the answer came at 300 ms of virtual time, now {now}"
    );
}

#[wasm_bindgen_test]
async fn persian_turns_the_page_right_to_left() {
    let lab = mount(Lang::Fa).await;
    let html = document().document_element().unwrap();
    assert_eq!(html.get_attribute("dir").as_deref(), Some("rtl"));
    assert_eq!(html.get_attribute("lang").as_deref(), Some("fa"));
    lab.act("ارسال").await;
    assert_eq!(lab.rows()[0].2, "100", "attributes keep ASCII digits");
    // What a reader sees is in Persian digits.
    let shown = lab.find("[data-testid=timeline-row] td.balance").unwrap();
    assert_eq!(shown.text_content().unwrap().trim(), "۱۰۰");
    lab.click("English").await;
    assert_eq!(html.get_attribute("dir").as_deref(), Some("ltr"));
}

#[wasm_bindgen_test]
async fn a_paused_burst_fills_the_queue_and_producers_wait_until_released() {
    let lab = mount_instant(Lang::En).await;
    lab.toggle_pause().await;
    lab.click("Burst: 20 grants at once").await;
    let count = lab.find("[data-testid=queue-count]").unwrap();
    assert_eq!(count.get_attribute("data-queued").as_deref(), Some("16"));
    let waiting = lab.find("[data-testid=waiting]").unwrap();
    assert_eq!(waiting.get_attribute("data-waiting").as_deref(), Some("4"));
    assert_eq!(lab.all("[data-testid=queue-slot].filled").len(), 16);
    assert!(lab.rows().is_empty());
    lab.toggle_pause().await;
    lab.idle().await;
    assert_eq!(lab.rows().len(), 20);
    assert!(
        lab.rows()
            .iter()
            .all(|(outcome, _, _)| outcome == "applied"),
        "20 deliveries of 100 ms fit in every caller's 3 s: {:?}",
        lab.rows()
    );
    assert_eq!(count.get_attribute("data-queued").as_deref(), Some("0"));
    assert_eq!(lab.balance("account-7").as_deref(), Some("2000"));
}

/// A stress run is applied in the click and drawn in the next task; paused, no
/// consumer move redraws the page for it, so this shows that deferred redraw alone.
#[wasm_bindgen_test]
async fn a_paused_stress_run_is_drawn_though_no_consumer_moves() {
    let lab = mount(Lang::En).await;
    lab.toggle_pause().await;
    let stress: HtmlElement = lab.find("[data-testid=stress]").unwrap().unchecked_into();
    stress.click();
    let count = lab.find("[data-testid=queue-count]").unwrap();
    // Drawn in a later task, however busy the machine is.
    until(|| count.get_attribute("data-queued").as_deref() == Some("16")).await;
    assert_eq!(count.get_attribute("data-queued").as_deref(), Some("16"));
    let waiting = lab.find("[data-testid=waiting]").unwrap();
    // The batch job keeps 64 calls open: 16 in the queue, 48 waiting for room.
    assert_eq!(waiting.get_attribute("data-waiting").as_deref(), Some("48"));
    assert!(lab.rows().is_empty(), "paused: nothing delivered yet");
}

#[wasm_bindgen_test]
async fn the_timeline_pages_older_rows_and_follows_new_ones_again_after_reset() {
    let lab = mount(Lang::En).await;
    lab.type_into("field-points", "1").await;
    lab.act("Burst: 20 grants at once").await;
    lab.act("Burst: 20 grants at once").await;
    assert_eq!(lab.rows().len(), 25, "one page of the 40 rows");
    let pager = || {
        lab.find("[data-testid=pager]")
            .unwrap()
            .text_content()
            .unwrap()
    };
    assert!(pager().contains("Attempts 16–40 of 40"), "{}", pager());
    lab.click("Older").await;
    assert!(pager().contains("Attempts 1–25 of 40"), "{}", pager());
    lab.act("Burst: 20 grants at once").await;
    assert!(
        pager().contains("Attempts 1–25 of 60"),
        "an older page stays put: {}",
        pager()
    );
    lab.click("Latest").await;
    assert!(pager().contains("Attempts 36–60 of 60"), "{}", pager());
    lab.click("Older").await;
    lab.click("Reset").await;
    lab.act("Burst: 20 grants at once").await;
    lab.act("Burst: 20 grants at once").await;
    assert!(
        pager().contains("Attempts 16–40 of 40"),
        "a new lab follows its newest rows: {}",
        pager()
    );
}

#[wasm_bindgen_test]
async fn the_store_lists_receipts_and_a_separate_balance_read() {
    let lab = mount(Lang::En).await;
    lab.act("Send").await;
    lab.type_into("field-key", "order-1043").await;
    lab.type_into("field-points", "25").await;
    lab.act("Send").await;
    lab.act("Check balance").await;
    let read = lab.find("[data-testid=balance-read]").unwrap();
    assert_eq!(read.get_attribute("data-balance").as_deref(), Some("125"));
    let receipts: Vec<String> = lab
        .all("[data-testid=receipt-row]")
        .iter()
        .map(|r| r.text_content().unwrap())
        .collect();
    assert_eq!(
        receipts,
        vec![
            "account-7 · order-1042100100",
            "account-7 · order-104325125"
        ]
    );
    let store = lab.find("[data-testid=store]").unwrap();
    assert_eq!(store.get_attribute("data-receipts").as_deref(), Some("2"));
}

#[wasm_bindgen_test]
async fn a_permalink_is_offered_and_dropped_once_the_lab_changes() {
    let lab = mount(Lang::En).await;
    lab.act("Send").await;
    lab.click("Copy link to this state").await;
    let link: HtmlInputElement = lab
        .find("[data-testid=permalink]")
        .unwrap()
        .unchecked_into();
    assert!(link.value().contains("#state="), "{}", link.value());
    lab.act("Send").await;
    assert!(
        lab.find("[data-testid=permalink]").is_none(),
        "a stale link is not left on show"
    );
}

/// The same history, replayed in Wasm, logs the very events the native build
/// recorded (tests/world_log.rs checks the native side against the same file).
#[wasm_bindgen_test]
fn a_history_replayed_in_wasm_gives_the_native_event_log() {
    let history = include_str!("fixtures/world/mixed-history.json");
    let recorded = include_str!("fixtures/world/mixed-history.events.json");
    let lab = idempotency_lab::lab::from_json(history).unwrap();
    let log = serde_json::to_string_pretty(&*lab.state().world().events()).unwrap() + "\n";
    assert_eq!(log, recorded);
}

/// The same for the callers' history: in-progress records, redelivery, sign-in,
/// the outbox. (Waiters must wake in the same order on both platforms.)
#[wasm_bindgen_test]
fn the_callers_history_replayed_in_wasm_gives_the_native_event_log() {
    let history = include_str!("fixtures/world/callers-history.json");
    let recorded = include_str!("fixtures/world/callers-history.events.json");
    let lab = idempotency_lab::lab::from_json(history).unwrap();
    let log = serde_json::to_string_pretty(&*lab.state().world().events()).unwrap() + "\n";
    assert_eq!(log, recorded);
}

/// The explorer, run in Wasm from a fixed seed, finds and shrinks the very
/// history the native build recorded (tests/explorer.rs checks the native side
/// against the same file).
#[wasm_bindgen_test]
fn the_explorer_in_wasm_finds_what_the_native_build_found() {
    assert_eq!(
        explorer_fixture::found_record(),
        include_str!("fixtures/explorer/balance-first-two-processes-seed-11.json")
    );
}

/// A lab whose durable store writes the balance first, with a crash armed between
/// the two writes, after one send has crashed its process there.
fn balance_first_crashed() -> Lab {
    let mut lab = instant_lab();
    for action in [
        Action::Set(Setting::Store(StoreKind::BalanceFirst)),
        Action::SetCrashPoint {
            point: Some(CrashPoint::BetweenWrites),
        },
        Action::Send {
            grant: GrantPoints::new("order-1042", "account-7", 100),
            lose_acknowledgement: false,
        },
    ] {
        lab.dispatch(action).unwrap();
    }
    lab.skip_to_idle().unwrap();
    lab
}

#[wasm_bindgen_test]
async fn a_balance_first_crash_and_a_retry_break_two_promises_and_the_panel_says_so() {
    let lab = mount_with(Lang::En, Some(balance_first_crashed())).await;
    let holds = |code: &str| {
        lab.find(&format!("[data-testid=invariant-{code}]"))
            .unwrap_or_else(|| panic!("no invariant-{code}"))
            .get_attribute("data-holds")
            .unwrap()
    };
    // The crash left points with no receipt; nothing was granted twice yet.
    assert_eq!(holds("granted-has-receipt"), "false");
    assert_eq!(holds("at-most-once"), "true");
    assert_eq!(holds("receipt-has-grant"), "true");
    let announcement = lab.find("[data-testid=invariant-announcement]").unwrap();
    assert_eq!(
        announcement.text_content().unwrap(),
        "",
        "a lab that opens broken is shown, not announced"
    );

    // The crash row between the attempts, in words, labelled by write order.
    let crash = lab
        .find("[data-testid=timeline-marker][data-event=crash]")
        .expect("a crash marker row");
    let text = crash.text_content().unwrap();
    assert!(
        text.contains(
            "Process 1 crashed between the two writes while handling attempt #1: \
             the points were added, the receipt was not. Balance first leaves points with no receipt"
        ),
        "{text}"
    );
    assert!(lab
        .find("[data-testid=timeline-marker][data-event=restart]")
        .is_some());
    let first = lab.find("[data-testid=timeline-row]").unwrap();
    assert_eq!(
        first.get_attribute("data-crashed").as_deref(),
        Some("between-writes")
    );
    assert!(first
        .text_content()
        .unwrap()
        .contains("crashed between the two writes"));

    // The retry finds no receipt and grants again: announced once, by attempt #2.
    lab.act("Retry (same key)").await;
    assert_eq!(holds("at-most-once"), "false");
    assert_eq!(holds("granted-has-receipt"), "false");
    assert_eq!(holds("receipt-has-grant"), "true");
    let by = lab
        .find("[data-testid=invariant-at-most-once] [data-testid=broken-by]")
        .unwrap();
    assert_eq!(by.get_attribute("data-attempt").as_deref(), Some("2"));
    assert!(by
        .text_content()
        .unwrap()
        .starts_with("Broken by attempt #2 at "));
    let said = announcement.text_content().unwrap();
    assert!(
        said.starts_with(
            "Promise broken: “Every operation is granted at most once”, by attempt #2"
        ),
        "{said}"
    );
    assert_eq!(
        lab.all("[data-testid=timeline-row]").len(),
        2,
        "marker rows are not attempt rows"
    );

    // The panel's button brings the attempt's row into view, with the focus.
    lab.click("Show attempt #2 in the timeline").await;
    until(|| {
        document()
            .active_element()
            .is_some_and(|e| e.get_attribute("data-attempt").as_deref() == Some("2"))
    })
    .await;
    let focused = document().active_element().unwrap();
    assert_eq!(focused.get_attribute("data-attempt").as_deref(), Some("2"));
    // The same key granted twice paid one purchase twice too.
    assert_eq!(
        focused.get_attribute("data-broke").as_deref(),
        Some("at-most-once paid-once")
    );
}

/// The walkthrough's files, as the page would fetch them.
fn walkthrough(lang: Lang) -> idempotency_lab::walkthrough::Content {
    let text = if lang == Lang::Fa {
        include_str!("../walkthrough/fa.json")
    } else {
        include_str!("../walkthrough/en.json")
    };
    idempotency_lab::walkthrough::Content::parse(
        include_str!("../walkthrough/scenarios.json"),
        text,
        lang.tag(),
    )
    .unwrap()
}

async fn mount_walkthrough(lang: Lang) -> Mounted {
    install_texts();
    let root = new_root();
    let content = walkthrough(lang);
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <App lang=lang walkthrough=content /> }.into_any()
    });
    settle().await;
    Mounted {
        root,
        _handle: handle,
    }
}

impl Mounted {
    fn text_of(&self, selector: &str) -> String {
        self.find(selector)
            .and_then(|e| e.text_content())
            .unwrap_or_default()
    }
}

#[wasm_bindgen_test]
async fn the_walkthrough_steps_through_the_world_and_back_with_the_worlds_numbers() {
    let page = mount_walkthrough(Lang::En).await;
    assert_eq!(page.text_of("[data-testid=step-counter]"), "1 / 3");
    assert!(page
        .text_of("[data-testid=narration]")
        .contains("Two workers"));
    // The lab below shows the script, and takes no clicks of its own.
    assert!(page.find(".column[inert]").is_some());
    assert!(page.find(".column.wide[inert]").is_none());
    assert!(page.rows().is_empty());
    page.click("Next step").await;
    assert_eq!(page.text_of("[data-testid=step-counter]"), "2 / 3");
    // The step's time plays; its narration already states where it ends.
    let animating = |page: &Mounted| {
        page.find("[data-testid=walkthrough]")
            .and_then(|w| w.get_attribute("data-animating"))
    };
    assert_eq!(animating(&page).as_deref(), Some("true"));
    assert!(page.rows().is_empty());
    // Beside the clock, the room reads that the picture is still on its way.
    let playing = page
        .find("[data-testid=clock-playing]")
        .expect("said while the step plays");
    let end: u64 = playing.get_attribute("data-end").unwrap().parse().unwrap();
    let now = |page: &Mounted| -> u64 {
        page.find("[data-testid=clock]")
            .and_then(|c| c.get_attribute("data-now"))
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!(end > now(&page), "{end} is ahead of {}", now(&page));
    assert!(
        playing.text_content().unwrap().starts_with("▶ playing to "),
        "{:?}",
        playing.text_content()
    );
    page.click("Skip to the step's end").await;
    assert_eq!(animating(&page).as_deref(), Some("false"));
    assert!(page.find("[data-testid=clock-playing]").is_none());
    assert_eq!(now(&page), end, "the step ends where it said");
    assert_eq!(
        page.rows(),
        vec![("timeout-applied".to_string(), None, "100".to_string())]
    );
    assert!(page
        .text_of("[data-testid=narration]")
        .contains("Alice has 100 at the main worker and 100 at the naive worker"));
    // A wrong answer, then the right one: the naive worker will hold 200.
    page.type_into("walk-answer", "100").await;
    page.click("Check").await;
    let feedback = page.find("[data-testid=feedback]").unwrap();
    assert_eq!(
        feedback.get_attribute("data-correct").as_deref(),
        Some("false")
    );
    page.type_into("walk-answer", "200").await;
    page.click("Check").await;
    let feedback = page.find("[data-testid=feedback]").unwrap();
    assert_eq!(
        feedback.get_attribute("data-correct").as_deref(),
        Some("true")
    );
    page.click("Next step").await;
    page.click("Skip to the step's end").await;
    assert_eq!(page.text_of("[data-testid=step-counter]"), "3 / 3");
    assert_eq!(page.rows().len(), 2);
    assert_eq!(page.rows()[1].0, "replayed");
    page.click("Previous step").await;
    page.click("Previous step").await;
    assert_eq!(page.text_of("[data-testid=step-counter]"), "1 / 3");
    assert!(page.rows().is_empty(), "back replays the world to step 1");
    page.click("Back to the sandbox").await;
    assert!(page.find("[data-testid=walkthrough]").is_none());
    assert!(page.find(".column[inert]").is_none());
}

#[wasm_bindgen_test]
async fn a_walkthrough_step_marks_its_proof_and_shows_only_the_panels_it_needs() {
    let page = mount_walkthrough(Lang::En).await;
    let marked = |page: &Mounted, selector: &str| {
        page.find(selector)
            .and_then(|e| e.get_attribute("data-marked"))
            .is_some()
    };
    let hidden = |page: &Mounted, panel: &str| {
        page.find(&format!("[data-panel={panel}]"))
            .is_some_and(|e| e.has_attribute("hidden"))
    };
    // Step 1 marks nothing yet, and needs the timeline alone.
    assert!(page.all("[data-marked]").is_empty());
    assert!(hidden(&page, "chart") && hidden(&page, "promises"));
    assert!(!hidden(&page, "timeline"));
    page.click("Next step").await;
    page.click("Skip to the step's end").await;
    // Alice's balance at both workers, and the attempt that got there.
    let memory = "[data-kind=memory] .stage-balance[data-account=alice]";
    assert!(marked(&page, memory));
    assert!(marked(
        &page,
        ".stage-naive .stage-balance[data-account=alice]"
    ));
    assert!(marked(
        &page,
        "[data-testid=stage-caller][data-attempt='1']"
    ));
    assert!(marked(
        &page,
        "[data-testid=timeline-row][data-attempt='1']"
    ));
    assert!(!marked(&page, "[data-testid=invariant-at-most-once]"));
    // "Show everything" brings the other panels back, and takes them away again.
    let everything: HtmlElement = page
        .find("[data-testid=show-everything]")
        .unwrap()
        .unchecked_into();
    everything.click();
    settle().await;
    assert!(!hidden(&page, "chart") && !hidden(&page, "promises"));
    everything.click();
    settle().await;
    assert!(hidden(&page, "chart"));
    // The sandbox marks nothing and hides nothing.
    page.click("Back to the sandbox").await;
    assert!(page.all("[data-marked]").is_empty());
    assert!(page.all("[data-panel][hidden]").is_empty());
}

#[wasm_bindgen_test]
async fn the_persian_walkthrough_states_the_worlds_numbers_in_persian_digits() {
    let page = mount_walkthrough(Lang::Fa).await;
    page.click("گام بعد").await;
    // The counter reads in Persian digits; its attributes keep ASCII ones.
    assert_eq!(page.text_of("[data-testid=step-counter]"), "۲ / ۳");
    let counter = page.find("[data-testid=step-counter]").unwrap();
    assert_eq!(counter.get_attribute("data-step").as_deref(), Some("2"));
    assert_eq!(counter.get_attribute("data-steps").as_deref(), Some("3"));
    let narration = page.text_of("[data-testid=narration]");
    assert!(narration.contains("۱۰۰"), "{narration}");
    assert!(
        !narration.chars().any(|c| c.is_ascii_digit()),
        "{narration}"
    );
}

thread_local! {
    /// What the start-up test's panels drew, in order.
    static DRAWN: std::cell::RefCell<Vec<&'static str>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn drawn() -> Vec<&'static str> {
    DRAWN.with(|d| d.borrow().clone())
}

#[component]
fn StagedPanel(name: &'static str, part: &'static str) -> impl IntoView {
    DRAWN.with(|d| d.borrow_mut().push(name));
    let rest = idempotency_lab::ui::later();
    view! {
        <p>{name}</p>
        <Show when=move || rest.get()>
            {
                DRAWN.with(|d| d.borrow_mut().push(part));
                view! { <p>{part}</p> }
            }
        </Show>
    }
}

#[wasm_bindgen_test]
async fn the_start_up_draws_a_panels_later_part_before_the_next_panel() {
    let root = new_root();
    let extra = RwSignal::new(false);
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        let stage = RwSignal::new(0u8);
        let mounted = move |k: u8| move || stage.get() >= k;
        idempotency_lab::ui::StartUp::run(stage, 2, || DRAWN.with(|d| d.borrow_mut().push("done")));
        view! {
            <Show when=mounted(1)>
                <StagedPanel name="panel 1" part="panel 1, later part" />
            </Show>
            <Show when=mounted(2)>
                <StagedPanel name="panel 2" part="panel 2, later part" />
            </Show>
            <Show when=move || extra.get()>
                <StagedPanel name="panel 3" part="panel 3, later part" />
            </Show>
        }
    });
    assert!(
        drawn().is_empty(),
        "nothing is drawn in the mount's own task"
    );
    // Each step is a task of its own; a busy machine may take a while.
    until(|| drawn().contains(&"done")).await;
    assert_eq!(
        drawn(),
        [
            "panel 1",
            "panel 1, later part",
            "panel 2",
            "panel 2, later part",
            "done"
        ]
    );
    // Once started, a part comes with its panel.
    extra.set(true);
    until(|| drawn().len() >= 7).await;
    assert_eq!(drawn()[5..], ["panel 3", "panel 3, later part"]);
    root.remove();
}

/// The stage draws what the queue panel counts: sixteen filled slots, the
/// producers waiting, the newest callers, and a description that says so.
#[wasm_bindgen_test]
async fn the_stage_draws_a_paused_burst_and_describes_it() {
    let lab = mount_instant(Lang::En).await;
    lab.toggle_pause().await;
    lab.click("Burst: 20 grants at once").await;
    let stage = lab.find("[data-testid=stage]").expect("the stage is drawn");
    let filled = lab.all("[data-testid=stage-queue-slot][data-attempt]");
    assert_eq!(filled.len(), 16);
    assert_eq!(lab.all("[data-testid=stage-queue-slot]").len(), 16);
    assert_eq!(
        filled[0].get_attribute("data-process").as_deref(),
        Some("1")
    );
    let callers: Vec<String> = lab
        .all("[data-testid=stage-caller]")
        .iter()
        .map(|c| c.get_attribute("data-state").unwrap())
        .collect();
    assert_eq!(callers, ["waiting"; 4]);
    let waiting = lab.find("[data-testid=stage-waiting]").unwrap();
    assert_eq!(waiting.text_content().unwrap(), "4 wait for room");
    let description = lab.find("[data-testid=stage-description]").unwrap();
    assert!(
        description
            .text_content()
            .unwrap()
            .starts_with("Process 1 running: 16 of 16 queued, 4 waiting for room"),
        "{:?}",
        description.text_content()
    );
    assert_eq!(
        stage.get_attribute("aria-describedby").as_deref(),
        Some("stage-description")
    );
}

/// The numbers a lesson names are written in the picture: the slots taken,
/// the callers' deadline and the consumer's time per grant, each following
/// the lab's settings.
#[wasm_bindgen_test]
async fn the_stage_writes_the_queue_count_the_deadline_and_the_work_time() {
    let lab = mount_instant(Lang::En).await;
    let text = |id: &str| {
        lab.find(&format!("[data-testid={id}]"))
            .and_then(|e| e.text_content())
            .unwrap_or_default()
    };
    assert_eq!(text("stage-queue-count"), "0/16");
    assert_eq!(text("stage-deadline"), "callers wait 3000 ms");
    assert_eq!(text("stage-work-time"), "100 ms a grant");
    lab.toggle_pause().await;
    lab.click("Burst: 20 grants at once").await;
    assert_eq!(text("stage-queue-count"), "16/16");
}

/// A crash between the two writes of a store that writes the balance first:
/// the process that crashed is drawn dark beside the new one, and the durable
/// store is marked with the one table written.
#[wasm_bindgen_test]
async fn the_stage_shows_a_crash_between_writes() {
    let mut start = Lab::new();
    start
        .dispatch(Action::Set(Setting::Store(StoreKind::BalanceFirst)))
        .unwrap();
    start
        .dispatch(Action::SetCrashPoint {
            point: Some(CrashPoint::BetweenWrites),
        })
        .unwrap();
    let lab = mount_with(Lang::En, Some(start)).await;
    lab.act("Send").await;
    let states: Vec<(String, String)> = lab
        .all("[data-testid=stage-process]")
        .iter()
        .map(|p| {
            (
                p.get_attribute("data-process").unwrap(),
                p.get_attribute("data-state").unwrap(),
            )
        })
        .collect();
    assert_eq!(
        states,
        [
            ("2".to_string(), "running".to_string()),
            ("1".to_string(), "crashed".to_string())
        ]
    );
    let store = lab
        .find("[data-testid=stage-store][data-kind=durable]")
        .expect("the durable store is drawn");
    let mark = lab.find("[data-testid=stage-store-mark]").unwrap();
    assert_eq!(
        mark.get_attribute("data-mark").as_deref(),
        Some("torn-write")
    );
    assert!(store.text_content().unwrap().contains("account-7100"));
    let caller = lab.find("[data-testid=stage-caller]").unwrap();
    assert_eq!(
        caller.get_attribute("data-mark").as_deref(),
        Some("process-ended")
    );
}

/// A click on a caller brings its row of the timeline into view and focus.
#[wasm_bindgen_test]
async fn a_caller_on_the_stage_leads_to_its_timeline_row() {
    let lab = mount(Lang::En).await;
    lab.act("Send").await;
    lab.act("Retry (same key)").await;
    let caller: HtmlElement = lab
        .find("[data-testid=stage-caller][data-attempt='1']")
        .unwrap()
        .unchecked_into();
    caller.click();
    for _ in 0..50 {
        TimeoutFuture::new(10).await;
        let focused = document().active_element();
        if let Some(row) =
            focused.filter(|e| e.get_attribute("data-testid").as_deref() == Some("timeline-row"))
        {
            assert_eq!(row.get_attribute("data-attempt").as_deref(), Some("1"));
            return;
        }
    }
    panic!("the row never took the focus");
}

/// A part of the stage opens the drawer of its settings and takes the focus
/// there; the switch opens every drawer, and closes them all again.
#[wasm_bindgen_test]
async fn a_stage_part_opens_its_settings_drawer_and_the_switch_opens_all() {
    let lab = mount(Lang::En).await;
    let expanded = |code: &str| {
        lab.find(&format!("#{code}-drawer-button"))
            .unwrap()
            .get_attribute("aria-expanded")
    };
    let hidden = |code: &str| {
        lab.find(&format!("#{code}-drawer"))
            .unwrap()
            .has_attribute("hidden")
    };
    assert_eq!(expanded("world").as_deref(), Some("true"));
    assert_eq!(expanded("queue").as_deref(), Some("false"));
    assert!(hidden("queue") && !hidden("world"));

    let part: HtmlElement = lab
        .find("[data-testid=stage-settings][data-drawer=queue]")
        .unwrap()
        .unchecked_into();
    assert_eq!(
        part.get_attribute("aria-label").as_deref(),
        Some("Open the settings: Worker queue")
    );
    part.click();
    for _ in 0..50 {
        TimeoutFuture::new(10).await;
        if document().active_element().map(|e| e.id()).as_deref() == Some("queue-drawer-button") {
            break;
        }
    }
    assert_eq!(
        document().active_element().map(|e| e.id()).as_deref(),
        Some("queue-drawer-button")
    );
    assert_eq!(expanded("queue").as_deref(), Some("true"));
    assert!(!hidden("queue"));
    assert_eq!(expanded("storage").as_deref(), Some("false"));

    let switch: HtmlInputElement = lab
        .find("[data-testid=show-all-settings]")
        .unwrap()
        .unchecked_into();
    assert!(!switch.checked());
    switch.click();
    settle().await;
    for code in ["world", "storage", "callers", "queue", "share"] {
        assert_eq!(expanded(code).as_deref(), Some("true"), "{code}");
    }
    switch.click();
    settle().await;
    for code in ["world", "storage", "callers", "queue", "share"] {
        assert_eq!(expanded(code).as_deref(), Some("false"), "{code}");
        assert!(hidden(code), "{code}");
    }
}

/// The time slider's change takes the lab to that moment; its end, back.
#[wasm_bindgen_test]
async fn the_time_slider_takes_the_lab_to_a_moment_and_back() {
    let lab = mount(Lang::En).await;
    lab.act("Send").await;
    let clock = lab.find("[data-testid=clock]").unwrap();
    let end = clock.get_attribute("data-now").unwrap();
    let slider: HtmlInputElement = lab.find("#history").unwrap().unchecked_into();
    assert_eq!(slider.max(), end);
    let at_end = lab
        .find("[data-testid=history-at]")
        .unwrap()
        .text_content()
        .unwrap();
    slider.set_value("40");
    slider
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    settle().await;
    assert_eq!(clock.get_attribute("data-now").as_deref(), Some("40"));
    let at = lab
        .find("[data-testid=history-at]")
        .unwrap()
        .text_content()
        .unwrap();
    assert_ne!(at, at_end);
    assert_eq!(
        at.split(" of ").nth(1),
        at_end.split(" of ").nth(1),
        "the far end stays"
    );
    lab.click("To the end").await;
    assert_eq!(clock.get_attribute("data-now"), Some(end));
}

/// The stage tells a screen reader each journey once, politely: the request
/// setting out, then its answer coming back, as the slider finds them.
#[wasm_bindgen_test]
async fn the_stage_tells_each_journey_once_in_a_polite_live_region() {
    let lab = mount(Lang::En).await;
    let news = lab.find("[data-testid=stage-travel-news]").unwrap();
    assert_eq!(news.get_attribute("aria-live").as_deref(), Some("polite"));
    lab.act("Send").await;
    let slider: HtmlInputElement = lab.find("#history").unwrap().unchecked_into();
    let at = |ms: &str| {
        slider.set_value(ms);
        slider
            .dispatch_event(&web_sys::Event::new("change").unwrap())
            .unwrap();
    };
    // Out for 400 ms, 100 ms of work, back for 400 ms.
    at("100");
    settle().await;
    assert_eq!(
        news.text_content().unwrap(),
        "request attempt 1 on its way to its process."
    );
    at("200");
    settle().await;
    assert_eq!(
        news.text_content().unwrap(),
        "request attempt 1 on its way to its process.",
        "said once, kept while nothing new begins"
    );
    at("700");
    settle().await;
    assert_eq!(
        news.text_content().unwrap(),
        "answer attempt 1 on its way back to its caller."
    );
}

/// How often the part below was asked for, and whether it can arrive.
static PART_CALLS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
static PART_ARRIVES: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

#[wasm_bindgen_test]
async fn a_part_that_cannot_arrive_is_tried_three_times_then_says_so_and_arrives_when_tried_again()
{
    use idempotency_lab::ui::{deferred, ChunkError, Controller};
    use std::sync::atomic::Ordering;
    install_texts();
    let root = new_root();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        let ctl = Controller::new(Lang::En, Lab::default());
        deferred(ctl, || {
            PART_CALLS.fetch_add(1, Ordering::SeqCst);
            let arrives = PART_ARRIVES.load(Ordering::SeqCst);
            std::future::ready(if arrives {
                Ok(
                    Box::new(|| view! { <p class="arrived">"here"</p> }.into_any())
                        as idempotency_lab::ui::Build,
                )
            } else {
                Err(ChunkError)
            })
        })
    });
    let find = |selector: &str| root.query_selector(selector).unwrap();
    until(|| find("[data-testid=part-failed]").is_some()).await;
    let failed = find("[data-testid=part-failed]").expect("the part says it did not arrive");
    assert_eq!(
        PART_CALLS.load(Ordering::SeqCst),
        3,
        "asked three times first"
    );
    assert_eq!(failed.get_attribute("role").as_deref(), Some("alert"));
    assert!(failed.text_content().unwrap().contains("did not arrive"));
    assert!(find(".arrived").is_none());
    PART_ARRIVES.store(true, Ordering::SeqCst);
    let again: HtmlElement = failed
        .query_selector("button")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(again.text_content().unwrap(), "Try again");
    again.click();
    until(|| find(".arrived").is_some()).await;
    assert!(find(".arrived").is_some(), "tried again, it arrived");
    assert!(find("[data-testid=part-failed]").is_none());
    assert_eq!(PART_CALLS.load(Ordering::SeqCst), 4);
    root.remove();
}

#[wasm_bindgen_test]
async fn an_unsplit_part_is_drawn_in_the_same_task_as_its_place() {
    use idempotency_lab::ui::{deferred, Controller};
    install_texts();
    let root = new_root();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        let ctl = Controller::new(Lang::En, Lab::default());
        deferred(ctl, || {
            let build: idempotency_lab::ui::Build =
                Box::new(|| view! { <p class="at-once">"here"</p> }.into_any());
            std::future::ready(Ok(build))
        })
    });
    // No await between the mount and the look.
    assert!(root.query_selector(".at-once").unwrap().is_some());
    root.remove();
}

/// The explorer's button and what it says, read from the page.
fn explorer_state(lab: &Mounted) -> (String, String, Option<String>) {
    let button = lab
        .find("[data-testid=explorer]")
        .expect("the explorer's button");
    (
        button.get_attribute("data-state").unwrap_or_default(),
        button.get_attribute("data-histories").unwrap_or_default(),
        button.get_attribute("data-broken"),
    )
}

/// Waits until the explorer is no longer running (at most 20 s).
async fn explorer_done(lab: &Mounted) {
    for _ in 0..2_000 {
        if explorer_state(lab).0 != "running" {
            return;
        }
        TimeoutFuture::new(10).await;
    }
    panic!("the explorer still runs");
}

/// From the sandbox's own settings (the article's in-memory store), the
/// explorer finds a history that grants twice, lists its steps, and hands it
/// to the sandbox, where the promise stands broken.
#[wasm_bindgen_test]
async fn the_explorer_breaks_the_in_memory_store_and_hands_the_history_over() {
    // The person's own session first: the explorer's history takes its place.
    let mut own = Lab::new();
    own.dispatch(Action::Send {
        grant: GrantPoints::new("mine", "bob", 5),
        lose_acknowledgement: false,
    })
    .unwrap();
    let lab = mount_with(Lang::En, Some(own)).await;
    assert_eq!(explorer_state(&lab).0, "idle");
    lab.find("[data-testid=explorer]")
        .unwrap()
        .unchecked_into::<HtmlElement>()
        .click();
    settle().await;
    explorer_done(&lab).await;
    let (state, histories, broken) = explorer_state(&lab);
    assert_eq!(state, "broken");
    assert_eq!(broken.as_deref(), Some("at-most-once"));
    let tried: u64 = histories.parse().unwrap();
    assert!((1..=300).contains(&tried), "{tried}");
    let steps = lab.all("[data-testid=explorer-history] li");
    assert!((2..=4).contains(&steps.len()), "{}", steps.len());
    let said = lab
        .find("[data-testid=explorer-said]")
        .unwrap()
        .text_content()
        .unwrap();
    assert!(said.contains("Broken"), "{said}");
    let first = steps[0].text_content().unwrap();
    assert!(first.starts_with("Send 100 points to"), "{first}");
    assert!(first.contains("alice"), "{first}");
    let link = lab.find("[data-testid=explorer-link]").unwrap();
    assert!(link.get_attribute("href").unwrap().contains("#state="));

    // Replayed in the walkthrough's player: the settings, each step, the end.
    lab.find("[data-testid=explorer-replay]")
        .unwrap()
        .unchecked_into::<HtmlElement>()
        .click();
    until(|| lab.find("[data-testid=walk-guest]").is_some()).await;
    let counter = || {
        let c = lab.find("[data-testid=step-counter]").unwrap();
        (
            c.get_attribute("data-step").unwrap(),
            c.get_attribute("data-steps").unwrap(),
        )
    };
    let all = (steps.len() + 2).to_string();
    assert_eq!(counter(), ("1".to_string(), all.clone()));
    lab.click("Next step").await;
    until(|| counter().0 == "2").await;
    let narration = lab
        .find("[data-testid=narration]")
        .unwrap()
        .text_content()
        .unwrap();
    assert!(narration.starts_with("Send 100 points to"), "{narration}");
    lab.click("Back to the sandbox").await;
    until(|| lab.find("[data-testid=walk-guest]").is_none()).await;
    assert!(lab.find("[data-testid=walkthrough]").is_none());

    lab.find("[data-testid=explorer-try]")
        .unwrap()
        .unchecked_into::<HtmlElement>()
        .click();
    settle().await;
    let promise = lab
        .find("[data-testid=invariant-at-most-once]")
        .expect("the promises panel");
    assert_eq!(
        promise.get_attribute("data-holds").as_deref(),
        Some("false")
    );
    let notice = lab
        .find("[data-testid=notice]")
        .unwrap()
        .text_content()
        .unwrap();
    assert!(
        notice.contains("in place of the session you had"),
        "{notice}"
    );
}

/// A number of histories the explorer cannot take is said, and nothing runs;
/// a search can be cancelled, and says how far it got.
#[wasm_bindgen_test]
async fn the_explorer_refuses_bad_input_and_can_be_cancelled() {
    let mut start = Lab::new();
    for change in [
        Setting::Store(StoreKind::OneTransaction),
        Setting::LedgerCheck(true),
    ] {
        start.dispatch(Action::Set(change)).unwrap();
    }
    let lab = mount_with(Lang::Fa, Some(start)).await;
    lab.type_into("explorer-histories", "0").await;
    let button: HtmlElement = lab.find("[data-testid=explorer]").unwrap().unchecked_into();
    button.click();
    settle().await;
    assert_eq!(explorer_state(&lab).0, "idle");
    let error = lab
        .find("[data-testid=explorer-error]")
        .unwrap()
        .text_content()
        .unwrap();
    assert!(
        error.contains("۱٬۰۰۰٬۰۰۰") || error.contains("۱۰۰۰۰۰۰"),
        "{error}"
    );
    lab.type_into("explorer-histories", "۵۰۰۰۰").await;
    button.click();
    settle().await;
    assert!(lab
        .find("[data-testid=explorer-error]")
        .unwrap()
        .text_content()
        .unwrap()
        .is_empty());
    assert_eq!(explorer_state(&lab).0, "running");
    until(|| explorer_state(&lab).1.parse::<u64>().is_ok_and(|n| n > 0)).await;
    lab.find("[data-testid=explorer-cancel]")
        .unwrap()
        .unchecked_into::<HtmlElement>()
        .click();
    settle().await;
    let (state, histories, _) = explorer_state(&lab);
    assert_eq!(state, "idle");
    let tried: u64 = histories.parse().unwrap();
    assert!(tried > 0 && tried < 50_000, "{tried}");
    TimeoutFuture::new(100).await;
    assert_eq!(
        explorer_state(&lab).1,
        histories,
        "a cancelled search stops"
    );
}

/// The recorder in the sandbox: a step marked in Persian alone, previewed in
/// the player (labelled, in its own language and direction on an English
/// page), then the mark taken back with its words.
#[wasm_bindgen_test]
async fn a_recorded_step_previews_in_its_language_and_undo_gives_its_words_back() {
    let lab = mount_with(Lang::En, None).await;
    until(|| lab.find("[data-testid=record-scenario]").is_some()).await;
    lab.find("[data-testid=record-scenario]")
        .unwrap()
        .unchecked_into::<HtmlElement>()
        .click();
    until(|| lab.find("[data-testid=recorder]").is_some()).await;
    lab.act("Send").await;
    let steps = || {
        lab.find("[data-testid=recording-status]")
            .unwrap()
            .get_attribute("data-steps")
            .unwrap()
    };
    // A mark with no words is refused and says so.
    lab.click("Mark step").await;
    let said = lab.find("[data-testid=teacher-said]").expect("a reason");
    assert_eq!(said.get_attribute("data-error").as_deref(), Some("true"));
    assert_eq!(steps(), "0");
    lab.type_into("rec-narration-fa", "مانده {balance:account-7} است.")
        .await;
    lab.click("Mark step").await;
    until(|| steps() == "1").await;
    lab.click("Preview").await;
    until(|| lab.find("[data-testid=walk-guest]").is_some()).await;
    let title = lab
        .find("[data-testid=walk-guest]")
        .unwrap()
        .text_content()
        .unwrap();
    // Untitled, in the language it is written in.
    assert_eq!(title, "Teacher's scenario: سناریوی بی\u{200c}نام");
    let narration = lab.find("[data-testid=narration]").unwrap();
    assert_eq!(narration.text_content().unwrap().trim(), "مانده ۱۰۰ است.");
    assert_eq!(narration.get_attribute("lang").as_deref(), Some("fa"));
    assert_eq!(narration.get_attribute("dir").as_deref(), Some("rtl"));
    let note = lab.find("[data-testid=written-in]").unwrap();
    assert_eq!(note.text_content().unwrap(), "Written in Persian only.");
    lab.click("Back to the sandbox").await;
    until(|| lab.find("[data-testid=recorder]").is_some()).await;
    assert_eq!(steps(), "1", "the recording goes on");
    lab.click("Undo mark").await;
    until(|| steps() == "0").await;
    let field: HtmlInputElement = lab.find("#rec-narration-fa").unwrap().unchecked_into();
    assert_eq!(field.value(), "مانده {balance:account-7} است.");
}
