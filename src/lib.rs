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
//! Where to find things:
//! - [`shape`]: shapes, dimensions, the broadcasting and in-place rules.
//! - [`dtype`]: element types.
//! - [`dynamic`]: sizes and ranks known only at run time (`Dyn`, [`DynShape`]).
//! - [`layout`]: sizes, strides, offsets.
//! - [`storage`]: devices and who owns a tensor's elements.
//! - [`tensor`]: the [`Tensor`] type, constructors, indexing, printing.
//! - [`ops`]: arithmetic, comparisons, in-place ops, `expand`, and the CPU engine.
//! - [`view`]: views that reinterpret storage (`t()`, more to come).
//! - [`error`]: the [`Error`] type and its (PyTorch) texts.

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

extern crate self as shaped;

pub mod dtype;
pub mod dynamic;
pub mod error;
pub mod layout;
pub mod ops;
pub mod shape;
pub mod storage;
pub mod tensor;
pub mod view;

pub use dtype::{DType, Element};
pub use dynamic::{DynShape, DynTensor};
pub use error::Error;
pub use shape::{Dec, Dyn};
pub use storage::{Cpu, Device};
pub use tensor::{Tensor, TensorView, TensorViewMut};

#[doc(hidden)]
pub mod __private {
    pub use shaped_macros::{shape, tensor};
}

/// A static shape type: `shape![3, 224, 224]`, `shape![Dyn, 3]`, `shape![]`.
///
/// Sizes are integer literals of any size; `Dyn` marks a size known only at
/// run time; any other entry is taken as a dimension type (useful in generic
/// code). The result is a tuple of dimensions: `shape![5, 3]` is
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

/// A basic index for `slice`: `s![0, 2.., 1..7;2, NewAxis, Ellipsis]` is an
/// array of [`SliceItem`](layout::views::SliceItem)s. An integer selects an
/// entry (its dimension disappears), a range narrows (`;step` sets a step),
/// `NewAxis` inserts a size-1 dimension, `Ellipsis` stands for the
/// dimensions not named. Negative numbers count from the end.
///
/// ```
/// use shaped::prelude::*;
/// let x = DynTensor::<i64>::arange(12).view(&[3, 4]).unwrap().to_owned();
/// assert_eq!(x.slice(&s![-1, ..;3]).unwrap().to_vec(), vec![8, 11]);
/// ```
#[macro_export]
macro_rules! s {
    (@parse [$($acc:tt)*]) => { [$($acc)*] };
    (@parse [$($acc:tt)*] $r:expr ; $step:expr , $($rest:tt)*) => {
        $crate::s!(@parse [$($acc)* $crate::layout::views::SliceItem::from($r).stepped($step),] $($rest)*)
    };
    (@parse [$($acc:tt)*] $r:expr ; $step:expr) => {
        $crate::s!(@parse [$($acc)* $crate::layout::views::SliceItem::from($r).stepped($step),])
    };
    (@parse [$($acc:tt)*] $r:expr , $($rest:tt)*) => {
        $crate::s!(@parse [$($acc)* $crate::layout::views::SliceItem::from($r),] $($rest)*)
    };
    (@parse [$($acc:tt)*] $r:expr) => {
        $crate::s!(@parse [$($acc)* $crate::layout::views::SliceItem::from($r),])
    };
    ($($t:tt)*) => { $crate::s!(@parse [] $($t)*) };
}

/// What most programs need: `use shaped::prelude::*;`.
pub mod prelude {
    pub use crate::dtype::{DType, Element};
    pub use crate::dynamic::{DynConstructors, DynShape, DynTensor};
    pub use crate::error::Error;
    pub use crate::layout::views::{Ellipsis, NewAxis};
    pub use crate::shape::{Dec, Dyn};
    pub use crate::storage::{Cpu, Device};
    pub use crate::tensor::{Tensor, TensorView, TensorViewMut};
    pub use crate::view::{MemoryFormat, TensorCow};
    pub use crate::{s, shape, tensor};
}
