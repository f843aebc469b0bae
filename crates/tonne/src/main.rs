//! `tonne`: the server and admin CLI. See `tonne --help`.

/// mimalloc's thread-local free lists instead of glibc's arenas: a request
/// allocates and frees a few hundred small blocks, and glibc's `malloc`/`free`
/// were 7 % of the server's samples under load (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    tonne::cli::main()
}
