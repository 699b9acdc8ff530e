//! # shaped: tensors whose shapes live in the type system
//!
//! `shaped` is a tensor library with PyTorch's semantics: broadcasting,
//! strided views that share storage, the twelve dtypes and their promotion,
//! devices. Where a shape is known at compile time, the compiler checks it,
//! and a mistake is a compile error that says what is wrong in words. Where
//! a size, a rank or a dtype is known only at run time, the same rules are
//! checked at run time, with PyTorch's error texts.
//!
//! This guide walks through the concepts in order. Every example starts
//! with `use shaped::prelude::*;`. Each `compile_fail` example breaks one
//! compile-time rule; its last comment is the first line of the error.
//!
//! ## Static shapes and broadcasting
//!
//! A static shape is a type: `shape![5, 1, 4, 1]`. An operation on two
//! tensors broadcasts their shapes as PyTorch does, and the compiler
//! computes the result shape.
//!
//! ```
//! use shaped::prelude::*;
//! let x = Tensor::<f32, shape![5, 1, 4, 1]>::zeros();
//! let y: Tensor<f32, shape![3, 1, 1]> = Tensor::ones();
//! let z = &x + &y; // Tensor<f32, shape![5, 3, 4, 1]>
//! assert_eq!(z.shape(), [5, 3, 4, 1]);
//! ```
//!
//! Two sizes broadcast when they are equal or one of them is 1. Otherwise
//! the expression does not compile:
//!
//! ```compile_fail,E0277
//! use shaped::prelude::*;
//! let x = Tensor::<f32, shape![5, 2, 4, 1]>::zeros();
//! let y = Tensor::<f32, shape![3, 1, 1]>::zeros();
//! let _ = &x + &y;
//! // error[E0277]: cannot broadcast: the size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1
//! ```
//!
//! ## In place, the output keeps its shape
//!
//! `+=`, `-=`, `*=` and `/=` write into the left-hand tensor, so its shape
//! cannot change: the right-hand side must broadcast to it.
//!
//! ```
//! use shaped::prelude::*;
//! let mut acc = Tensor::<f32, shape![5, 3, 4, 1]>::zeros();
//! acc += &Tensor::<f32, shape![3, 1, 1]>::ones(); // (3, 1, 1) fits in acc
//! acc *= 2.0; // a number broadcasts too
//! assert_eq!(acc[[4, 2, 3, 0]], 2.0);
//! ```
//!
//! An in-place operation that would grow the tensor does not compile:
//!
//! ```compile_fail,E0277
//! use shaped::prelude::*;
//! let mut a = Tensor::<f32, shape![1, 3, 1]>::zeros();
//! let b = Tensor::<f32, shape![3, 1, 7]>::ones();
//! a += &b; // a + b has shape (3, 3, 7)
//! // error[E0277]: an in-place operation cannot change the shape of its output: size 7 does not broadcast to the output's size 1 at dimension 2
//! ```
//!
//! ## Views
//!
//! A view shares its tensor's storage and copies nothing. On static shapes
//! the compiler computes its shape. `s![..]` is PyTorch's basic indexing:
//! `x[1:3, ::4]` is `x.slice(s![1..3, ..;4])`.
//!
//! ```
//! use shaped::prelude::*;
//! let x = Tensor::<i64, shape![4, 6, 5]>::from_vec((0..120).collect())?;
//! let a: TensorView<'_, i64, shape![2, 2, 5]> = x.slice(s![1..3, ..;4]);
//! assert_eq!(a.strides(), [30, 20, 1]);
//! assert!(a.shares_storage_with(&x));
//! let b: TensorView<'_, i64, shape![6, 1]> = x.slice(s![-1, .., 2, NewAxis]);
//! assert_eq!(b[[1, 0]], 97); // x[3, 1, 2]
//! assert_eq!(x.permute::<axes![2, 0, 1]>().shape(), [5, 4, 6]);
//! let n = x.narrow::<1, 2>(3); // along dimension 1, 2 entries from index 3
//! assert_eq!((n.shape(), n.storage_offset()), ([4, 2, 5], 15));
//!
//! let m = Tensor::<f32, shape![2, 3]>::zeros();
//! let mt = m.t();
//! assert_eq!((mt.shape(), mt.strides()), ([3, 2], [1, 3]));
//! assert!(!mt.is_contiguous()); // mt.contiguous() makes a copy
//!
//! let mut t = Tensor::<f32, shape![4, 4]>::zeros();
//! t.slice_mut(s![1.., 1..;2]).fill(1.0); // writes land in t
//! assert_eq!((t[[1, 1]], t[[1, 2]]), (1.0, 0.0));
//! # Ok::<(), shaped::Error>(())
//! ```
//!
//! `view` and `reshape` keep every element:
//!
//! ```compile_fail,E0277
//! use shaped::prelude::*;
//! let t = Tensor::<f32, shape![4, 4]>::zeros();
//! let _ = t.view::<shape![3, 5]>();
//! // error[E0277]: cannot view or reshape: the new shape has 15 elements, the tensor has 16
//! ```
//!
//! A permutation names each axis exactly once:
//!
//! ```compile_fail,E0277
//! use shaped::prelude::*;
//! let t = Tensor::<f32, shape![3, 4]>::zeros();
//! let _ = t.permute::<axes![0, 0]>();
//! // error[E0277]: not a permutation: axis `Dec<1>` is missing
//! ```
//!
//! A literal index in `s![..]` must lie in its dimension (a size of 4
//! takes -4 to 3):
//!
//! ```compile_fail,E0277
//! use shaped::prelude::*;
//! let t = Tensor::<f32, shape![3, 4]>::zeros();
//! let _ = t.slice(s![.., 4]);
//! // error[E0277]: index 4 is out of bounds for a dimension of size 4
//! ```
//!
//! ## Dtypes and promotion
//!
//! The element type is one of PyTorch's twelve dtypes (see [`dtype`]).
//! Mixed operands promote as in PyTorch, and the compiler computes the
//! result type. A rank-0 tensor or a number does not widen the result
//! unless it is of a higher category (bool, integer, float, complex).
//!
//! ```
//! use shaped::prelude::*;
//! let counts = Tensor::<i32, shape![3]>::from_vec(vec![1, 2, 3])?;
//! let scaled: Tensor<f32, shape![3]> = &counts * &Tensor::<f32, shape![3]>::full(0.5);
//! assert_eq!(scaled.to_vec(), vec![0.5, 1.0, 1.5]);
//! let kept: Tensor<i32, shape![3]> = &counts + &Tensor::<i64, shape![]>::full(10);
//! assert_eq!(kept.dtype(), DType::I32); // the rank-0 i64 does not widen
//! let quotient: Tensor<f32, shape![3]> = &counts / &counts; // true division
//! let ints: Tensor<i32, shape![2]> = tensor![1.7f32, -2.5].cast::<i32>();
//! assert_eq!(ints.to_vec(), vec![1, -2]); // toward zero, as in PyTorch
//! # Ok::<(), shaped::Error>(())
//! ```
//!
//! In place, the result must fit the left-hand side: `f32 *= i32` is fine,
//! but `i32 *= f32` gives an `f32` result, which an `i32` tensor cannot
//! hold:
//!
//! ```compile_fail,E0277
//! use shaped::prelude::*;
//! let mut counts = Tensor::<i32, shape![3]>::ones();
//! let scale = Tensor::<f32, shape![3]>::full(0.5);
//! counts *= &scale;
//! // error[E0277]: result type Float can't be cast to the desired output type Int
//! ```
//!
//! ## Reductions: axes in the type
//!
//! A reduction names its axis as a type parameter, and the reduced axis
//! leaves the result's type (unless it is kept with size 1).
//!
//! ```
//! use shaped::prelude::*;
//! let x = Tensor::<f32, shape![2, 3]>::from_vec(vec![1., 5., 3., 4., 2., 6.])?;
//! let rows: Tensor<f32, shape![2]> = x.sum_dim::<1>();
//! assert_eq!(rows.to_vec(), vec![9.0, 12.0]);
//! let kept: Tensor<f32, shape![2, 1]> = x.sum_keepdim::<1>();
//! let cols: Tensor<f32, shape![3]> = x.mean_dims::<axes![0]>();
//! assert_eq!(cols.to_vec(), vec![2.5, 3.5, 4.5]);
//! let (values, indices) = x.max_dim::<1>(); // indices are i64
//! assert_eq!((values.to_vec(), indices.to_vec()), (vec![5.0, 6.0], vec![1, 2]));
//! # Ok::<(), shaped::Error>(())
//! ```
//!
//! An axis must exist (the same holds for `transpose` and `select`):
//!
//! ```compile_fail,E0277
//! use shaped::prelude::*;
//! let x = Tensor::<f32, shape![2, 3]>::zeros();
//! let _ = x.sum_dim::<2>();
//! // error[E0277]: cannot reduce along dimension 2: the shape `(Dec<2>, Dec<3>)` has no dimension 2
//! ```
//!
//! ## Matrix products
//!
//! `matmul` has every form of `torch.matmul`; batch dimensions broadcast.
//!
//! ```
//! use shaped::prelude::*;
//! let a = Tensor::<f32, shape![2, 3]>::from_vec((1..=6).map(|i| i as f32).collect())?;
//! let c = a.matmul(&Tensor::<f32, shape![4, 3, 5]>::ones());
//! assert_eq!(c.shape(), [4, 2, 5]);
//! assert_eq!(c[[0, 1, 0]], 15.0); // 4 + 5 + 6
//! let v: Tensor<f32, shape![2]> = a.matmul(&Tensor::<f32, shape![3]>::ones());
//! assert_eq!(v.to_vec(), vec![6.0, 15.0]);
//! # Ok::<(), shaped::Error>(())
//! ```
//!
//! The inner sizes must agree:
//!
//! ```compile_fail,E0277
//! use shaped::prelude::*;
//! let a = Tensor::<f32, shape![2, 3]>::ones();
//! let b = Tensor::<f32, shape![4, 5]>::ones();
//! let _ = a.matmul(&b);
//! // error[E0277]: matmul: the inner dimensions differ: a's last dimension has size 3, b's contracted dimension has size 4
//! ```
//!
//! ## Joining: `cat` and `stack`
//!
//! `cat` joins tensors along an axis and the compiler adds the sizes;
//! `stack` joins tensors of one shape along a new axis.
//!
//! ```
//! use shaped::prelude::*;
//! let a = Tensor::<f32, shape![2, 3]>::ones();
//! let b = Tensor::<f32, shape![2, 5]>::zeros();
//! let joined: Tensor<f32, shape![2, 8]> = (&a, &b).cat::<1>();
//! assert_eq!((joined[[1, 2]], joined[[1, 3]]), (1.0, 0.0));
//! let stacked: Tensor<f32, shape![2, 2, 3]> = [&a, &a].stack::<0>();
//! assert_eq!(stacked.shape(), [2, 2, 3]);
//! ```
//!
//! The other sizes must match:
//!
//! ```compile_fail,E0277
//! use shaped::prelude::*;
//! let a = Tensor::<f32, shape![2, 3]>::ones();
//! let b = Tensor::<f32, shape![3, 5]>::ones();
//! let _ = (&a, &b).cat::<1>();
//! // error[E0277]: cannot concatenate: sizes of tensors must match except in the concatenation dimension, but got size 2 and size 3 at dimension 0
//! ```
//!
//! ## Sizes and ranks known at run time
//!
//! [`Dyn`] marks a size known only at run time; the other sizes are still
//! checked at compile time. [`DynTensor`] has a runtime rank. What the
//! compiler cannot check is checked at run time, with PyTorch's text in an
//! [`Error`]: the `try_` forms (`try_add`, `try_matmul`, ...) return it,
//! and most plain forms panic with it. `into_static` checks the sizes and
//! gives a static tensor, without a copy; `into_dyn` goes the other way.
//!
//! ```
//! use shaped::prelude::*;
//! let n = std::env::args().count() + 3; // a size the compiler cannot know
//! let rows = Tensor::<f32, shape![Dyn, 3]>::ones_with(&[n, 3]);
//! let sum = &rows + &Tensor::<f32, shape![3]>::arange(); // the 3 is checked
//! assert_eq!(sum.shape(), [n, 3]);
//!
//! let a = DynTensor::<f32>::zeros(&[5, 2, 4, 1]);
//! let err = a.try_add(&DynTensor::<f32>::zeros(&[3, 1, 1])).unwrap_err().to_string();
//! assert_eq!(err, "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1");
//! let s: Tensor<f32, shape![5, 2, 4, 1]> = a.into_static()?;
//! assert!(s.into_dyn().into_static::<shape![5, 8]>().is_err());
//! # Ok::<(), shaped::Error>(())
//! ```
//!
//! ## Dtypes known at run time
//!
//! [`AnyTensor`] holds a [`DynTensor`] of any of the twelve dtypes. It
//! applies the promotion rules when it runs.
//!
//! ```
//! use shaped::dtype::Scalar;
//! use shaped::prelude::*;
//! let i = AnyTensor::from(DynTensor::<i32>::from_vec(vec![1, 2], &[2])?);
//! assert_eq!(i.try_add(Scalar::Float(0.5))?.dtype(), DType::F32);
//! assert_eq!(i.to_dtype(DType::F64).dtype(), DType::F64);
//! let err = i.clone().try_mul_assign(Scalar::Float(0.5)).unwrap_err().to_string();
//! assert_eq!(err, "result type Float can't be cast to the desired output type Int");
//! # Ok::<(), shaped::Error>(())
//! ```
//!
//! ## Devices
//!
//! A tensor's device is a type parameter: `Tensor<T, S, D>`, where `D` is
//! [`Cpu`] unless named. With the `cuda` feature, the [`backend`] module
//! also has `Cuda`: `Cuda::new(0)` opens a GPU, `x.to_device(&gpu)` and
//! `x.to_cpu()` copy between devices, and every operation above runs on
//! the GPU with the same types. A CPU tensor and a CUDA tensor in one
//! operation do not compile, except a rank-0 CPU tensor, as in PyTorch.
//! [`Device`] names a device as PyTorch does:
//!
//! ```
//! use shaped::prelude::*;
//! let x = Tensor::<f32, shape![2]>::zeros();
//! assert_eq!(x.device(), Device::Cpu);
//! assert_eq!("cuda:1".parse::<Device>()?, Device::Cuda(1));
//! assert_eq!(Device::Cuda(0).to_string(), "cuda:0");
//! # Ok::<(), shaped::Error>(())
//! ```
//!
//! ## Where to find things
//!
//! `ARCHITECTURE.md` draws the layers.
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
pub mod interop;
pub mod io;
pub mod layout;
pub mod ops;
pub mod random;
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
    pub use crate::backend::rearrange::PadMode;
    pub use crate::device::Device;
    pub use crate::dtype::{DType, Element};
    pub use crate::dynamic::{AnyTensor, DynConstructors, DynShape, DynTensor};
    pub use crate::error::Error;
    pub use crate::layout::views::{Ellipsis, NewAxis};
    pub use crate::ops::concat::Concat;
    pub use crate::ops::indexing::{
        Index, IndexAddBy, IndexBy, IndexInto, IntoStepped, Reduce, ScatterBy, ScatterInto,
    };
    pub use crate::ops::sorting::Interpolation;
    pub use crate::ops::structured::MeshIndexing;
    pub use crate::shape::{Dec, Dyn};
    pub use crate::tensor::{Tensor, TensorView, TensorViewMut};
    pub use crate::view::{MemoryFormat, TensorCow};
    pub use crate::{axes, s, s_kinds, shape, tensor};
}
