use idempotency_lab::lab::*;
use idempotency_lab::GrantPoints;

fn show(lab: &Lab) {
    for e in lab.state().world().events().iter() { println!("{}", serde_json::to_string(e).unwrap()); }
    let s = lab.state();
    for r in s.timeline() {
        println!("  #{} {} +{} {} truth={:?} bal={} at={} nh={} gb={:?} proc={}", r.attempt.id, r.attempt.grant.key, r.attempt.grant.points, r.outcome().code(), r.truth().map(|t| t.code()), r.balance_after, r.answered_at, r.never_handled, r.handled.as_ref().and_then(|h| h.granted_before_in), r.attempt.process);
    }
    println!("  store {:?} naive fold {:?} naive store {:?}", s.store().balances(), s.naive_balances(), s.world().naive_store().balances());
}
fn send(lab: &mut Lab, key: &str, pts: i32, lose: bool) {
    lab.dispatch(Action::Send { grant: GrantPoints::new(key, "a", pts), lose_acknowledgement: lose }).unwrap();
}

#[test]
fn restart_naive() {
    let mut lab = Lab::new();
    lab.dispatch(Action::SetNaive { on: true }).unwrap();
    send(&mut lab, "k", 100, true);
    lab.dispatch(Action::Wait { ms: 500 }).unwrap();
    lab.dispatch(Action::RetrySame { lose_acknowledgement: false }).unwrap();
    lab.skip_to_idle();
    show(&lab);
    lab.dispatch(Action::Restart).unwrap();
    lab.dispatch(Action::RetrySame { lose_acknowledgement: false }).unwrap();
    lab.skip_to_idle();
    show(&lab);
}
#[test]
fn restart_queued() {
    let mut lab = Lab::new();
    lab.dispatch(Action::SetCallerTimeout { ms: 1000 }).unwrap();
    lab.dispatch(Action::SetPaused { paused: true }).unwrap();
    lab.dispatch(Action::Burst { account_id: "a".into(), points: 1, count: 18 }).unwrap();
    lab.dispatch(Action::SetCallerTimeout { ms: 3000 }).unwrap();
    send(&mut lab, "x", 5, false);
    lab.dispatch(Action::Wait { ms: 1500 }).unwrap();
    lab.dispatch(Action::Restart).unwrap();
    lab.skip_to_idle();
    show(&lab);
}
