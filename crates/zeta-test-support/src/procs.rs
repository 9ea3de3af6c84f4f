//! The process table, read from /proc: to find what a test started (a process group, a
//! process's descendants, whoever has a path on its command line) and end it by PID.

use std::path::Path;

/// One process, from `/proc/PID/stat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Proc {
    pub pid: u32,
    pub ppid: u32,
    pub pgid: i32,
    /// `R`, `S`, `Z`…
    pub state: char,
}

impl Proc {
    pub fn is_zombie(&self) -> bool {
        self.state == 'Z'
    }
}

/// Process `pid`, if it exists.
pub fn stat(pid: u32) -> Option<Proc> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    let (_, rest) = stat.rsplit_once(')')?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    Some(Proc {
        pid,
        state: fields.first()?.chars().next()?,
        ppid: fields.get(1)?.parse().ok()?,
        pgid: fields.get(2)?.parse().ok()?,
    })
}

/// Every process now.
pub fn all() -> Vec<Proc> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(stat)
        .collect()
}

/// Live (not zombie) processes in process group `pgid`.
pub fn live_group_members(pgid: i32) -> Vec<u32> {
    all()
        .into_iter()
        .filter(|p| p.pgid == pgid && !p.is_zombie())
        .map(|p| p.pid)
        .collect()
}

/// All descendants of `pid` (not `pid` itself), parents before children.
pub fn descendants(pid: u32) -> Vec<u32> {
    let table = all();
    let mut found = vec![pid];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(table.iter().filter(|p| p.ppid == parent).map(|p| p.pid));
        i += 1;
    }
    found.remove(0);
    found
}

/// Processes whose command line mentions `path`.
pub fn processes_using(path: &Path) -> Vec<u32> {
    let needle = path.display().to_string();
    all()
        .into_iter()
        .map(|p| p.pid)
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| {
                String::from_utf8_lossy(&c)
                    .replace('\0', " ")
                    .contains(&needle)
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_is_found_by_group_parent_and_command_line() {
        let mut child = match std::process::Command::new("sleep").arg("30").spawn() {
            Ok(child) => child,
            Err(e) => panic!("sleep: {e}"),
        };
        let me = std::process::id();
        let found = stat(child.id());
        let _ = child.kill();
        let _ = child.wait();
        let Some(found) = found else {
            panic!("the child is not in /proc");
        };
        assert_eq!(found.ppid, me);
        assert!(stat(me).is_some_and(|p| p.pgid == found.pgid));
        assert!(stat(u32::MAX).is_none());
    }

    #[test]
    fn descendants_and_users_of_a_path_are_listed() {
        let marker = std::env::temp_dir().join(format!("procs-marker-{}", std::process::id()));
        // `sh -c 'sleep 30; :' MARKER`: the shell stays (no exec of the last command) with
        // the marker as its $0.
        let mut child = match std::process::Command::new("sh")
            .args(["-c", "sleep 30; :"])
            .arg(&marker)
            .spawn()
        {
            Ok(child) => child,
            Err(e) => panic!("sleep: {e}"),
        };
        let pid = child.id();
        // The shell has to exec and then fork `sleep`: wait for both, as a test of a
        // process tree must.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        let (mut users, mut grandchildren) = (Vec::new(), Vec::new());
        while std::time::Instant::now() < deadline {
            users = processes_using(&marker);
            grandchildren = descendants(pid);
            if users == vec![pid] && !grandchildren.is_empty() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let tree = descendants(std::process::id());
        for sleeper in &grandchildren {
            let _ = std::process::Command::new("kill")
                .arg(sleeper.to_string())
                .status();
        }
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(users, vec![pid]);
        assert!(tree.contains(&pid), "{tree:?}");
        assert!(!tree.contains(&std::process::id()), "{tree:?}");
        // The shell's own child, `sleep`.
        assert_eq!(grandchildren.len(), 1, "{grandchildren:?}");
    }
}
