use idempotency_lab::lab::*;
use idempotency_lab::GrantPoints;

fn dump(name: &str, lab: &Lab) {
    let s = lab.state();
    println!("== {name} now={} process={}", s.now(), s.process_number());
    for r in s.timeline() {
        println!("  #{} {} {} +{} of_req={} {:?} {} truth={:?} caller={:?} bal={} at={} handled_at={:?} nh={} gb={:?} proc={}",
          r.attempt.id, r.attempt.grant.account_id, r.attempt.grant.key, r.attempt.grant.points,
          r.attempt.attempt_of_request, r.attempt.origin, r.outcome().code(), r.truth().map(|t| t.code()),
          r.caller_receipt().map(|c| c.balance), r.balance_after, r.answered_at,
          r.handled.as_ref().map(|h| h.at), r.never_handled, r.handled.as_ref().and_then(|h| h.granted_before_in), r.attempt.process);
    }
    println!("  balances {:?} naive {:?} queue {:?} waiting {} in_hand {:?} paused {} retry {:?} read {:?} in_flight {}",
      s.store().balances(), s.naive_balances(), s.queue().iter().map(|a| a.id).collect::<Vec<_>>(), s.waiting(), s.in_hand().map(|a| a.id), s.paused(), s.retry_target(), s.last_read(), s.in_flight());
    println!("  history {}", serde_json::to_string(lab.history()).unwrap());
}

#[test]
fn scratch() {
    for f in ["article-walk", "receipt-vs-balance", "burst-paused", "overflow-then-retry"] {
        let text = std::fs::read_to_string(format!("tests/fixtures/sessions-v1/{f}.json")).unwrap();
        let lab = from_json(&text).unwrap();
        dump(f, &lab);
    }
    let tok = std::fs::read_to_string("tests/fixtures/sessions-v1/article-walk.link").unwrap();
    dump("link", &from_link_token(&tok).unwrap());
    let mut lab = Lab::new();
    lab.dispatch(Action::SetPaused { paused: true }).unwrap();
    lab.dispatch(Action::Burst { account_id: "a".into(), points: 1, count: 40 }).unwrap();
    dump("burst40", &lab);
    lab.dispatch(Action::SetPaused { paused: false }).unwrap();
    dump("burst40 unpaused", &lab);
    lab.skip_to_idle();
    dump("burst40 idle", &lab);
    for e in lab.state().world().events().iter().take(10) { println!("{}", serde_json::to_string(e).unwrap()); }
}
