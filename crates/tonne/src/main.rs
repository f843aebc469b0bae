//! `tonne`: the server and admin CLI. See `tonne --help`.

fn main() -> std::process::ExitCode {
    tonne::cli::main()
}
