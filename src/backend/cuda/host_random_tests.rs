//! The random kernels (`kernels/random.cuh`) compiled for the host, against
//! the CPU backend's fills: every floating dtype, every distribution, odd
//! lengths (a partial last block), a stream offset near 2^32 (the counter's
//! upper word), and strided outputs (a transposed and a stepped view).
//! Results must match bit for bit: the same seed gives the same tensor on
//! the CPU and on a device.

use super::launch::Operand;
use super::random::{RandomArgs, RandomLaunch, plan_draws, plan_random};
use crate::backend::cpu::CpuPtr;
use crate::backend::{Cpu, DrawFill, Random, RandomFill, StridedMut};
use crate::random::{Distribution, Draw, RandomFloat, RandomWhole};
use core::ffi::c_char;
use core::mem::offset_of;
use half::{bf16, f16};
use std::ffi::CString;

// SAFETY: kernels/host_launch.cpp's functions, with the same signatures;
// build.rs links that library with the `cuda` feature.
unsafe extern "C" {
    fn shaped_host_random_launch(
        name: *const c_char,
        grid: u32,
        block: u32,
        args: *const RandomArgs,
    ) -> i32;
    fn shaped_host_random_args_layout(out: *mut u64);
}

#[test]
fn random_args_layout_matches_the_kernels() {
    let mut c = [0u64; 14];
    // SAFETY: the function writes 14 values.
    unsafe { shaped_host_random_args_layout(c.as_mut_ptr()) };
    let rust = [
        size_of::<RandomArgs>(),
        offset_of!(RandomArgs, sizes),
        offset_of!(RandomArgs, out),
        offset_of!(RandomArgs, rates),
        offset_of!(RandomArgs, seed),
        offset_of!(RandomArgs, offset),
        offset_of!(RandomArgs, a),
        offset_of!(RandomArgs, b),
        offset_of!(RandomArgs, low),
        offset_of!(RandomArgs, range),
        offset_of!(RandomArgs, rank),
        offset_of!(RandomArgs, dist),
        offset_of!(RandomArgs, narrow),
        offset_of!(RandomArgs, shift),
    ];
    assert_eq!(c.map(|x| x as usize), rust);
}

/// The layouts: (sizes, strides, storage length).
const LAYOUTS: &[(&[usize], &[usize], usize)] = &[
    (&[1001], &[1], 1001),
    (&[7, 9], &[1, 7], 63),  // transposed
    (&[5, 4], &[12, 3], 60), // stepped
    (&[3], &[1], 3),
];

fn check<T: RandomFloat>() {
    let dists = [
        Distribution::Uniform { lo: -2.0, hi: 3.5 },
        Distribution::Uniform { lo: 0.0, hi: 1.0 },
        Distribution::Normal {
            mean: 1.0,
            std: 0.25,
        },
        Distribution::Normal {
            mean: 0.0,
            std: 1.0,
        },
        Distribution::Exponential { lambda: 1.5 },
        Distribution::LogNormal {
            mean: 0.5,
            std: 2.0,
        },
        // Past the exponential's range: infinities and zeros.
        Distribution::LogNormal {
            mean: 0.0,
            std: 300.0,
        },
        Distribution::Geometric { p: 0.3 },
        Distribution::Cauchy {
            median: -1.0,
            sigma: 0.75,
        },
    ];
    for &(sizes, strides, len) in LAYOUTS {
        for dist in dists {
            for (seed, offset) in [(0u64, 0u64), (0x0123_4567_89ab_cdef, (1u64 << 32) - 3)] {
                let fill = RandomFill { seed, offset, dist };
                let mut want = vec![T::ZERO; len];
                let out = StridedMut {
                    ptr: CpuPtr::from_mut(&mut want),
                    sizes,
                    strides,
                    offset: 0,
                };
                Cpu::fill_random(out, fill).unwrap();
                let mut got = vec![T::ZERO; len];
                let target = Operand {
                    addr: got.as_mut_ptr() as u64,
                    offset: 0,
                    strides,
                };
                run_on_host(
                    &plan_random(sizes, target, T::DTYPE, T::PER_BLOCK, fill)
                        .unwrap()
                        .unwrap(),
                );
                #[allow(clippy::eq_op)]
                let same = got
                    .iter()
                    .zip(&want)
                    .all(|(x, y)| x == y || (x != x && y != y));
                assert!(
                    same,
                    "{:?} {dist:?} over {sizes:?}/{strides:?}, seed {seed}:\nhost kernel {got:?}\nCPU {want:?}",
                    T::DTYPE
                );
                assert!(want.iter().any(|v| *v != T::ZERO), "the fill wrote nothing");
            }
        }
    }
}

#[test]
fn random_fills_match_the_cpu_bit_for_bit() {
    check::<f32>();
    check::<f64>();
    check::<f16>();
    check::<bf16>();
}

/// Runs `launch` on the host; panics when the kernel is not found.
fn run_on_host(launch: &RandomLaunch) {
    let name = CString::new(launch.kernel.as_str()).unwrap();
    // At most 3 blocks of 64 threads: the grid-stride loop goes round.
    let grid = launch.grid(64, 3);
    // SAFETY: `name` is a C string; the arguments mirror the kernel's
    // (`random_args_layout_matches_the_kernels`); the output the plan
    // names holds every index of its layout.
    let status = unsafe { shaped_host_random_launch(name.as_ptr(), grid, 64, &launch.args) };
    assert_eq!(status, 0, "{} ran on the host", launch.kernel);
}

fn check_draws<T: RandomWhole>(draws: &[Draw]) {
    for &(sizes, strides, len) in LAYOUTS {
        for &draw in draws {
            for (seed, offset) in [(3u64, 0u64), (0x0123_4567_89ab_cdef, (1u64 << 32) - 3)] {
                let fill = DrawFill { seed, offset, draw };
                let mut want = vec![T::ZERO; len];
                let out = StridedMut {
                    ptr: CpuPtr::from_mut(&mut want),
                    sizes,
                    strides,
                    offset: 0,
                };
                Cpu::fill_draws(out, fill).unwrap();
                let mut got = vec![T::ZERO; len];
                let target = Operand {
                    addr: got.as_mut_ptr() as u64,
                    offset: 0,
                    strides,
                };
                run_on_host(&plan_draws(sizes, target, T::DTYPE, fill).unwrap().unwrap());
                assert!(
                    got == want,
                    "{:?} {draw:?} over {sizes:?}/{strides:?}, seed {seed}:\nhost kernel {got:?}\nCPU {want:?}",
                    T::DTYPE
                );
                if len > 50 {
                    assert!(want.iter().any(|v| *v != T::ZERO), "the draw wrote nothing");
                }
            }
        }
    }
}

#[test]
fn whole_number_draws_match_the_cpu_bit_for_bit() {
    let common = [
        Draw::Integers { low: 0, range: 2 },
        Draw::bernoulli(0.3),
        Draw::bernoulli(1.0),
    ];
    let wide = [
        Draw::Integers {
            low: -100,
            range: 227,
        },
        Draw::Integers { low: 1, range: 3 },
        Draw::Geometric {
            ln_q: crate::random::Distribution::geometric_log(0.3).to_bits(),
        },
        // Tiny p: counts past i64::MAX saturate on both sides.
        Draw::Geometric {
            ln_q: crate::random::Distribution::geometric_log(1e-300).to_bits(),
        },
    ];
    check_draws::<bool>(&common);
    macro_rules! each {
        ($($t:ty),*) => {$(
            check_draws::<$t>(&common);
            check_draws::<$t>(&wide);
        )*};
    }
    each!(i8, i16, i32, i64, f16, bf16, f32, f64);
    check_draws::<u8>(&[Draw::Integers { low: 0, range: 256 }]);
    // The full range of int64 (`random_(i64::MIN, None)` is 2^64; the
    // widest a `range` holds is 2^64 - 1) and float64's `random_()`.
    check_draws::<i64>(&[Draw::Integers {
        low: i64::MIN,
        range: u64::MAX,
    }]);
    check_draws::<f64>(&[Draw::Integers {
        low: 0,
        range: (1 << 53) + 1,
    }]);
}

/// Poisson samples: the host-built kernel against the CPU, bit for bit,
/// for rates on both sides of the algorithms' switch at 10, zero, huge
/// and infinite rates, read through a transposed layout.
#[test]
fn poisson_matches_the_cpu_bit_for_bit() {
    fn check<T: RandomFloat>() {
        let mut rates: Vec<T> = (0..63)
            .map(|i| {
                let r = match i % 9 {
                    0 => 0.0,
                    1 => 0.25,
                    2 => 3.5,
                    3 => 9.999,
                    4 => 10.0,
                    5 => 57.0,
                    6 => 1e6,
                    7 => f64::INFINITY,
                    _ => f64::from(i),
                };
                crate::dtype::cast::cast::<f64, T>(r)
            })
            .collect();
        let (sizes, strides): (&[usize], &[usize]) = (&[7, 9], &[1, 7]);
        for (seed, offset) in [(1u64, 0u64), (0x0123_4567_89ab_cdef, (1u64 << 32) - 5)] {
            let mut want = vec![T::ZERO; 63];
            let source = crate::backend::StridedRef {
                ptr: CpuPtr::from_mut(&mut rates),
                sizes,
                strides,
                offset: 0,
            };
            let out = StridedMut {
                ptr: CpuPtr::from_mut(&mut want),
                sizes,
                strides: &[9, 1],
                offset: 0,
            };
            Cpu::poisson(source, out, seed, offset).unwrap();
            let mut got = vec![T::ZERO; 63];
            let launch = super::random::plan_poisson(
                sizes,
                Operand {
                    addr: rates.as_ptr() as u64,
                    offset: 0,
                    strides,
                },
                Operand {
                    addr: got.as_mut_ptr() as u64,
                    offset: 0,
                    strides: &[9, 1],
                },
                T::DTYPE,
                seed,
                offset,
            )
            .unwrap()
            .unwrap();
            run_on_host(&launch);
            assert!(
                got == want,
                "{:?} seed {seed}:\nhost kernel {got:?}\nCPU {want:?}",
                T::DTYPE
            );
            assert!(
                want.iter().filter(|v| **v != T::ZERO).count() > 30,
                "{want:?}"
            );
        }
    }
    check::<f32>();
    check::<f64>();
    check::<f16>();
    check::<bf16>();
}
