//! What each reduction computes, per element type: the [`Reducer`]s of
//! `sum`, `prod`, `mean`, `amax`/`amin`, `max`/`min`/`argmax`/`argmin`,
//! `all`/`any`, and the element traits that choose their accumulators and
//! result types as PyTorch does.
//!
//! - [`Summable`]: every dtype. Integer and bool sums and products
//!   accumulate in and return `i64`; `f16`/`bf16` accumulate in `f32` and
//!   round once; the others keep their type.
//! - [`MeanElement`]: floating and complex types (PyTorch cannot infer a
//!   mean's dtype for the others).
//! - [`Extremum`]: the ordered types (all but complex). NaN propagates, and
//!   `argmax`/`argmin` point at the first NaN, or else at the first extreme.
//! - [`Truth`]: every dtype; `all`/`any` give `bool`, or `u8` for `u8`
//!   input, as PyTorch's do.

use crate::dtype::{Element, Ordered};
use crate::ops::op_codes::ReduceOp;
use core::marker::PhantomData;
use half::{bf16, f16};
use num_complex::Complex;

/// An accumulation: what a reduction computes, independent of the shape.
///
/// `step` takes the element's index along the reduced dimension (only
/// `argmax`-like reducers use it; they reduce one dimension). `combine`
/// joins two accumulators of disjoint sets of elements, in any order, so it
/// must settle ties by index itself.
///
/// ```
/// use shaped::backend::cpu::reduce::{reduce, Input};
/// use shaped::ops::reductions::Reducer;
/// #[derive(Copy, Clone)]
/// struct Count;
/// impl Reducer<f32> for Count {
///     type Acc = usize;
///     type Out = usize;
///     fn init(self) -> usize { 0 }
///     fn step(self, acc: usize, _: f32, _: usize) -> usize { acc + 1 }
///     fn combine(self, a: usize, b: usize) -> usize { a + b }
///     fn finish(self, acc: usize, _: usize) -> usize { acc }
/// }
/// let data = [1.0f32; 6];
/// let x = Input::from_slice(&data, &[2, 3], &[3, 1], 0).unwrap();
/// assert_eq!(reduce(x, &[false, true], Count).unwrap(), vec![3, 3]);
/// ```
pub trait Reducer<T>: Copy + Send + Sync {
    /// The running state.
    type Acc: Copy + Send + Sync;
    /// One output element.
    type Out: Copy + Send + Sync;
    /// The state before any element.
    fn init(self) -> Self::Acc;
    /// The state after one more element `x` at position `index`.
    fn step(self, acc: Self::Acc, x: T, index: usize) -> Self::Acc;
    /// The state of two disjoint sets of elements together.
    fn combine(self, a: Self::Acc, b: Self::Acc) -> Self::Acc;
    /// The output of a state over `count` elements.
    fn finish(self, acc: Self::Acc, count: usize) -> Self::Out;
    /// The device kernel that computes this reduction, if one does (every
    /// reducer of this module names its own; others run
    /// on the CPU only).
    fn device_op(self) -> Option<crate::ops::op_codes::ReduceOp> {
        None
    }
}

/// An accumulator type: `+`, `*` (integers wrap, as PyTorch's), and `/` by
/// an element count.
pub trait Accumulator: Copy + Send + Sync + 'static {
    /// `0`.
    const ZERO: Self;
    /// `1`.
    const ONE: Self;
    /// `a + b`.
    fn add(a: Self, b: Self) -> Self;
    /// `a * b`.
    fn mul(a: Self, b: Self) -> Self;
}

macro_rules! accumulator {
    ($($t:ty: $zero:expr, $one:expr, $add:expr, $mul:expr;)*) => {$(
        impl Accumulator for $t {
            const ZERO: Self = $zero;
            const ONE: Self = $one;
            #[inline(always)]
            fn add(a: Self, b: Self) -> Self {
                $add(a, b)
            }
            #[inline(always)]
            fn mul(a: Self, b: Self) -> Self {
                $mul(a, b)
            }
        }
    )*};
}
accumulator! {
    f32: 0.0, 1.0, |a, b| a + b, |a, b| a * b;
    f64: 0.0, 1.0, |a, b| a + b, |a, b| a * b;
    i64: 0, 1, i64::wrapping_add, i64::wrapping_mul;
    Complex<f32>: Complex::new(0.0, 0.0), Complex::new(1.0, 0.0), |a, b| a + b, |a, b| a * b;
    Complex<f64>: Complex::new(0.0, 0.0), Complex::new(1.0, 0.0), |a, b| a + b, |a, b| a * b;
}

/// Element types with `sum` and `prod`: all twelve.
///
/// ```
/// use shaped::ops::reductions::reducers::Summable;
/// assert_eq!(<u8 as Summable>::to_acc(200), 200i64);
/// assert_eq!(<half::f16 as Summable>::from_acc(0.5f32), half::f16::from_f32(0.5));
/// ```
pub trait Summable: Element {
    /// What sums and products accumulate in.
    type Acc: Accumulator;
    /// The result type of `sum` and `prod`.
    type Sum: Element;
    /// The element as an accumulator.
    fn to_acc(self) -> Self::Acc;
    /// The result, rounded once.
    fn from_acc(acc: Self::Acc) -> Self::Sum;
}

macro_rules! summable {
    ($($t:ty => $acc:ty, $sum:ty, |$x:ident| $to:expr, |$a:ident| $from:expr;)*) => {$(
        impl Summable for $t {
            type Acc = $acc;
            type Sum = $sum;
            #[inline(always)]
            fn to_acc(self) -> $acc {
                let $x = self;
                $to
            }
            #[inline(always)]
            fn from_acc($a: $acc) -> $sum {
                $from
            }
        }
    )*};
}
summable! {
    f16 => f32, f16, |x| x.to_f32(), |a| f16::from_f32(a);
    bf16 => f32, bf16, |x| x.to_f32(), |a| bf16::from_f32(a);
    f32 => f32, f32, |x| x, |a| a;
    f64 => f64, f64, |x| x, |a| a;
    Complex<f32> => Complex<f32>, Complex<f32>, |x| x, |a| a;
    Complex<f64> => Complex<f64>, Complex<f64>, |x| x, |a| a;
    u8 => i64, i64, |x| i64::from(x), |a| a;
    i8 => i64, i64, |x| i64::from(x), |a| a;
    i16 => i64, i64, |x| i64::from(x), |a| a;
    i32 => i64, i64, |x| i64::from(x), |a| a;
    i64 => i64, i64, |x| x, |a| a;
    bool => i64, i64, |x| i64::from(x), |a| a;
}

/// Element types with `mean`: floating and complex.
#[diagnostic::on_unimplemented(
    message = "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: {Self}",
    label = "the mean of `{Self}` elements",
    note = "cast first: `x.cast::<f32>().mean()`"
)]
pub trait MeanElement: Summable {
    /// The mean of `count` elements whose sum is `acc`.
    fn mean(acc: Self::Acc, count: usize) -> Self;
}
macro_rules! mean_element {
    ($($t:ty => |$a:ident, $n:ident| $mean:expr;)*) => {$(
        impl MeanElement for $t {
            #[inline(always)]
            fn mean($a: Self::Acc, count: usize) -> Self {
                let $n = count;
                $mean
            }
        }
    )*};
}
mean_element! {
    f16 => |a, n| f16::from_f32(a / n as f32);
    bf16 => |a, n| bf16::from_f32(a / n as f32);
    f32 => |a, n| a / n as f32;
    f64 => |a, n| a / n as f64;
    Complex<f32> => |a, n| a / n as f32;
    Complex<f64> => |a, n| a / n as f64;
}

/// Ordered element types for `amax`, `amin`, `max`, `min`, `argmax`,
/// `argmin`: all but complex.
#[diagnostic::on_unimplemented(
    message = "complex numbers have no order: `max`, `min`, `amax`, `amin`, `aminmax`, `argmax` and `argmin` need a real element type, not {Self}",
    label = "reduced as {Self}",
    note = "PyTorch raises `max(): does not support complex input`; reduce the real parts (`real()`) or the magnitudes"
)]
pub trait Extremum: Ordered {
    /// The lowest value (`-inf` for floating types).
    const LOWEST: Self;
    /// The highest value (`inf` for floating types).
    const HIGHEST: Self;
    /// True for NaN.
    fn is_nan(self) -> bool;
}
macro_rules! extremum {
    ($($t:ty: $lo:expr, $hi:expr, |$x:ident| $nan:expr;)*) => {$(
        impl Extremum for $t {
            const LOWEST: Self = $lo;
            const HIGHEST: Self = $hi;
            #[inline(always)]
            #[allow(clippy::eq_op)]
            fn is_nan(self) -> bool {
                let $x = self;
                $nan
            }
        }
    )*};
}
extremum! {
    f16: f16::NEG_INFINITY, f16::INFINITY, |x| x.is_nan();
    bf16: bf16::NEG_INFINITY, bf16::INFINITY, |x| x.is_nan();
    f32: f32::NEG_INFINITY, f32::INFINITY, |x| x != x;
    f64: f64::NEG_INFINITY, f64::INFINITY, |x| x != x;
    u8: u8::MIN, u8::MAX, |_x| false;
    i8: i8::MIN, i8::MAX, |_x| false;
    i16: i16::MIN, i16::MAX, |_x| false;
    i32: i32::MIN, i32::MAX, |_x| false;
    i64: i64::MIN, i64::MAX, |_x| false;
    bool: false, true, |_x| false;
}

/// Element types whose `argmax` and `argmin` PyTorch computes: every
/// [`Extremum`] type but `bool`.
#[diagnostic::on_unimplemented(
    message = "argmax and argmin do not take `{Self}` tensors",
    label = "PyTorch's argmax and argmin reject this element type",
    note = "PyTorch raises \"argmax(): does not support bool input\"; cast first (`.cast::<u8>()`), or use `max_dim` for values and indices"
)]
pub trait ArgExtremum: Extremum {}
macro_rules! arg_extremum {
    ($($t:ty),*) => {$(impl ArgExtremum for $t {})*};
}
arg_extremum!(f16, bf16, f32, f64, u8, i8, i16, i32, i64);

/// Element types with `all` and `any`: all twelve. A value is true when it
/// is not zero (NaN is true).
pub trait Truth: Element {
    /// The result type: `u8` for `u8`, `bool` for the others.
    type Logical: Element;
    /// A result.
    fn logical(b: bool) -> Self::Logical;
}
macro_rules! truth {
    ($($t:ty),*) => {$(
        impl Truth for $t {
            type Logical = bool;
            #[inline(always)]
            fn logical(b: bool) -> bool {
                b
            }
        }
    )*};
}
truth!(
    f16,
    bf16,
    f32,
    f64,
    Complex<f32>,
    Complex<f64>,
    i8,
    i16,
    i32,
    i64,
    bool
);
impl Truth for u8 {
    type Logical = u8;
    #[inline(always)]
    fn logical(b: bool) -> u8 {
        u8::from(b)
    }
}

/// A reducer that folds the elements with one accumulator operation.
macro_rules! folding_reducer {
    ($(#[$doc:meta])* $name:ident: $bound:ident, $init:ident, $op:ident, $out:ty, |$acc:ident, $n:ident| $finish:expr, $code:ident) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, Default)]
        pub struct $name;
        impl<T: $bound> Reducer<T> for $name {
            type Acc = T::Acc;
            type Out = $out;
            #[inline(always)]
            fn init(self) -> T::Acc {
                T::Acc::$init
            }
            #[inline(always)]
            fn step(self, acc: T::Acc, x: T, _: usize) -> T::Acc {
                T::Acc::$op(acc, x.to_acc())
            }
            #[inline(always)]
            fn combine(self, a: T::Acc, b: T::Acc) -> T::Acc {
                T::Acc::$op(a, b)
            }
            #[inline(always)]
            fn finish(self, $acc: T::Acc, $n: usize) -> $out {
                $finish
            }
            fn device_op(self) -> Option<ReduceOp> {
                Some(ReduceOp::$code)
            }
        }
    };
}
folding_reducer!(
    /// `sum`: the elements added in `T::Acc`.
    Sum: Summable, ZERO, add, T::Sum, |acc, _n| T::from_acc(acc), Sum
);
folding_reducer!(
    /// `prod`: the elements multiplied in `T::Acc`.
    Prod: Summable, ONE, mul, T::Sum, |acc, _n| T::from_acc(acc), Prod
);
folding_reducer!(
    /// `mean`: the sum divided by the count (NaN for no elements).
    Mean: MeanElement, ZERO, add, T, |acc, n| T::mean(acc, n), Mean
);

/// Which extreme: the largest ([`Largest`]) or the smallest ([`Smallest`]).
pub trait Direction: Copy + Send + Sync + 'static {
    /// True for [`Largest`].
    const LARGEST: bool;
    /// The value a reduction starts from.
    fn start<T: Extremum>() -> T;
    /// `x` is strictly more extreme than `y` (neither NaN).
    fn beats<T: Extremum>(x: T, y: T) -> bool;
}
/// Towards the largest value (`amax`, `max`, `argmax`).
#[derive(Copy, Clone, Debug, Default)]
pub struct Largest;
/// Towards the smallest value (`amin`, `min`, `argmin`).
#[derive(Copy, Clone, Debug, Default)]
pub struct Smallest;
impl Direction for Largest {
    const LARGEST: bool = true;
    #[inline(always)]
    fn start<T: Extremum>() -> T {
        T::LOWEST
    }
    #[inline(always)]
    fn beats<T: Extremum>(x: T, y: T) -> bool {
        x > y
    }
}
impl Direction for Smallest {
    const LARGEST: bool = false;
    #[inline(always)]
    fn start<T: Extremum>() -> T {
        T::HIGHEST
    }
    #[inline(always)]
    fn beats<T: Extremum>(x: T, y: T) -> bool {
        x < y
    }
}

/// `amax`/`amin`: the extreme value; NaN wins.
#[derive(Copy, Clone, Debug, Default)]
pub struct Extreme<W>(pub PhantomData<W>);
impl<T: Extremum, W: Direction> Reducer<T> for Extreme<W> {
    type Acc = T;
    type Out = T;
    #[inline(always)]
    fn init(self) -> T {
        W::start()
    }
    #[inline(always)]
    fn step(self, acc: T, x: T, _: usize) -> T {
        if W::beats(x, acc) || x.is_nan() {
            x
        } else {
            acc
        }
    }
    #[inline(always)]
    fn combine(self, a: T, b: T) -> T {
        <Self as Reducer<T>>::step(self, a, b, 0)
    }
    #[inline(always)]
    fn finish(self, acc: T, _: usize) -> T {
        acc
    }
    fn device_op(self) -> Option<ReduceOp> {
        Some(if W::LARGEST {
            ReduceOp::Amax
        } else {
            ReduceOp::Amin
        })
    }
}

/// No element seen yet: the index of an empty accumulator.
const NO_INDEX: usize = usize::MAX;

/// `max`/`min`/`argmax`/`argmin` along a dimension: the extreme value and
/// its index. The first NaN wins, or else the first extreme value.
#[derive(Copy, Clone, Debug, Default)]
pub struct ExtremeAt<W>(pub PhantomData<W>);
impl<W: Direction> ExtremeAt<W> {
    /// `a` wins over `b` (`a` is set).
    #[inline(always)]
    fn wins<T: Extremum>(a: (T, usize), b: (T, usize)) -> bool {
        match (a.0.is_nan(), b.0.is_nan()) {
            (true, true) => a.1 < b.1,
            (true, false) => true,
            (false, true) => false,
            (false, false) => W::beats(a.0, b.0) || (!W::beats(b.0, a.0) && a.1 < b.1),
        }
    }
}
impl<T: Extremum, W: Direction> Reducer<T> for ExtremeAt<W> {
    type Acc = (T, usize);
    type Out = (T, i64);
    #[inline(always)]
    fn init(self) -> (T, usize) {
        (W::start(), NO_INDEX)
    }
    #[inline(always)]
    fn step(self, acc: (T, usize), x: T, index: usize) -> (T, usize) {
        if acc.1 == NO_INDEX || Self::wins((x, index), acc) {
            (x, index)
        } else {
            acc
        }
    }
    #[inline(always)]
    fn combine(self, a: (T, usize), b: (T, usize)) -> (T, usize) {
        if b.1 == NO_INDEX || (a.1 != NO_INDEX && Self::wins(a, b)) {
            a
        } else {
            b
        }
    }
    #[inline(always)]
    fn finish(self, acc: (T, usize), _: usize) -> (T, i64) {
        (acc.0, acc.1 as i64)
    }
    fn device_op(self) -> Option<ReduceOp> {
        Some(if W::LARGEST {
            ReduceOp::MaxAt
        } else {
            ReduceOp::MinAt
        })
    }
}

/// `all` (`ANY == false`) or `any` (`ANY == true`).
#[derive(Copy, Clone, Debug, Default)]
pub struct Logical<const ANY: bool>;
impl<T: Truth, const ANY: bool> Reducer<T> for Logical<ANY> {
    type Acc = bool;
    type Out = T::Logical;
    #[inline(always)]
    fn init(self) -> bool {
        !ANY
    }
    #[inline(always)]
    fn step(self, acc: bool, x: T, _: usize) -> bool {
        let truth = x != T::ZERO;
        if ANY { acc | truth } else { acc & truth }
    }
    #[inline(always)]
    fn combine(self, a: bool, b: bool) -> bool {
        if ANY { a | b } else { a & b }
    }
    #[inline(always)]
    fn finish(self, acc: bool, _: usize) -> T::Logical {
        T::logical(acc)
    }
    fn device_op(self) -> Option<ReduceOp> {
        Some(if ANY { ReduceOp::Any } else { ReduceOp::All })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argmax_keeps_the_first_nan_or_the_first_tie() {
        let r = ExtremeAt::<Largest>(PhantomData);
        let run = |xs: &[f32]| {
            let acc = xs
                .iter()
                .enumerate()
                .fold(Reducer::<f32>::init(r), |a, (i, &x)| r.step(a, x, i));
            r.finish(acc, xs.len())
        };
        assert_eq!(run(&[1.0, 3.0, 3.0, 2.0]), (3.0, 1));
        let (v, i) = run(&[1.0, f32::NAN, 5.0, f32::NAN]);
        assert!(v.is_nan() && i == 1);
        // Lanes joined out of order still pick the lower index on a tie.
        assert_eq!(r.combine((3.0f32, 7), (3.0, 2)), (3.0, 2));
        assert_eq!(r.combine((f32::NAN, 9), (5.0, 2)).1, 9);
        assert_eq!(r.combine(Reducer::<f32>::init(r), (1.0, 4)), (1.0, 4));
    }
}
