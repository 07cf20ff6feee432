// The gateway's requests allocate and free many small buffers (header maps, bodies, futures) on
// every serving thread; mimalloc serves them from per-thread pages with fewer instructions and no
// shared lock (benches/PROFILE.md has the measurement).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    tdqs_gateway::cli::run()
}
