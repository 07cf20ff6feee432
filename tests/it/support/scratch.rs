//! One scratch folder per test for its configs, logs and data, under cargo's test scratch
//! space; removed at the end unless the test failed (then it is kept and named on stderr, and
//! the process guards print their log tails).

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::paths::tmp_root;

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A number unique in this test process (folder names, markers).
pub fn unique() -> usize {
    COUNTER.fetch_add(1, Ordering::Relaxed)
}

pub struct Scratch {
    pub dir: PathBuf,
}

impl Scratch {
    /// A fresh, empty folder named after `test`.
    pub fn new(test: &str) -> Scratch {
        let dir = tmp_root().join(format!("it/{test}-{}-{}", std::process::id(), unique()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create scratch folder");
        Scratch { dir }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// The environment that gives a process this test's own score store.
    pub fn envs(&self) -> Vec<(String, String)> {
        vec![("XDG_DATA_HOME".into(), self.path("xdg").display().to_string())]
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("scratch folder kept: {}", self.dir.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}
