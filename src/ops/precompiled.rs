//! The reduction engine, compiled here for every element type.
//!
//! In unoptimized builds rustc lets a crate use the instances of generic
//! functions that its dependencies already compiled ("shared generics")
//! instead of compiling its own. The per-shape reduction methods of a
//! program all end in the engine's per-element-type core (`Cpu::reduce`
//! for one element type and reducer), about 10,000 lines of LLVM IR for one
//! pair. Compiled here for every pair, it costs a debug build of that
//! program nothing. Optimized builds compile their own copies (so that they
//! can inline), so this exists only where debug assertions are on, as in
//! cargo's `dev` and `test` profiles.

use super::Reductions;
use super::reducers::{Logical, Prod, Sum};
use super::reductions::Reduce;
use crate::storage::Cpu;
use half::{bf16, f16};
use num_complex::Complex;

/// The addresses of the engine's instances for `T`, every reducer that
/// applies (`mean_on` and the `extreme` forms hold the others, or return
/// PyTorch's error for `T`).
fn reduction_cores<T: Reduce>() -> [*const (); 7] {
    [
        <Cpu as Reductions>::reduce::<T, Sum> as *const (),
        <Cpu as Reductions>::reduce::<T, Prod> as *const (),
        <Cpu as Reductions>::reduce::<T, Logical<false>> as *const (),
        <Cpu as Reductions>::reduce::<T, Logical<true>> as *const (),
        T::mean_on::<Cpu> as *const (),
        T::extreme_on::<Cpu> as *const (),
        T::extreme_at_on::<Cpu> as *const (),
    ]
}

/// Makes this crate compile [`reduction_cores`] for all 12 element types
/// (public so that the compiler keeps it; nothing calls it).
#[doc(hidden)]
pub fn precompiled_reductions() -> Vec<*const ()> {
    [
        reduction_cores::<f16>(),
        reduction_cores::<bf16>(),
        reduction_cores::<f32>(),
        reduction_cores::<f64>(),
        reduction_cores::<Complex<f32>>(),
        reduction_cores::<Complex<f64>>(),
        reduction_cores::<u8>(),
        reduction_cores::<i8>(),
        reduction_cores::<i16>(),
        reduction_cores::<i32>(),
        reduction_cores::<i64>(),
        reduction_cores::<bool>(),
    ]
    .concat()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_core_has_an_address() {
        let cores = super::precompiled_reductions();
        assert_eq!(cores.len(), 12 * 7);
        assert!(cores.iter().all(|p| !p.is_null()));
    }
}
