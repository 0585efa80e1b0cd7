//! The embed dialog's snippet: a frame sized by attributes, its address for
//! each view, and the host script's tag when asked for.

use idempotency_lab::embed_code::{
    read_size, EmbedCode, EmbedView, SizeError, Width, HEIGHTS, WIDTHS,
};
use idempotency_lab::host_message::Theme;
use idempotency_lab::i18n::Lang;
use idempotency_lab::lab::FieldError;

fn code(view: EmbedView) -> EmbedCode {
    EmbedCode {
        base: "https://lab.example.org/docs/lab/".into(),
        view,
        lang: Lang::En,
        theme: Theme::Auto,
        width: Width::Full,
        height: 640,
        heights_at: Vec::new(),
        fit_content: false,
        title: "Idempotency Lab".into(),
        id: String::new(),
    }
}

#[test]
fn each_view_has_its_address() {
    assert_eq!(
        code(EmbedView::Sandbox).src(),
        "https://lab.example.org/docs/lab/?embed=1&lang=en"
    );
    let lesson = EmbedView::Lesson {
        scenario: "s4".into(),
        step: 2,
    };
    assert_eq!(
        code(lesson).src(),
        "https://lab.example.org/docs/lab/?embed=1&lang=en&scenario=s4&step=2"
    );
    let state = EmbedView::State {
        token: "v3.abc-_".into(),
    };
    assert_eq!(
        code(state).src(),
        "https://lab.example.org/docs/lab/?embed=1&lang=en#state=v3.abc-_"
    );
    // The language and a fixed theme; `auto` is the default and not written.
    let mut persian_dark = code(EmbedView::Sandbox);
    persian_dark.lang = Lang::Fa;
    persian_dark.theme = Theme::Dark;
    assert_eq!(
        persian_dark.src(),
        "https://lab.example.org/docs/lab/?embed=1&lang=fa&theme=dark"
    );
    persian_dark.theme = Theme::Light;
    assert!(persian_dark.src().ends_with("&theme=light"));
}

#[test]
fn the_frame_is_sized_by_attributes_and_its_values_are_escaped() {
    let mut lesson = code(EmbedView::Lesson {
        scenario: "s4".into(),
        step: 2,
    });
    lesson.title = "Lab \"<1>\"".into();
    lesson.width = Width::Pixels(720);
    lesson.height = 900;
    let snippet = lesson.snippet();
    assert_eq!(
        snippet,
        "<iframe src=\"https://lab.example.org/docs/lab/?embed=1&amp;lang=en&amp;scenario=s4&amp;step=2\" title=\"Lab &quot;&lt;1&gt;&quot;\"\n        width=\"720\" height=\"900\" allow=\"clipboard-write\" loading=\"lazy\"></iframe>"
    );
    assert!(!snippet.contains("style"), "no inline style");
    assert!(!snippet.contains("<script>"));
    assert!(code(EmbedView::Sandbox)
        .snippet()
        .contains("width=\"100%\" height=\"640\""));
}

#[test]
fn sized_to_content_the_snippet_adds_the_host_script_from_the_labs_own_site() {
    let mut fit = code(EmbedView::Sandbox);
    assert_eq!(fit.csp_lines(), ["frame-src https://lab.example.org"]);
    fit.fit_content = true;
    assert_eq!(fit.origin(), "https://lab.example.org");
    let snippet = fit.snippet();
    let (frame, script) = snippet.rsplit_once('\n').expect("a script after the frame");
    assert!(frame.ends_with("</iframe>"));
    assert_eq!(
        script,
        "<script src=\"https://lab.example.org/docs/lab/embed.js\" async></script>"
    );
    assert!(!snippet.contains("<script>"), "no inline script");
    // The two directives a strict host policy needs.
    assert_eq!(
        fit.csp_lines(),
        [
            "frame-src https://lab.example.org",
            "script-src https://lab.example.org"
        ]
    );
    // Other origins: a port, and a lab at the host's root.
    fit.base = "http://127.0.0.1:8080/".into();
    assert_eq!(fit.origin(), "http://127.0.0.1:8080");
    assert_eq!(fit.script_src(), "http://127.0.0.1:8080/embed.js");
    fit.base = "https://lab.example.org".into();
    assert_eq!(fit.origin(), "https://lab.example.org");
    assert_eq!(fit.script_src(), "https://lab.example.org/embed.js");
    fit.base = "https://a.io/lab/".into();
    assert_eq!(fit.origin(), "https://a.io");
}

#[test]
fn the_frame_carries_its_id_when_it_has_one() {
    let mut named = code(EmbedView::Lesson {
        scenario: "s4".into(),
        step: 2,
    });
    named.id = "retries & more".into();
    assert_eq!(
        named.src(),
        "https://lab.example.org/docs/lab/?embed=1&lang=en&id=retries+%26+more&scenario=s4&step=2"
    );
    assert!(named.snippet().contains("&amp;id=retries+%26+more&amp;"));
}

#[test]
fn the_readme_shows_the_dialogs_tag_and_the_file_is_in_the_build() {
    let readme = include_str!("../README.md");
    let mut fit = code(EmbedView::Sandbox);
    fit.fit_content = true;
    fit.base = "https://lab.example.org/".into();
    let tag = fit.snippet().lines().last().unwrap().to_owned();
    assert!(
        readme.contains(&tag),
        "the README shows the dialog's tag:\n{tag}"
    );
    let index = include_str!("../index.html");
    assert!(index.contains("<link data-trunk rel=\"copy-file\" href=\"static/embed.js\" />"));
}

#[test]
fn a_size_is_a_whole_number_in_its_range_or_refused_with_the_reason() {
    assert_eq!(read_size("640", &HEIGHTS), Ok(640));
    assert_eq!(read_size(" 480 ", &HEIGHTS), Ok(480));
    assert_eq!(read_size("4000", &HEIGHTS), Ok(4000));
    assert_eq!(read_size("۶۴۰", &HEIGHTS), Ok(640), "Persian digits");
    let range = SizeError::Range {
        min: 480,
        max: 4000,
    };
    assert_eq!(read_size("479", &HEIGHTS), Err(range));
    assert_eq!(read_size("4001", &HEIGHTS), Err(range));
    assert_eq!(read_size("99999999999999999999999", &HEIGHTS), Err(range));
    // A negative size is out of range too, not "not a number".
    assert_eq!(read_size("-5", &HEIGHTS), Err(range));
    assert_eq!(read_size("\u{2212}640", &HEIGHTS), Err(range));
    assert_eq!(
        read_size("", &HEIGHTS),
        Err(SizeError::Field(FieldError::Empty))
    );
    assert_eq!(
        read_size("64O", &HEIGHTS),
        Err(SizeError::Field(FieldError::NotANumber))
    );
    assert_eq!(
        read_size("-5", &WIDTHS),
        Err(SizeError::Range {
            min: 320,
            max: 2400
        })
    );
    assert_eq!(read_size("320", &WIDTHS), Ok(320));
    assert_eq!(
        read_size("319", &WIDTHS),
        Err(SizeError::Range {
            min: 320,
            max: 2400
        })
    );
}

#[test]
fn a_frame_name_is_short_and_plain_and_a_title_is_not_blank() {
    use idempotency_lab::embed_code::{read_frame_id, read_frame_title};
    assert_eq!(read_frame_id(" lab-7k3f "), Some("lab-7k3f".into()));
    assert_eq!(read_frame_id("A_b-9"), Some("A_b-9".into()));
    assert_eq!(read_frame_id(&"x".repeat(40)), Some("x".repeat(40)));
    for refused in ["", "  ", "a b", "a&b", "درس", "x\u{200b}", &"x".repeat(41)] {
        assert_eq!(read_frame_id(refused), None, "{refused:?}");
    }
    assert_eq!(
        read_frame_title(" Retries, s4 "),
        Some("Retries, s4".into())
    );
    assert_eq!(read_frame_title("آزمایشگاه"), Some("آزمایشگاه".into()));
    assert_eq!(read_frame_title(&"ب".repeat(120)), Some("ب".repeat(120)));
    assert_eq!(read_frame_title(&"ب".repeat(121)), None);
    assert_eq!(read_frame_title(" \t"), None);
}

#[test]
fn heights_at_other_widths_go_with_the_host_script_alone() {
    let mut lesson = code(EmbedView::Lesson {
        scenario: "s2".into(),
        step: 1,
    });
    lesson.height = 693;
    lesson.heights_at = vec![(374, 996), (720, 693)];
    assert!(
        !lesson.snippet().contains("data-lab-heights"),
        "without the script nothing reads them"
    );
    lesson.fit_content = true;
    assert!(lesson
        .snippet()
        .contains("height=\"693\" data-lab-heights=\"374:996 720:693\" allow="));
    lesson.heights_at.clear();
    assert!(!lesson.snippet().contains("data-lab-heights"));
}

#[test]
fn the_height_is_measured_at_the_frames_width_and_at_a_phones_and_a_wide_pages() {
    use idempotency_lab::embed_code::measured_widths;
    assert_eq!(measured_widths(720), [374, 720, 1024]);
    // A width near another one stands for it.
    assert_eq!(measured_widths(400), [400, 1024]);
    assert_eq!(measured_widths(438), [438, 1024]);
    assert_eq!(measured_widths(439), [374, 439, 1024]);
    assert_eq!(measured_widths(1000), [374, 1000]);
    assert_eq!(measured_widths(374), [374, 1024]);
    assert_eq!(measured_widths(2400), [374, 1024, 2400]);
}
