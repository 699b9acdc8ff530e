//! The rearrangement kernels (`kernels/rearrange.cuh`) compiled for the
//! host, against the CPU backend's `rearrange`: every element width, flips,
//! rolls, the four paddings (cropping too), bands, on contiguous,
//! transposed and offset sources. Results must be equal element for
//! element.

use super::rearrange::{RearrangeArgs, plan_rearrange};
use crate::backend::cpu::CpuPtr;
use crate::backend::rearrange::{AxisMap, Band, PadMode, Rearranging};
use crate::backend::{Cpu, StridedRef};
use crate::dtype::Element;
use core::ffi::c_char;
use core::mem::offset_of;
use half::f16;
use num_complex::Complex;
use std::ffi::CString;

// SAFETY: kernels/host_launch.cpp's functions, with the same signatures;
// build.rs links that library with the `cuda` feature.
unsafe extern "C" {
    fn shaped_host_rearrange_launch(
        name: *const c_char,
        grid: u32,
        block: u32,
        args: *const RearrangeArgs,
    ) -> i32;
    fn shaped_host_rearrange_args_layout(out: *mut u64);
}

#[test]
fn rearrange_args_layout_matches_the_kernels() {
    let mut c = [0u64; 17];
    // SAFETY: the function writes 17 values.
    unsafe { shaped_host_rearrange_args_layout(c.as_mut_ptr()) };
    let rust = [
        size_of::<RearrangeArgs>(),
        offset_of!(RearrangeArgs, sizes),
        offset_of!(RearrangeArgs, src_sizes),
        offset_of!(RearrangeArgs, src_strides),
        offset_of!(RearrangeArgs, amount),
        offset_of!(RearrangeArgs, out),
        offset_of!(RearrangeArgs, src),
        offset_of!(RearrangeArgs, src_offset),
        offset_of!(RearrangeArgs, fill),
        offset_of!(RearrangeArgs, band_lower),
        offset_of!(RearrangeArgs, band_upper),
        offset_of!(RearrangeArgs, rank),
        offset_of!(RearrangeArgs, banded),
        offset_of!(RearrangeArgs, narrow),
        offset_of!(RearrangeArgs, map),
        offset_of!(RearrangeArgs, magic),
        offset_of!(RearrangeArgs, shift),
    ];
    assert_eq!(c.map(|x| x as usize), rust);
}

/// Sources: (sizes, strides, offset), over a buffer of 80 elements.
const SOURCES: &[(&[usize], &[usize], usize)] = &[
    (&[3, 4, 5], &[20, 5, 1], 0),
    (&[3, 5, 4], &[20, 1, 5], 0),  // transposed
    (&[2, 3, 5], &[20, 10, 2], 7), // stepped, offset
];

fn check<T: Element>(value: impl Fn(usize) -> T, fill: T) {
    use AxisMap::*;
    let pad = |before, after, mode| Pad {
        before,
        after,
        mode,
    };
    let maps: &[[AxisMap; 3]] = &[
        [Same; 3],
        [Same, Same, Reverse],
        [Reverse, Roll(1), Same],
        [Same, Roll(2), Roll(3)],
        [
            Same,
            pad(1, 2, PadMode::Constant),
            pad(3, 3, PadMode::Reflect),
        ],
        [
            pad(2, 0, PadMode::Replicate),
            Reverse,
            pad(2, 4, PadMode::Circular),
        ],
        [
            Same,
            pad(-1, 0, PadMode::Constant),
            pad(0, -2, PadMode::Constant),
        ],
    ];
    let bands = [
        None,
        Some(Band::tril(0)),
        Some(Band::triu(1)),
        Some(Band::diagonal(-1)),
    ];
    let mut buffer: Vec<T> = (0..80).map(&value).collect();
    for &(sizes, strides, offset) in SOURCES {
        for m in maps {
            for band in bands {
                let src = StridedRef {
                    ptr: CpuPtr::from_mut(&mut buffer),
                    sizes,
                    strides,
                    offset,
                };
                let want = Cpu::rearrange(src, m, fill, band)
                    .unwrap()
                    .as_slice()
                    .to_vec();
                let mut got = vec![value(99); want.len()];
                let launch = plan_rearrange(
                    buffer.as_ptr() as u64,
                    sizes,
                    strides,
                    offset,
                    m,
                    band,
                    got.as_mut_ptr() as u64,
                    size_of::<T>(),
                    super::rearrange::fill_bits(fill),
                )
                .unwrap()
                .unwrap();
                let name = CString::new(launch.kernel.as_str()).unwrap();
                // At most 3 blocks of 32 threads: the grid-stride loop goes round.
                let grid = launch.grid(32, 3);
                // SAFETY: `name` is a C string; the arguments mirror the
                // kernel's (`rearrange_args_layout_matches_the_kernels`); the
                // source's layout lies in `buffer`, the output holds every
                // element the plan writes.
                let status =
                    unsafe { shaped_host_rearrange_launch(name.as_ptr(), grid, 32, &launch.args) };
                assert_eq!(status, 0, "{} ran on the host", launch.kernel);
                assert!(
                    got == want,
                    "{:?} {m:?} {band:?} over {sizes:?}/{strides:?}:\nhost kernel {got:?}\nCPU {want:?}",
                    T::DTYPE
                );
            }
        }
    }
}

#[test]
fn rearrangements_match_the_cpu() {
    check::<i8>(|i| i as i8, -1);
    check::<f16>(|i| f16::from_f32(i as f32), f16::from_f32(-0.5));
    check::<f32>(|i| i as f32, f32::NAN.copysign(-1.0).max(-7.0));
    check::<i64>(|i| i as i64 * 1_000_000_007, -3);
    check::<Complex<f64>>(
        |i| Complex::new(i as f64, -(i as f64)),
        Complex::new(0.5, 2.0),
    );
    check::<bool>(|i| i % 3 == 0, true);
}
