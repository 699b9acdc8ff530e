//! [`AnyTensor`]: a tensor whose element type, like its shape, is known only
//! at run time. Arithmetic and comparisons promote by PyTorch's rules at run
//! time ([`DType::result_type`], the same table and rules the compiler uses
//! for typed tensors), and in-place operations apply PyTorch's casting rule,
//! failing with its text.
//!
//! Its methods are `#[inline]`: each reaches the kernels of all twelve
//! dtypes, and `#[inline]` has them compiled in the program that calls them
//! rather than in this library, whose machine code and debug info every
//! program links. A debug program that does not use `AnyTensor` is 30%
//! smaller (40.6 MB instead of 55 for 200 static-shape operations) and
//! relinks in 0.12 s instead of 0.17 s.
//!
//! ```
//! use shaped::prelude::*;
//! let a = AnyTensor::from(DynTensor::<i32>::from_vec(vec![1, 2, 3], &[3]).unwrap());
//! let b = AnyTensor::from(DynTensor::<f32>::full(&[], 0.5));
//! let c = a.try_add(&b).unwrap(); // int32 tensor + float32 rank-0: float32
//! assert_eq!(c.dtype(), DType::F32);
//! assert_eq!(c.downcast::<f32>().unwrap().to_vec(), vec![1.5, 2.5, 3.5]);
//!
//! let mut x = AnyTensor::from(DynTensor::<i64>::ones(&[2]));
//! let err = x.try_mul_assign(&AnyTensor::from(DynTensor::<f32>::ones(&[2]))).unwrap_err();
//! assert_eq!(err.to_string(), "result type Float can't be cast to the desired output type Long");
//! ```
//!
//! Like [`Tensor`], an `AnyTensor` says who owns its elements
//! (`AnyTensor<D, R>`, [`Owned`] by default): its views (`transpose`,
//! `narrow`, the splits, ...) are `AnyTensor<D, View<'_>>`s sharing its
//! storage. Every operation takes them where it takes a tensor, in any
//! position: `self`, the other operand, an index, a mask, a list of parts.
//! The in-place forms write into an owned tensor or through
//! [`view_mut`](AnyTensor::view_mut).
//!
//! ```
//! use shaped::prelude::*;
//! let x = AnyTensor::from(DynTensor::<i64>::arange(6)).view(&[2, 3]).unwrap().to_owned();
//! let t = x.t().unwrap(); // AnyTensor<Cpu, View<'_>>
//! assert!(t.shares_storage_with(&x));
//! assert_eq!(t.sum(&[1], false).unwrap().to_scalars().len(), 3);
//! let column = x.narrow(1, 2, 1).unwrap(); // (2, 1): [[2], [5]]
//! let y = t.try_mul(&column.t().unwrap()).unwrap(); // two views, broadcast
//! assert_eq!(y.downcast::<i64>().unwrap().to_vec(), [0, 15, 2, 20, 4, 25]);
//! let mut z = x.clone();
//! z.view_mut().try_sub_assign(&column).unwrap();
//! assert_eq!(z.downcast::<i64>().unwrap().to_vec(), [-2, -1, 0, -2, -1, 0]);
//! ```

use super::{DynShape, DynTensor};
use crate::backend::cpu::try_collect;
use crate::backend::{Backend, Cpu};
use crate::backend::{Elementwise, Masking};
use crate::device::Device;
use crate::dtype::cast::cast;
use crate::dtype::{DType, Element, Scalar};
use crate::error::{Error, OrPanic, kernel_on};
use crate::ops::functions::{BinaryFn, ElementOp, OutputOf, WithRight};
use crate::shape::check_in_place;
use crate::storage::{Owned, Repr, Storage, StorageId, View, ViewMut, Writable};
use crate::tensor::{Tensor, from_parts};
use core::fmt;
use half::{bf16, f16};
use num_complex::Complex;

/// Declares [`AnyTensor`] and the conversions of each of its variants.
macro_rules! any_tensor {
    ($($variant:ident($t:ty)),*) => {
        /// A tensor of any of the twelve element types and any shape, both
        /// known at run time, on the CPU or (`AnyTensor<Cuda>`, with the
        /// `cuda` feature) a GPU; owned, or (`R`) a view of another one.
        pub enum AnyTensor<D: Backend = Cpu, R: Repr = Owned> {
            $(
                #[doc = concat!("A tensor of `", stringify!($t), "`.")]
                $variant(Tensor<$t, DynShape, D, R>),
            )*
        }

        /// A deep copy, as [`Tensor::clone`](crate::Tensor::clone).
        impl Clone for AnyTensor {
            #[inline]
            fn clone(&self) -> Self {
                match self {
                    $(AnyTensor::$variant(x) => AnyTensor::$variant(x.clone()),)*
                }
            }
        }

        impl<R: Repr> fmt::Debug for AnyTensor<Cpu, R> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $(AnyTensor::$variant(x) => f.debug_tuple(stringify!($variant)).field(x).finish(),)*
                }
            }
        }

        $(impl<D: Backend, R: Repr> From<Tensor<$t, DynShape, D, R>> for AnyTensor<D, R> {
            #[inline]
            fn from(t: Tensor<$t, DynShape, D, R>) -> Self {
                AnyTensor::$variant(t)
            }
        })*

        /// Element types an [`AnyTensor`] can hold and give back.
        pub trait AnyElement: Element {
            /// The tensor, if it holds this type.
            fn unwrap_any<D: Backend, R: Repr>(
                t: AnyTensor<D, R>,
            ) -> Option<Tensor<Self, DynShape, D, R>>;
            /// A borrow of the tensor, if it holds this type.
            fn borrow_any<D: Backend, R: Repr>(
                t: &AnyTensor<D, R>,
            ) -> Option<&Tensor<Self, DynShape, D, R>>;
        }
        $(impl AnyElement for $t {
            #[inline]
            fn unwrap_any<D: Backend, R: Repr>(
                t: AnyTensor<D, R>,
            ) -> Option<Tensor<$t, DynShape, D, R>> {
                match t {
                    AnyTensor::$variant(x) => Some(x),
                    _ => None,
                }
            }
            #[inline]
            fn borrow_any<D: Backend, R: Repr>(
                t: &AnyTensor<D, R>,
            ) -> Option<&Tensor<$t, DynShape, D, R>> {
                match t {
                    AnyTensor::$variant(x) => Some(x),
                    _ => None,
                }
            }
        })*

        impl<D: Elementwise, R: Repr> AnyTensor<D, R> {
            /// A copy converted to `dtype` (PyTorch's `x.to(dtype)`); panics
            /// only when the copy cannot be made (see
            /// [`try_to_dtype`](Self::try_to_dtype)).
            ///
            /// ```
            /// use shaped::prelude::*;
            /// let x = AnyTensor::from(DynTensor::<f64>::full(&[2], -1.5));
            /// assert_eq!(x.to_dtype(DType::I32).downcast::<i32>().unwrap().to_vec(), vec![-1, -1]);
            /// ```
            #[inline]
            pub fn to_dtype(&self, dtype: DType) -> AnyTensor<D> {
                self.try_to_dtype(dtype).or_panic()
            }

            /// [`to_dtype`](Self::to_dtype), or `Err` when the copy cannot be
            /// allocated or the device fails.
            ///
            /// ```
            /// use shaped::prelude::*;
            /// let x = AnyTensor::from(DynTensor::<bool>::ones(&[1]));
            /// assert_eq!(x.try_to_dtype(DType::C64).unwrap().dtype(), DType::C64);
            /// ```
            #[inline]
            pub fn try_to_dtype(&self, dtype: DType) -> Result<AnyTensor<D>, Error> {
                Ok(match dtype {
                    $(DType::$variant => AnyTensor::$variant(
                        any_tensor!(@each self, x => x.try_cast::<$t>()?)
                    ),)*
                })
            }
        }
    };
    // `$body` on the typed tensor inside `$any`, put back in the same
    // variant (of another `AnyTensor` type: a view, an owned copy).
    (@map $any:expr, $x:ident => $body:expr) => {
        any_tensor!(@variant $any, $x, wrap => wrap($body))
    };
    // Runs `$body` on the typed tensor inside `$any`, with `$wrap` bound to
    // the constructor of its variant (for bodies that make several).
    (@variant $any:expr, $x:ident, $wrap:ident => $body:expr) => {
        match $any {
            AnyTensor::F16($x) => { let $wrap = AnyTensor::F16; $body }
            AnyTensor::BF16($x) => { let $wrap = AnyTensor::BF16; $body }
            AnyTensor::F32($x) => { let $wrap = AnyTensor::F32; $body }
            AnyTensor::F64($x) => { let $wrap = AnyTensor::F64; $body }
            AnyTensor::C64($x) => { let $wrap = AnyTensor::C64; $body }
            AnyTensor::C128($x) => { let $wrap = AnyTensor::C128; $body }
            AnyTensor::U8($x) => { let $wrap = AnyTensor::U8; $body }
            AnyTensor::I8($x) => { let $wrap = AnyTensor::I8; $body }
            AnyTensor::I16($x) => { let $wrap = AnyTensor::I16; $body }
            AnyTensor::I32($x) => { let $wrap = AnyTensor::I32; $body }
            AnyTensor::I64($x) => { let $wrap = AnyTensor::I64; $body }
            AnyTensor::Bool($x) => { let $wrap = AnyTensor::Bool; $body }
        }
    };
    // Runs `$body` on the typed tensor inside `$any`, whatever its type.
    (@each $any:expr, $x:ident => $body:expr) => {
        match $any {
            AnyTensor::F16($x) => $body,
            AnyTensor::BF16($x) => $body,
            AnyTensor::F32($x) => $body,
            AnyTensor::F64($x) => $body,
            AnyTensor::C64($x) => $body,
            AnyTensor::C128($x) => $body,
            AnyTensor::U8($x) => $body,
            AnyTensor::I8($x) => $body,
            AnyTensor::I16($x) => $body,
            AnyTensor::I32($x) => $body,
            AnyTensor::I64($x) => $body,
            AnyTensor::Bool($x) => $body,
        }
    };
}

pub(crate) use any_tensor;

any_tensor!(
    F16(f16),
    BF16(bf16),
    F32(f32),
    F64(f64),
    C64(Complex<f32>),
    C128(Complex<f64>),
    U8(u8),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    Bool(bool)
);

/// Runs `$body` with `$x` and `$y` bound to the typed tensors of two
/// [`AnyTensor`]s of the same variant, for the variants listed; any other
/// pair is a bug of the caller (it converted both to one dtype and ruled out
/// the rest).
macro_rules! same_variant {
    ($a:expr, $b:expr, |$x:ident, $y:ident| $body:expr; $($variant:ident),*) => {
        match ($a, $b) {
            $((AnyTensor::$variant($x), AnyTensor::$variant($y)) => AnyTensor::from($body?),)*
            _ => unreachable!("operands converted to one supported dtype"),
        }
    };
}
pub(crate) use same_variant;

/// A plain number as an element of type `T`.
pub(crate) fn scalar_as<T: Element>(value: Scalar) -> T {
    match value {
        Scalar::Bool(b) => cast(b),
        Scalar::Int(i) => cast(i),
        Scalar::Float(f) => cast(f),
        Scalar::Complex(re, im) => cast(Complex::new(re, im)),
    }
}

/// The dtype a plain number stands for before its category's default.
#[inline]
pub(crate) fn scalar_dtype(value: Scalar) -> DType {
    match value {
        Scalar::Bool(_) => DType::Bool,
        Scalar::Int(_) => DType::I64,
        Scalar::Float(_) => DType::F64,
        Scalar::Complex(..) => DType::C128,
    }
}

/// The other operand of an [`AnyTensor`] operation: a tensor on the same
/// device (owned or a view: `Operand::from(&x)` reads either through a view
/// of it), or a number.
///
/// ```
/// use shaped::prelude::*;
/// use shaped::dtype::Scalar;
/// use shaped::dynamic::Operand;
/// let x = AnyTensor::from(DynTensor::<i8>::ones(&[2]));
/// assert!(matches!(Operand::from(&x), Operand::Tensor(_)));
/// assert!(matches!(Operand::<Cpu>::from(Scalar::Int(2)), Operand::Number(Scalar::Int(2))));
/// ```
pub enum Operand<'a, D: Backend = Cpu> {
    /// A tensor, owned or a view, read through a view of it.
    Tensor(AnyTensor<D, View<'a>>),
    /// A plain number (PyTorch's Python scalar): on a GPU too it is the
    /// kernel's fixed operand, never a tensor of its own.
    Number(Scalar),
}

impl<D: Backend> Clone for Operand<'_, D> {
    #[inline]
    fn clone(&self) -> Self {
        match self {
            Operand::Tensor(t) => Operand::Tensor(t.as_view()),
            Operand::Number(s) => Operand::Number(*s),
        }
    }
}

impl<'a, D: Backend, R: Repr> From<&'a AnyTensor<D, R>> for Operand<'a, D> {
    #[inline]
    fn from(t: &'a AnyTensor<D, R>) -> Self {
        Operand::Tensor(t.reborrow())
    }
}

impl<D: Backend> From<Scalar> for Operand<'_, D> {
    #[inline]
    fn from(s: Scalar) -> Self {
        Operand::Number(s)
    }
}

/// `f(x, value)` for every element of `x`: a number operand, converted to
/// `x`'s element type, as the kernel's fixed right operand.
#[inline]
fn map_with_number<T, U, D, R, F>(
    x: &Tensor<T, DynShape, D, R>,
    f: F,
    value: Scalar,
) -> Result<DynTensor<U, D>, Error>
where
    T: Element,
    U: Element,
    D: Elementwise,
    R: Repr,
    F: BinaryFn<T, T, U>,
{
    let parts = crate::ops::unary(x.strided(), WithRight(f, scalar_as::<T>(value)))?;
    Ok(from_parts!(parts))
}

/// `f(x, value)` of `*` and `/`: the number kept in float32 when `x` is a
/// half type ([`ByNumber`](crate::ops::functions::ByNumber)), as PyTorch's
/// CPU kernels keep it.
#[inline]
fn map_by_number<T, D, R, F>(
    x: &Tensor<T, DynShape, D, R>,
    f: F,
    value: Scalar,
) -> Result<DynTensor<OutputOf<F, T>, D>, Error>
where
    T: Element,
    D: Elementwise,
    R: Repr,
    F: ElementOp<T> + BinaryFn<T, T, OutputOf<F, T>> + BinaryFn<f32, f32, f32>,
{
    use crate::ops::functions::ByNumber;
    use crate::ops::op_codes::Side;
    let g = match value {
        Scalar::Bool(b) => ByNumber::<F, T>::new(f, b, Side::Right),
        Scalar::Int(i) => ByNumber::new(f, i, Side::Right),
        Scalar::Float(v) => ByNumber::new(f, v, Side::Right),
        Scalar::Complex(re, im) => ByNumber::new(f, Complex::new(re, im), Side::Right),
    };
    let parts = crate::ops::unary(x.strided(), g)?;
    Ok(from_parts!(parts))
}

/// Runs `map_with_number($a, $f, $s)` on the typed tensor of an [`AnyTensor`],
/// for the variants listed; any other is a bug of the caller (it converted
/// the tensor to a supported dtype).
macro_rules! number_variant {
    ($a:expr, $s:expr, $f:expr; $($variant:ident),*) => {
        number_variant!(@with map_with_number, $a, $s, $f; $($variant),*)
    };
    (@with $map:ident, $a:expr, $s:expr, $f:expr; $($variant:ident),*) => {
        match $a {
            $(AnyTensor::$variant(x) => AnyTensor::from($map(x, $f, $s)?),)*
            #[allow(unreachable_patterns)]
            _ => unreachable!("operand converted to a supported dtype"),
        }
    };
}
pub(crate) use number_variant;

/// The binary operations of [`AnyTensor`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    LogicalAnd,
    LogicalOr,
    LogicalXor,
}

impl<D: Backend, R: Repr> AnyTensor<D, R> {
    /// The element type.
    #[inline]
    pub fn dtype(&self) -> DType {
        any_tensor!(@each self, x => x.dtype())
    }

    /// The sizes.
    #[inline]
    pub fn shape(&self) -> Vec<usize> {
        any_tensor!(@each self, x => x.shape().to_vec())
    }

    /// The number of dimensions.
    #[inline]
    pub fn rank(&self) -> usize {
        any_tensor!(@each self, x => x.rank())
    }

    /// The number of elements.
    #[inline]
    pub fn numel(&self) -> usize {
        any_tensor!(@each self, x => x.numel())
    }

    /// The strides, in elements.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<u8>::zeros(&[2, 3]));
    /// assert_eq!(x.strides(), [3, 1]);
    /// assert_eq!(x.t().unwrap().strides(), [1, 3]);
    /// ```
    #[inline]
    pub fn strides(&self) -> Vec<usize> {
        any_tensor!(@each self, x => x.strides().to_vec())
    }

    /// The index of element `[0, 0, ..]` in the storage.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<u8>::zeros(&[4]));
    /// assert_eq!(x.narrow(0, 1, 2).unwrap().storage_offset(), 1);
    /// ```
    #[inline]
    pub fn storage_offset(&self) -> usize {
        any_tensor!(@each self, x => x.storage_offset())
    }

    /// PyTorch's `is_contiguous()`: row-major without gaps.
    #[inline]
    pub fn is_contiguous(&self) -> bool {
        any_tensor!(@each self, x => x.is_contiguous())
    }

    /// True when both read the same storage (a tensor and its views), as
    /// [`Tensor::shares_storage_with`].
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::zeros(&[2, 2]));
    /// assert!(x.t().unwrap().shares_storage_with(&x));
    /// assert!(!x.clone().shares_storage_with(&x));
    /// ```
    #[inline]
    pub fn shares_storage_with<R2: Repr>(&self, other: &AnyTensor<D, R2>) -> bool {
        self.storage() == other.storage()
    }

    /// The device and identity of the storage, which views share.
    #[inline]
    fn storage(&self) -> (Device, StorageId) {
        any_tensor!(@each self, x => (x.device(), x.data.storage_id()))
    }

    /// A read-only view of the whole tensor borrowed for as long as `self`
    /// is, whatever `R` is: the one form the functions of several tensors
    /// read their operands in.
    #[inline]
    pub(crate) fn reborrow(&self) -> AnyTensor<D, View<'_>> {
        any_tensor!(@map self, x => x.reborrow())
    }

    /// A read-only view of the whole tensor.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::storage::View;
    /// let x = AnyTensor::from(DynTensor::<i8>::ones(&[3]));
    /// let v: AnyTensor<Cpu, View<'_>> = x.as_view();
    /// assert!(v.shares_storage_with(&x));
    /// ```
    #[inline]
    pub fn as_view(&self) -> AnyTensor<D, R::Viewed<'_>> {
        any_tensor!(@map self, x => x.as_view())
    }

    /// The device holding the elements.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(AnyTensor::from(DynTensor::<u8>::ones(&[2])).device(), Device::Cpu);
    /// ```
    #[inline]
    pub fn device(&self) -> Device {
        any_tensor!(@each self, x => x.device())
    }

    /// The typed tensor, or `Err` with a message naming both dtypes.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f64>::ones(&[2]));
    /// assert_eq!(
    ///     x.downcast::<f32>().unwrap_err().to_string(),
    ///     "expected a tensor of dtype torch.float32, got torch.float64"
    /// );
    /// ```
    pub fn downcast<T: AnyElement>(self) -> Result<Tensor<T, DynShape, D, R>, Error> {
        let actual = self.dtype();
        T::unwrap_any(self).ok_or(Error::DTypeMismatch {
            expected: T::DTYPE,
            actual,
        })
    }

    /// A borrow of the typed tensor, if it holds `T`s.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i16>::ones(&[2]));
    /// assert_eq!(x.downcast_ref::<i16>().unwrap().shape(), [2]);
    /// assert!(x.downcast_ref::<i32>().is_none());
    /// ```
    pub fn downcast_ref<T: AnyElement>(&self) -> Option<&Tensor<T, DynShape, D, R>> {
        T::borrow_any(self)
    }
}

impl<D: Backend, R: Writable> AnyTensor<D, R> {
    /// A writable view of the whole tensor, borrowing it exclusively:
    /// writes through its typed tensor land in this one.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = AnyTensor::from(DynTensor::<i32>::zeros(&[2]));
    /// let mut v = x.view_mut();
    /// if let AnyTensor::I32(t) = &mut v {
    ///     t[[1]] = 7;
    /// }
    /// assert_eq!(x.downcast::<i32>().unwrap().to_vec(), vec![0, 7]);
    /// ```
    #[inline]
    pub fn view_mut(&mut self) -> AnyTensor<D, ViewMut<'_>> {
        any_tensor!(@map self, x => x.view_mut())
    }
}

impl<R: Repr> AnyTensor<Cpu, R> {
    /// The elements in row-major order, as plain numbers.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let x = AnyTensor::from(DynTensor::<u8>::full(&[1], 7));
    /// assert_eq!(x.to_scalars(), vec![Scalar::Int(7)]);
    /// ```
    #[inline]
    pub fn to_scalars(&self) -> Vec<Scalar> {
        // Allocated fallibly: a panic with PyTorch's out-of-memory text, not
        // an abort, when the elements do not fit.
        any_tensor!(@each self, x => try_collect(x.to_vec().into_iter().map(Element::to_scalar)).or_panic())
    }
}

/// A tensor (owned or a view) read as it is, or a converted copy: a `Cow`
/// of an [`AnyTensor`] on any device (whose owned form needs no `Clone`).
pub(crate) enum Converted<'a, D: Backend, R: Repr> {
    Borrowed(&'a AnyTensor<D, R>),
    Owned(AnyTensor<D>),
}

impl<D: Backend, R: Repr> Converted<'_, D, R> {
    /// The tensor, as a view (cheap: a layout, no elements).
    #[inline]
    pub(crate) fn view(&self) -> AnyTensor<D, View<'_>> {
        match self {
            Converted::Borrowed(x) => x.reborrow(),
            Converted::Owned(x) => x.reborrow(),
        }
    }
}

/// Converted parts (of `cat`, `block_diag`, ...) as views.
pub(crate) fn viewed<'a, D: Backend, R: Repr>(
    parts: &'a [Converted<'_, D, R>],
) -> Result<Vec<AnyTensor<D, View<'a>>>, Error> {
    try_collect(parts.iter().map(Converted::view))
}

/// Views of parts converted to one dtype as typed tensors of it.
pub(crate) fn typed_parts<'a, 'b, T: AnyElement, D: Backend>(
    views: &'a [AnyTensor<D, View<'b>>],
) -> Result<Vec<&'a Tensor<T, DynShape, D, View<'b>>>, Error> {
    try_collect(views.iter().map(|v| {
        v.downcast_ref::<T>()
            .expect("converted to the common dtype")
    }))
}

impl<D: Elementwise, R: Repr> AnyTensor<D, R> {
    /// This tensor as `dtype`, without a copy when it already is one.
    #[inline]
    pub(crate) fn as_dtype(&self, dtype: DType) -> Result<Converted<'_, D, R>, Error> {
        Ok(if self.dtype() == dtype {
            Converted::Borrowed(self)
        } else {
            Converted::Owned(self.try_to_dtype(dtype)?)
        })
    }
}

impl<D: Elementwise, R: Repr> AnyTensor<D, R> {
    /// `self op rhs` with PyTorch's promotion and texts.
    #[inline]
    fn binary(&self, rhs: Operand<'_, D>, op: Op) -> Result<AnyTensor<D>, Error> {
        let rhs_bool = match &rhs {
            Operand::Tensor(t) => t.dtype() == DType::Bool,
            Operand::Number(s) => matches!(s, Scalar::Bool(_)),
        };
        let common = self.common_type(&rhs);
        if op == Op::Sub && (self.dtype() == DType::Bool || rhs_bool) {
            return Err(Error::BoolSubtraction {
                both: self.dtype() == DType::Bool && rhs_bool,
            });
        }
        let ordered = matches!(op, Op::Lt | Op::Le | Op::Gt | Op::Ge);
        if ordered && common.is_complex() {
            return Err(Error::NotImplementedFor {
                op: kernel_on(self.device(), op.kernel_name(), "compare_cuda"),
                dtype: common,
            });
        }
        if let Some((cpu, cuda)) = op.refused(common) {
            return Err(Error::NotImplementedFor {
                op: kernel_on(self.device(), cpu, cuda),
                dtype: common,
            });
        }
        // `self` as it is (no view made) when it has the common type.
        if self.dtype() == common {
            self.binary_in(common, &rhs, op)
        } else {
            self.try_to_dtype(common)?.binary_in(common, &rhs, op)
        }
    }

    /// `self op rhs`, `self` of the common type `common`.
    #[inline]
    fn binary_in(
        &self,
        common: DType,
        rhs: &Operand<'_, D>,
        op: Op,
    ) -> Result<AnyTensor<D>, Error> {
        let a = self;
        let t = match rhs {
            Operand::Tensor(t) => t,
            Operand::Number(s) => return a.with_number(*s, op),
        };
        if matches!(op, Op::Mul | Op::Div)
            && matches!(common, DType::F16 | DType::BF16)
            && t.dtype() != common
            && t.numel() == 1
        {
            // One element of another type: read in float32, not rounded
            // to the half type first (see `WideRight`).
            return a.wide_right(&t.as_dtype(DType::F32)?.view(), op);
        }
        let b = t.as_dtype(common)?;
        let b = &b.view();
        Ok(match op {
            Op::Add => same_variant!(a, b, |x, y| x.try_add(y);
                F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64, Bool),
            Op::Sub => same_variant!(a, b, |x, y| x.try_sub(y);
                F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64),
            Op::Mul => same_variant!(a, b, |x, y| x.try_mul(y);
                F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64, Bool),
            Op::Div => same_variant!(a, b, |x, y| x.try_div(y);
                F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64, Bool),
            Op::Eq => same_variant!(a, b, |x, y| x.try_eq(y);
                F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64, Bool),
            Op::Ne => same_variant!(a, b, |x, y| x.try_ne(y);
                F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64, Bool),
            Op::Lt => same_variant!(a, b, |x, y| x.try_lt(y);
                F16, BF16, F32, F64, U8, I8, I16, I32, I64, Bool),
            Op::Le => same_variant!(a, b, |x, y| x.try_le(y);
                F16, BF16, F32, F64, U8, I8, I16, I32, I64, Bool),
            Op::Gt => same_variant!(a, b, |x, y| x.try_gt(y);
                F16, BF16, F32, F64, U8, I8, I16, I32, I64, Bool),
            Op::Ge => same_variant!(a, b, |x, y| x.try_ge(y);
                F16, BF16, F32, F64, U8, I8, I16, I32, I64, Bool),
            Op::BitAnd => same_variant!(a, b, |x, y| x.try_bitwise_and(y);
                U8, I8, I16, I32, I64, Bool),
            Op::BitOr => same_variant!(a, b, |x, y| x.try_bitwise_or(y);
                U8, I8, I16, I32, I64, Bool),
            Op::BitXor => same_variant!(a, b, |x, y| x.try_bitwise_xor(y);
                U8, I8, I16, I32, I64, Bool),
            Op::Shl => same_variant!(a, b, |x, y| x.try_bitwise_left_shift(y);
                U8, I8, I16, I32, I64),
            Op::Shr => same_variant!(a, b, |x, y| x.try_bitwise_right_shift(y);
                U8, I8, I16, I32, I64),
            Op::LogicalAnd => same_variant!(a, b, |x, y| x.try_logical_and(y);
                F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64, Bool),
            Op::LogicalOr => same_variant!(a, b, |x, y| x.try_logical_or(y);
                F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64, Bool),
            Op::LogicalXor => same_variant!(a, b, |x, y| x.try_logical_xor(y);
                F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64, Bool),
        })
    }

    /// `self * b` or `self / b` for a half-type `self` and one float32
    /// element `b`, computed in float32 and rounded once.
    #[inline]
    fn wide_right(&self, b: &AnyTensor<D, View<'_>>, op: Op) -> Result<AnyTensor<D>, Error> {
        use crate::ops::functions::{Div, Mul, WideRight};
        fn run<H, D, R1, R2, F>(
            x: &Tensor<H, DynShape, D, R1>,
            y: &Tensor<f32, DynShape, D, R2>,
            f: F,
        ) -> Result<DynTensor<H, D>, Error>
        where
            H: Element,
            D: Elementwise,
            R1: Repr,
            R2: Repr,
            F: BinaryFn<f32, f32, f32>,
        {
            let (buffer, layout) =
                crate::ops::broadcast_map2(x.strided(), y.strided(), WideRight::<F, H>::new(f))?;
            Ok(from_parts!(crate::tensor::owned_parts(buffer, layout)))
        }
        Ok(match (self, b, op) {
            (AnyTensor::F16(x), AnyTensor::F32(y), Op::Mul) => AnyTensor::from(run(x, y, Mul)?),
            (AnyTensor::F16(x), AnyTensor::F32(y), _) => AnyTensor::from(run(x, y, Div)?),
            (AnyTensor::BF16(x), AnyTensor::F32(y), Op::Mul) => AnyTensor::from(run(x, y, Mul)?),
            (AnyTensor::BF16(x), AnyTensor::F32(y), _) => AnyTensor::from(run(x, y, Div)?),
            _ => unreachable!("a half-type tensor and one float32 element"),
        })
    }

    /// `self op s` for a number `s`, `self` already of the common type.
    #[inline]
    fn with_number(&self, s: Scalar, op: Op) -> Result<AnyTensor<D>, Error> {
        use crate::ops::functions::{
            Add, BitAnd, BitOr, BitXor, Div, Eq, Ge, Gt, Le, LogicalAnd, LogicalOr, LogicalXor, Lt,
            Mul, Ne, Shl, Shr, Sub,
        };
        Ok(match op {
            Op::Add => number_variant!(self, s, Add;
                F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64, Bool),
            Op::Sub => number_variant!(self, s, Sub;
                F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64),
            Op::Mul => number_variant!(@with map_by_number, self, s, Mul;
                F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64, Bool),
            Op::Div => number_variant!(@with map_by_number, self, s, Div;
                F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64, Bool),
            Op::Eq => number_variant!(self, s, Eq;
                F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64, Bool),
            Op::Ne => number_variant!(self, s, Ne;
                F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64, Bool),
            Op::Lt => number_variant!(self, s, Lt;
                F16, BF16, F32, F64, U8, I8, I16, I32, I64, Bool),
            Op::Le => number_variant!(self, s, Le;
                F16, BF16, F32, F64, U8, I8, I16, I32, I64, Bool),
            Op::Gt => number_variant!(self, s, Gt;
                F16, BF16, F32, F64, U8, I8, I16, I32, I64, Bool),
            Op::Ge => number_variant!(self, s, Ge;
                F16, BF16, F32, F64, U8, I8, I16, I32, I64, Bool),
            Op::BitAnd => number_variant!(self, s, BitAnd; U8, I8, I16, I32, I64, Bool),
            Op::BitOr => number_variant!(self, s, BitOr; U8, I8, I16, I32, I64, Bool),
            Op::BitXor => number_variant!(self, s, BitXor; U8, I8, I16, I32, I64, Bool),
            Op::Shl => number_variant!(self, s, Shl; U8, I8, I16, I32, I64),
            Op::Shr => number_variant!(self, s, Shr; U8, I8, I16, I32, I64),
            Op::LogicalAnd => number_variant!(self, s, LogicalAnd;
                F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64, Bool),
            Op::LogicalOr => number_variant!(self, s, LogicalOr;
                F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64, Bool),
            Op::LogicalXor => number_variant!(self, s, LogicalXor;
                F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64, Bool),
        })
    }
}

impl<D: Elementwise, R: Repr> AnyTensor<D, R> {
    /// `self op rhs` for storing into `self`, in `self`'s dtype: `rhs` must
    /// broadcast to `self`'s shape, and the result type must be storable in
    /// `self`'s dtype (PyTorch's `canCast`).
    #[inline]
    fn binary_for_self(&self, rhs: Operand<'_, D>, op: Op) -> Result<AnyTensor<D>, Error> {
        if let Operand::Tensor(t) = &rhs {
            check_in_place(&self.shape(), &t.shape())?;
        }
        // PyTorch checks that the result type (here the common type) fits
        // before it looks for a kernel of the bitwise operations.
        if matches!(op, Op::BitAnd | Op::BitOr | Op::BitXor | Op::Shl | Op::Shr) {
            let common = self.common_type(&rhs);
            if !common.can_cast_to(self.dtype()) {
                return Err(Error::CastForbidden {
                    from: common,
                    to: self.dtype(),
                });
            }
        }
        let result = self.binary(rhs, op)?;
        if !result.dtype().can_cast_to(self.dtype()) {
            return Err(Error::CastForbidden {
                from: result.dtype(),
                to: self.dtype(),
            });
        }
        let dtype = self.dtype();
        if result.dtype() == dtype {
            Ok(result)
        } else {
            result.try_to_dtype(dtype)
        }
    }
}

impl<D: Elementwise> AnyTensor<D> {
    /// `self = self op rhs` in place (the result replaces the buffer, which
    /// nothing else can see); on error `self` is unchanged.
    #[inline]
    fn binary_in_place(&mut self, rhs: Operand<'_, D>, op: Op) -> Result<(), Error> {
        *self = self.binary_for_self(rhs, op)?;
        Ok(())
    }
}

impl<D: Masking> AnyTensor<D, ViewMut<'_>> {
    /// `self = self op rhs` through a writable view: the result is written
    /// into the viewed elements; on error they are unchanged.
    #[inline]
    fn binary_in_place(&mut self, rhs: Operand<'_, D>, op: Op) -> Result<(), Error> {
        let result = self.binary_for_self(rhs, op)?;
        self.copy_(&result)
    }
}

impl Op {
    /// PyTorch's CPU and CUDA kernel names when it has no kernel of this
    /// operation for the common type `common` (the bitwise operations
    /// take integers and bool, the shifts integers).
    #[inline]
    fn refused(self, common: DType) -> Option<(&'static str, &'static str)> {
        let inexact = common.is_floating_point() || common.is_complex();
        let names = match self {
            Op::BitAnd => ("bitwise_and_cpu", "bitwise_and_cuda"),
            Op::BitOr => ("bitwise_or_cpu", "bitwise_or_cuda"),
            Op::BitXor => ("bitwise_xor_cpu", "bitwise_xor_cuda"),
            Op::Shl if inexact || common == DType::Bool => {
                return Some(("lshift_cpu", "lshift_cuda"));
            }
            Op::Shr if inexact || common == DType::Bool => {
                return Some(("rshift_cpu", "rshift_cuda"));
            }
            _ => return None,
        };
        inexact.then_some(names)
    }

    /// PyTorch's CPU kernel name, for its "not implemented" texts (its CUDA
    /// comparisons share one kernel, `compare_cuda`).
    #[inline]
    fn kernel_name(self) -> &'static str {
        match self {
            Op::Lt => "lt_cpu",
            Op::Le => "le_cpu",
            Op::Gt => "gt_cpu",
            _ => "ge_cpu",
        }
    }
}

/// The public binary operations, each with its doc line.
macro_rules! public_ops {
    ($($(#[$doc:meta])* $name:ident, $assign:ident => $op:ident;)*) => {
        public_ops!((f32, F32) $($(#[$doc])* $name, $assign => $op;)*);
    };
    (($t:ty, $dtype:ident) $($(#[$doc:meta])* $name:ident, $assign:ident => $op:ident;)*) => {
        impl<D: Elementwise, R: Repr> AnyTensor<D, R> {$(
            $(#[$doc])*
            pub fn $name<'a>(&self, rhs: impl Into<Operand<'a, D>>) -> Result<AnyTensor<D>, Error> {
                self.binary(rhs.into(), Op::$op)
            }
        )*}
        public_ops!(@assign $t, $dtype; $($assign => $op),*);
    };
    (@assign $t:ty, $dtype:ident; $($assign:ident => $op:ident),*) => {
        impl<D: Elementwise> AnyTensor<D> {$(
            #[doc = concat!("In place (`", stringify!($op), "`): `rhs` must broadcast to this shape and the result must be storable in this dtype; `Err` leaves `self` unchanged.")]
            ///
            /// ```
            /// use shaped::prelude::*;
            #[doc = concat!("let mut x = AnyTensor::from(DynTensor::<", stringify!($t), ">::ones(&[2]));")]
            #[doc = concat!("x.", stringify!($assign), "(&AnyTensor::from(DynTensor::<i64>::ones(&[2]))).unwrap();")]
            #[doc = concat!("assert_eq!(x.dtype(), DType::", stringify!($dtype), ");")]
            /// ```
            pub fn $assign<'a>(&mut self, rhs: impl Into<Operand<'a, D>>) -> Result<(), Error> {
                self.binary_in_place(rhs.into(), Op::$op)
            }
        )*}

        /// The in-place operators through a writable view
        /// ([`view_mut`](AnyTensor::view_mut)): the same checks, the
        /// result written into the viewed elements.
        impl<D: Masking> AnyTensor<D, ViewMut<'_>> {$(
            #[doc = concat!("In place (`", stringify!($op), "`) through the view; `Err` leaves the elements unchanged.")]
            pub fn $assign<'a>(&mut self, rhs: impl Into<Operand<'a, D>>) -> Result<(), Error> {
                self.binary_in_place(rhs.into(), Op::$op)
            }
        )*}
    };
}

public_ops! {
    /// `self + rhs` with runtime promotion.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let x = AnyTensor::from(DynTensor::<u8>::full(&[2], 200));
    /// let y = x.try_add(Scalar::Int(100)).unwrap(); // a number does not widen uint8
    /// assert_eq!(y.downcast::<u8>().unwrap().to_vec(), vec![44, 44]);
    /// ```
    try_add, try_add_assign => Add;
    /// `self - rhs`; `Err` with PyTorch's text when an operand is bool.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let m = AnyTensor::from(DynTensor::<bool>::ones(&[2]));
    /// assert!(m.try_sub(&m).unwrap_err().to_string().starts_with("Subtraction, the `-` operator"));
    /// ```
    try_sub, try_sub_assign => Sub;
    /// `self * rhs` with runtime promotion.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let x = AnyTensor::from(DynTensor::<i32>::full(&[2], 3));
    /// assert_eq!(x.try_mul(Scalar::Float(0.5)).unwrap().dtype(), DType::F32);
    /// ```
    try_mul, try_mul_assign => Mul;
    /// `self / rhs`, true division.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i64>::full(&[1], 7));
    /// assert_eq!(x.try_div(&x).unwrap().dtype(), DType::F32);
    /// ```
    try_div, try_div_assign => Div;
}

public_ops! {
    (i32, I32)
    /// `self & rhs` of integer and bool tensors (PyTorch's `bitwise_and`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let x = AnyTensor::from(DynTensor::<f32>::ones(&[1]));
    /// assert_eq!(
    ///     x.try_bitwise_and(Scalar::Int(1)).unwrap_err().to_string(),
    ///     "\"bitwise_and_cpu\" not implemented for 'Float'"
    /// );
    /// ```
    try_bitwise_and, try_bitwise_and_assign => BitAnd;
    /// `self | rhs` of integer and bool tensors.
    try_bitwise_or, try_bitwise_or_assign => BitOr;
    /// `self ^ rhs` of integer and bool tensors.
    try_bitwise_xor, try_bitwise_xor_assign => BitXor;
    /// `self << rhs` of integer tensors (0 past the width, as PyTorch).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let m = AnyTensor::from(DynTensor::<bool>::ones(&[2]));
    /// assert_eq!(m.try_bitwise_left_shift(Scalar::Int(1)).unwrap().dtype(), DType::I64);
    /// assert_eq!(
    ///     m.try_bitwise_left_shift(&m).unwrap_err().to_string(),
    ///     "\"lshift_cpu\" not implemented for 'Bool'"
    /// );
    /// ```
    try_bitwise_left_shift, try_bitwise_left_shift_assign => Shl;
    /// `self >> rhs` of integer tensors (the sign past the width).
    try_bitwise_right_shift, try_bitwise_right_shift_assign => Shr;
}

/// The comparisons, giving bool tensors.
macro_rules! comparisons {
    ($($(#[$doc:meta])* $name:ident => $op:ident;)*) => {
        impl<D: Elementwise, R: Repr> AnyTensor<D, R> {$(
            $(#[$doc])*
            pub fn $name<'a>(&self, rhs: impl Into<Operand<'a, D>>) -> Result<AnyTensor<D>, Error> {
                self.binary(rhs.into(), Op::$op)
            }
        )*}
    };
}

comparisons! {
    /// `self == rhs` in the common type.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let x = AnyTensor::from(DynTensor::<f16>::full(&[1], half::f16::ONE));
    /// assert_eq!(x.try_eq(Scalar::Int(1)).unwrap().dtype(), DType::Bool);
    /// # use half::f16;
    /// ```
    try_eq => Eq;
    /// `self != rhs` in the common type.
    try_ne => Ne;
    /// `self < rhs`; `Err` for complex values.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let x = AnyTensor::from(DynTensor::<f32>::ones(&[1]));
    /// assert_eq!(
    ///     x.try_lt(Scalar::Complex(0.0, 1.0)).unwrap_err().to_string(),
    ///     "\"lt_cpu\" not implemented for 'ComplexFloat'"
    /// );
    /// ```
    try_lt => Lt;
    /// `self <= rhs`; `Err` for complex values.
    try_le => Le;
    /// `self > rhs`; `Err` for complex values.
    try_gt => Gt;
    /// `self >= rhs`; `Err` for complex values.
    try_ge => Ge;
    /// Whether both are nonzero (PyTorch's `logical_and`), any dtypes.
    try_logical_and => LogicalAnd;
    /// Whether either is nonzero (PyTorch's `logical_or`).
    try_logical_or => LogicalOr;
    /// Whether exactly one is nonzero (PyTorch's `logical_xor`).
    try_logical_xor => LogicalXor;
}

/// PyTorch's `str(tensor)`, as the typed tensor prints (views too).
///
/// ```
/// use shaped::prelude::*;
/// let x = AnyTensor::from(DynTensor::<i32>::from_vec(vec![1, -20, 3, 4], &[2, 2]).unwrap());
/// assert_eq!(x.to_string(), "tensor([[  1, -20],\n        [  3,   4]], dtype=torch.int32)");
/// assert_eq!(x.t().unwrap().to_string(), "tensor([[  1,   3],\n        [-20,   4]], dtype=torch.int32)");
/// ```
impl<R: Repr> fmt::Display for AnyTensor<Cpu, R> {
    #[inline]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        any_tensor!(@each self, x => fmt::Display::fmt(x, f))
    }
}

impl<T: Element, D: Backend> Tensor<T, DynShape, D> {
    /// This tensor with its element type erased to a runtime [`DType`].
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = Tensor::<i32, shape![2]>::ones().into_dyn().into_any();
    /// assert_eq!(a.dtype(), DType::I32);
    /// ```
    pub fn into_any(self) -> AnyTensor<D>
    where
        AnyTensor<D>: From<DynTensor<T, D>>,
    {
        AnyTensor::from(self)
    }
}
