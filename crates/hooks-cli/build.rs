//! Links the `hooks` binary as a position-dependent executable on Linux: an agent starts
//! `hooks bridge` on every tool call, and a position-independent one spends a quarter of its
//! start relocating itself (33,000 relocations, 150 pages copied on write before `main`).
//! `HOOKS_BUILD_PIE=1` keeps the toolchain's default, for a distribution that requires it
//! (`docs/decisions.md`, "The binary is linked position-dependent").

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=HOOKS_BUILD_PIE");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    let pie = std::env::var_os("HOOKS_BUILD_PIE").is_some_and(|v| v == "1");
    if linux && !pie {
        println!("cargo::rustc-link-arg-bins=-no-pie");
        println!("cargo::rustc-link-arg-bins=-Wl,-z,lazy");
    }
}
