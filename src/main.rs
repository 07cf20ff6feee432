fn main() -> std::process::ExitCode {
    tdqs_gateway::cli::run()
}
