//! The pointwise catalogue's functions of three tensors: `lerp`, `addcmul`
//! and `addcdiv`, with broadcasting of all three, and their in-place forms.
//!
//! Types follow PyTorch:
//! - `lerp(start, end, weight)` needs `end` (and a weight tensor) of
//!   `start`'s own dtype, floating or complex; the weight may be a number.
//! - `addcmul(x, t1, t2, value)` promotes the three tensors as `+` would
//!   (bool is refused); `addcdiv` too, but for floating or complex results
//!   only, and never with `t1` and `t2` both integers (PyTorch's "Integer
//!   division with addcdiv is no longer supported").
//!
//! What PyTorch refuses on dtypes does not compile, with a message that
//! says so ([`crate::dtype::ternary`]); `AnyTensor`'s forms return PyTorch's
//! texts. Each computes in PyTorch's *opmath* type with PyTorch's fused
//! multiply-adds, so the values are PyTorch's bit for bit.
//!
//! ```
//! use shaped::prelude::*;
//! let start = tensor![0.0f32, 10.0];
//! let end = tensor![[1.0f32, 20.0], [2.0, 30.0]];
//! assert_eq!(start.lerp(&end, 0.5).to_vec(), vec![0.5, 15.0, 1.0, 20.0]);
//! let w = tensor![0.0f32, 1.0];
//! assert_eq!(start.lerp(&end, &w).to_vec(), vec![0.0, 20.0, 0.0, 30.0]);
//! let x = tensor![1i64, 2];
//! let y = x.addcmul(&tensor![2.0f32], &tensor![3.0f32, 4.0], 0.5); // float32
//! assert_eq!(y.to_vec(), vec![4.0, 6.0]);
//! assert_eq!(tensor![1.0f64].addcdiv(&tensor![1.0f64], &tensor![4.0f64], 2.0).to_vec(), vec![1.5]);
//! ```

use super::functions::TernaryFn;
use super::op_codes::{TernaryCode, TernaryOp};
use crate::backend::cpu::vector_math::fused_each;
use crate::backend::{Elementwise, StridedMut, StridedRef};
use crate::dtype::cast::cast;
use crate::dtype::promote::{
    BoolCategory, Common, CommonType, ComplexCategory, FloatingCategory, IntegerCategory,
    check_runtime_rank,
};
use crate::dtype::ternary::{Addcmul, Interpolate};
use crate::dtype::{Element, Scalar};
use crate::dynamic::{DynShape, DynTensor};
use crate::error::{Error, OrPanic};
use crate::layout::{StridedLayout, checked_numel};
use crate::shape::{
    Broadcast, BroadcastInto, BroadcastShape, Shape, SizeArray, broadcast_sizes_into,
    check_in_place,
};
use crate::storage::{Repr, Writable};
use crate::tensor::{OwnedParts, PartsOf, Tensor, from_parts, owned_parts};
use core::any::TypeId;
use core::marker::PhantomData;
use core::mem::MaybeUninit;

/// `lerp` with a weight tensor: `a + c * (b - a)`, from the nearer end.
#[derive(Copy, Clone, Debug, Default)]
pub struct Lerp;
impl<T: Interpolate> TernaryFn<T, T, T, T> for Lerp {
    #[inline(always)]
    fn call(&self, a: T, b: T, weight: T) -> T {
        a.lerp(b, weight.widen())
    }
    #[inline(always)]
    fn call_slices(&self, a: &[T], b: &[T], c: &[T], out: &mut [MaybeUninit<T>]) {
        fused_each(a, b, c, out, |x, y, z| self.call(x, y, z))
    }
    fn kernel_op(&self) -> Option<TernaryOp> {
        Some(TernaryOp {
            code: TernaryCode::Lerp,
            value: Scalar::Int(0),
        })
    }
}

/// The number of `lerp`, `addcmul` or `addcdiv` in the opmath type `V`,
/// and as given (for a device kernel, which converts it the same way).
#[derive(Copy, Clone, Debug)]
pub struct ByNumber<V> {
    opmath: V,
    number: Scalar,
}

impl<V> ByNumber<V> {
    /// `number` for operands of type `T`; `Err` with PyTorch's text when it
    /// does not fit `T`'s opmath type.
    pub fn new<T: Addcmul<Opmath = V>>(number: Scalar) -> Result<Self, Error> {
        let opmath = T::opmath_of(number).ok_or(Error::ScalarOverflow {
            type_name: T::OPMATH_NAME,
        })?;
        Ok(ByNumber { opmath, number })
    }
}

/// Declares the functions that take [`ByNumber`]: `Name(a, b, c, v) [bound]`.
macro_rules! by_number_fns {
    ($($(#[$doc:meta])* $name:ident => $code:ident: |$a:ident, $b:ident, $c:ident, $v:ident| [$bound:ident] $body:expr;)*) => {$(
        $(#[$doc])*
        #[derive(Copy, Clone, Debug)]
        pub struct $name<V>(pub ByNumber<V>);
        impl<T: $bound> TernaryFn<T, T, T, T> for $name<T::Opmath> {
            #[allow(unused_variables)]
            #[inline(always)]
            fn call(&self, $a: T, $b: T, $c: T) -> T {
                let $v = self.0.opmath;
                $body
            }
            #[inline(always)]
            fn call_slices(&self, a: &[T], b: &[T], c: &[T], out: &mut [MaybeUninit<T>]) {
                fused_each(a, b, c, out, |x, y, z| self.call(x, y, z))
            }
            fn kernel_op(&self) -> Option<TernaryOp> {
                Some(TernaryOp { code: TernaryCode::$code, value: self.0.number })
            }
        }
    )*};
}

by_number_fns! {
    /// `lerp` by a number: `a + v * (b - a)`; `c` is not read.
    LerpBy => LerpNumber: |a, b, c, v| [Interpolate] a.lerp(b, v);
    /// `a + v * b * c`.
    AddcmulBy => Addcmul: |a, b, c, v| [Addcmul] a.addcmul(b, c, v);
    /// `a + v * b / c`.
    AddcdivBy => Addcdiv: |a, b, c, v| [Interpolate] a.addcdiv(b, c, v);
}

/// `F` computed in `K`: each operand converted to `K` first (type
/// promotion; a device converts as it loads).
#[derive(Debug)]
pub struct InCommon3<F, K>(F, PhantomData<fn() -> K>);
impl<F: Copy, K> Clone for InCommon3<F, K> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<F: Copy, K> Copy for InCommon3<F, K> {}

impl<F, K> InCommon3<F, K> {
    /// `f` in `K`.
    pub fn new(f: F) -> Self {
        InCommon3(f, PhantomData)
    }
}

impl<A, B, C, K, F> TernaryFn<A, B, C, K> for InCommon3<F, K>
where
    A: Element,
    B: Element,
    C: Element,
    K: Element,
    F: TernaryFn<K, K, K, K>,
{
    #[inline(always)]
    fn call(&self, a: A, b: B, c: C) -> K {
        self.0.call(cast(a), cast(b), cast(c))
    }
    #[inline(always)]
    fn call_slices(&self, a: &[A], b: &[B], c: &[C], out: &mut [MaybeUninit<K>]) {
        let k = TypeId::of::<K>();
        if TypeId::of::<A>() == k && TypeId::of::<B>() == k && TypeId::of::<C>() == k {
            // SAFETY: `A`, `B` and `C` are `K` (equal type ids), so the
            // slices are the same memory of the same type.
            let (a, b, c) = unsafe {
                (
                    &*(a as *const [A] as *const [K]),
                    &*(b as *const [B] as *const [K]),
                    &*(c as *const [C] as *const [K]),
                )
            };
            return self.0.call_slices(a, b, c, out);
        }
        for (((o, &x), &y), &z) in out.iter_mut().zip(a).zip(b).zip(c) {
            o.write(self.call(x, y, z));
        }
    }
    fn kernel_op(&self) -> Option<TernaryOp> {
        self.0.kernel_op()
    }
}

/// `f(a, b, c)` over the broadcast sizes of the three, into a new
/// contiguous buffer: the shape-erased core of the three-operand
/// functions. `Err` when the sizes do not broadcast (PyTorch's text, the
/// operands taken two at a time as its iterator does) or the output cannot
/// be allocated.
pub(crate) fn broadcast_map3<A, B, C, U, Z, D, F>(
    a: StridedRef<'_, A, D>,
    b: StridedRef<'_, B, D>,
    c: StridedRef<'_, C, D>,
    f: F,
) -> Result<(D::Buffer<U>, StridedLayout<Z>), Error>
where
    A: Element,
    B: Element,
    C: Element,
    U: Element,
    Z: SizeArray,
    D: Elementwise,
    F: TernaryFn<A, B, C, U>,
{
    let mut ab = smallvec::SmallVec::<[usize; 8]>::from_elem(0, a.sizes.len().max(b.sizes.len()));
    broadcast_sizes_into(a.sizes, b.sizes, &mut ab)?;
    let mut sizes = Z::filled(ab.len().max(c.sizes.len()), 0);
    broadcast_sizes_into(&ab, c.sizes, sizes.as_mut())?;
    checked_numel(sizes.as_ref())?;
    let stretched = |x_sizes: &[usize], x_strides: &[usize]| {
        let mut strides = Z::filled(sizes.as_ref().len(), 0);
        super::broadcast_strides(x_sizes, x_strides, sizes.as_ref(), strides.as_mut());
        strides
    };
    let (sa, sb, sc) = (
        stretched(a.sizes, a.strides),
        stretched(b.sizes, b.strides),
        stretched(c.sizes, c.strides),
    );
    let buffer = D::map3(
        sizes.as_ref(),
        StridedRef {
            sizes: sizes.as_ref(),
            strides: sa.as_ref(),
            ..a
        },
        StridedRef {
            sizes: sizes.as_ref(),
            strides: sb.as_ref(),
            ..b
        },
        StridedRef {
            sizes: sizes.as_ref(),
            strides: sc.as_ref(),
            ..c
        },
        f,
    )?;
    Ok((buffer, StridedLayout::contiguous(sizes)))
}

/// `x = f(x, b, c)` with `b` and `c` broadcast to `x`'s sizes; `Err` (and
/// `x` untouched) when either breaks the in-place rule.
pub(crate) fn broadcast_update3<T, B, C, D, F>(
    out: StridedMut<'_, T, D>,
    b: StridedRef<'_, B, D>,
    c: StridedRef<'_, C, D>,
    f: F,
) -> Result<(), Error>
where
    T: Element,
    B: Element,
    C: Element,
    D: Elementwise,
    F: TernaryFn<T, B, C, T>,
{
    check_in_place(out.sizes, b.sizes)?;
    check_in_place(out.sizes, c.sizes)?;
    let stretched = |sizes: &[usize], strides: &[usize]| {
        let mut out_strides = smallvec::SmallVec::<[usize; 8]>::from_elem(0, out.sizes.len());
        super::broadcast_strides(sizes, strides, out.sizes, &mut out_strides);
        out_strides
    };
    let (sb, sc) = (stretched(b.sizes, b.strides), stretched(c.sizes, c.strides));
    let (b, c) = (
        StridedRef {
            strides: &sb,
            sizes: out.sizes,
            ..b
        },
        StridedRef {
            strides: &sc,
            sizes: out.sizes,
            ..c
        },
    );
    D::update3(out, b, c, f)
}

/// The dtype that `end` (or a weight tensor) of `lerp` must have: `self`'s.
#[diagnostic::on_unimplemented(
    message = "`lerp` needs `end` and a weight tensor of `self`'s dtype `{T}`, not `{Self}`",
    label = "this tensor holds `{Self}`",
    note = "PyTorch: \"expected dtype float for `end` but got dtype double\"; convert first: `.cast::<{T}>()`"
)]
pub trait SameDtype<T>: Element {}
impl<T: Element> SameDtype<T> for T {}

/// The weight of [`lerp`](Tensor::lerp): a number (`f64`) or a tensor of
/// `self`'s dtype, broadcast with `self` and `end`.
#[diagnostic::on_unimplemented(
    message = "`lerp`'s weight is a number (`f64`) or a tensor of `self`'s dtype `{T}`, not `{Self}`",
    label = "this weight",
    note = "PyTorch: \"expected dtype float for `weight` but got dtype double\""
)]
pub trait LerpWeight<T: Element, D: Elementwise> {
    /// The weight's shape (rank 0 for a number).
    type Shape: Shape;
    /// The weight as a number or an operand.
    #[doc(hidden)]
    fn weight(&self) -> Weight<'_, T, D>;
}

/// A weight, shape-erased.
#[doc(hidden)]
#[derive(Debug)]
pub enum Weight<'a, T: Element, D: Elementwise> {
    Number(Scalar),
    Tensor(StridedRef<'a, T, D>),
}

impl<T: Element, D: Elementwise> LerpWeight<T, D> for f64 {
    type Shape = crate::shape![];
    fn weight(&self) -> Weight<'_, T, D> {
        Weight::Number(Scalar::Float(*self))
    }
}

impl<T: Element, S: Shape, D: Elementwise, R: Repr> LerpWeight<T, D> for &Tensor<T, S, D, R> {
    type Shape = S;
    fn weight(&self) -> Weight<'_, T, D> {
        Weight::Tensor(StridedRef::new(&self.data, &self.layout))
    }
}

/// The shape of `lerp(self: S, end: S2, weight: W)`.
pub type LerpShape<S, S2, W> = Broadcast<Broadcast<S, S2>, W>;
/// The common type of three tensors, taken two at a time.
pub type Common3<T, S, T2, S2, T3, S3> = Common<Common<T, S, T2, S2>, Broadcast<S, S2>, T3, S3>;
/// The result of `lerp(self: (T, S), end: S2, weight: W)`.
pub type LerpOutput<T, S, S2, W, D> = Tensor<T, LerpShape<S, S2, W>, D>;
type LerpParts<T, S, S2, W, D> = PartsOf<T, D, LerpShape<S, S2, W>>;
/// The result of `addcmul` and `addcdiv` of tensors of `T`, `T2`, `T3`
/// with shapes `S`, `S2`, `S3`.
pub type TernaryOutput<T, S, T2, S2, T3, S3, D> =
    Tensor<Common3<T, S, T2, S2, T3, S3>, LerpShape<S, S2, S3>, D>;
/// [`TernaryOutput`] or an error.
pub type TryTernaryOutput<T, S, T2, S2, T3, S3, D> =
    Result<TernaryOutput<T, S, T2, S2, T3, S3, D>, Error>;
type TernaryParts<T, S, T2, S2, T3, S3, D> = Result<
    OwnedParts<Common3<T, S, T2, S2, T3, S3>, D, <LerpShape<S, S2, S3> as Shape>::Sizes>,
    Error,
>;

/// The dtypes of `addcdiv`'s `tensor1` and `tensor2`: not both integers
/// (bool counts as one).
#[diagnostic::on_unimplemented(
    message = "Integer division with addcdiv is no longer supported: `tensor1` and `tensor2` are both integer (or bool) tensors",
    label = "both divide as integers",
    note = "PyTorch's advice: `input + value * torch.trunc(tensor1 / tensor2)` for the old behaviour, or cast one to a floating type for true division"
)]
pub trait AddcdivOperands {}
macro_rules! addcdiv_categories {
    ($(($a:ty, $b:ty)),*) => {$(
        impl AddcdivOperands for ($a, $b) {}
    )*};
}
addcdiv_categories!(
    (FloatingCategory, BoolCategory),
    (FloatingCategory, IntegerCategory),
    (FloatingCategory, FloatingCategory),
    (FloatingCategory, ComplexCategory),
    (ComplexCategory, BoolCategory),
    (ComplexCategory, IntegerCategory),
    (ComplexCategory, FloatingCategory),
    (ComplexCategory, ComplexCategory),
    (BoolCategory, FloatingCategory),
    (IntegerCategory, FloatingCategory),
    (BoolCategory, ComplexCategory),
    (IntegerCategory, ComplexCategory)
);

impl<T: Element, S: Shape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {
    /// Linear interpolation: `self + weight * (end - self)`, computed from
    /// the nearer end (exact at both), with `weight` a number or a tensor of
    /// `self`'s dtype; all three broadcast. Floating and complex tensors;
    /// `end` of `self`'s dtype (a compile error otherwise).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = tensor![1.0f64, 2.0];
    /// assert_eq!(a.lerp(&tensor![3.0f64, 6.0], 0.25).to_vec(), vec![1.5, 3.0]);
    /// ```
    pub fn lerp<T2, S2: Shape, R2: Repr, W>(
        &self,
        end: &Tensor<T2, S2, D, R2>,
        weight: W,
    ) -> LerpOutput<T, S, S2, W::Shape, D>
    where
        T: Interpolate,
        T2: SameDtype<T>,
        W: LerpWeight<T, D>,
        S: BroadcastShape<S2>,
        Broadcast<S, S2>: BroadcastShape<W::Shape>,
    {
        from_parts!(self.lerp_parts(end, weight).or_panic())
    }

    /// [`lerp`](Self::lerp), or `Err` with PyTorch's text when `Dyn` sizes
    /// do not broadcast or the weight does not fit the dtype (`1e300` for
    /// float32).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = DynTensor::<f32>::ones(&[2]);
    /// let err = a.try_lerp(&a, 1e300).unwrap_err();
    /// assert_eq!(err.to_string(), "value cannot be converted to type float without overflow");
    /// ```
    pub fn try_lerp<T2, S2: Shape, R2: Repr, W>(
        &self,
        end: &Tensor<T2, S2, D, R2>,
        weight: W,
    ) -> Result<LerpOutput<T, S, S2, W::Shape, D>, Error>
    where
        T: Interpolate,
        T2: SameDtype<T>,
        W: LerpWeight<T, D>,
        S: BroadcastShape<S2>,
        Broadcast<S, S2>: BroadcastShape<W::Shape>,
    {
        Ok(from_parts!(self.lerp_parts(end, weight)?))
    }

    fn lerp_parts<T2, S2: Shape, R2: Repr, W>(
        &self,
        end: &Tensor<T2, S2, D, R2>,
        weight: W,
    ) -> Result<LerpParts<T, S, S2, W::Shape, D>, Error>
    where
        T: Interpolate,
        T2: SameDtype<T>,
        W: LerpWeight<T, D>,
        S: BroadcastShape<S2>,
        Broadcast<S, S2>: BroadcastShape<W::Shape>,
    {
        let a = StridedRef::new(&self.data, &self.layout);
        let b = StridedRef::new(&end.data, &end.layout);
        let (buffer, layout) = match weight.weight() {
            Weight::Number(w) => {
                let f = InCommon3::<_, T>::new(LerpBy(ByNumber::new::<T>(w)?));
                broadcast_map3(a, b, a, f)?
            }
            Weight::Tensor(c) => broadcast_map3(a, b, c, InCommon3::<_, T>::new(Lerp))?,
        };
        Ok(owned_parts(buffer, layout))
    }

    /// `lerp` in place: `self = self + weight * (end - self)`; `end` and
    /// the weight broadcast to `self`'s shape. `Err` (and `self` untouched)
    /// when they do not, with PyTorch's text, or the weight does not fit.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = tensor![[0.0f32, 1.0], [2.0, 3.0]];
    /// x.lerp_(&tensor![10.0f32, 11.0], &tensor![[0.5f32], [0.0]]).unwrap();
    /// assert_eq!(x.to_vec(), vec![5.0, 6.0, 2.0, 3.0]);
    /// ```
    pub fn lerp_<S2, R2: Repr, W>(
        &mut self,
        end: &Tensor<T, S2, D, R2>,
        weight: W,
    ) -> Result<(), Error>
    where
        T: Interpolate,
        R: Writable,
        W: LerpWeight<T, D>,
        S2: BroadcastInto<S>,
        W::Shape: BroadcastInto<S>,
    {
        let b = StridedRef::new(&end.data, &end.layout);
        let weight = weight.weight();
        let ptr = R::ptr_mut(&mut self.data);
        let out = super::assign::output(self, ptr);
        match weight {
            Weight::Number(w) => {
                let f = LerpBy(ByNumber::new::<T>(w)?);
                broadcast_update3(out, b, b, f)
            }
            Weight::Tensor(c) => broadcast_update3(out, b, c, Lerp),
        }
    }

    /// `f` of the three in their common type, after the rank-0 promotion
    /// checks of `DynShape` operands.
    fn combine3<T2, S2: Shape, R2: Repr, T3, S3: Shape, R3: Repr, F>(
        &self,
        t1: &Tensor<T2, S2, D, R2>,
        t2: &Tensor<T3, S3, D, R3>,
        f: F,
    ) -> TernaryParts<T, S, T2, S2, T3, S3, D>
    where
        T: CommonType<T2, S, S2>,
        T2: Element,
        T3: Element,
        Common<T, S, T2, S2>: CommonType<T3, Broadcast<S, S2>, S3>,
        S: BroadcastShape<S2>,
        Broadcast<S, S2>: BroadcastShape<S3>,
        F: TernaryFn<
                Common3<T, S, T2, S2, T3, S3>,
                Common3<T, S, T2, S2, T3, S3>,
                Common3<T, S, T2, S2, T3, S3>,
                Common3<T, S, T2, S2, T3, S3>,
            >,
    {
        let (a, b, c) = (
            StridedRef::new(&self.data, &self.layout),
            StridedRef::new(&t1.data, &t1.layout),
            StridedRef::new(&t2.data, &t2.layout),
        );
        check_runtime_rank::<Common<T, S, T2, S2>>(
            (T::DTYPE, S::RANK, a.sizes.len()),
            (T2::DTYPE, S2::RANK, b.sizes.len()),
        )?;
        check_runtime_rank::<Common3<T, S, T2, S2, T3, S3>>(
            (
                <Common<T, S, T2, S2>>::DTYPE,
                <Broadcast<S, S2>>::RANK,
                a.sizes.len().max(b.sizes.len()),
            ),
            (T3::DTYPE, S3::RANK, c.sizes.len()),
        )?;
        let (buffer, layout) = broadcast_map3(
            a,
            b,
            c,
            InCommon3::<_, Common3<T, S, T2, S2, T3, S3>>::new(f),
        )?;
        Ok(owned_parts(buffer, layout))
    }

    /// `addcmul` in place: `self += value * tensor1 * tensor2`, the two of
    /// `self`'s dtype and broadcast to its shape. `Err` (and `self`
    /// untouched) when they do not broadcast there, or `value` does not fit.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = tensor![1i64, 2];
    /// x.addcmul_(&tensor![3i64], &tensor![4i64, 5], 2.0).unwrap();
    /// assert_eq!(x.to_vec(), vec![25, 32]);
    /// ```
    pub fn addcmul_<S2, R2: Repr, S3, R3: Repr>(
        &mut self,
        tensor1: &Tensor<T, S2, D, R2>,
        tensor2: &Tensor<T, S3, D, R3>,
        value: f64,
    ) -> Result<(), Error>
    where
        T: Addcmul,
        R: Writable,
        S2: BroadcastInto<S>,
        S3: BroadcastInto<S>,
    {
        let f = AddcmulBy(ByNumber::new::<T>(Scalar::Float(value))?);
        self.update3(tensor1, tensor2, f)
    }

    /// `addcdiv` in place: `self += value * tensor1 / tensor2`, the two of
    /// `self`'s (floating or complex) dtype and broadcast to its shape.
    /// `Err` (and `self` untouched) when they do not broadcast there, or
    /// `value` does not fit.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = tensor![1.0f32, 2.0];
    /// x.addcdiv_(&tensor![1.0f32], &tensor![4.0f32, 8.0], 2.0).unwrap();
    /// assert_eq!(x.to_vec(), vec![1.5, 2.25]);
    /// ```
    pub fn addcdiv_<S2, R2: Repr, S3, R3: Repr>(
        &mut self,
        tensor1: &Tensor<T, S2, D, R2>,
        tensor2: &Tensor<T, S3, D, R3>,
        value: f64,
    ) -> Result<(), Error>
    where
        T: Interpolate,
        R: Writable,
        S2: BroadcastInto<S>,
        S3: BroadcastInto<S>,
    {
        let f = AddcdivBy(ByNumber::new::<T>(Scalar::Float(value))?);
        self.update3(tensor1, tensor2, f)
    }

    fn update3<S2, R2: Repr, S3, R3: Repr, F>(
        &mut self,
        b: &Tensor<T, S2, D, R2>,
        c: &Tensor<T, S3, D, R3>,
        f: F,
    ) -> Result<(), Error>
    where
        R: Writable,
        S2: Shape,
        S3: Shape,
        F: TernaryFn<T, T, T, T>,
    {
        let (b, c) = (
            StridedRef::new(&b.data, &b.layout),
            StridedRef::new(&c.data, &c.layout),
        );
        let ptr = R::ptr_mut(&mut self.data);
        broadcast_update3(super::assign::output(self, ptr), b, c, f)
    }
}

/// `addcmul`, `addcdiv` and their `try_` forms: `name, try_name => element
/// function [the common type's bound, more bounds]`.
macro_rules! addc_methods {
    ($($(#[$doc:meta])* $name:ident; $(#[$try_doc:meta])* $try_name:ident => $Fn:ident [$($bounds:tt)*];)*) => {
        impl<T: Element, S: Shape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {$(
            $(#[$doc])*
            pub fn $name<T2, S2: Shape, R2: Repr, T3, S3: Shape, R3: Repr>(
                &self,
                tensor1: &Tensor<T2, S2, D, R2>,
                tensor2: &Tensor<T3, S3, D, R3>,
                value: f64,
            ) -> TernaryOutput<T, S, T2, S2, T3, S3, D>
            where
                T: CommonType<T2, S, S2>,
                T2: Element,
                T3: Element,
                Common<T, S, T2, S2>: CommonType<T3, Broadcast<S, S2>, S3>,
                S: BroadcastShape<S2>,
                Broadcast<S, S2>: BroadcastShape<S3>,
                $($bounds)*
            {
                self.$try_name(tensor1, tensor2, value).or_panic()
            }

            $(#[$try_doc])*
            pub fn $try_name<T2, S2: Shape, R2: Repr, T3, S3: Shape, R3: Repr>(
                &self,
                tensor1: &Tensor<T2, S2, D, R2>,
                tensor2: &Tensor<T3, S3, D, R3>,
                value: f64,
            ) -> TryTernaryOutput<T, S, T2, S2, T3, S3, D>
            where
                T: CommonType<T2, S, S2>,
                T2: Element,
                T3: Element,
                Common<T, S, T2, S2>: CommonType<T3, Broadcast<S, S2>, S3>,
                S: BroadcastShape<S2>,
                Broadcast<S, S2>: BroadcastShape<S3>,
                $($bounds)*
            {
                type K<T, S, T2, S2, T3, S3> = Common3<T, S, T2, S2, T3, S3>;
                let number = Scalar::Float(value);
                let f = $Fn(ByNumber::new::<K<T, S, T2, S2, T3, S3>>(number)?);
                Ok(from_parts!(self.combine3(tensor1, tensor2, f)?))
            }
        )*}
    };
}

addc_methods! {
    /// `self + value * tensor1 * tensor2`, the three broadcast and promoted
    /// as `+` would promote them (integers wrap; not for bool).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = tensor![1.0f32, 1.0];
    /// let y = x.addcmul(&tensor![[2.0f32], [3.0]], &tensor![1.0f64, 2.0], 0.5); // (2, 2) float64
    /// assert_eq!(y.to_vec(), vec![2.0, 3.0, 2.5, 4.0]);
    /// ```
    addcmul;
    /// [`addcmul`](Self::addcmul), or `Err` with PyTorch's text when `Dyn`
    /// sizes do not broadcast or `value` does not fit the common type.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<u8>::ones(&[2]);
    /// let err = x.try_addcmul(&x, &x, 300.0).unwrap_err();
    /// assert_eq!(err.to_string(), "value cannot be converted to type uint8_t without overflow");
    /// ```
    try_addcmul => AddcmulBy [Common3<T, S, T2, S2, T3, S3>: Addcmul];
    /// `self + value * tensor1 / tensor2`, the three broadcast and promoted
    /// as `+` would promote them; floating or complex results, and not
    /// `tensor1` and `tensor2` both integers (compile errors, as PyTorch
    /// refuses them).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = tensor![1i32, 2];
    /// let y = x.addcdiv(&tensor![3i32, 3], &tensor![2.0f32], 1.0); // float32
    /// assert_eq!(y.to_vec(), vec![2.5, 3.5]);
    /// ```
    addcdiv;
    /// [`addcdiv`](Self::addcdiv), or `Err` with PyTorch's text when `Dyn`
    /// sizes do not broadcast or `value` does not fit the common type.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::ones(&[2]);
    /// assert!(x.try_addcdiv(&x, &DynTensor::<f32>::ones(&[3]), 1.0).is_err());
    /// ```
    try_addcdiv => AddcdivBy [
        Common3<T, S, T2, S2, T3, S3>: Interpolate,
        (T2::Category, T3::Category): AddcdivOperands,
    ];
}

/// The operands of the `AnyTensor` forms: views.
type AnyView<'a, T, D> = Tensor<T, DynShape, D, crate::storage::View<'a>>;

/// `f` of three tensors of one type and any shapes (broadcast): the path of
/// `AnyTensor`'s forms.
fn dyn_map3<T: Element, D: Elementwise, F: TernaryFn<T, T, T, T>>(
    a: &AnyView<'_, T, D>,
    b: &AnyView<'_, T, D>,
    c: &AnyView<'_, T, D>,
    f: F,
) -> Result<DynTensor<T, D>, Error> {
    let (a, b, c) = (
        StridedRef::new(&a.data, &a.layout),
        StridedRef::new(&b.data, &b.layout),
        StridedRef::new(&c.data, &c.layout),
    );
    let (buffer, layout) = broadcast_map3(a, b, c, f)?;
    Ok(from_parts!(owned_parts(buffer, layout)))
}

/// `lerp` of tensors of one type, by the weight tensor or else `number`.
pub(crate) fn dyn_lerp<T: Interpolate, D: Elementwise>(
    a: &AnyView<'_, T, D>,
    b: &AnyView<'_, T, D>,
    weight: Option<&AnyView<'_, T, D>>,
    number: Scalar,
) -> Result<DynTensor<T, D>, Error> {
    match weight {
        Some(w) => dyn_map3(a, b, w, Lerp),
        None => dyn_map3(a, b, a, LerpBy(ByNumber::new::<T>(number)?)),
    }
}

/// `addcmul` of tensors of one type.
pub(crate) fn dyn_addcmul<T: Addcmul, D: Elementwise>(
    a: &AnyView<'_, T, D>,
    b: &AnyView<'_, T, D>,
    c: &AnyView<'_, T, D>,
    value: Scalar,
) -> Result<DynTensor<T, D>, Error> {
    dyn_map3(a, b, c, AddcmulBy(ByNumber::new::<T>(value)?))
}

/// `addcdiv` of tensors of one type.
pub(crate) fn dyn_addcdiv<T: Interpolate, D: Elementwise>(
    a: &AnyView<'_, T, D>,
    b: &AnyView<'_, T, D>,
    c: &AnyView<'_, T, D>,
    value: Scalar,
) -> Result<DynTensor<T, D>, Error> {
    dyn_map3(a, b, c, AddcdivBy(ByNumber::new::<T>(value)?))
}
