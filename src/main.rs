// A proxy allocates and frees a buffer or two per message on every worker thread; mimalloc's
// per-thread heaps do that with less CPU than glibc's arenas and give memory back sooner.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    tdqs_gateway::cli::run()
}
