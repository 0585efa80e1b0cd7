//! The caller protocol: a call reaches a running process as routed, is let in
//! or refused at the door, claims its operation's in-progress record, waits for
//! its answer until its deadline (a caller over a real connection hears nothing
//! of a lost acknowledgement), and reports what it heard. A person's caller may
//! retry by itself with backoff, and look the operation up when out of attempts.

use std::future::pending;
use std::pin::pin;
use std::rc::Rc;

use futures::channel::oneshot;
use futures::future::{select, Either};

use crate::core::{
    answer, authorize, Claimed, GrantError, GrantPoints, GrantResult, Holder, InFlightPolicy,
    RetryPolicy, StoreOutcome,
};

use super::event::{AttemptId, Happening, Origin};
use super::process::{Running, Switchboard};
use super::shared::Shared;

/// One caller's call: it crosses the network to a running process as routed
/// (and, with the naive worker on, sends a copy there too), then waits for the
/// answer to come back until its deadline, and reports what it heard.
pub(super) async fn call(
    shared: Rc<Shared>,
    call: Call,
    running: Running,
) -> Result<GrantResult, GrantError> {
    let Call {
        attempt,
        grant,
        lose_acknowledgement,
        patient,
        origin,
        door,
        redelivery_of,
        retry_of,
        copied_on_arrival,
    } = call;
    shared
        .broker
        .sent(attempt, &grant, running.number, redelivery_of.is_some());
    // A redelivered copy starts in the queue; a caller's request crosses the
    // network to its process, and the answer crosses it back.
    let transit = match redelivery_of {
        Some(_) => 0,
        None => shared.settings().transit_ms,
    };
    let deadline = (!patient).then(|| {
        shared
            .clock
            .now()
            .saturating_add(shared.settings().caller_timeout_ms)
    });
    shared.report(Happening::Sent {
        attempt,
        process: running.number,
        deadline,
        grant: grant.clone(),
        acknowledgement_will_be_lost: lose_acknowledgement,
        origin,
        redelivery_of,
        retry_of,
        transit,
    });
    // The naive worker treats every delivery as new: it forgets the caller's key
    // and files each copy under a key of its own, so nothing is recognised. The
    // copy goes as far as the caller's own request does (in the caller's own
    // process, a caller that gives up while waiting for room takes both back).
    let naive_copy = (door.is_ok() && shared.settings().naive).then(|| {
        let copy = grant.with_key(format!("delivery-{attempt}"));
        let naive = Rc::clone(&running.naive);
        let shared = Rc::clone(&shared);
        async move {
            travel(&shared, transit).await;
            let _ = naive
                .process_tagged(attempt, copy, lose_acknowledgement)
                .await;
        }
    });
    let account = grant.account_id.clone();
    let keeps_records = shared.settings().keeps_records();
    let claimed = grant.clone();
    let request = Request {
        attempt,
        grant,
        lose_acknowledgement,
        door,
        transit,
        keeps_records,
        copied_on_arrival,
    };
    // The naive copy runs beside the request, for as long as the request lasts.
    let beside = async {
        if let Some(copy) = naive_copy {
            copy.await;
        }
        pending::<std::convert::Infallible>().await
    };
    // A patient caller's deadline never comes.
    let deadline_passes = async {
        match deadline {
            Some(at) => shared.clock.sleep_until(at).await,
            None => pending().await,
        }
    };
    let what = if transit == 0 {
        // In the caller's own process: a caller that gives up takes its request
        // back if it is not queued yet (waiting for room, or for the first).
        let answer = async {
            let arrived = journey(Rc::clone(&shared), running.clone(), request).await;
            heard_or_silence(arrived, deadline).await
        };
        let heard = async {
            let heard = before(answer, deadline_passes).await;
            let ended = matches!(heard, Some(Err(GrantError::WorkerStopped)));
            let_go(&shared, &running, &claimed, attempt, keeps_records, ended);
            heard_as_happening(&shared, &running, &account, attempt, heard)
        };
        match select(pin!(heard), pin!(beside)).await {
            Either::Left((what, _)) => what,
            Either::Right((never, _)) => match never {},
        }
    } else {
        // Across a network: once sent, the request is the network's and then the
        // process's. A caller that gives up stops listening; its request still
        // arrives, is handled, and its answer comes back to nobody.
        let (tell, told) = oneshot::channel();
        let journey_shared = Rc::clone(&shared);
        let journey_running = running.clone();
        shared.spawn(async move {
            let on_way = journey(Rc::clone(&journey_shared), journey_running.clone(), request);
            let arrived = match select(pin!(on_way), pin!(beside)).await {
                Either::Left((arrived, _)) => arrived,
                Either::Right((never, _)) => match never {},
            };
            let ended = matches!(arrived, Some(Err(GrantError::WorkerStopped)));
            let _ = tell.send(arrived);
            let_go(
                &journey_shared,
                &journey_running,
                &claimed,
                attempt,
                keeps_records,
                ended,
            );
        });
        let answer = async { heard_or_silence(told.await.ok().flatten(), deadline).await };
        let heard = before(answer, deadline_passes).await;
        heard_as_happening(&shared, &running, &account, attempt, heard)
    };
    let heard = match &what {
        Happening::Answered { answer, .. } => answer.clone(),
        _ => Err(GrantError::Timeout),
    };
    shared.report(what);
    heard
}

/// A request on its way: what a caller sent, and how long the network takes.
struct Request {
    attempt: AttemptId,
    grant: GrantPoints,
    lose_acknowledgement: bool,
    door: Result<(), GrantError>,
    transit: crate::sim::Millis,
    keeps_records: bool,
    copied_on_arrival: bool,
}

/// A request's journey: across the network to its process, in at the door,
/// its operation's record claimed, through the queue and the store, and the
/// answer back across the network. `None` when no answer arrives (it was lost).
async fn journey(
    shared: Rc<Shared>,
    running: Running,
    request: Request,
) -> Option<Result<GrantResult, GrantError>> {
    let Request {
        attempt,
        grant,
        lose_acknowledgement,
        door,
        transit,
        keeps_records,
        copied_on_arrival,
    } = request;
    let at_process = async {
        travel(&shared, transit).await;
        // The queue's copy is made here, behind the request it copies, under
        // the next number; a process that has ended queues nothing to copy.
        if copied_on_arrival && !running.ended.is_closed() {
            let copy = Call::redelivery(shared.fresh_attempt(), attempt, grant.clone());
            let (copy_shared, copy_running) = (Rc::clone(&shared), running.clone());
            shared.spawn(async move {
                let _ = call(copy_shared, copy, copy_running).await;
            });
        }
        // A key is not a credential: a request for another account than the
        // signed-in caller's is refused before any store is asked.
        if let Err(refused) = door {
            shared.broker.withdrawn(attempt);
            let leak = shared.stored_receipt(&running.memory, &grant);
            shared.report(Happening::Forbidden { attempt, leak });
            return Err(refused);
        }
        let mut direct = None;
        if keeps_records {
            let waited = wait_for_claim(&shared, &grant, attempt, &running).await?;
            // The first attempt is done: its receipt is the answer, read from the
            // store with no second pass through the queue and the work.
            let stored = waited
                .then(|| shared.receipt_in(&running.memory, &grant))
                .flatten();
            if let Some(receipt) = stored {
                shared.release_claim(&running.claims, &grant, attempt, false);
                let delivered = answer(Ok(StoreOutcome::Replayed(receipt)), lose_acknowledgement);
                shared.report(Happening::Handled {
                    attempt,
                    store: delivered.store.clone(),
                    acknowledgement_lost: delivered.caller.is_err(),
                    balance: shared.balance_in(&running.memory, &grant.account_id),
                });
                direct = Some(delivered.caller);
            }
        }
        match direct {
            Some(result) => result,
            None => {
                running
                    .worker
                    .process_tagged(attempt, grant.clone(), lose_acknowledgement)
                    .await
            }
        }
    };
    match at_process.await {
        // The article's worker turns a lost acknowledgement into a timeout at
        // once. Over a real connection the answer drops on its way back, and a
        // caller hears nothing at all.
        Err(GrantError::Timeout) => {
            if transit > 0 {
                shared.clock.sleep(transit / 2).await;
                shared.report(Happening::AnswerLost { attempt });
            }
            None
        }
        // Lost on its way by a person's hand, as if the fault had struck.
        answer => travel_back(&shared, attempt, transit)
            .await
            .then_some(answer),
    }
}

/// What `answer` gives if it comes before `deadline_passes`; `None` after.
async fn before<T>(
    answer: impl std::future::Future<Output = T>,
    deadline_passes: impl std::future::Future<Output = ()>,
) -> Option<T> {
    match select(pin!(answer), pin!(deadline_passes)).await {
        Either::Left((answer, _)) => Some(answer),
        Either::Right(_) => None,
    }
}

/// What a caller makes of its answer: the answer, or, when none arrives,
/// silence until its deadline (a patient caller, with none, is told of a
/// timeout).
async fn heard_or_silence(
    arrived: Option<Result<GrantResult, GrantError>>,
    deadline: Option<crate::sim::Millis>,
) -> Result<GrantResult, GrantError> {
    match (arrived, deadline) {
        (Some(answer), _) => answer,
        (None, Some(_)) => pending().await,
        (None, None) => Err(GrantError::Timeout),
    }
}

/// The request is done with: a call that ends before its delivery was queued
/// (its caller gave up) takes its claim back with it; once queued, only the
/// store's answer or the end of the process releases it. A call that hears its
/// process ended lets go too: it may have claimed after the process's records
/// were released, on its way to a queue that was being torn down.
fn let_go(
    shared: &Shared,
    running: &Running,
    claimed: &GrantPoints,
    attempt: AttemptId,
    keeps_records: bool,
    ended: bool,
) {
    if keeps_records {
        shared.release_claim(&running.claims, claimed, attempt, !ended);
    }
    shared.broker.withdrawn(attempt);
}

/// What the world logs of what a caller heard (`None`: its deadline passed).
fn heard_as_happening(
    shared: &Shared,
    running: &Running,
    account: &str,
    attempt: AttemptId,
    heard: Option<Result<GrantResult, GrantError>>,
) -> Happening {
    let balance = shared.balance_in(&running.memory, account);
    match heard {
        Some(answer) => Happening::Answered {
            attempt,
            answer,
            balance,
        },
        None => Happening::TimedOut { attempt, balance },
    }
}

/// A person's caller with an automatic retry policy: it calls, and while the
/// answer is one that may go away (a timeout, "in progress") it waits its
/// backoff and calls again with the same request, up to the policy's attempts.
/// If they run out with the outcome unknown, it looks the operation up in the
/// store instead of retrying forever.
pub(super) async fn retrying_call(
    shared: Rc<Shared>,
    switchboard: Rc<Switchboard>,
    first: Call,
    routed: Running,
    policy: RetryPolicy,
) {
    let first_id = first.attempt;
    let grant = first.grant.clone();
    let mut call_now = first;
    let mut routed = Some(routed);
    let mut n = 1;
    loop {
        let attempt = call_now.attempt;
        // The first attempt was routed when it was made; each retry is routed anew.
        let running = routed
            .take()
            .unwrap_or_else(|| switchboard.route(&grant.key, shared.settings().routing));
        let heard = call(Rc::clone(&shared), call_now, running.clone()).await;
        let error = match heard {
            Ok(_) => return,
            Err(error) => error,
        };
        if !RetryPolicy::retries(&error) {
            return;
        }
        if n >= policy.max_attempts {
            // Out of attempts, outcome unknown: ask instead of guessing.
            let receipt = shared.stored_receipt(&running.memory, &grant);
            shared.report(Happening::LookedUp { attempt, receipt });
            return;
        }
        let wait = policy.backoff(first_id, n);
        shared.report(Happening::Backoff {
            attempt,
            wait,
            retry: n,
        });
        shared.clock.sleep(wait).await;
        n += 1;
        let mut retry = Call::new(&shared, grant.clone(), false, false, Origin::AutoRetry);
        retry.retry_of = Some(attempt);
        call_now = retry;
    }
}

/// Claims the operation's in-progress record for `attempt`. A duplicate that
/// finds it held says so, then either waits for the release and claims it in
/// turn, or is told at once to retry later. `Ok(true)` when it waited.
async fn wait_for_claim(
    shared: &Shared,
    grant: &GrantPoints,
    attempt: AttemptId,
    running: &Running,
) -> Result<bool, GrantError> {
    // The policy in force when the call was made holds for it: a duplicate
    // already waiting keeps waiting if the setting changes meanwhile.
    let waits = shared.settings().in_flight == InFlightPolicy::Wait;
    let mut told = false;
    loop {
        // A call whose process has ended is answered as the process's end answers it.
        if running.ended.is_closed() {
            return Err(GrantError::WorkerStopped);
        }
        let holder = Holder {
            attempt,
            process: running.number,
            since: shared.clock.now(),
        };
        // Looked up afresh each time: the store (and its records) may have changed.
        let claims = shared.claims_in_use(&running.claims);
        let (holder, released) = match claims.claim(grant, holder) {
            Claimed::Mine => return Ok(told),
            Claimed::Held { holder, released } => (holder, released),
        };
        if !told {
            shared.report(Happening::InProgress {
                attempt,
                holder: holder.attempt,
                waits,
            });
            told = true;
        }
        if !waits {
            return Err(GrantError::InProgress);
        }
        // Sent or dropped, the holder has let go: look again. If this call's own
        // process ends first, it looks again too, and finds that out.
        let _ = select(released, pin!(running.ended.recv())).await;
    }
}

/// A message on the network for `transit` ms (none at all when it is 0, so a
/// world without transit runs exactly as it did before the lab had it).
async fn travel(shared: &Shared, transit: crate::sim::Millis) {
    if transit > 0 {
        shared.clock.sleep(transit).await;
    }
}

/// An answer on its way back for `transit` ms, which a person may lose on the
/// way ([`World::lose_answer`](super::World::lose_answer)). True when it arrives.
async fn travel_back(shared: &Shared, attempt: AttemptId, transit: crate::sim::Millis) -> bool {
    if transit == 0 {
        return true;
    }
    let (lose, lost) = oneshot::channel();
    shared.answers_on_way.borrow_mut().push((attempt, lose));
    let arrival = shared.clock.sleep(transit);
    let arrived = matches!(select(pin!(arrival), lost).await, Either::Left(_));
    // (An answer travels in its request's own task, which no caller's deadline
    // drops; a switch left behind by a dropped world is swept away anyway.)
    shared
        .answers_on_way
        .borrow_mut()
        .retain(|(a, _)| *a != attempt);
    arrived
}

/// One call as made: who sends what, and how long they wait.
pub(super) struct Call {
    pub attempt: AttemptId,
    pub grant: GrantPoints,
    pub lose_acknowledgement: bool,
    /// Waits as long as it takes (a batch job, or the queue itself).
    pub patient: bool,
    pub origin: Origin,
    /// Whether the request was let in at the door: a key is not a credential,
    /// so a request for another account than the signed-in caller's is
    /// refused before any store is asked.
    pub door: Result<(), GrantError>,
    /// The queue delivers this message again: the attempt it copies.
    pub redelivery_of: Option<AttemptId>,
    /// The caller's automatic retry of this attempt.
    pub retry_of: Option<AttemptId>,
    /// The queue copies this message when the request arrives to be queued
    /// (across a network; without one, the world makes the copy at once).
    pub copied_on_arrival: bool,
}

impl Call {
    /// A request a caller makes now, under the next attempt number, checked at
    /// the door once, as it is made.
    pub fn new(
        shared: &Shared,
        grant: GrantPoints,
        lose_acknowledgement: bool,
        patient: bool,
        origin: Origin,
    ) -> Self {
        let attempt = shared.fresh_attempt();
        Self::numbered(
            shared,
            attempt,
            grant,
            lose_acknowledgement,
            patient,
            origin,
        )
    }

    /// [`new`](Self::new) under a number taken earlier (a batch takes its
    /// numbers when it starts, and makes its calls as room opens up).
    pub fn numbered(
        shared: &Shared,
        attempt: AttemptId,
        grant: GrantPoints,
        lose_acknowledgement: bool,
        patient: bool,
        origin: Origin,
    ) -> Self {
        let door = authorize(shared.signed_in.borrow().as_deref(), &grant);
        Call {
            attempt,
            grant,
            lose_acknowledgement,
            patient,
            origin,
            door,
            redelivery_of: None,
            retry_of: None,
            copied_on_arrival: false,
        }
    }

    /// A copy the queue delivers again: nobody waits for its answer but the
    /// queue, which takes it as the acknowledgement. Its message was let in
    /// when it was first sent.
    pub fn redelivery(attempt: AttemptId, original: AttemptId, grant: GrantPoints) -> Self {
        Call {
            attempt,
            grant,
            lose_acknowledgement: false,
            patient: true,
            origin: Origin::Redelivered,
            door: Ok(()),
            redelivery_of: Some(original),
            retry_of: None,
            copied_on_arrival: false,
        }
    }
}
