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

/// `/proc/{pid}/stat` after "pid (comm) ", from the state on (field 3): comm may hold spaces
/// and parentheses; it ends at the last ')'.
fn stat_after_comm(pid: &str) -> Option<String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    Some(stat.get(stat.rfind(')')? + 2..)?.to_owned())
}

fn read(pid: i32) -> Option<ProcInfo> {
    let rest = stat_after_comm(&pid.to_string())?;
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

/// The CPU time this process has used so far, every thread, user and system (`/proc/self/stat`,
/// in the kernel's fixed 100 ticks a second). A cost measured this way does not grow when other
/// processes on a shared machine take the cores, as wall time does.
pub fn cpu_used() -> std::time::Duration {
    let rest = stat_after_comm("self").expect("/proc/self/stat");
    // From the state (field 3): utime and stime are fields 14 and 15.
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime");
    std::time::Duration::from_millis(ticks * 10)
}
