//! The desktop app: tray, chat window, IPC commands and the router around one core
//! worker. Closing the window hides it; Quit (tray) stops the worker and exits.
//!
//! This is the composition root: `setup` shows the chat window and the tray first (what
//! a person waits for), then builds the managers in dependency order (the worker, the
//! queue's handle, the settings, memory, downloads, setup, voice), each knowing only
//! lower layers and, for what happens to it, the router's inbox; the router is built
//! last, holding the handles it fans out to.

/// The app's commands, named once: the window's bindings and the permissions are made
/// from this list.
#[macro_use]
mod command_list;

mod autostart;
mod chat_window;
mod commands;
mod confirm;
mod control;
mod deltas;
mod download_manager;
mod heard;
mod hotkey_portal;
pub mod ipc;
mod memory_manager;
mod queue_manager;
mod rest;
mod router;
mod settings_manager;
mod setup_manager;
mod skills_manager;
mod tray;
mod undo_manager;
mod voice_manager;
mod warm;
pub mod webview;
mod window_life;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tauri::{AppHandle, Manager, RunEvent, WindowEvent};
use zeta_core::{spawn_worker, CoreError, Op, WorkerOptions, ZetaHome};
use zeta_llm::LocalServer;

use crate::desktop;
use queue_manager::QueueManager;
use tray::TrayManager;
use voice_manager::VoiceManager;
use zeta_app::agent::{configured_agent, mcp_manager, user_workdir};

use chat_window::CHAT_WINDOW;

type WorkerHandle = tokio::task::JoinHandle<Result<(), CoreError>>;

/// The worker's join handle, awaited on Quit so the running task is recorded.
struct WorkerTask(Mutex<Option<WorkerHandle>>);

/// Opens the app; `hidden` (started at login with `--hidden`) keeps the chat window
/// hidden, Zeta waiting in the tray.
pub fn run(home: ZetaHome, hidden: bool) -> anyhow::Result<()> {
    let _log = crate::logging::init_app(&home);
    tracing::info!(home = %home.root().display(), "Zeta starting");
    if let Some(notice) = home.notice() {
        tracing::warn!("{notice}");
    }
    std::thread::spawn(log_desktop_session);

    // The commands and events the window may use, collected once (`ipc`).
    let contract = ipc::builder();
    let handler = contract.invoke_handler();
    // What the app gives back once quiet; whatever the window asks wakes it.
    let rest = rest::Rest::start();
    let asked = Arc::clone(&rest);
    let app = tauri::Builder::default()
        .plugin(
            tauri_plugin_single_instance::Builder::new()
                .dbus_id(instance_id(&home))
                .callback(|app, _argv, _cwd| {
                    tracing::info!("another launch asked for the chat window");
                    show_chat(app)
                })
                .build(),
        )
        .plugin(navigation_guard())
        .plugin(
            tauri_plugin_global_shortcut::Builder::new()
                .with_handler(|app, _shortcut, event| {
                    if let Some(voice) = app.try_state::<Arc<VoiceManager>>() {
                        voice.key(event.state);
                    }
                })
                .build(),
        )
        .invoke_handler(move |invoke| {
            asked.woke();
            handler(invoke)
        })
        .setup(move |app| {
            contract.mount_events(app);
            let handle = app.handle().clone();
            // Read once for the start: the login start follows the setting (also when it
            // was edited by hand), and the tray and voice start from it.
            let settings = match zeta_core::settings::load_or_create(&home.settings_file()) {
                Ok(loaded) => {
                    autostart::sync(loaded.settings.start_with_session);
                    loaded.settings
                }
                Err(e) => {
                    tracing::warn!(
                        "could not read the settings ({e}); the tray and voice use defaults"
                    );
                    zeta_core::Settings::default()
                }
            };
            // The chat window first (unless Zeta was started at login, `--hidden`: then
            // it waits in the tray, and is made when first opened), then the tray, then
            // what answers them: nothing they send is handled before setup returns. (The
            // tray made first showed no sooner, and delayed the window by ~100 ms.)
            if !hidden {
                chat_window::show(&handle);
            }
            let (inbox, heard) = tokio::sync::mpsc::unbounded_channel();
            let tray = create_tray(&handle, inbox.clone(), settings.start_with_session);
            let local = LocalServer::new(home.root(), zeta_llm::local::Launch::Child);
            let mcp = mcp_manager(&home);
            let agent = configured_agent(
                &home,
                Arc::clone(&local),
                Arc::clone(&mcp),
                user_workdir(&home),
            )?;
            // Servers marked `"start": "onAppStart"` start now; the others at first use.
            let (eager, servers) = (Arc::clone(&mcp), settings.mcp_servers.clone());
            tauri::async_runtime::spawn(async move {
                eager.configure(&servers).await;
                eager.start_app_servers().await;
            });
            // Zeta's own model, when it is the provider: its opening evaluated before
            // anyone asks.
            warm::in_background(&home, &local, &mcp, settings.clone());
            app.manage(mcp);
            let (core, events, worker) = tauri::async_runtime::block_on(async {
                spawn_worker(home.clone(), agent, WorkerOptions::default())
            })?;
            let queue = Arc::new(QueueManager::new(core, &home)?);
            app.manage(Arc::clone(&queue));
            let settings_manager = Arc::new(settings_manager::SettingsManager::new(
                &home,
                Arc::clone(&local),
            ));
            app.manage(Arc::clone(&settings_manager));
            tauri::async_runtime::spawn(router::forward_local_server(
                handle.clone(),
                local.subscribe(),
            ));
            app.manage(local);
            app.manage(memory_manager::MemoryManager::new(&home)?);
            app.manage(skills_manager::SkillsManager::new(&home));
            app.manage(Arc::new(undo_manager::UndoManager::new(&home)));
            app.manage(download_manager::DownloadManager::new(&home));
            app.manage(setup_manager::SetupManager::default());
            app.manage(WorkerTask(Mutex::new(Some(worker))));
            app.manage(Arc::clone(&rest));
            let voice = start_voice(&handle, &home, settings, inbox);
            if let Some(voice) = &voice {
                app.manage(Arc::clone(voice));
            }
            // SIGTERM (logout, shutdown) or SIGINT: the running task is interrupted, to
            // resume on the next start, and the app exits; a second signal exits at once.
            let stopping = handle.clone();
            tauri::async_runtime::block_on(async move {
                crate::signals::watch(move |_| stop(&stopping, Op::Interrupt))
            });
            let router = router::Router {
                app: handle,
                queue,
                settings: settings_manager,
                tray,
                voice,
                rest,
            };
            tauri::async_runtime::spawn(router.run(events, heard));
            Ok(())
        })
        .on_window_event(|window, event| {
            if let WindowEvent::CloseRequested { api, .. } = event {
                api.prevent_close();
                let app = window.app_handle();
                if window.label() == CHAT_WINDOW {
                    return chat_window::hide(app);
                }
                if window.label() == confirm::CONFIRM_WINDOW {
                    if let Some(queue) = app.try_state::<Arc<QueueManager>>() {
                        confirm::closed(&queue);
                    }
                }
                if let Err(e) = window.hide() {
                    tracing::warn!("could not hide the window: {e}");
                }
            }
        })
        .build(tauri::generate_context!())?;
    app.run(|app, event| {
        // Zeta lives in the tray: releasing its last window (the hidden chat) is no reason
        // to exit. Only Quit (an exit with a code) ends it.
        if let RunEvent::ExitRequested {
            code: None, api, ..
        } = &event
        {
            api.prevent_exit();
            return;
        }
        if let RunEvent::Exit = event {
            // No orphans: the local model server ends with the app.
            if let Some(local) = app.try_state::<Arc<LocalServer>>() {
                local.stop();
            }
            // Nor MCP servers: each is stopped by its process id.
            if let Some(mcp) = app.try_state::<Arc<zeta_mcp::McpManager>>() {
                tauri::async_runtime::block_on(mcp.shutdown());
            }
            if let Some(voice) = app.try_state::<Arc<VoiceManager>>() {
                voice.forget_status();
            }
            tracing::info!("Zeta stopped");
        }
    });
    Ok(())
}

/// Keeps every window on the app's own pages: no remote content, whatever a page tries.
fn navigation_guard<R: tauri::Runtime>() -> tauri::plugin::TauriPlugin<R> {
    tauri::plugin::Builder::new("zeta-navigation-guard")
        .on_navigation(|webview, url| {
            let local = matches!(url.scheme(), "tauri" | "asset")
                || (url.scheme() == "http" && url.host_str() == Some("tauri.localhost"));
            if !local {
                tracing::warn!(window = %webview.label(), %url, "blocked navigation away from the app");
            }
            local
        })
        .build()
}

/// The tray needs a tray host and libayatana-appindicator; without them the app goes on.
fn create_tray(
    app: &AppHandle,
    inbox: heard::Inbox,
    start_with_session: bool,
) -> Option<TrayManager> {
    let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        TrayManager::create(app, inbox, start_with_session)
    }));
    match built {
        Ok(Ok(tray)) => Some(tray),
        Ok(Err(e)) => {
            tracing::warn!("no tray icon ({e}); use the chat window or the zeta CLI");
            None
        }
        Err(_) => {
            tracing::warn!(
                "no tray icon (the AppIndicator library could not be loaded); use the chat window or the zeta CLI"
            );
            None
        }
    }
}

/// Push-to-talk: the voice session, its hotkey and the control socket for `zeta listen`.
/// Nothing here stops the app: a bad settings file, no display or no model only disable
/// parts of voice, and say so.
fn start_voice(
    app: &AppHandle,
    home: &ZetaHome,
    settings: zeta_core::Settings,
    inbox: heard::Inbox,
) -> Option<Arc<VoiceManager>> {
    match VoiceManager::new(home, &settings, inbox) {
        Ok(voice) => {
            let voice = Arc::new(voice);
            // Not in the way of the window: the registration waits on the main thread
            // (up to 50 ms, global-hotkey's pace), which must first finish the setup and
            // show the window. The window hears the hotkey's state when it is known.
            let (registering, app) = (Arc::clone(&voice), app.clone());
            let spawned = std::thread::Builder::new()
                .name("zeta-hotkey".into())
                .spawn(move || registering.register_hotkey(&app, &settings));
            if let Err(e) = spawned {
                tracing::error!("push-to-talk hotkey not registered: no thread ({e})");
            }
            tauri::async_runtime::spawn(control::serve(Arc::clone(&voice), home.clone()));
            Some(voice)
        }
        Err(e) => {
            tracing::error!("voice is not available: {e}");
            None
        }
    }
}

/// Says in the log what the desktop session lacks; the app keeps running either way.
fn log_desktop_session() {
    let dbus = desktop::dbus_session();
    if dbus.is_ok() {
        tracing::info!("{}", dbus.text());
    } else {
        tracing::warn!(
            "{}: running without single-instance and DBus tray",
            dbus.text()
        );
    }
    let tray = desktop::tray_host();
    if tray.is_ok() {
        tracing::info!("tray host: {}", tray.text());
    } else {
        tracing::warn!(
            "{}: the tray icon will not show; the chat window and CLI still work",
            tray.text()
        );
    }
}

/// One running instance per Zeta home: the DBus name carries a hash of its path.
fn instance_id(home: &ZetaHome) -> String {
    let path = home
        .root()
        .canonicalize()
        .unwrap_or_else(|_| home.root().to_path_buf());
    // FNV-1a: stable across builds, unlike std's hasher.
    let hash = path
        .as_os_str()
        .as_encoded_bytes()
        .iter()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
        });
    format!("dev.zeta.agent.home_{hash:016x}")
}

pub fn show_chat(app: &AppHandle) {
    chat_window::show(app)
}

/// Stops the worker (the running task is recorded as cancelled) and exits.
pub fn quit(app: &AppHandle) {
    tracing::info!("quit requested");
    stop(app, Op::Shutdown);
}

/// Sends `op` (`Shutdown` or `Interrupt`) to the worker, waits for it to record the
/// running task, and exits.
fn stop(app: &AppHandle, op: Op) {
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        if let Some(queue) = app.try_state::<Arc<QueueManager>>() {
            let _ = queue.core().submit(op);
        }
        let handle = app
            .try_state::<WorkerTask>()
            .and_then(|w| w.0.lock().ok().and_then(|mut h| h.take()));
        if let Some(handle) = handle {
            match tokio::time::timeout(Duration::from_secs(5), handle).await {
                Ok(Ok(Err(e))) => tracing::error!("worker ended with an error: {e}"),
                Err(_) => tracing::warn!("the worker did not stop within 5 s; exiting anyway"),
                _ => {}
            }
        }
        app.exit(0);
    });
}
