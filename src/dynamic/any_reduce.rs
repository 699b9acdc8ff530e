//! The reductions of an [`AnyTensor`] (owned or a view) with runtime dims:
//! `sum`, `mean`, `prod`, `amax`, `amin`, `max`/`min` with indices,
//! `argmax`, `argmin`, `all`, `any` and their whole-tensor forms, each the
//! [`DynTensor`](crate::DynTensor) reduction of the dtype it holds. So the
//! result dtypes are PyTorch's (integer and bool sums and products are
//! int64, indices int64, `all`/`any` bool, uint8 for uint8), and so are the
//! refusals: `mean` of an integer dtype, the order-based reductions of
//! complex values, `argmax` of bool, an empty reduced dimension.
//!
//! ```
//! use shaped::prelude::*;
//! let x = AnyTensor::from(DynTensor::<u8>::from_vec(vec![200, 100, 7, 9], &[2, 2]).unwrap());
//! let s = x.sum(&[0], false).unwrap();
//! assert_eq!(s.dtype(), DType::I64);
//! assert_eq!(s.downcast::<i64>().unwrap().to_vec(), vec![207, 109]);
//! assert_eq!(
//!     x.mean(&[0], false).unwrap_err().to_string(),
//!     "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Byte"
//! );
//! ```

use super::any::{AnyTensor, any_tensor};
use crate::backend::Reductions;
use crate::error::Error;
use crate::storage::Repr;

/// Declares reductions that run the typed tensor's method of the same name
/// and arguments, each of one kind: `dims` (a `Result` of one tensor),
/// `whole` (a rank-0 tensor; PyTorch's out-of-memory text is a panic, as
/// on `DynTensor`), `try_whole` (a `Result` of a rank-0 tensor) or
/// `indexed` (a `Result` of the values and their int64 indices).
macro_rules! any_reductions {
    ($($(#[$doc:meta])* $kind:ident $name:ident($($arg:ident: $ty:ty),*);)*) => {
        impl<D: Reductions, R: Repr> AnyTensor<D, R> {$(
            any_reductions!(@$kind $(#[$doc])* $name($($arg: $ty),*));
        )*}
    };
    (@dims $(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*)) => {
        $(#[$doc])*
        #[inline]
        pub fn $name(&self, $($arg: $ty),*) -> Result<AnyTensor<D>, Error> {
            Ok(any_tensor!(@each self, x => x.$name($($arg),*)?.into()))
        }
    };
    (@whole $(#[$doc:meta])* $name:ident()) => {
        $(#[$doc])*
        #[inline]
        pub fn $name(&self) -> AnyTensor<D> {
            any_tensor!(@each self, x => x.$name().into_dyn().into())
        }
    };
    (@try_whole $(#[$doc:meta])* $name:ident()) => {
        $(#[$doc])*
        #[inline]
        pub fn $name(&self) -> Result<AnyTensor<D>, Error> {
            Ok(any_tensor!(@each self, x => x.$name()?.into_dyn().into()))
        }
    };
    (@indexed $(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*)) => {
        $(#[$doc])*
        #[inline]
        pub fn $name(&self, $($arg: $ty),*) -> Result<(AnyTensor<D>, AnyTensor<D>), Error> {
            Ok(any_tensor!(@each self, x => {
                let (values, indices) = x.$name($($arg),*)?;
                (values.into(), indices.into())
            }))
        }
    };
}

any_reductions! {
    /// PyTorch's `sum(dims, keepdim)`: an empty `dims` reduces every
    /// dimension; integer and bool tensors sum to int64.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::from_vec(vec![1., 2., 3., 4.], &[2, 2]).unwrap());
    /// let s = x.sum(&[-1], true).unwrap();
    /// assert_eq!((s.dtype(), s.shape()), (DType::F32, vec![2, 1]));
    /// assert_eq!(
    ///     x.sum(&[0, -2], false).unwrap_err().to_string(),
    ///     "dim 0 appears multiple times in the list of dims"
    /// );
    /// ```
    dims sum(dims: &[isize], keepdim: bool);
    /// The sum of every element, as a rank-0 tensor (int64 for integers
    /// and bool).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let x = AnyTensor::from(DynTensor::<bool>::ones(&[3]));
    /// assert_eq!(x.sum_all().to_scalars(), vec![Scalar::Int(3)]);
    /// ```
    whole sum_all();
    /// PyTorch's `mean(dims, keepdim)`: floating and complex dtypes only.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i64>::zeros(&[2]));
    /// assert_eq!(
    ///     x.mean(&[0], false).unwrap_err().to_string(),
    ///     "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long"
    /// );
    /// ```
    dims mean(dims: &[isize], keepdim: bool);
    /// The mean of every element (NaN for none), floating and complex
    /// dtypes only.
    try_whole mean_all();
    /// PyTorch's `prod(dim, keepdim)`: integer and bool tensors multiply as
    /// int64.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i8>::from_vec(vec![100, 100], &[2]).unwrap());
    /// assert_eq!(x.prod(0, false).unwrap().downcast::<i64>().unwrap().to_vec(), vec![10000]);
    /// ```
    dims prod(dim: isize, keepdim: bool);
    /// The product of every element, as a rank-0 tensor.
    whole prod_all();
    /// PyTorch's `amax(dims, keepdim)`: the largest values (NaN if any);
    /// PyTorch's error for complex values.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let z = AnyTensor::from(DynTensor::<num_complex::Complex<f32>>::zeros(&[2]));
    /// assert_eq!(
    ///     z.amax(&[0], false).unwrap_err().to_string(),
    ///     "\"max_values_cpu\" not implemented for 'ComplexFloat'"
    /// );
    /// ```
    dims amax(dims: &[isize], keepdim: bool);
    /// PyTorch's `amin(dims, keepdim)`: the smallest values (NaN if any).
    dims amin(dims: &[isize], keepdim: bool);
    /// PyTorch's `max(dim, keepdim)`: the largest values along `dim` and
    /// their int64 indices.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let x = AnyTensor::from(DynTensor::<i16>::from_vec(vec![1, 5, 7, 4], &[2, 2]).unwrap());
    /// let (values, indices) = x.max(1, false).unwrap();
    /// assert_eq!((values.dtype(), indices.dtype()), (DType::I16, DType::I64));
    /// assert_eq!(indices.to_scalars(), vec![Scalar::Int(1), Scalar::Int(0)]);
    /// ```
    indexed max(dim: isize, keepdim: bool);
    /// PyTorch's `min(dim, keepdim)`: the smallest values along `dim` and
    /// their int64 indices.
    indexed min(dim: isize, keepdim: bool);
    /// PyTorch's `argmax(dim, keepdim)`: the int64 indices of
    /// [`max`](Self::max); PyTorch's error for bool and complex tensors.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let m = AnyTensor::from(DynTensor::<bool>::ones(&[2]));
    /// assert_eq!(m.argmax(0, false).unwrap_err().to_string(), "argmax(): does not support bool input");
    /// ```
    dims argmax(dim: isize, keepdim: bool);
    /// PyTorch's `argmin(dim, keepdim)`: the int64 indices of
    /// [`min`](Self::min).
    dims argmin(dim: isize, keepdim: bool);
    /// PyTorch's `max()`: the largest element, as a rank-0 tensor; `Err`
    /// for an empty tensor.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f64>::zeros(&[0, 3]));
    /// assert_eq!(
    ///     x.max_all().unwrap_err().to_string(),
    ///     "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument."
    /// );
    /// ```
    try_whole max_all();
    /// PyTorch's `min()`: the smallest element, as a rank-0 tensor.
    try_whole min_all();
    /// PyTorch's `argmax()`: the flat (row-major) index of the largest
    /// element, a rank-0 int64 tensor.
    try_whole argmax_all();
    /// PyTorch's `argmin()`: the flat (row-major) index of the smallest
    /// element.
    try_whole argmin_all();
    /// PyTorch's `all(dims, keepdim)`: whether every element is nonzero
    /// (bool; uint8 for uint8). An empty `dims` reduces nothing.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<u8>::from_vec(vec![1, 0, 2, 3], &[2, 2]).unwrap());
    /// assert_eq!(x.all(&[1], false).unwrap().dtype(), DType::U8);
    /// ```
    dims all(dims: &[isize], keepdim: bool);
    /// Whether every element is nonzero, as a rank-0 tensor.
    whole all_all();
    /// PyTorch's `any(dims, keepdim)`: whether some element is nonzero.
    dims any(dims: &[isize], keepdim: bool);
    /// Whether some element is nonzero, as a rank-0 tensor.
    whole any_all();
}

#[cfg(test)]
mod tests {
    use crate::dtype::{DType, Element, Scalar};
    use crate::prelude::*;
    use half::{bf16, f16};
    use num_complex::Complex;

    /// Complex values refused in PyTorch 2.15's order, checked against it:
    /// `max`/`min`/`amax`/`amin` look at the dim and an empty reduced dim
    /// first (and `amax` of an empty result returns it), `argmax`/`argmin`
    /// at the dtype first; `max()` of an empty tensor asks for a dim.
    #[test]
    fn complex_refusals_follow_pytorchs_check_order() {
        let z = AnyTensor::from(DynTensor::<Complex<f32>>::zeros(&[2, 3]));
        let none = AnyTensor::from(DynTensor::<Complex<f32>>::zeros(&[0]));
        let rows = AnyTensor::from(DynTensor::<Complex<f64>>::zeros(&[0, 3]));
        let text = |r: Result<AnyTensor, Error>| r.map(|t| t.shape()).unwrap_err().to_string();
        let pair =
            |r: Result<(AnyTensor, AnyTensor), Error>| r.map(|_| ()).unwrap_err().to_string();
        let out_of_range = "Dimension out of range (expected to be in range of [-2, 1], but got 5)";
        let no_dim = |op: &str| {
            format!(
                "{op}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument."
            )
        };
        let empty_dim =
            |op: &str| format!("{op}(): Expected reduction dim 0 to have non-zero size.");
        assert_eq!(pair(z.max(5, false)), out_of_range);
        assert_eq!(pair(z.min(5, false)), out_of_range);
        assert_eq!(text(z.amax(&[5], false)), out_of_range);
        assert_eq!(
            text(z.argmax(5, false)),
            "argmax(): does not support complex input"
        );
        assert_eq!(
            text(rows.argmin(0, false)),
            "argmin(): does not support complex input"
        );
        assert_eq!(pair(rows.max(0, false)), empty_dim("max"));
        assert_eq!(pair(rows.min(0, false)), empty_dim("min"));
        assert_eq!(text(rows.amax(&[0], false)), empty_dim("amax"));
        assert_eq!(text(rows.amin(&[0], false)), empty_dim("amin"));
        assert_eq!(
            pair(rows.max(1, false)),
            "max(): does not support complex input"
        );
        let empty = rows.amax(&[1], false).unwrap();
        assert_eq!((empty.dtype(), empty.shape()), (DType::C128, vec![0]));
        assert_eq!(rows.amin(&[1], true).unwrap().shape(), [0, 1]);
        assert_eq!(
            text(z.amax(&[1], false)),
            "\"max_values_cpu\" not implemented for 'ComplexFloat'"
        );
        assert_eq!(text(none.amax(&[], false)), no_dim("amax"));
        assert_eq!(text(none.max_all()), no_dim("max"));
        assert_eq!(text(none.min_all()), no_dim("min"));
        assert_eq!(
            text(none.argmax_all()),
            "argmax(): does not support complex input"
        );
        assert_eq!(
            text(z.max_all()),
            "\"max_all\" not implemented for 'ComplexFloat'"
        );
    }

    /// `[[1, 0, 3], [4, 5, 2]]` of every dtype (bool: nonzero is true).
    fn every_dtype() -> Vec<AnyTensor> {
        fn of<T: Element>() -> AnyTensor
        where
            AnyTensor: From<DynTensor<T>>,
        {
            let values = [1.0, 0.0, 3.0, 4.0, 5.0, 2.0];
            AnyTensor::from(
                DynTensor::<f64>::from_vec(values.to_vec(), &[2, 3])
                    .unwrap()
                    .cast::<T>(),
            )
        }
        vec![
            of::<f16>(),
            of::<bf16>(),
            of::<f32>(),
            of::<f64>(),
            of::<Complex<f32>>(),
            of::<Complex<f64>>(),
            of::<u8>(),
            of::<i8>(),
            of::<i16>(),
            of::<i32>(),
            of::<i64>(),
            of::<bool>(),
        ]
    }

    /// The result dtype of each reduction, or PyTorch 2.15's error text,
    /// as `torch.ones(2, 3, dtype=...)` gives them.
    #[test]
    fn dtypes_and_refusals_are_pytorchs() {
        for x in every_dtype() {
            let dtype = x.dtype();
            let integral = !dtype.is_floating_point() && !dtype.is_complex();
            let sum = if integral { DType::I64 } else { dtype };
            assert_eq!(x.sum(&[0], false).unwrap().dtype(), sum);
            assert_eq!(x.sum_all().dtype(), sum);
            assert_eq!(x.prod(0, false).unwrap().dtype(), sum);
            assert_eq!(x.prod_all().dtype(), sum);
            let logical = if dtype == DType::U8 {
                DType::U8
            } else {
                DType::Bool
            };
            assert_eq!(x.all(&[1], false).unwrap().dtype(), logical);
            assert_eq!(x.any_all().dtype(), logical);
            if integral {
                let text = format!(
                    "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: {}",
                    dtype.torch_name()
                );
                assert_eq!(x.mean(&[1], true).unwrap_err().to_string(), text);
                assert_eq!(x.mean_all().unwrap_err().to_string(), text);
            } else {
                assert_eq!(x.mean(&[1], true).unwrap().shape(), [2, 1]);
                assert_eq!(x.mean_all().unwrap().dtype(), dtype);
            }
            if dtype.is_complex() {
                let name = dtype.torch_name();
                let not_for = |op: &str| format!("\"{op}\" not implemented for '{name}'");
                assert_eq!(
                    x.amax(&[0], false).unwrap_err().to_string(),
                    not_for("max_values_cpu")
                );
                assert_eq!(
                    x.amin(&[0], false).unwrap_err().to_string(),
                    not_for("min_values_cpu")
                );
                assert_eq!(x.max_all().unwrap_err().to_string(), not_for("max_all"));
                assert_eq!(x.min_all().unwrap_err().to_string(), not_for("min_all"));
                for (op, err) in [
                    ("max", x.max(1, false).unwrap_err()),
                    ("min", x.min(0, true).unwrap_err()),
                    ("argmax", x.argmax(1, false).unwrap_err()),
                    ("argmin", x.argmin(0, true).unwrap_err()),
                    ("argmax", x.argmax_all().unwrap_err()),
                    ("argmin", x.argmin_all().unwrap_err()),
                ] {
                    assert_eq!(
                        err.to_string(),
                        format!("{op}(): does not support complex input")
                    );
                }
                continue;
            }
            assert_eq!(x.amax(&[0], false).unwrap().dtype(), dtype);
            assert_eq!(x.amin(&[0], false).unwrap().dtype(), dtype);
            assert_eq!(x.max_all().unwrap().dtype(), dtype);
            let (values, indices) = x.min(0, true).unwrap();
            assert_eq!((values.dtype(), values.shape()), (dtype, vec![1, 3]));
            assert_eq!((indices.dtype(), indices.shape()), (DType::I64, vec![1, 3]));
            if dtype == DType::Bool {
                for (op, err) in [
                    ("argmax", x.argmax(1, false).unwrap_err()),
                    ("argmin", x.argmin(0, true).unwrap_err()),
                    ("argmax", x.argmax_all().unwrap_err()),
                    ("argmin", x.argmin_all().unwrap_err()),
                ] {
                    assert_eq!(
                        err.to_string(),
                        format!("{op}(): does not support bool input")
                    );
                }
            } else {
                assert_eq!(x.argmax(1, false).unwrap().dtype(), DType::I64);
                assert_eq!(x.argmin_all().unwrap().to_scalars(), vec![Scalar::Int(1)]);
            }
        }
    }

    #[test]
    fn values_are_the_typed_reductions() {
        let typed = DynTensor::<i32>::from_vec(vec![1, 0, 3, 4, 5, 2], &[2, 3]).unwrap();
        let x = AnyTensor::from(typed.clone());
        let ints = |v: Vec<i64>| v.into_iter().map(Scalar::Int).collect::<Vec<_>>();
        assert_eq!(
            x.sum(&[0], false).unwrap().to_scalars(),
            ints(typed.sum(&[0], false).unwrap().to_vec())
        );
        assert_eq!(x.prod_all().to_scalars(), vec![Scalar::Int(0)]);
        let (values, indices) = x.max(1, true).unwrap();
        let (tv, ti) = typed.max(1, true).unwrap();
        assert_eq!(values.downcast::<i32>().unwrap().to_vec(), tv.to_vec());
        assert_eq!(indices.downcast::<i64>().unwrap().to_vec(), ti.to_vec());
        assert_eq!(
            x.amin(&[], false).unwrap().to_scalars(),
            vec![Scalar::Int(0)]
        );
        let f = AnyTensor::from(typed.cast::<f64>());
        let mean = f.mean(&[1], false).unwrap().downcast::<f64>().unwrap();
        assert_eq!(
            mean.to_vec(),
            typed.cast::<f64>().mean(&[1], false).unwrap().to_vec()
        );
    }

    #[test]
    fn views_reduce_in_place() {
        let x = AnyTensor::from(DynTensor::<i64>::from_vec((0..6).collect(), &[2, 3]).unwrap());
        let t = x.t().unwrap();
        assert_eq!(
            t.sum(&[1], false).unwrap().to_scalars(),
            vec![Scalar::Int(3), Scalar::Int(5), Scalar::Int(7)]
        );
        assert_eq!(t.argmax_all().unwrap().to_scalars(), vec![Scalar::Int(5)]);
        let e = x.narrow(0, 0, 0).unwrap();
        assert_eq!(
            e.amax(&[0], false).unwrap_err().to_string(),
            "amax(): Expected reduction dim 0 to have non-zero size."
        );
        assert_eq!(
            e.max(0, false).unwrap_err().to_string(),
            "max(): Expected reduction dim 0 to have non-zero size."
        );
        assert_eq!(
            e.argmax_all().unwrap_err().to_string(),
            "argmax(): Expected reduction dim to be specified for input.numel() == 0."
        );
        assert_eq!(
            x.sum(&[2], false).unwrap_err().to_string(),
            "Dimension out of range (expected to be in range of [-2, 1], but got 2)"
        );
    }
}
