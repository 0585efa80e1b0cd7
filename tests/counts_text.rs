#![cfg(not(target_arch = "wasm32"))]
//! Counts in sentences: thousands grouped, in each language's digits.

use idempotency_lab::i18n::Lang;

#[test]
fn a_stress_runs_progress_groups_its_thousands_in_both_languages() {
    let en = Lang::En.texts().stress_progress(1_234, 10_000);
    assert!(
        en.starts_with("Stress run under way: 1,234 of 10,000 answered."),
        "{en}"
    );
    for (n, shown) in [
        (0, "0"),
        (7, "7"),
        (999, "999"),
        (1_000, "1,000"),
        (123_456, "123,456"),
        (1_234_567, "1,234,567"),
    ] {
        let said = Lang::En.texts().stress_refused(n, 10_000);
        assert!(
            said.contains(&format!("({shown} of 10,000 answered)")),
            "{said}"
        );
    }
    let fa = Lang::Fa.texts().stress_progress(1_234, 10_000);
    assert!(fa.contains("۱٬۲۳۴ از ۱۰٬۰۰۰"), "{fa}");
    assert!(!fa.chars().any(|c| c.is_ascii_digit()), "{fa}");
    let fa = Lang::Fa.texts().stress_refused(12, 10_000);
    assert!(fa.contains("۱۲ از ۱۰٬۰۰۰"), "{fa}");
}
