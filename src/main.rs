//! The app binary: in the browser it mounts the lab; natively it only explains itself.

#[cfg(target_arch = "wasm32")]
fn main() {
    idempotency_lab::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("Idempotency Lab runs in the browser: start it with `trunk serve` (see README.md).");
}
