//! The environment snapshot (seed 001) that opens each task's system prompt: OS, desktop
//! session type, screen size, memory and disk use, the programs using most memory, the
//! battery when there is one, and the working folder. Cheap to gather (tens of
//! milliseconds), taken fresh for every task; anything that cannot be read is left out or
//! says so.
//!
//! The lines go from the steadiest to the most changeable, and the figures are rounded
//! (whole GiB, program names without their size), so that two tasks in a row usually see
//! the same text: a model server that caches the prompt then evaluates none of it again
//! (measured with the local model: ~95 tokens, ~1.4 s, on every task).

use std::path::Path;

use sysinfo::{Disks, ProcessesToUpdate, System};

/// Programs named in the snapshot.
const TOP_PROGRAMS: usize = 5;

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
                gib_down(disk.available_space()),
                gib(disk.total_space())
            ));
        }
    }
    if !shown.is_empty() {
        lines.push(format!("Disk: {}", shown.join("; ")));
    }

    let mut sys = System::new();
    sys.refresh_memory();
    sys.refresh_processes(ProcessesToUpdate::All, true);
    lines.push(format!(
        "Memory: about {} of {} used",
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
    let mut top: Vec<String> = Vec::new();
    for p in procs {
        let name = p.name().to_string_lossy().into_owned();
        if !top.contains(&name) {
            top.push(name);
        }
        if top.len() == TOP_PROGRAMS {
            break;
        }
    }
    lines.push(format!(
        "Programs using the most memory: {}",
        top.join(", ")
    ));
    if let Some(battery) = battery() {
        lines.push(format!("Battery: {battery}"));
    }
    lines.push(format!("Working folder: {}", workdir.display()));
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

/// Whole GiB, rounded; "under 1 GiB" below half of one.
fn gib(bytes: u64) -> String {
    match (bytes as f64 / (1u64 << 30) as f64).round() as u64 {
        0 => "under 1 GiB".into(),
        n => format!("{n} GiB"),
    }
}

/// Whole GiB, rounded down (free space is not overstated).
fn gib_down(bytes: u64) -> String {
    match bytes >> 30 {
        0 => format!("{} MiB", bytes >> 20),
        n => format!("{n} GiB"),
    }
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
        assert!(text.contains("Programs using the most memory: "), "{text}");
        // The working folder, the one line that changes between tasks in one folder and
        // the next, comes last.
        assert!(
            text.lines()
                .last()
                .is_some_and(|l| l.starts_with("Working folder: ")),
            "{text}"
        );
    }

    #[test]
    fn two_snapshots_in_a_row_are_the_same_text() {
        let dir = std::env::temp_dir();
        let (a, b) = (snapshot(&dir), snapshot(&dir));
        // Memory may cross a rounding edge between the two; everything else holds still.
        let steady = |t: &str| -> Vec<String> {
            t.lines()
                .filter(|l| !l.starts_with("Memory: ") && !l.starts_with("Programs "))
                .map(str::to_string)
                .collect()
        };
        assert_eq!(steady(&a), steady(&b));
    }

    #[test]
    fn sizes_are_rounded_to_whole_gib() {
        let g = 1u64 << 30;
        assert_eq!(gib(23 * g + g / 2 + 1), "24 GiB");
        assert_eq!(gib(g * 16 / 10), "2 GiB");
        assert_eq!(gib(g / 3), "under 1 GiB");
        assert_eq!(gib_down(54 * g + g * 9 / 10), "54 GiB");
        assert_eq!(gib_down(g / 2), "512 MiB");
    }
}
