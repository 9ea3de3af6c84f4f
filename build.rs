//! Compiles tauri.conf.json and the capabilities under src-tauri/capabilities into the app.

fn main() {
    let attributes =
        tauri_build::Attributes::new().capabilities_path_pattern("./src-tauri/capabilities/**/*");
    if let Err(e) = tauri_build::try_build(attributes) {
        println!("cargo:warning=tauri build step failed: {e:#}");
        std::process::exit(1);
    }
}
