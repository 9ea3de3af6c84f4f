//! The small harness behind the end-to-end tests: it launches the real app binary through
//! tauri-driver + WebKitWebDriver on the X display the test command started, gives each
//! test its own `ZETA_HOME`, runs the real CLI against it, and ends every process it
//! started by PID.

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use zeta_test_support::procs;

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

/// One app at a time: they share the display and the two cores.
static SERIAL: Mutex<()> = Mutex::new(());

pub type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Runs `body` with the app launched, or prints why it cannot run here. Under the test
/// command (`ZETA_E2E_REQUIRED=1`) a missing display or driver is a failure, not a skip.
pub async fn with_app<F>(name: &str, body: F)
where
    F: AsyncFnOnce(&App) -> TestResult,
{
    with_app_settings(name, None, body).await
}

/// How the app's home looks before it starts.
#[derive(Default)]
pub struct HomeSetup {
    /// Written as settings.json.
    pub settings: Option<Value>,
    /// A brand-new home: onboarding not yet done (otherwise it is marked done, so that
    /// tests of other things see the chat).
    pub fresh: bool,
    /// Extra environment for the app.
    pub env: Vec<(String, String)>,
}

/// `with_app`, with `settings` written to the app's settings.json before it starts.
pub async fn with_app_settings<F>(name: &str, settings: Option<Value>, body: F)
where
    F: AsyncFnOnce(&App) -> TestResult,
{
    with_app_home(
        name,
        HomeSetup {
            settings,
            ..HomeSetup::default()
        },
        async |app: &mut App| body(app).await,
    )
    .await
}

/// Runs `body` with the app launched on a home prepared as `setup` says; `body` may
/// relaunch the app on the same home.
pub async fn with_app_home<F>(name: &str, setup: HomeSetup, body: F)
where
    F: AsyncFnOnce(&mut App) -> TestResult,
{
    if let Some(reason) = missing_prerequisite() {
        let why = format!("{reason} (run scripts/test.sh, which provides them)");
        zeta_test_support::cannot_run(zeta_test_support::Needs::Desktop, name, why);
        return;
    }
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let mut app = match App::launch(setup).await {
        Ok(app) => app,
        Err(e) => panic!("{name}: could not launch the app: {e}"),
    };
    let result = body(&mut app).await;
    app.end().await;
    drop(app);
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
}

/// For a test that starts the app itself (not through WebDriver): the screen, held until
/// the guard drops, or `None` (said why) when the desktop is missing.
pub fn hold_screen(name: &str) -> Option<std::sync::MutexGuard<'static, ()>> {
    if let Some(reason) = missing_prerequisite() {
        let why = format!("{reason} (run scripts/test.sh, which provides them)");
        zeta_test_support::cannot_run(zeta_test_support::Needs::Desktop, name, why);
        return None;
    }
    Some(
        SERIAL
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()),
    )
}

fn missing_prerequisite() -> Option<String> {
    if std::env::var_os("DISPLAY").is_none() {
        return Some("DISPLAY is not set (no X server)".into());
    }
    for tool in ["tauri-driver", "WebKitWebDriver", "xdotool"] {
        if which(tool).is_none() {
            return Some(format!("{tool} is not on PATH"));
        }
    }
    None
}

fn which(tool: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(tool))
        .find(|candidate| candidate.is_file())
}

/// The app binary under test.
pub fn zeta_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_zeta"))
}

pub struct App {
    pub client: Client,
    pub home: tempfile::TempDir,
    pub app_pid: u32,
    driver: Child,
    env: Vec<(String, String)>,
    /// The processes under tauri-driver when the app was up (WebKitWebDriver, the app),
    /// with their executables: ended by PID too, in case tauri-driver went first and they
    /// were reparented out of its tree.
    helpers: Vec<(u32, PathBuf)>,
}

impl App {
    async fn launch(setup: HomeSetup) -> Result<Self, Box<dyn std::error::Error>> {
        let home = tempfile::tempdir()?;
        if let Some(settings) = setup.settings {
            std::fs::write(home.path().join("settings.json"), settings.to_string())?;
        }
        if !setup.fresh {
            std::fs::write(home.path().join("onboarded"), "by the test harness\n")?;
        }
        Self::start(home, setup.env).await
    }

    /// Quits this instance (its processes end by PID) and starts the app again on the
    /// same home, as a user restarting it would.
    pub async fn relaunch(&mut self) -> TestResult {
        self.end().await;
        end_tree(self.driver.id());
        let _ = self.driver.wait();
        let home = std::mem::replace(&mut self.home, tempfile::tempdir()?);
        let env = std::mem::take(&mut self.env);
        let fresh = Self::start(home, env).await?;
        let old = std::mem::replace(self, fresh);
        // The old driver is already gone and reaped: its Drop must not signal a PID that
        // may have been reused. Only the placeholder folder it holds is removed.
        let placeholder = old.home.path().to_path_buf();
        old.end_helpers();
        std::mem::forget(old);
        let _ = std::fs::remove_dir_all(placeholder);
        Ok(())
    }

    async fn start(
        home: tempfile::TempDir,
        env: Vec<(String, String)>,
    ) -> Result<Self, Box<dyn std::error::Error>> {
        let port = free_port()?;
        let native_port = free_port()?;
        let driver = Command::new("tauri-driver")
            .args([
                "--port",
                &port.to_string(),
                "--native-port",
                &native_port.to_string(),
            ])
            .env("ZETA_HOME", home.path())
            .env("RUST_LOG", "info")
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()?;
        let mut app = Self::connect(driver, port, home).await?;
        app.env = env;
        let bin = zeta_bin().canonicalize()?;
        let driver_pid = app.driver.id();
        app.app_pid = wait_for(Duration::from_secs(20), || {
            procs::descendants(driver_pid)
                .into_iter()
                .find(|pid| exe_of(*pid).as_deref() == Some(bin.as_path()))
        })
        .ok_or("the app process did not appear under tauri-driver")?;
        app.helpers = procs::descendants(driver_pid)
            .into_iter()
            .filter_map(|pid| exe_of(pid).map(|exe| (pid, exe)))
            .collect();
        Ok(app)
    }

    async fn connect(
        mut driver: Child,
        port: u16,
        home: tempfile::TempDir,
    ) -> Result<Self, Box<dyn std::error::Error>> {
        let up = wait_for(Duration::from_secs(15), || {
            TcpStream::connect(("127.0.0.1", port)).ok().map(|_| ())
        });
        if up.is_none() {
            end_tree(driver.id());
            let _ = driver.wait();
            return Err("tauri-driver did not start listening".into());
        }
        let caps = json!({ "tauri:options": { "application": zeta_bin() } });
        let Value::Object(caps) = caps else {
            unreachable!("literal object")
        };
        let connected = ClientBuilder::rustls()?
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await;
        match connected {
            Ok(client) => Ok(Self {
                client,
                home,
                app_pid: 0,
                driver,
                env: Vec::new(),
                helpers: Vec::new(),
            }),
            Err(e) => {
                end_tree(driver.id());
                let _ = driver.wait();
                Err(format!("WebDriver session failed: {e}").into())
            }
        }
    }

    /// Ends the WebDriver session (the processes go when `App` drops).
    async fn end(&mut self) {
        let _ = tokio::time::timeout(Duration::from_secs(5), self.client.clone().close()).await;
    }

    /// Runs the real CLI against this app's home.
    pub fn zeta(&self, args: &[&str]) -> std::io::Result<Output> {
        Command::new(zeta_bin())
            .args(args)
            .env("ZETA_HOME", self.home.path())
            .output()
    }

    /// `zeta queue --json`, parsed.
    pub fn queue(&self) -> Result<Vec<Value>, Box<dyn std::error::Error>> {
        let out = self.zeta(&["queue", "--json"])?;
        if !out.status.success() {
            return Err(format!(
                "zeta queue failed: {}",
                String::from_utf8_lossy(&out.stderr)
            )
            .into());
        }
        Ok(serde_json::from_slice(&out.stdout)?)
    }

    /// Finds one element, waiting up to 10 s for it to appear.
    pub async fn find(
        &self,
        css: &str,
    ) -> Result<fantoccini::elements::Element, Box<dyn std::error::Error>> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match self.client.find(Locator::Css(css)).await {
                Ok(el) => return Ok(el),
                Err(e) if Instant::now() > deadline => return Err(format!("{css}: {e}").into()),
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    }

    /// Makes the window titled `title` the one WebDriver talks to, waiting up to 10 s.
    pub async fn switch_to(&self, title: &str) -> TestResult {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            for handle in self.client.windows().await? {
                self.client.switch_to_window(handle).await?;
                if self.client.title().await? == title {
                    return Ok(());
                }
            }
            if Instant::now() > deadline {
                return Err(format!("no window titled {title:?}").into());
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// Saves what the current window shows as `<ZETA_SCREENSHOT_DIR>/<name>.png` when that
    /// variable is set (used to refresh the screenshots in docs/); otherwise does nothing.
    ///
    /// Taken from the X server (the window as it is on the screen, found by its title):
    /// WebKitWebDriver's own screenshot can hang once the page has run a task.
    pub async fn snapshot(&self, name: &str) -> TestResult {
        let Some(dir) = std::env::var_os("ZETA_SCREENSHOT_DIR") else {
            return Ok(());
        };
        std::fs::create_dir_all(&dir)?;
        let title = self.client.title().await?;
        let pattern = format!("^{}$", regex_escape(&title));
        let id = xdotool(&["search", "--onlyvisible", "--name", &pattern])?;
        let id = id
            .lines()
            .next()
            .ok_or(format!("no visible window titled {title:?}"))?;
        let path = Path::new(&dir).join(format!("{name}.png"));
        let out = Command::new("import")
            .args(["-window", id])
            .arg(&path)
            .output()?;
        if !out.status.success() {
            return Err(format!(
                "import -window {id}: {}",
                String::from_utf8_lossy(&out.stderr)
            )
            .into());
        }
        Ok(())
    }

    /// Ends the helpers that outlived tauri-driver: still the same program at that PID.
    fn end_helpers(&self) {
        let left: Vec<u32> = self
            .helpers
            .iter()
            .filter(|(pid, exe)| {
                !procs::stat(*pid).is_some_and(|p| p.is_zombie())
                    && exe_of(*pid).as_ref() == Some(exe)
            })
            .map(|(pid, _)| *pid)
            .collect();
        signal(&left, "KILL");
    }

    pub fn is_running(&self) -> bool {
        Path::new(&format!("/proc/{}", self.app_pid)).exists()
            && !procs::stat(self.app_pid).is_some_and(|p| p.is_zombie())
    }
}

impl Drop for App {
    /// Ends tauri-driver and everything under it by PID, also when a test panicked.
    fn drop(&mut self) {
        end_tree(self.driver.id());
        let _ = self.driver.wait();
        self.end_helpers();
    }
}

/// The WebKit web processes under `pid` (one for each window made).
pub fn web_processes(pid: u32) -> usize {
    procs::descendants(pid)
        .into_iter()
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .map(|c| String::from_utf8_lossy(&c).contains("WebKitWebProcess"))
                .unwrap_or(false)
        })
        .count()
}

/// SIGTERM to `pid` and all its descendants (deepest first), then SIGKILL to survivors.
pub fn end_tree(pid: u32) {
    let mut pids = procs::descendants(pid);
    pids.reverse();
    pids.push(pid);
    signal(&pids, "TERM");
    let gone = wait_for(Duration::from_secs(5), || {
        pids.iter()
            .all(|p| {
                !Path::new(&format!("/proc/{p}")).exists()
                    || procs::stat(*p).is_some_and(|p| p.is_zombie())
            })
            .then_some(())
    });
    if gone.is_none() {
        signal(&pids, "KILL");
    }
}

fn signal(pids: &[u32], sig: &str) {
    if pids.is_empty() {
        return;
    }
    let _ = Command::new("kill")
        .arg(format!("-{sig}"))
        .args(pids.iter().map(u32::to_string))
        .stderr(Stdio::null())
        .status();
}

fn exe_of(pid: u32) -> Option<PathBuf> {
    std::fs::read_link(format!("/proc/{pid}/exe")).ok()
}

fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// A scripted model that runs `command` with the shell and then answers `reply`, and
/// the settings that use it (native calls, streamed, `auto` permissions).
pub async fn shell_then_answer(
    command: &str,
    reply: &str,
) -> (zeta_scripted_llm::ScriptedServer, Value) {
    let server = zeta_scripted_llm::ScriptedServer::start(vec![
        zeta_scripted_llm::Step::call("shell", serde_json::json!({ "command": command })),
        zeta_scripted_llm::Step::text(reply),
    ])
    .await
    .expect("scripted server");
    let settings = serde_json::json!({
        "provider": {"kind": "openai", "baseUrl": server.openai_base_url(), "model": "scripted",
                     "protocol": "tools", "stream": true, "maxAttempts": 1},
        "permissions": {"mode": "auto"}
    });
    (server, settings)
}

/// Whether the task with `message` has ended done.
pub fn task_done(app: &App, message: &str) -> bool {
    app.queue().ok().is_some_and(|tasks| {
        tasks
            .iter()
            .any(|t| t["message"] == message && t["status"] == "done")
    })
}

/// Polls `probe` every 100 ms until it returns `Some` or `timeout` passes.
pub fn wait_for<T>(timeout: Duration, mut probe: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(v) = probe() {
            return Some(v);
        }
        if Instant::now() > deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The middle of the app's tray icon (shown by the test command's XEmbed tray), for clicks.
/// Looked for until it holds still: while the tray host embeds it, the icon's first window
/// can vanish between being found and being measured (BadWindow), as a person would wait
/// for the icon to settle.
pub fn tray_icon_center() -> Result<(i64, i64), Box<dyn std::error::Error>> {
    let center = || -> Option<(i64, i64)> {
        let found = xdotool(&["search", "--class", "tray-icon"]).ok()?;
        let icon = found.lines().next()?.to_string();
        let geometry = xdotool(&["getwindowgeometry", "--shell", &icon]).ok()?;
        let field = |name: &str| -> Option<i64> {
            geometry
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{name}=")))
                .and_then(|v| v.parse().ok())
        };
        Some((
            field("X")? + field("WIDTH")? / 2,
            field("Y")? + field("HEIGHT")? / 2,
        ))
    };
    wait_for(Duration::from_secs(10), center)
        .ok_or_else(|| "no tray icon: is a tray host (trayer) running?".into())
}

/// Opens the tray's menu with a click on the icon and picks its `item`th entry (1 = Open
/// chat) with the keyboard, as a person would; tries 4 times until `done` holds (within 5 s
/// of each pick), each waiting longer for the menu. The menu may open late or take the
/// first key as focus.
pub fn tray_pick(
    item: usize,
    mut done: impl FnMut() -> bool,
) -> Result<(), Box<dyn std::error::Error>> {
    let (x, y) = tray_icon_center()?;
    for attempt in 1..=4u64 {
        xdotool(&["mousemove", &x.to_string(), &y.to_string(), "click", "1"])?;
        std::thread::sleep(Duration::from_millis(800 * attempt));
        let mut keys = vec!["key"];
        keys.extend(std::iter::repeat_n("Down", item));
        keys.push("Return");
        xdotool(&keys)?;
        if wait_for(Duration::from_secs(5), || done().then_some(())).is_some() {
            return Ok(());
        }
        xdotool(&["key", "Escape"])?;
    }
    Err(format!("the tray's item {item} did not do what it should").into())
}

/// Runs xdotool with `args`; its stdout, trimmed.
pub fn xdotool(args: &[&str]) -> Result<String, Box<dyn std::error::Error>> {
    let out = Command::new("xdotool").args(args).output()?;
    if !out.status.success() {
        return Err(format!("xdotool {args:?}: {}", String::from_utf8_lossy(&out.stderr)).into());
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

impl App {
    /// Types `text` as key presses into whatever has the keyboard focus, as a person
    /// typing without clicking first would (WebDriver key actions, not an element's
    /// send_keys, which focuses the element itself).
    pub async fn type_keys(&self, text: &str) -> TestResult {
        use fantoccini::actions::{InputSource, KeyAction, KeyActions};
        let mut keys = KeyActions::new("keyboard".into());
        for value in text.chars() {
            keys = keys
                .then(KeyAction::Down { value })
                .then(KeyAction::Up { value });
        }
        self.client.perform_actions(keys).await?;
        Ok(())
    }

    /// Presses `key` while Control is held (Ctrl+1 and the like).
    pub async fn press_ctrl(&self, key: char) -> TestResult {
        use fantoccini::actions::{InputSource, KeyAction, KeyActions};
        use fantoccini::key::Key;
        let control = char::from(Key::Control);
        let keys = KeyActions::new("keyboard".into())
            .then(KeyAction::Down { value: control })
            .then(KeyAction::Down { value: key })
            .then(KeyAction::Up { value: key })
            .then(KeyAction::Up { value: control });
        self.client.perform_actions(keys).await?;
        Ok(())
    }

    /// Sets the window's inner size as a person dragging its border would.
    pub async fn resize(&self, width: u32, height: u32) -> TestResult {
        self.client.set_window_size(width, height).await?;
        Ok(())
    }
}

impl App {
    /// Whether anything on the page scrolls sideways (a narrow window's test).
    pub async fn scrolls_sideways(&self) -> Result<bool, Box<dyn std::error::Error>> {
        let wide = self
            .client
            .execute(
                "return document.documentElement.scrollWidth > window.innerWidth;",
                vec![],
            )
            .await?;
        Ok(wide.as_bool().unwrap_or(true))
    }

    /// Whether the page draws the element at all (WebKitWebDriver's own is_displayed,
    /// and even the element's boxes, say yes for the content of a closed `<details>`,
    /// which nobody can see; the page's checkVisibility knows).
    pub async fn drawn(
        &self,
        el: &fantoccini::elements::Element,
    ) -> Result<bool, Box<dyn std::error::Error>> {
        let drawn = self
            .client
            .execute(
                "const e = arguments[0]; return typeof e.checkVisibility === 'function' \
                   ? e.checkVisibility() : e.getClientRects().length > 0;",
                vec![serde_json::to_value(el)?],
            )
            .await?;
        Ok(drawn.as_bool().unwrap_or(true))
    }
}

/// `text` as a regular expression that matches only itself (xdotool's --name).
fn regex_escape(text: &str) -> String {
    text.chars()
        .flat_map(|c| match c {
            '\\' | '.' | '+' | '*' | '?' | '(' | ')' | '|' | '[' | ']' | '{' | '}' | '^' | '$' => {
                vec!['\\', c]
            }
            c => vec![c],
        })
        .collect()
}
