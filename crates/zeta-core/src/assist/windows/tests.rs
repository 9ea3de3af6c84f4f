use super::*;

fn w(title: &str, app: &str) -> ShownWindow {
    ShownWindow {
        title: title.into(),
        app: app.into(),
    }
}

/// A desktop as people have it: a terminal, an editor, a browser, Zeta's own window.
fn desktop() -> Vec<ShownWindow> {
    vec![
        w("me@box: ~/src/zeta", "gnome-terminal-server Gnome-terminal"),
        w("main.rs - zeta - Visual Studio Code", "code Code"),
        w("Inbox - Mozilla Thunderbird", "Mail thunderbird"),
        w("Zeta", "zeta Zeta"),
    ]
}

/// The windows of one family, and ways to name each: (window, names as people write
/// them).
fn families() -> Vec<(ShownWindow, Vec<&'static str>)> {
    vec![
        (w("Reminder", "xmessage Xmessage"), vec!["Reminder"]),
        (
            w("Calculator", "gnome-calculator gnome-calculator"),
            vec!["Calculator", "gnome-calculator"],
        ),
        (w("Calculator", "xcalc XCalc"), vec!["xcalc", "XCalc"]),
        (
            w("Calculator", "mate-calc Mate-calc"),
            vec!["mate-calc", "Calculator"],
        ),
        (
            w("*/home/me/list.txt - FeatherPad", "featherpad FeatherPad"),
            vec!["FeatherPad", "featherpad", "list.txt"],
        ),
        (
            w("/tmp/x/todo.txt - Mousepad", "mousepad Mousepad"),
            vec!["Mousepad", "todo.txt"],
        ),
        (
            w("notes.txt", "l3afpad L3afpad"),
            vec!["notes.txt", "l3afpad"],
        ),
        (
            w(
                "GTK+ Widget Factory",
                "gtk3-widget-factory Gtk3-widget-factory",
            ),
            vec!["gtk3-widget-factory", "GTK+ Widget Factory"],
        ),
        (
            w("Pet — KDialog", "kdialog kdialog"),
            vec!["Pet", "KDialog"],
        ),
        (w("Backup", "kdialog kdialog"), vec!["Backup"]),
        (w("Print", "yad Yad"), vec!["Print"]),
        (w("Sign up", "zenity Zenity"), vec!["Sign up"]),
        (w("Update", "gxmessage Gxmessage"), vec!["Update"]),
        (
            w(
                "Document 1 - LibreOffice Writer",
                "libreoffice-writer libreoffice-writer",
            ),
            vec!["LibreOffice Writer", "libreoffice-writer"],
        ),
        (
            w("org.gnome.Weather", "org.gnome.Weather org.gnome.Weather"),
            vec!["Weather"],
        ),
    ]
}

/// Requests that name a window, with `{}` where its name goes.
const NAMING: &[&str] = &[
    "Press Dismiss in the {} message",
    "With the {} app, compute 100 minus 58",
    "Use the {} window to work out 12 times 7",
    "In {}, add the line pears after apples and save the file",
    "In the {} window, change red to green and save it",
    "Type Rex into the {} dialog and press OK",
    "The {} dialog asks whether to start the backup now: answer No",
    "Please close {}.",
    "can you press OK in \"{}\"?",
    "Add 6 and 7 on the {} calculator",
    "Switch to {}, then tick Duplex",
    "what does {} show right now?",
];

#[test]
fn requests_name_the_window_on_screen_by_its_title_or_program() {
    let mut misses = Vec::new();
    let mut tried = 0;
    for (window, ways) in families() {
        let mut shown = desktop();
        shown.insert(1, window.clone());
        for way in ways {
            for form in NAMING {
                tried += 1;
                let request = form.replace("{}", way);
                if named(&request, &shown) != Some(&window) {
                    misses.push(format!("{request:?} → {:?}", named(&request, &shown)));
                }
            }
        }
    }
    assert!(
        misses.is_empty(),
        "{} misses of {tried}:\n{}",
        misses.len(),
        misses.join("\n")
    );
}

/// Requests that name no window on screen, though a window's name is one of their words.
const NOT_NAMING: &[(&str, &str)] = &[
    ("Update", "Update the packages on this computer"),
    ("Update", "update the packages"),
    ("Update", "Check for an update of firefox"),
    ("Print", "Print the last 20 lines of syslog"),
    ("Print", "print my user name"),
    ("Backup", "Backup my photos to /mnt/usb"),
    ("Calculator", "how do I open a calculator?"),
    ("Reminder", "Set a reminder for 5pm"),
    ("Sign up", "Sign up for the newsletter at example.com"),
    ("Sign up", "what does sign up mean?"),
    ("Pet", "Pet names for a cat?"),
    ("Weather", "what's the weather in Lisbon?"),
    ("Weather", "Weather in Lisbon, please"),
];

#[test]
fn a_title_word_used_as_a_word_names_no_window() {
    let mut false_alarms = Vec::new();
    for (title, request) in NOT_NAMING {
        let mut shown = desktop();
        shown.push(w(title, "someapp Someapp"));
        if let Some(hit) = named(request, &shown) {
            false_alarms.push(format!("{request:?} → {hit:?}"));
        }
    }
    // The desktop's own windows: a terminal's folder, an editor named Code, Zeta.
    for request in [
        "count the lines of code in this project",
        "run the tests in zeta",
        "what is the root partition's size?",
        "Write code to parse the CSV in ~/data.csv",
        "check my inbox folder size in ~/Mail",
        "how much memory does zeta use?",
        "Zeta, what time is it?",
        "show main in the git log",
    ] {
        if let Some(hit) = named(request, &desktop()) {
            false_alarms.push(format!("{request:?} → {hit:?}"));
        }
    }
    assert!(
        false_alarms.is_empty(),
        "{} false alarms:\n{}",
        false_alarms.len(),
        false_alarms.join("\n")
    );
}

#[test]
fn of_two_windows_named_the_longer_name_and_then_the_upper_window_win() {
    let shown = vec![
        w("Calculator", "gnome-calculator gnome-calculator"),
        w("Scientific Calculator", "galculator Galculator"),
    ];
    assert_eq!(
        named("In the Scientific Calculator, press 7", &shown),
        Some(&shown[1])
    );
    let twins = vec![w("Print", "yad Yad"), w("Print", "zenity Zenity")];
    assert_eq!(
        named("In the Print dialog press OK", &twins),
        Some(&twins[1])
    );
    assert_eq!(named("In Zenity press OK", &twins), Some(&twins[1]));
    assert_eq!(named("In Yad press OK", &twins), Some(&twins[0]));
}

#[test]
fn zeta_is_never_the_window_a_request_names() {
    let shown = vec![
        w("Zeta", "zeta Zeta"),
        w("Zeta — confirm", "zeta Zeta"),
        w("Zeta settings", "zeta Zeta"),
    ];
    assert_eq!(
        named("In the Zeta settings window, tick Verbose", &shown),
        None
    );
    assert_eq!(named("Press Run in the Zeta confirm window", &shown), None);
    // Another program's window whose title begins with the word is not Zeta's.
    let other = vec![w("Zeta local options", "python3 Python3")];
    assert_eq!(
        named("In the Zeta local options window, tick Verbose", &other),
        Some(&other[0])
    );
}

#[test]
fn any_text_and_any_titles_are_read_without_a_panic() {
    let texts = crate::text::random_texts("aZ .-/:*•—|\"'\u{301}é🙂\n\t0", 300, 40, 7);
    let shown: Vec<ShownWindow> = texts
        .iter()
        .zip(texts.iter().rev())
        .map(|(t, a)| w(t, a))
        .collect();
    for request in &texts {
        let _ = named(request, &shown);
    }
}

/// Words about a window ("the xedit window") make a program's lowercase name its name;
/// without them it stays a word ("lines of code").
#[test]
fn a_programs_lowercase_name_names_its_window_where_the_words_are_about_a_window() {
    let shown = vec![
        w("main.rs - zeta - Visual Studio Code", "code Code"),
        w("memo.txt", "xedit Xedit"),
        w("Calculator", "xcalc XCalc"),
    ];
    let request = "In the xedit window, type call Bob into the text and press its Save button";
    assert_eq!(named(request, &shown), None);
    assert_eq!(named_loosely(request, &shown), Some(&shown[1]));
    assert_eq!(
        named_loosely("type hello into the code window", &shown),
        Some(&shown[0])
    );
    assert_eq!(
        named("count the lines of code in this project", &shown),
        None
    );
    // A title's plain lowercase part stays a word either way.
    let terminal = vec![w("me@box: ~/src - bash", "xterm XTerm")];
    assert_eq!(named_loosely("close the bash window", &terminal), None);
}

/// A title word in any case names its window beside a part of its program's name; alone
/// it does not.
#[test]
fn a_title_word_and_a_part_of_the_programs_name_together_name_a_window() {
    let shown = vec![
        w("Calculator", "mate-calc Mate-calc"),
        w("Update", "gxmessage Gxmessage"),
    ];
    assert_eq!(
        named("Use the MATE calculator to work out 23 times 4", &shown),
        Some(&shown[0])
    );
    assert_eq!(
        named("use the calculator to work out 23 times 4", &shown),
        None
    );
    assert_eq!(named("update the packages", &shown), None);
    let gnome = vec![w("Calculator", "gnome-calculator")];
    assert_eq!(
        named("work out 5% of 80 in the GNOME calculator", &gnome),
        Some(&gnome[0])
    );
    assert_eq!(named("how do I install gnome extensions?", &gnome), None);
}
