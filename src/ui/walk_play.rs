//! A step's time, played on the page at the walkthrough's pace, so a class
//! sees a caller wait and time out (the stepping itself is
//! `walkthrough::play`, tested natively to land where running the step at once
//! does).

use std::collections::VecDeque;

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::lab::Millis;
use crate::walkthrough::{advance, ops, Step};

use super::page_env::{self, now_ms};
use super::walk::Walk;

/// How often the clock moves while a step plays.
const TICK_MS: u32 = 50;
/// Virtual milliseconds per real one, in quarters, at each pace.
const PACE_QUARTERS: [f64; 3] = [2.0, 4.0, 8.0];

impl Walk {
    /// Plays a step's time from now, the step ending at virtual time `end`.
    pub(super) fn animate(self, step: &Step, end: Millis) {
        self.queue.set_value(ops(step));
        self.end.set_value(end);
        self.animating.set(true);
        self.anim_run.update_value(|r| *r += 1);
        let run = self.anim_run.get_value();
        spawn_local(async move {
            let mut last = now_ms();
            loop {
                TimeoutFuture::new(TICK_MS).await;
                if self.animating.is_disposed() || self.anim_run.get_value() != run {
                    return;
                }
                let now = now_ms();
                let real = (now - last).min(1_000.0);
                last = now;
                let quarters = PACE_QUARTERS[self.pace.get_untracked().min(2)];
                let budget = (real * quarters / 4.0).round().max(1.0) as Millis;
                if self.play_for(budget) {
                    return;
                }
            }
        });
    }

    /// Moves the step on by `budget` ms; true when it reached its end.
    fn play_for(self, budget: Millis) -> bool {
        let end = self.end.get_value();
        let mut ops = self
            .queue
            .try_update_value(std::mem::take)
            .unwrap_or_default();
        let result = self
            .ctl
            .lab
            .try_update(|lab| advance(lab, &mut ops, end, budget))
            .unwrap_or(Ok(()));
        let done = ops.is_empty();
        self.queue.set_value(ops);
        if !done {
            return false;
        }
        self.anim_run.update_value(|r| *r += 1);
        let target = self.take_target();
        if let Err(error) = result {
            // Not expected (the script is checked ahead), but never a half-played
            // step: the lab lands where the narration says, and the refusal shows.
            if let Some(target) = target {
                self.ctl.show(target);
            }
            self.take_proof();
            self.animating.set(false);
            self.fail(format!("{error:?}"));
            return true;
        }
        self.animating.set(false);
        // The answer's proof is on the timeline now: bring its row into view.
        // Otherwise the step's first mark, again: rows that arrived while the
        // step played may have moved it out of view.
        if let Some(proof) = self.take_proof() {
            self.reveal.set(Some(proof));
        } else {
            spawn_local(async {
                TimeoutFuture::new(0).await;
                page_env::show_first_mark();
            });
        }
        true
    }

    /// While a step plays its time: the moment it ends.
    pub fn playing_until(self) -> Signal<Option<Millis>> {
        Signal::derive(move || self.animating.get().then(|| self.end.get_value()))
    }

    /// Lands the step being played on its end at once.
    pub fn finish(self) {
        if self.animating.get_untracked() {
            self.play_for(Millis::MAX);
        }
    }

    /// Drops what is left of a step being played (the lab is about to be
    /// replaced).
    pub(super) fn stop_animation(self) {
        self.take_proof();
        self.anim_run.update_value(|r| *r += 1);
        self.queue.set_value(VecDeque::new());
        self.animating.set(false);
    }
}
