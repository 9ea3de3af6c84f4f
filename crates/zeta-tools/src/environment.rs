//! The environment snapshot (seed 001) that opens each task's system prompt: OS, desktop
//! session type, screen size, working folder, the processes using most memory, memory and
//! disk use, and the battery when there is one. Cheap to gather (tens of milliseconds),
//! taken fresh for every task; anything that cannot be read is left out or says so.

use std::path::Path;

use sysinfo::{Disks, ProcessesToUpdate, System};

/// The snapshot as a few lines of text.
pub fn snapshot(workdir: &Path) -> String {
    let mut lines = Vec::new();
    let os = System::long_os_version()
        .or_else(System::name)
        .unwrap_or_else(|| "unknown OS".into());
    let kernel = System::kernel_version().unwrap_or_default();
    lines.push(format!("OS: {os} (kernel {kernel})"));
    lines.push(format!("Desktop session: {}", session_type()));
    lines.push(format!("Screen: {}", screen_size()));
    lines.push(format!("Working folder: {}", workdir.display()));

    let mut sys = System::new();
    sys.refresh_memory();
    sys.refresh_processes(ProcessesToUpdate::All, true);
    lines.push(format!(
        "Memory: {} of {} used",
        gib(sys.used_memory()),
        gib(sys.total_memory())
    ));
    // Threads are listed beside processes on Linux; only processes count here.
    let mut procs: Vec<_> = sys
        .processes()
        .values()
        .filter(|p| p.thread_kind().is_none())
        .collect();
    procs.sort_by_key(|p| std::cmp::Reverse(p.memory()));
    let top: Vec<String> = procs
        .iter()
        .take(5)
        .map(|p| format!("{} ({})", p.name().to_string_lossy(), mib(p.memory())))
        .collect();
    lines.push(format!("Top processes by memory: {}", top.join(", ")));

    let disks = Disks::new_with_refreshed_list();
    let mut shown = Vec::new();
    for disk in disks.list() {
        let mount = disk.mount_point();
        let relevant =
            mount == Path::new("/") || workdir.starts_with(mount) && mount != Path::new("/");
        if relevant && disk.total_space() > 0 {
            shown.push(format!(
                "{} {} free of {}",
                mount.display(),
                gib(disk.available_space()),
                gib(disk.total_space())
            ));
        }
    }
    if !shown.is_empty() {
        lines.push(format!("Disk: {}", shown.join("; ")));
    }
    if let Some(battery) = battery() {
        lines.push(format!("Battery: {battery}"));
    }
    lines.join("\n")
}

fn session_type() -> String {
    match std::env::var("XDG_SESSION_TYPE") {
        Ok(t) if !t.is_empty() => t,
        _ if std::env::var_os("WAYLAND_DISPLAY").is_some() => "wayland".into(),
        _ if std::env::var_os("DISPLAY").is_some() => "x11".into(),
        _ => "none (no display)".into(),
    }
}

fn screen_size() -> String {
    if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
        return "no display".into();
    }
    match xcap::Monitor::all() {
        Ok(monitors) if !monitors.is_empty() => monitors
            .iter()
            .filter_map(|m| Some(format!("{}x{}", m.width().ok()?, m.height().ok()?)))
            .collect::<Vec<_>>()
            .join(", "),
        Ok(_) => "no monitor found".into(),
        Err(e) => format!("unknown ({e})"),
    }
}

/// Capacity and status of the first battery in /sys, if any.
fn battery() -> Option<String> {
    let dir = std::fs::read_dir("/sys/class/power_supply").ok()?;
    for entry in dir.flatten() {
        let path = entry.path();
        let kind = std::fs::read_to_string(path.join("type")).unwrap_or_default();
        if kind.trim() != "Battery" {
            continue;
        }
        let capacity = std::fs::read_to_string(path.join("capacity")).ok()?;
        let status = std::fs::read_to_string(path.join("status")).unwrap_or_default();
        return Some(format!(
            "{}% {}",
            capacity.trim(),
            status.trim().to_lowercase()
        ));
    }
    None
}

fn gib(bytes: u64) -> String {
    format!("{:.1} GiB", bytes as f64 / (1u64 << 30) as f64)
}

fn mib(bytes: u64) -> String {
    format!("{} MiB", bytes >> 20)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_snapshot_names_the_os_memory_disk_and_folder() {
        let dir = std::env::temp_dir();
        let text = snapshot(&dir);
        assert!(text.contains("OS: "), "{text}");
        assert!(text.contains("Memory: "), "{text}");
        assert!(text.contains("Disk: / "), "{text}");
        assert!(
            text.contains(&format!("Working folder: {}", dir.display())),
            "{text}"
        );
        assert!(text.contains("Top processes by memory: "), "{text}");
    }
}
