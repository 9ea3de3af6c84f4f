//! Compiles tauri.conf.json and the capabilities under src-tauri/capabilities into the app.
//! Each of the app's commands (`src-tauri/app/command_list.rs`, the list the window's
//! bindings are made from too) gets an `allow-…` permission: a window may call only the
//! commands its capability grants.

include!("src-tauri/app/command_list.rs");

/// The names of `command_list.rs`.
macro_rules! names {
    ($($name:ident),* $(,)?) => {
        &[$(stringify!($name)),*]
    };
}

const COMMANDS: &[&str] = with_commands!(names);

fn main() {
    println!("cargo:rerun-if-changed=src-tauri/app/command_list.rs");
    let attributes = tauri_build::Attributes::new()
        .capabilities_path_pattern("./src-tauri/capabilities/**/*")
        .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS));
    if let Err(e) = tauri_build::try_build(attributes) {
        println!("cargo:warning=tauri build step failed: {e:#}");
        std::process::exit(1);
    }
}
