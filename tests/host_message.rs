//! The messages a host page may send an embedded lab: only the theme, and only
//! with a theme the lab has.

use idempotency_lab::host_message::{HostMessage, Theme, THEME_MESSAGE};

#[test]
fn a_theme_message_sets_one_of_three_themes_and_nothing_else_is_taken() {
    for theme in Theme::ALL {
        assert_eq!(
            HostMessage::read(Some(THEME_MESSAGE), Some(theme.code())),
            Some(HostMessage::Theme(theme))
        );
    }
    assert_eq!(THEME_MESSAGE, "idempotency-lab:theme");
    assert_eq!(HostMessage::read(Some(THEME_MESSAGE), Some("Dark")), None);
    assert_eq!(HostMessage::read(Some(THEME_MESSAGE), Some("sepia")), None);
    assert_eq!(HostMessage::read(Some(THEME_MESSAGE), None), None);
    assert_eq!(
        HostMessage::read(Some("idempotency-lab:lang"), Some("dark")),
        None
    );
    assert_eq!(HostMessage::read(None, Some("dark")), None);
}

#[test]
fn only_light_and_dark_fix_the_colours() {
    assert_eq!(Theme::Auto.class(), None);
    assert_eq!(Theme::Light.class(), Some("theme-light"));
    assert_eq!(Theme::Dark.class(), Some("theme-dark"));
    assert_eq!(Theme::default(), Theme::Auto);
    // The boot script and the styles name the same classes.
    let boot = include_str!("../index.html");
    let styles = include_str!("../style/main.css");
    for class in ["theme-light", "theme-dark"] {
        assert!(
            styles.contains(&format!("html.{class}")),
            "{class} in main.css"
        );
    }
    assert!(boot.contains("'theme-' + theme") || boot.contains("`theme-${theme}`"));
}
