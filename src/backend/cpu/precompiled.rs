//! The float32 and float64 kernels, and the engine's walk, compiled in this
//! library.
//!
//! In a debug build rustc lets a program reuse the generic instances that
//! its dependencies already compiled ("shared generics"). The kernels are
//! shape-erased, so the ones a program of static shapes calls are the same
//! instances whatever its shapes, and the engine's walk is the same for
//! every dtype. [`float_kernels`] has this library compile those of the two
//! floating dtypes numerics runs on, so that programs reuse
//! them instead of generating their own: a debug build of 200 operations
//! of static shapes, float32 or float64, takes about 0.8 s instead of 0.9 s
//! (their code generation and LLVM time drop from 0.42 s to 0.26 s). It is
//! never called.

use crate::dynamic::{DynConstructors, DynTensor};
use crate::error::Error;

/// Calls each kernel family once on `$t`: arithmetic with broadcasting, in
/// place (which walks one and two operands), a reduction along an axis, a
/// transposed copy, a matrix product and a concatenation.
macro_rules! kernels_of {
    ($($t:ty),*) => {$({
        let a = DynTensor::<$t>::ones(&[2, 2]);
        let _ = (&a + &a, &a - &a, &a * &a, &a / &a);
        let mut b = a.clone();
        b += &a;
        b *= 2.0;
        let _ = a.sum(&[1], false)?;
        let _ = a.transpose(0, 1)?.contiguous();
        let _ = a.matmul(&a)?;
        let _ = DynTensor::<$t>::cat(&[&a, &a], 0)?;
    })*};
}

/// The kernels of float32 and float64 (see the module's documentation).
#[doc(hidden)]
pub fn float_kernels() -> Result<(), Error> {
    kernels_of!(f32, f64);
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_precompiled_kernels_run() {
        assert!(super::float_kernels().is_ok());
    }
}
