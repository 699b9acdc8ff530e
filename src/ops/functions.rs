//! Element functions: what each elementwise operation computes, one type
//! per operation, generic over dtype ([`UnaryFn`], [`BinaryFn`]). Every
//! backend applies the same functions: the CPU calls them along rows, a
//! device names each one's compiled kernel through [`kernel_op`]
//! ([`super::op_codes`]).
//!
//! [`kernel_op`]: UnaryFn::kernel_op

use super::op_codes::{KernelOp, OpCode, Side, TernaryOp};
use crate::dtype::cast::cast;
use crate::dtype::logic::{Bitwise, Shiftable};
use crate::dtype::math::Modular;
use crate::dtype::{DType, Element, Numeric, Ordered, Scalar, Subtractable, TrueDiv};
use core::marker::PhantomData;

/// A function of one element, applied by [`Elementwise::map1`](crate::backend::Elementwise::map1).
pub trait UnaryFn<A, U>: Copy + Send + Sync {
    /// The result for one element.
    fn call(&self, a: A) -> U;
    /// The result for each element of `a`, into `out` (as long): what a
    /// contiguous run computes, [`call`](Self::call) of each unless the
    /// function has a vectorized kernel (the same bits).
    #[inline(always)]
    fn call_slice(&self, a: &[A], out: &mut [core::mem::MaybeUninit<U>])
    where
        A: Copy,
    {
        for (o, &x) in out.iter_mut().zip(a) {
            o.write(self.call(x));
        }
    }
    /// The device kernel that computes the same (`None`: host only).
    fn kernel_op(&self) -> Option<KernelOp> {
        None
    }
    /// Whether the function returns its argument unchanged, so a kernel
    /// may move bits instead of calling it when `A` is `U`.
    fn is_identity(&self) -> bool {
        false
    }
}

/// A function of two elements, applied by [`Elementwise::map2`](crate::backend::Elementwise::map2) and
/// [`Elementwise::update2`](crate::backend::Elementwise::update2).
pub trait BinaryFn<A, B, U>: Copy + Send + Sync {
    /// The result for one pair of elements.
    fn call(&self, a: A, b: B) -> U;
    /// The result for each pair of `a` and `b` (as long as `out`), into
    /// `out`: what a contiguous run computes, [`call`](Self::call) of each
    /// unless the function has a faster way to the same bits.
    #[inline(always)]
    fn call_slices(&self, a: &[A], b: &[B], out: &mut [core::mem::MaybeUninit<U>])
    where
        A: Copy,
        B: Copy,
    {
        for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
            o.write(self.call(x, y));
        }
    }
    /// The device kernel that computes the same (`None`: host only).
    fn kernel_op(&self) -> Option<KernelOp> {
        None
    }
}

/// A function of three elements, applied by
/// [`Elementwise::map3`](crate::backend::Elementwise::map3) (`lerp`,
/// `addcmul`, `addcdiv`).
pub trait TernaryFn<A, B, C, U>: Copy + Send + Sync {
    /// The result for one triple of elements.
    fn call(&self, a: A, b: B, c: C) -> U;
    /// The result for each triple of `a`, `b` and `c` (as long as `out`),
    /// into `out`: what a contiguous run computes.
    #[inline(always)]
    fn call_slices(&self, a: &[A], b: &[B], c: &[C], out: &mut [core::mem::MaybeUninit<U>])
    where
        A: Copy,
        B: Copy,
        C: Copy,
    {
        for (((o, &x), &y), &z) in out.iter_mut().zip(a).zip(b).zip(c) {
            o.write(self.call(x, y, z));
        }
    }
    /// The device kernel that computes the same (`None`: host only).
    fn kernel_op(&self) -> Option<TernaryOp> {
        None
    }
}

/// Declares element functions: `Name(args) [bound] => body`.
macro_rules! element_fns {
    ($($(#[$doc:meta])* $name:ident $(, in f32 ($wide:expr))?: |$a:ident, $b:ident| -> $out:ty [$bound:ident] $body:expr;)*) => {$(
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, Default)]
        pub struct $name;
        impl<T: $bound> BinaryFn<T, T, $out> for $name {
            #[inline(always)]
            fn call(&self, $a: T, $b: T) -> $out {
                $body
            }
            $(
            #[inline(always)]
            fn call_slices(&self, a: &[T], b: &[T], out: &mut [core::mem::MaybeUninit<$out>]) {
                crate::backend::cpu::vector_math::halves_or_each(a, b, out, |x, y| self.call(x, y), $wide)
            }
            )?
            fn kernel_op(&self) -> Option<KernelOp> {
                Some(KernelOp::new(OpCode::$name))
            }
        }
    )*};
}

element_fns! {
    /// `a + b`.
    Add, in f32 (|x: f32, y: f32| x + y): |a, b| -> T [Numeric] T::add(a, b);
    /// `a - b`.
    Sub, in f32 (|x: f32, y: f32| x - y): |a, b| -> T [Numeric] T::sub(a, b);
    /// `a * b`.
    Mul, in f32 (|x: f32, y: f32| x * y): |a, b| -> T [Numeric] T::mul(a, b);
    /// `a == b`.
    Eq: |a, b| -> bool [Element] a == b;
    /// `a != b`.
    Ne: |a, b| -> bool [Element] a != b;
    /// `a < b`.
    Lt: |a, b| -> bool [Ordered] a < b;
    /// `a <= b`.
    Le: |a, b| -> bool [Ordered] a <= b;
    /// `a > b`.
    Gt: |a, b| -> bool [Ordered] a > b;
    /// `a >= b`.
    Ge: |a, b| -> bool [Ordered] a >= b;
    /// `a & b` (integers and bool).
    BitAnd: |a, b| -> T [Bitwise] Bitwise::bit_and(a, b);
    /// `a | b` (integers and bool).
    BitOr: |a, b| -> T [Bitwise] Bitwise::bit_or(a, b);
    /// `a ^ b` (integers and bool).
    BitXor: |a, b| -> T [Bitwise] Bitwise::bit_xor(a, b);
    /// `a << b` (integers; 0 past the width, as PyTorch).
    Shl: |a, b| -> T [Shiftable] Shiftable::shl(a, b);
    /// `a >> b` (integers; the sign past the width, as PyTorch).
    Shr: |a, b| -> T [Shiftable] Shiftable::shr(a, b);
    /// Whether both are nonzero (NaN counts as nonzero, `-0.0` as zero).
    LogicalAnd: |a, b| -> bool [Element] a != T::ZERO && b != T::ZERO;
    /// Whether either is nonzero.
    LogicalOr: |a, b| -> bool [Element] a != T::ZERO || b != T::ZERO;
    /// Whether exactly one is nonzero.
    LogicalXor: |a, b| -> bool [Element] (a != T::ZERO) != (b != T::ZERO);
    /// `a % b` with the sign of `b` (PyTorch's `remainder`).
    Remainder: |a, b| -> T [Modular] Modular::remainder(a, b);
    /// `a % b` with the sign of `a` (PyTorch's `fmod`).
    Fmod: |a, b| -> T [Modular] Modular::fmod(a, b);
    /// `a / b` rounded down (PyTorch's `floor_divide`).
    FloorDivide: |a, b| -> T [Modular] Modular::floor_divide(a, b);
}

/// The element type an operation gives for operands of the common type `C`.
pub trait ElementOp<C> {
    /// The result's element type.
    type Output: Element;
}
/// The element type of `f` on operands of type `C`.
pub type OutputOf<F, C> = <F as ElementOp<C>>::Output;

/// `+ - *` keep the common type.
macro_rules! same_type_ops {
    ($($Fn:ident),*) => {$(
        impl<C: Element> ElementOp<C> for $Fn {
            type Output = C;
        }
    )*};
}
same_type_ops!(
    Add,
    Sub,
    Mul,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    Remainder,
    Fmod,
    FloorDivide
);
/// `/` is true division: integers and bool give float32.
impl<C: TrueDiv> ElementOp<C> for Div {
    type Output = C::Quotient;
}

/// `a + b` of bools: `a || b` (PyTorch's bool addition saturates at true).
impl BinaryFn<bool, bool, bool> for Add {
    #[inline(always)]
    fn call(&self, a: bool, b: bool) -> bool {
        a || b
    }
    fn kernel_op(&self) -> Option<KernelOp> {
        Some(KernelOp::new(OpCode::Add))
    }
}

/// `a * b` of bools: `a && b`.
impl BinaryFn<bool, bool, bool> for Mul {
    #[inline(always)]
    fn call(&self, a: bool, b: bool) -> bool {
        a && b
    }
    fn kernel_op(&self) -> Option<KernelOp> {
        Some(KernelOp::new(OpCode::Mul))
    }
}

/// An element type that may be an operand of the operation `F`: every type,
/// except bool for subtraction ([`Subtractable`]). (`& | ^` need a
/// [`Bitwise`] common type, `<< >>` a [`Shiftable`] one.)
pub trait OperandOf<F> {}
impl<T: Element> OperandOf<Add> for T {}
impl<T: Element> OperandOf<Mul> for T {}
impl<T: Element> OperandOf<Div> for T {}
impl<T: Subtractable> OperandOf<Sub> for T {}
// The bitwise operations check the common type instead (their element
// functions need `Bitwise` / `Shiftable`): a bool tensor shifted by an
// integer one computes in the integer type, as in PyTorch.
impl<T: Element> OperandOf<BitAnd> for T {}
impl<T: Element> OperandOf<BitOr> for T {}
impl<T: Element> OperandOf<BitXor> for T {}
impl<T: Element> OperandOf<Shl> for T {}
impl<T: Element> OperandOf<Shr> for T {}
// `%`, `fmod` and `floor_divide` check the common type too (`Modular`).
impl<T: Element> OperandOf<Remainder> for T {}
impl<T: Element> OperandOf<Fmod> for T {}
impl<T: Element> OperandOf<FloorDivide> for T {}

/// A plain number as an operand of the operation `F` (`&x - 2`, `2 - &x`),
/// borrowed: the same rule as [`OperandOf`], stated through a reference so
/// that the impls for each number type may name it in a bound.
pub trait NumberOperandOf<F> {}
impl<T: OperandOf<F>, F> NumberOperandOf<F> for &T {}

/// `f` computed in the common type `C` of its operands: each is converted
/// to `C` first (a no-op when it already is one), as PyTorch computes a
/// mixed-dtype operation.
pub struct InCommon<F, C>(pub F, PhantomData<fn() -> C>);

impl<F, C> InCommon<F, C> {
    /// `f` in the common type `C`.
    pub fn new(f: F) -> Self {
        InCommon(f, PhantomData)
    }
}
impl<F: Copy, C> Clone for InCommon<F, C> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<F: Copy, C> Copy for InCommon<F, C> {}

impl<A: Element, B: Element, C: Element, U, F: BinaryFn<C, C, U>> BinaryFn<A, B, U>
    for InCommon<F, C>
{
    #[inline(always)]
    fn call(&self, a: A, b: B) -> U {
        self.0.call(cast::<A, C>(a), cast::<B, C>(b))
    }
    /// `f`'s own runs when both operands already have the common type.
    #[inline(always)]
    fn call_slices(&self, a: &[A], b: &[B], out: &mut [core::mem::MaybeUninit<U>]) {
        if let (Some(a), Some(b)) = (retyped::<A, C>(a), retyped::<B, C>(b)) {
            return self.0.call_slices(a, b, out);
        }
        for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
            o.write(self.call(x, y));
        }
    }
    /// `f`'s own kernel when both operands already have the common type,
    /// else the same operation computed in `C` by a converting kernel.
    fn kernel_op(&self) -> Option<KernelOp> {
        let op = self.0.kernel_op()?;
        if same_type::<A, C>() && same_type::<B, C>() {
            Some(op)
        } else {
            Some(op.computed_in(C::DTYPE))
        }
    }
}

/// Whether `A` and `B` are one type (decided at compile time).
#[inline(always)]
pub(crate) fn same_type<A: 'static, B: 'static>() -> bool {
    core::any::TypeId::of::<A>() == core::any::TypeId::of::<B>()
}

/// `a` as a slice of `C` when `A` is `C` (decided at compile time).
#[inline(always)]
pub(crate) fn retyped<A: 'static, C: 'static>(a: &[A]) -> Option<&[C]> {
    // SAFETY: `A` is `C` (their type ids say so): the same slice, retyped
    // to what it is.
    same_type::<A, C>()
        .then(|| unsafe { core::slice::from_raw_parts(a.as_ptr().cast::<C>(), a.len()) })
}

/// `out` as a slice of `MaybeUninit<C>` when `A` is `C` (decided at
/// compile time).
#[inline(always)]
pub(crate) fn retyped_out<A: 'static, C: 'static>(
    out: &mut [core::mem::MaybeUninit<A>],
) -> Option<&mut [core::mem::MaybeUninit<C>]> {
    let len = out.len();
    let ptr = out.as_mut_ptr().cast::<core::mem::MaybeUninit<C>>();
    // SAFETY: `A` is `C` (their type ids say so): the same exclusive slice,
    // retyped to what it is.
    same_type::<A, C>().then(|| unsafe { core::slice::from_raw_parts_mut(ptr, len) })
}

/// A function of one element stored back into its argument's type: the
/// in-place forms (`exp_`, `sign_`, ...), whose result type `U` PyTorch's
/// casting rule lets into the tensor (the methods ask for
/// [`StorableIn`](crate::dtype::promote::StorableIn)). On a device it is
/// the function's own kernel when `U` is the tensor's type, which is every
/// case the methods compile for.
#[derive(Debug)]
pub struct StoreInPlace<F, U>(pub F, PhantomData<fn() -> U>);

impl<F, U> StoreInPlace<F, U> {
    /// `f`, its result stored back.
    pub fn new(f: F) -> Self {
        StoreInPlace(f, PhantomData)
    }
}
impl<F: Copy, U> Clone for StoreInPlace<F, U> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<F: Copy, U> Copy for StoreInPlace<F, U> {}

impl<T: Element, U: Element, F: UnaryFn<T, U>> UnaryFn<T, T> for StoreInPlace<F, U> {
    #[inline(always)]
    fn call(&self, x: T) -> T {
        cast(self.0.call(x))
    }
    /// `f`'s own runs (its vectorized kernel) when `U` is `T`.
    #[inline(always)]
    fn call_slice(&self, a: &[T], out: &mut [core::mem::MaybeUninit<T>]) {
        if let Some(out) = retyped_out::<T, U>(out) {
            return self.0.call_slice(a, out);
        }
        for (o, &x) in out.iter_mut().zip(a) {
            o.write(self.call(x));
        }
    }
    fn kernel_op(&self) -> Option<KernelOp> {
        if same_type::<T, U>() {
            self.0.kernel_op()
        } else {
            None
        }
    }
}

/// A conversion to `U` (PyTorch's `to(dtype)`; see [`crate::dtype::cast`]).
pub struct Cast<U>(PhantomData<fn() -> U>);
impl<U> Cast<U> {
    /// The conversion to `U`.
    pub fn new() -> Self {
        Cast(PhantomData)
    }
}
impl<U> Default for Cast<U> {
    fn default() -> Self {
        Self::new()
    }
}
impl<U> Clone for Cast<U> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<U> Copy for Cast<U> {}
impl<T: Element, U: Element> UnaryFn<T, U> for Cast<U> {
    #[inline(always)]
    fn call(&self, a: T) -> U {
        cast::<T, U>(a)
    }
    fn kernel_op(&self) -> Option<KernelOp> {
        Some(KernelOp::new(OpCode::Cast))
    }
}

/// `a / b`, true division (integers divide as `f32`).
#[derive(Copy, Clone, Debug, Default)]
pub struct Div;
impl<T: TrueDiv> BinaryFn<T, T, T::Quotient> for Div {
    #[inline(always)]
    fn call(&self, a: T, b: T) -> T::Quotient {
        T::true_div(a, b)
    }
    /// float16 runs convert by blocks (F16C), as `+ - *`.
    #[inline(always)]
    fn call_slices(&self, a: &[T], b: &[T], out: &mut [core::mem::MaybeUninit<T::Quotient>]) {
        crate::backend::cpu::vector_math::halves_or_each(
            a,
            b,
            out,
            |x, y| self.call(x, y),
            |x: f32, y: f32| x / y,
        )
    }
    fn kernel_op(&self) -> Option<KernelOp> {
        Some(KernelOp::new(OpCode::Div))
    }
}

/// The element itself (copies).
#[derive(Copy, Clone, Debug, Default)]
pub struct Identity;
impl<T: Element> UnaryFn<T, T> for Identity {
    #[inline(always)]
    fn call(&self, a: T) -> T {
        a
    }
    fn kernel_op(&self) -> Option<KernelOp> {
        Some(KernelOp::new(OpCode::Identity))
    }
    fn is_identity(&self) -> bool {
        true
    }
}

/// A constant, whatever the element was (for `fill`).
#[derive(Copy, Clone, Debug)]
pub struct Constant<T>(pub T);
impl<A, T: Element> UnaryFn<A, T> for Constant<T> {
    #[inline(always)]
    fn call(&self, _: A) -> T {
        self.0
    }
    fn kernel_op(&self) -> Option<KernelOp> {
        Some(KernelOp::new(OpCode::Constant).with_scalar(Side::Left, self.0.to_scalar()))
    }
}

/// `-a`.
#[derive(Copy, Clone, Debug, Default)]
pub struct Neg;
impl<T: Numeric> UnaryFn<T, T> for Neg {
    #[inline(always)]
    fn call(&self, a: T) -> T {
        T::neg(a)
    }
    fn kernel_op(&self) -> Option<KernelOp> {
        Some(KernelOp::new(OpCode::Neg))
    }
}

/// A binary function with its right operand fixed: `f(a, scalar)`.
#[derive(Copy, Clone, Debug)]
pub struct WithRight<F, B>(pub F, pub B);
impl<A, B: Element, U, F: BinaryFn<A, B, U>> UnaryFn<A, U> for WithRight<F, B> {
    #[inline(always)]
    fn call(&self, a: A) -> U {
        self.0.call(a, self.1)
    }
    fn kernel_op(&self) -> Option<KernelOp> {
        let op = self.0.kernel_op()?;
        Some(op.with_scalar(Side::Right, self.1.to_scalar()))
    }
}

/// A binary function with its left operand fixed: `f(scalar, b)`.
#[derive(Copy, Clone, Debug)]
pub struct WithLeft<F, A>(pub F, pub A);
impl<A: Element, B, U, F: BinaryFn<A, B, U>> UnaryFn<B, U> for WithLeft<F, A> {
    #[inline(always)]
    fn call(&self, b: B) -> U {
        self.0.call(self.1, b)
    }
    fn kernel_op(&self) -> Option<KernelOp> {
        let op = self.0.kernel_op()?;
        Some(op.with_scalar(Side::Left, self.1.to_scalar()))
    }
}

/// Whether `C` is float16 or bfloat16 (decided at compile time).
#[inline(always)]
pub(crate) fn is_half<C: 'static>() -> bool {
    same_type::<C, half::f16>() || same_type::<C, half::bf16>()
}

/// `f(a, n)` (or `f(n, a)`) of `*` and `/` with a plain number `n`, in the
/// common type `C`, the result converted to the output's type `U` (the
/// operation's own result type, or the tensor's type when it is stored
/// back in place). When `C` is float16 or bfloat16 the number is not
/// rounded to `C`: `a` is widened to float32 and multiplied or divided by
/// the number in float32, then rounded once, as PyTorch's CPU kernels
/// keep a scalar operand of `mul` and `div` in their `opmath` type
/// (`f16 [3.0] * 1e-5` is 2.9981e-5, not 3.0041e-5). `+` and `-` round the
/// number to `C` first, as PyTorch does, and do not use this.
///
/// ```
/// use shaped::ops::functions::{ByNumber, Mul, UnaryFn};
/// use shaped::ops::op_codes::Side;
/// use half::f16;
/// let f = ByNumber::<Mul, f16>::new(Mul, 1e-5f64, Side::Right);
/// let y: f16 = f.call(f16::from_f32(3.0));
/// assert_eq!(y, f16::from_f32(3.0 * 1e-5));
/// ```
#[derive(Copy, Clone, Debug)]
pub struct ByNumber<F, C> {
    f: F,
    number: C,
    wide: f32,
    side: Side,
}

impl<F, C: Element> ByNumber<F, C> {
    /// `f` with the number `n` fixed on `side`.
    pub fn new<N: Element>(f: F, n: N, side: Side) -> Self {
        ByNumber {
            f,
            number: cast::<N, C>(n),
            wide: cast::<N, f32>(n),
            side,
        }
    }
}

impl<A, C, U, F> UnaryFn<A, U> for ByNumber<F, C>
where
    A: Element,
    C: Element,
    U: Element,
    F: ElementOp<C> + BinaryFn<C, C, OutputOf<F, C>> + BinaryFn<f32, f32, f32>,
{
    #[inline(always)]
    fn call(&self, a: A) -> U {
        if is_half::<C>() {
            let a = cast::<A, f32>(a);
            let (x, y) = match self.side {
                Side::Right => (a, self.wide),
                Side::Left => (self.wide, a),
            };
            cast::<f32, U>(BinaryFn::<f32, f32, f32>::call(&self.f, x, y))
        } else {
            let a = cast::<A, C>(a);
            let (x, y) = match self.side {
                Side::Right => (a, self.number),
                Side::Left => (self.number, a),
            };
            cast::<OutputOf<F, C>, U>(BinaryFn::<C, C, OutputOf<F, C>>::call(&self.f, x, y))
        }
    }
    /// float16 runs convert by blocks (F16C where the machine has it);
    /// the same bits as [`call`](UnaryFn::call).
    #[inline(always)]
    fn call_slice(&self, a: &[A], out: &mut [core::mem::MaybeUninit<U>]) {
        if is_half::<C>() {
            let (wide, side) = (self.wide, self.side);
            let f = self.f;
            let op = move |x: f32| match side {
                Side::Right => BinaryFn::<f32, f32, f32>::call(&f, x, wide),
                Side::Left => BinaryFn::<f32, f32, f32>::call(&f, wide, x),
            };
            crate::backend::cpu::vector_math::half_map_or_each(a, out, |x| self.call(x), op);
        } else {
            for (o, &x) in out.iter_mut().zip(a) {
                o.write(self.call(x));
            }
        }
    }
    fn kernel_op(&self) -> Option<KernelOp> {
        if is_half::<C>() {
            let op = BinaryFn::<f32, f32, f32>::kernel_op(&self.f)?;
            let wide = Scalar::Float(f64::from(self.wide));
            return Some(op.computed_in(DType::F32).with_scalar(self.side, wide));
        }
        let op = BinaryFn::<C, C, OutputOf<F, C>>::kernel_op(&self.f)?;
        let direct = same_type::<A, C>() && same_type::<OutputOf<F, C>, U>();
        let op = if direct { op } else { op.computed_in(C::DTYPE) };
        Some(op.with_scalar(self.side, self.number.to_scalar()))
    }
}

/// Whether `*` and `/` read their right operand `B` (of `sizes`) in
/// float32 ([`WideRight`]) when the common type is `C`: one element of
/// another type beside a half type. (One element: every size 1, which no
/// product of sizes can overflow.)
#[inline(always)]
pub(crate) fn reads_wide<B: 'static, C: 'static>(sizes: &[usize]) -> bool {
    is_half::<C>() && !same_type::<B, C>() && sizes.iter().all(|&s| s == 1)
}

/// `f(a, b)` of `*` and `/` when the common type `C` is float16 or
/// bfloat16 and `b` is one element of another type broadcast over `a`:
/// computed in float32 from `b`'s own value (not rounded to `C` first),
/// then rounded once to `C`, as PyTorch's CPU kernels read such an operand
/// (a rank-0 float32 tensor, say) in their `opmath` type.
#[derive(Copy, Clone, Debug)]
pub(crate) struct WideRight<F, C>(pub F, PhantomData<fn() -> C>);

impl<F, C> WideRight<F, C> {
    /// `f` computed in float32 and rounded to `C`.
    pub(crate) fn new(f: F) -> Self {
        WideRight(f, PhantomData)
    }
}

impl<A: Element, B: Element, C: Element, F: BinaryFn<f32, f32, f32>> BinaryFn<A, B, C>
    for WideRight<F, C>
{
    #[inline(always)]
    fn call(&self, a: A, b: B) -> C {
        cast::<f32, C>(self.0.call(cast::<A, f32>(a), cast::<B, f32>(b)))
    }
    fn kernel_op(&self) -> Option<KernelOp> {
        Some(self.0.kernel_op()?.computed_in(DType::F32))
    }
}
