#![cfg(not(target_arch = "wasm32"))]
//! A language's texts are installed once, and only from a file that reads.
//! Alone in its binary, so no other test has read Persian's file first.

use idempotency_lab::i18n::{install, is_installed, Lang};

#[test]
fn a_refused_file_installs_nothing_and_a_good_one_is_kept() {
    assert!(!is_installed(Lang::Fa), "nothing has read Persian yet");
    assert!(install(Lang::Fa, "{").is_err());
    assert!(install(Lang::Fa, r#"{"language":"en","digits":"0123456789","decimal":".","group":",","plural":"none","texts":{}}"#).is_err());
    assert!(!is_installed(Lang::Fa), "a refused file installs nothing");
    // Natively a language reads its own file on first use.
    assert_eq!(Lang::Fa.texts().title, "آزمایشگاه ایدمپوتنسی");
    assert!(is_installed(Lang::Fa));
}
