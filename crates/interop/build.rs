//! Links libusrsctp only when the `usrsctp` feature is on, so the crate builds (and its
//! library-independent parts test) on machines without the library.

fn main() {
    println!("cargo:rerun-if-env-changed=CARGO_FEATURE_USRSCTP");
    if std::env::var_os("CARGO_FEATURE_USRSCTP").is_some() {
        println!("cargo:rustc-link-lib=usrsctp");
        // The executables export their symbols, so that usrsctp's calls of `gettimeofday` and
        // `read_random` reach the virtual clock and the seeded stream (`src/virtual_env.rs`).
        println!("cargo:rustc-link-arg-bins=-Wl,--export-dynamic");
        println!("cargo:rustc-link-arg-tests=-Wl,--export-dynamic");
    }
}
