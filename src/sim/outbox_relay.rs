//! The outbox's relay, beside the outbox: it runs on the world's clock and
//! reports each email it hands to the mail service.

use std::rc::Rc;

use super::event::Happening;
use super::outbox::{relay, RELAY_DELAY_MS};
use super::shared::Shared;

/// The outbox's relay: woken by each row written, it waits a moment, then
/// hands every row to the mail service (at least once) and reports each
/// delivery. It never ends; it sleeps only while there is something to send.
pub(super) async fn run_relay(shared: Rc<Shared>, wake: async_channel::Receiver<()>) {
    while wake.recv().await.is_ok() {
        shared.clock.sleep(RELAY_DELAY_MS).await;
        while wake.try_recv().is_ok() {}
        let rows = shared.outbox.take();
        let delivered = relay(rows, &mut shared.mail.borrow_mut());
        for (email, outcome) in delivered {
            shared.report(Happening::Emailed {
                account_id: email.account_id,
                key: email.key,
                outbox: true,
                outcome,
            });
        }
    }
}
