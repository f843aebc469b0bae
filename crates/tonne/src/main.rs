//! `tonne`: the server and admin CLI. See `tonne --help`.

/// mimalloc instead of the system allocator: the report's and the
/// footprints' walks allocate a few small strings per line, and glibc's
/// malloc and free took a third of their time (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    tonne::cli::main()
}
