//! With the `cuda` feature: compiles the CUDA kernels (`kernels/*.cu`).
//!
//! For each source file of [`UNITS`], in parallel:
//!
//! 1. `nvcc -ptx` for compute_80 gives the kernels' PTX.
//! 2. `ptxas` assembles that PTX for sm_80 (A100) and sm_90 (H100), in
//!    parallel; a kernel that does not assemble fails the build.
//! 3. `fatbinary` packs both machine codes with the PTX (which the driver
//!    compiles for newer GPUs) into `{unit}.fatbin`, which the library
//!    embeds and loads with `cust::module::Module::from_fatbin`.
//!
//! Beside them, the same sources compile as C++ for the host
//! (`host_launch.cpp`), for the tests that run the kernels' logic against
//! the CPU backend.
//!
//! This takes minutes. With `SHAPED_KERNEL_CACHE` naming a folder, each
//! fatbinary and the host library are kept there under a hash of everything
//! that goes into that one (its sources, the tools' versions, the flags), so
//! builds with other profiles or target folders (tests, trybuild, docs)
//! reuse them, and a change to one source file rebuilds only what includes
//! it. `NVCC`, `PTXAS` and `FATBINARY` override the tools' paths.
//! Without the feature this does nothing.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The GPU architectures the kernels are assembled for.
const ARCHS: [&str; 2] = ["sm_80", "sm_90"];

/// The device code's translation units (`kernels/{unit}.cu`), each its own
/// fatbinary and module, with the headers each includes.
const UNITS: [(&str, &[&str]); 11] = [
    ("elementwise", &["elementwise.cuh", "math.cuh"]),
    ("math", &["elementwise.cuh", "math.cuh"]),
    ("special", &["elementwise.cuh", "math.cuh"]),
    ("reduce", &["elementwise.cuh", "math.cuh", "reduce.cuh"]),
    (
        "select",
        &["elementwise.cuh", "math.cuh", "select.cuh", "rearrange.cuh"],
    ),
    ("matmul", &["elementwise.cuh", "math.cuh", "matmul.cuh"]),
    ("indexing", &["elementwise.cuh", "math.cuh", "indexing.cuh"]),
    (
        "scan",
        &["elementwise.cuh", "math.cuh", "reduce.cuh", "scan.cuh"],
    ),
    ("sort", &["elementwise.cuh", "math.cuh", "sort.cuh"]),
    (
        "sets",
        &["elementwise.cuh", "math.cuh", "sort.cuh", "sets.cuh"],
    ),
    ("random", &["elementwise.cuh", "math.cuh", "random.cuh"]),
];

/// The kernel sources, all inputs of both the device and the host build.
const SOURCES: [&str; 24] = [
    "elementwise.cuh",
    "math.cuh",
    "reduce.cuh",
    "select.cuh",
    "matmul.cuh",
    "indexing.cuh",
    "scan.cuh",
    "sort.cuh",
    "sets.cuh",
    "random.cuh",
    "rearrange.cuh",
    "elementwise.cu",
    "math.cu",
    "special.cu",
    "reduce.cu",
    "select.cu",
    "matmul.cu",
    "indexing.cu",
    "scan.cu",
    "sort.cu",
    "sets.cu",
    "random.cu",
    "host_shim.h",
    "host_launch.cpp",
];

/// `nvcc`'s flags. No fused multiply-adds: the results match the CPU's bit
/// for bit.
const NVCC_FLAGS: [&str; 5] = [
    "-ptx",
    "-arch=compute_80",
    "-std=c++14",
    "-O3",
    "-fmad=false",
];

/// The host library's name (`lib{HOST_LIB}.a`).
const HOST_LIB: &str = "shaped_host_kernels";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if env::var_os("CARGO_FEATURE_CUDA").is_none() {
        return;
    }
    for file in SOURCES {
        println!("cargo:rerun-if-changed=kernels/{file}");
    }
    for var in ["NVCC", "PTXAS", "FATBINARY", "SHAPED_KERNEL_CACHE"] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let cache = env::var_os("SHAPED_KERNEL_CACHE").map(PathBuf::from);
    // Each output, its name in the cache, and its key: the device code's
    // fatbinaries, then the host library (built from every source).
    let mut outputs: Vec<(PathBuf, String, u64)> = UNITS
        .iter()
        .map(|&(unit, headers)| {
            let cu = format!("{unit}.cu");
            let sources = headers.iter().copied().chain([cu.as_str()]);
            let key = cache_key(sources, &["NVCC", "PTXAS", "FATBINARY"]);
            (
                out.join(format!("{unit}.fatbin")),
                format!("{unit}.fatbin"),
                key,
            )
        })
        .collect();
    let host_key = cache_key(SOURCES.iter().copied(), &["CXX"]);
    outputs.push((
        out.join(format!("lib{HOST_LIB}.a")),
        "host.a".into(),
        host_key,
    ));
    let cached_at = |name: &str, key: u64| {
        cache
            .as_ref()
            .map(|dir| dir.join(format!("{key:016x}")).join(name))
    };
    // What the cache holds is copied; the rest is built, in parallel.
    let missing: Vec<usize> = (0..outputs.len())
        .filter(|&k| {
            let (path, name, key) = &outputs[k];
            cached_at(name, *key).is_none_or(|cached| fs::copy(cached, path).is_err())
        })
        .collect();
    std::thread::scope(|s| {
        for &k in &missing {
            let out = &out;
            match UNITS.get(k) {
                Some(&(unit, _)) => s.spawn(move || device_kernels(out, unit)),
                None => s.spawn(move || host_kernels(out)),
            };
        }
    });
    for &k in &missing {
        let (path, name, key) = &outputs[k];
        if let Some(cached) = cached_at(name, *key) {
            store(path, &cached);
        }
    }
    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:rustc-link-lib=static={HOST_LIB}");
    println!("cargo:rustc-link-lib=stdc++");
}

/// Steps 1–3 for `kernels/{unit}.cu`: PTX, the two machine codes, the
/// fatbinary.
fn device_kernels(out: &Path, unit: &str) {
    let ptx = out.join(format!("{unit}.ptx"));
    let fatbin = out.join(format!("{unit}.fatbin"));
    run(Command::new(tool("NVCC", "nvcc"))
        .args(NVCC_FLAGS)
        .arg(format!("kernels/{unit}.cu"))
        .arg("-o")
        .arg(&ptx));
    let cubins: Vec<PathBuf> = std::thread::scope(|s| {
        let jobs: Vec<_> = ARCHS
            .iter()
            .map(|arch| {
                let ptx = &ptx;
                let cubin = out.join(format!("{unit}.{arch}.cubin"));
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
    // Every image compressed (by default only the PTX and the larger
    // cubins are): the library embeds the fatbinaries.
    fatbinary
        .arg("--64")
        .arg("--compress-all")
        .arg(format!("--create={}", fatbin.display()));
    for (arch, cubin) in ARCHS.iter().zip(&cubins) {
        let sm = arch.trim_start_matches("sm_");
        fatbinary.arg(format!(
            "--image3=kind=elf,sm={sm},file={}",
            cubin.display()
        ));
    }
    fatbinary.arg(format!("--image3=kind=ptx,sm=80,file={}", ptx.display()));
    run(&mut fatbinary);
}

/// Step 4: the kernels' sources as host C++, for the tests. The link lines
/// are printed by `main`, the same whether this ran or the cache answered.
#[cfg(feature = "cuda")]
fn host_kernels(out: &Path) {
    cc::Build::new()
        .cpp(true)
        .cargo_metadata(false)
        .out_dir(out)
        .file("kernels/host_launch.cpp")
        .include("kernels")
        .flag("-std=c++14")
        .flag("-ffp-contract=off")
        .opt_level(1)
        .debug(false)
        .warnings(true)
        .compile(HOST_LIB);
}

#[cfg(not(feature = "cuda"))]
fn host_kernels(_: &Path) {}

/// A hash (FNV-1a, 64 bits) of everything one output depends on: this
/// script, its sources (in `kernels/`), the versions of its tools (named by
/// the variables that override them) and the target.
fn cache_key<'a>(sources: impl Iterator<Item = &'a str>, tools: &[&str]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes.iter().chain([0xff].iter()) {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    feed(&fs::read("build.rs").expect("build.rs is readable"));
    for file in sources {
        feed(file.as_bytes());
        feed(&fs::read(Path::new("kernels").join(file)).expect("the kernel sources are readable"));
    }
    for &var in tools {
        let default = var.to_lowercase().replace("cxx", "c++");
        let version = Command::new(tool(var, &default)).arg("--version").output();
        feed(&version.map(|o| o.stdout).unwrap_or_default());
    }
    feed(env::var("TARGET").unwrap_or_default().as_bytes());
    hash
}

/// Copies `from` into the cache as `to`, through a temporary name so that a
/// concurrent build never reads half a file.
fn store(from: &Path, to: &Path) {
    let Some(dir) = to.parent() else { return };
    let partial = to.with_extension(format!("partial-{}", std::process::id()));
    let stored = fs::create_dir_all(dir)
        .and_then(|()| fs::copy(from, &partial))
        .and_then(|_| fs::rename(&partial, to));
    if let Err(e) = stored {
        println!(
            "cargo:warning=could not store {} in the kernel cache: {e}",
            to.display()
        );
    }
}

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
