//! The process table, from /proc: who is whose child, in what state, with what command line.

use std::collections::HashSet;

#[derive(Debug, Clone)]
pub struct ProcInfo {
    pub pid: i32,
    pub ppid: i32,
    /// `R`, `S`, `Z` (zombie: exited, not yet reaped by its parent), ...
    pub state: char,
    pub cmdline: String,
}

fn read(pid: i32) -> Option<ProcInfo> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses; it ends at the last ')'.
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut fields = rest.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let ppid = fields.next()?.parse().ok()?;
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|b| String::from_utf8_lossy(&b).replace('\0', " ").trim().to_owned())
        .unwrap_or_default();
    Some(ProcInfo { pid, ppid, state, cmdline })
}

/// Every process visible now.
pub fn table() -> Vec<ProcInfo> {
    let Ok(dir) = std::fs::read_dir("/proc") else { return vec![] };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok()).filter_map(read).collect()
}

/// Direct children of `pid`, zombies included.
pub fn children(pid: i32) -> Vec<ProcInfo> {
    table().into_iter().filter(|p| p.ppid == pid).collect()
}

/// Children, grandchildren, ... of `pid`.
pub fn descendants(pid: i32) -> Vec<ProcInfo> {
    let all = table();
    let mut found: Vec<ProcInfo> = Vec::new();
    let mut parents: HashSet<i32> = HashSet::from([pid]);
    loop {
        let next: Vec<ProcInfo> = all
            .iter()
            .filter(|p| parents.contains(&p.ppid) && !found.iter().any(|f| f.pid == p.pid))
            .cloned()
            .collect();
        if next.is_empty() {
            return found;
        }
        parents = next.iter().map(|p| p.pid).collect();
        found.extend(next);
    }
}

/// Processes whose command line contains `marker` (this test process excluded).
pub fn with_marker(marker: &str) -> Vec<ProcInfo> {
    let me = std::process::id() as i32;
    table().into_iter().filter(|p| p.pid != me && p.cmdline.contains(marker)).collect()
}

/// True while `pid` exists and is not a zombie.
pub fn alive(pid: i32) -> bool {
    read(pid).is_some_and(|p| p.state != 'Z')
}
