//! With the `cuda` feature: compiles the CUDA kernels (`kernels/*.cu`).
//!
//! 1. `nvcc -ptx` for compute_80 gives the kernels' PTX.
//! 2. `ptxas` assembles that PTX for sm_80 (A100) and sm_90 (H100), in
//!    parallel; a kernel that does not assemble fails the build.
//! 3. `fatbinary` packs both machine codes with the PTX (which the driver
//!    compiles for newer GPUs) into `elementwise.fatbin`, which the library
//!    embeds and loads with `cust::module::Module::from_fatbin`.
//! 4. The same sources compile as C++ for the host (`host_launch.cpp`), for
//!    the tests that run the kernels' logic against the CPU backend.
//!
//! `NVCC`, `PTXAS` and `FATBINARY` override the tools' paths. Without the
//! feature this does nothing.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The GPU architectures the kernels are assembled for.
const ARCHS: [&str; 2] = ["sm_80", "sm_90"];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if env::var_os("CARGO_FEATURE_CUDA").is_none() {
        return;
    }
    for file in [
        "elementwise.cuh",
        "elementwise.cu",
        "host_shim.h",
        "host_launch.cpp",
    ] {
        println!("cargo:rerun-if-changed=kernels/{file}");
    }
    for var in ["NVCC", "PTXAS", "FATBINARY"] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let ptx = out.join("elementwise.ptx");
    run(Command::new(tool("NVCC", "nvcc"))
        .args(["-ptx", "-arch=compute_80", "-std=c++14", "-O3"])
        // No fused multiply-adds: the results match the CPU's bit for bit.
        .arg("-fmad=false")
        .arg("kernels/elementwise.cu")
        .arg("-o")
        .arg(&ptx));
    let cubins: Vec<PathBuf> = std::thread::scope(|s| {
        let jobs: Vec<_> = ARCHS
            .iter()
            .map(|arch| {
                let ptx = &ptx;
                let cubin = out.join(format!("elementwise.{arch}.cubin"));
                s.spawn(move || {
                    run(Command::new(tool("PTXAS", "ptxas"))
                        .arg(format!("-arch={arch}"))
                        .arg("-O3")
                        .arg(ptx)
                        .arg("-o")
                        .arg(&cubin));
                    cubin
                })
            })
            .collect();
        jobs.into_iter()
            .map(|j| j.join().expect("ptxas thread"))
            .collect()
    });
    let mut fatbinary = Command::new(tool("FATBINARY", "fatbinary"));
    fatbinary.arg("--64").arg(format!(
        "--create={}",
        out.join("elementwise.fatbin").display()
    ));
    for (arch, cubin) in ARCHS.iter().zip(&cubins) {
        let sm = arch.trim_start_matches("sm_");
        fatbinary.arg(format!(
            "--image3=kind=elf,sm={sm},file={}",
            cubin.display()
        ));
    }
    fatbinary.arg(format!("--image3=kind=ptx,sm=80,file={}", ptx.display()));
    run(&mut fatbinary);

    host_kernels();
}

/// The kernels' sources as host C++, for the tests.
#[cfg(feature = "cuda")]
fn host_kernels() {
    cc::Build::new()
        .cpp(true)
        .file("kernels/host_launch.cpp")
        .include("kernels")
        .flag("-std=c++14")
        .flag("-ffp-contract=off")
        .opt_level(1)
        .warnings(true)
        .compile("shaped_host_kernels");
}

#[cfg(not(feature = "cuda"))]
fn host_kernels() {}

fn tool(var: &str, default: &str) -> PathBuf {
    env::var_os(var).map_or_else(|| PathBuf::from(default), PathBuf::from)
}

fn run(command: &mut Command) {
    let status = command.status().unwrap_or_else(|e| {
        panic!(
            "could not run {} ({e}); the `cuda` feature needs the CUDA toolkit \
             (nvcc, ptxas, fatbinary) on PATH",
            Path::new(command.get_program()).display()
        )
    });
    assert!(status.success(), "{command:?} failed: {status}");
}
