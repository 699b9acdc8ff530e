//! The random kernels (`kernels/random.cuh`) compiled for the host, against
//! the CPU backend's fills: every floating dtype, every distribution, odd
//! lengths (a partial last block), a stream offset near 2^32 (the counter's
//! upper word), and strided outputs (a transposed and a stepped view).
//! Results must match bit for bit: the same seed gives the same tensor on
//! the CPU and on a device.

use super::launch::Operand;
use super::random::{RandomArgs, plan_random};
use crate::backend::cpu::CpuPtr;
use crate::backend::{Cpu, Random, RandomFill, StridedMut};
use crate::random::{Distribution, RandomFloat};
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
    let mut c = [0u64; 11];
    // SAFETY: the function writes 11 values.
    unsafe { shaped_host_random_args_layout(c.as_mut_ptr()) };
    let rust = [
        size_of::<RandomArgs>(),
        offset_of!(RandomArgs, sizes),
        offset_of!(RandomArgs, out),
        offset_of!(RandomArgs, seed),
        offset_of!(RandomArgs, offset),
        offset_of!(RandomArgs, a),
        offset_of!(RandomArgs, b),
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
                let launch = plan_random(sizes, target, T::DTYPE, T::PER_BLOCK, fill)
                    .unwrap()
                    .unwrap();
                let name = CString::new(launch.kernel.as_str()).unwrap();
                // At most 3 blocks of 64 threads: the grid-stride loop goes round.
                let grid = launch.grid(64, 3);
                // SAFETY: `name` is a C string; the arguments mirror the
                // kernel's (`random_args_layout_matches_the_kernels`); the
                // output holds every index of its layout.
                let status =
                    unsafe { shaped_host_random_launch(name.as_ptr(), grid, 64, &launch.args) };
                assert_eq!(status, 0, "{} ran on the host", launch.kernel);
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
