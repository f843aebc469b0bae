//! `embed_migrations!` is not re-run when migration files change; this makes Cargo re-run it.
fn main() {
    println!("cargo:rerun-if-changed=../../migrations");
}
