//! # shaped: tensors whose shapes live in the type system
//!
//! `shaped` follows PyTorch's semantics (broadcasting, strided views, dtypes,
//! devices) and checks shapes at compile time where they are known:
//!
//! ```
//! use shaped::prelude::*;
//!
//! let x = Tensor::<f32, shape![5, 1, 4, 1]>::zeros();
//! let y: Tensor<f32, shape![3, 1, 1]> = Tensor::ones();
//! let z = &x + &y; // the compiler computes the broadcast shape (5, 3, 4, 1)
//! assert_eq!(z.shape(), [5, 3, 4, 1]);
//! ```
//!
//! Shapes that do not broadcast are compile errors that say so in words:
//!
//! ```compile_fail
//! use shaped::prelude::*;
//! let x = Tensor::<f32, shape![5, 2, 4, 1]>::zeros();
//! let y = Tensor::<f32, shape![3, 1, 1]>::zeros();
//! let _ = &x + &y; // error: cannot broadcast: the size of tensor a (2) must
//!                  // match the size of tensor b (3) at non-singleton dimension 1
//! ```
//!
//! Where to find things (`ARCHITECTURE.md` draws the layers):
//! - [`mod@shape`]: static shapes as type-level lists of sizes, and the rules
//!   the compiler checks (broadcasting, the in-place rule, axes, slices).
//! - [`dtype`]: the twelve element types and PyTorch's type promotion.
//! - [`layout`]: sizes, strides, offsets; views as pure layout transforms.
//! - [`mod@tensor`]: the [`Tensor`] type, constructors, indexing, printing.
//! - [`view`]: views that reinterpret storage: `t()`, `permute`, `narrow`,
//!   `select`, `slice`, `diagonal`, the splits, complex parts, `contiguous`.
//! - [`ops`]: the operations users call, one module per family:
//!   arithmetic, comparisons, in-place ops, math, `cat`/`stack`,
//!   reductions, matrix products.
//! - [`dynamic`]: sizes, ranks and dtypes known only at run time
//!   ([`Dyn`], [`DynShape`], [`DynTensor`], [`AnyTensor`]).
//! - [`backend`]: what a device provides ([`Cpu`]; `Cuda` with the `cuda`
//!   feature), and its kernels.
//! - [`storage`] and [`device`]: who owns a tensor's elements, and where.
//! - [`error`]: the [`Error`] type and its (PyTorch) texts.

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

extern crate self as shaped;

pub mod backend;
pub mod device;
pub mod dtype;
pub mod dynamic;
pub mod error;
pub mod layout;
pub mod ops;
pub mod shape;
pub mod storage;
pub mod tensor;
pub mod view;

pub use backend::Cpu;
#[cfg(feature = "cuda")]
pub use backend::Cuda;
pub use device::Device;
pub use dtype::{DType, Element};
pub use dynamic::{AnyTensor, DynShape, DynTensor};
pub use error::Error;
pub use ops::math::where_;
pub use shape::{Dec, Dyn};
pub use tensor::{Tensor, TensorView, TensorViewMut};

#[doc(hidden)]
pub mod __private {
    pub use shaped_macros::{s, s_kinds, shape, tensor};
}

/// A static shape type: `shape![3, 224, 224]`, `shape![Dyn, 3]`, `shape![]`.
///
/// Sizes are integer literals of up to 10 digits (9999999999, see
/// [`shape::MAX_DIGITS`]); `Dyn` marks a size known only at run time; any
/// other entry is taken as a dimension type (useful in generic code). The
/// result is a tuple of dimensions: `shape![5, 3]` is
/// `(Dec<5>, Dec<3>)`.
///
/// ```
/// use shaped::prelude::*;
/// type Image = shape![3, 224, 224];
/// type Scalar = shape![];
/// type Logits = shape![Dyn, 50257];
/// let t = Tensor::<f32, shape![2, 768]>::zeros();
/// assert_eq!(t.shape(), [2, 768]);
/// ```
#[macro_export]
macro_rules! shape {
    ($($t:tt)*) => { $crate::__private::shape!($($t)*) };
}

/// A list of axes for `permute::<axes![2, 0, 1]>()`: dimension `i` of the
/// result is dimension `axes[i]` of the input.
///
/// ```
/// use shaped::prelude::*;
/// let t = Tensor::<f32, shape![2, 3, 4]>::zeros();
/// assert_eq!(t.permute::<axes![1, 2, 0]>().shape(), [3, 4, 2]);
/// ```
#[macro_export]
macro_rules! axes {
    ($($t:tt)*) => { $crate::__private::shape!($($t)*) };
}

/// A tensor from a nested array literal, its shape inferred:
/// `tensor![[1.0, 2.0], [3.0, 4.0]]` is a `Tensor<f64, shape![2, 2]>`.
///
/// ```
/// use shaped::prelude::*;
/// let c = tensor![[1.0, 2.0], [3.0, 4.0]];
/// assert_eq!(c.shape(), [2, 2]);
/// assert_eq!(c[[1, 0]], 3.0);
/// let v: Tensor<u8, shape![3]> = tensor![1, 2, 3];
/// assert_eq!(v.to_vec(), vec![1, 2, 3]);
/// ```
#[macro_export]
macro_rules! tensor {
    ($($t:tt)*) => { $crate::__private::tensor!($($t)*) };
}

/// A basic index for `slice`: `s![0, 2.., 1..7;2, NewAxis, Ellipsis]`, a
/// [`SliceSpec`](shape::slice::SliceSpec) of
/// [`SliceItem`](layout::views::SliceItem)s. An integer selects an entry
/// (its dimension disappears), a range narrows (`;step` sets a step),
/// `NewAxis` inserts a size-1 dimension, `Ellipsis` stands for the
/// dimensions not named. Negative numbers count from the end; range bounds
/// are clamped, as in PyTorch.
///
/// Literal items are also recorded in the type, so a static tensor's slice
/// has a static shape, and a literal index out of bounds, a zero or
/// negative step, two ellipses or too many indices do not compile. Items
/// written as variables are checked at run time (a runtime range gives a
/// `Dyn` size).
///
/// ```
/// use shaped::prelude::*;
/// let x = DynTensor::<i64>::arange(12).view(&[3, 4]).unwrap().to_owned();
/// assert_eq!(x.slice(s![-1, ..;3]).unwrap().to_vec(), vec![8, 11]);
///
/// let t = Tensor::<i64, shape![3, 4]>::from_vec((0..12).collect()).unwrap();
/// let v: TensorView<'_, i64, shape![2, 2]> = t.slice(s![1.., ..;2]);
/// assert_eq!(v.to_vec(), vec![4, 6, 8, 10]);
/// let start = 1;
/// let w: TensorView<'_, i64, shape![Dyn, 4]> = t.slice(s![start.., ..]);
/// assert_eq!(w.shape(), [2, 4]);
/// ```
#[macro_export]
macro_rules! s {
    ($($t:tt)*) => { $crate::__private::s!($($t)*) };
}

/// The kinds of literal `s![..]` items as a type, to name the shape of a
/// static slice: `<S as Sliced<s_kinds![0, 1..]>>::Output`.
///
/// ```
/// use shaped::prelude::*;
/// use shaped::shape::slice::Sliced;
/// fn last_row(t: &Tensor<f32, shape![3, 4]>) -> TensorView<'_, f32, <shape![3, 4] as Sliced<s_kinds![-1]>>::Output> {
///     t.slice(s![-1])
/// }
/// assert_eq!(last_row(&Tensor::zeros()).shape(), [4]);
/// ```
#[macro_export]
macro_rules! s_kinds {
    ($($t:tt)*) => { $crate::__private::s_kinds!($($t)*) };
}

/// What most programs need: `use shaped::prelude::*;`.
pub mod prelude {
    pub use crate::backend::Cpu;
    #[cfg(feature = "cuda")]
    pub use crate::backend::Cuda;
    pub use crate::device::Device;
    pub use crate::dtype::{DType, Element};
    pub use crate::dynamic::{AnyTensor, DynConstructors, DynShape, DynTensor};
    pub use crate::error::Error;
    pub use crate::layout::views::{Ellipsis, NewAxis};
    pub use crate::ops::concat::Concat;
    pub use crate::shape::{Dec, Dyn};
    pub use crate::tensor::{Tensor, TensorView, TensorViewMut};
    pub use crate::view::{MemoryFormat, TensorCow};
    pub use crate::{axes, s, s_kinds, shape, tensor};
}
