//! What each scan computes, element by element: the [`Scanner`]s
//! ([`CumSum`], [`CumProd`], [`LogCumSumExp`], [`CumExtreme`]) and the
//! element types each takes.
//!
//! A scanner folds a line from its identity ([`Scanner::init`]) with
//! [`step`](Scanner::step), writing [`value`](Scanner::value) of every
//! running state; [`combine`](Scanner::combine) joins the state of a
//! prefix with that of the elements after it, so that a long line can be
//! scanned in pieces (on several threads, or several chains of one
//! thread) and the pieces' states joined afterwards.
//!
//! Accumulation follows PyTorch's CPU kernels: float32 sums and products
//! run in float64, float16 and bfloat16 in float32, complex64 in
//! complex128, integers and bool in int64 (whose result they give).

use crate::dtype::Element;
use crate::dtype::pairs::log_add_exp_complex;
use crate::ops::reductions::reducers::{Accumulator, Direction, Extremum};
use half::{bf16, f16};
use num_complex::Complex;
use num_traits::Float;

/// A scan along one dimension (see the [module](self)).
pub trait Scanner<T>: Copy + Send + Sync {
    /// The running state.
    type Acc: Copy + Send + Sync;
    /// The element type written.
    type Out: Element;
    /// How many independent chains one thread keeps in flight (8 or 4):
    /// more when a step is short and [`combine`](Self::combine) cheap, 1
    /// when joining costs as much as stepping (`logcumsumexp`).
    const CHAINS: usize;
    /// The state before the first element.
    fn init(self) -> Self::Acc;
    /// The state after `x`, the element at `index` along the line.
    fn step(self, acc: Self::Acc, x: T, index: usize) -> Self::Acc;
    /// The state of a prefix (`carry`) followed by elements whose own state
    /// (from [`init`](Self::init)) is `local`.
    fn combine(self, carry: Self::Acc, local: Self::Acc) -> Self::Acc;
    /// The element written for a state.
    fn value(self, acc: Self::Acc) -> Self::Out;
    /// The index written for a state (`cummax`, `cummin`).
    fn index(self, _acc: Self::Acc) -> i64 {
        0
    }
    /// The kernel a device runs for this scanner.
    fn device_op(self) -> crate::ops::op_codes::ScanOp;
}

/// Element types of `cumsum` and `cumprod`: all twelve.
///
/// ```
/// use shaped::ops::scans::CumElement;
/// assert_eq!(<u8 as CumElement>::to_acc(200), 200i64);
/// assert_eq!(<f32 as CumElement>::to_acc(0.5), 0.5f64);
/// ```
pub trait CumElement: Element {
    /// What the running sum or product is kept in.
    type Acc: Accumulator;
    /// The result's element type: int64 for integers and bool (PyTorch's
    /// promotion), the input's own otherwise.
    type Sum: Element;
    /// The element as an accumulator.
    fn to_acc(self) -> Self::Acc;
    /// A running value, rounded once.
    fn to_sum(acc: Self::Acc) -> Self::Sum;
}
macro_rules! cum_element {
    ($($t:ty => $acc:ty, $sum:ty, |$x:ident| $to:expr, |$a:ident| $from:expr;)*) => {$(
        impl CumElement for $t {
            type Acc = $acc;
            type Sum = $sum;
            #[inline(always)]
            fn to_acc(self) -> $acc {
                let $x = self;
                $to
            }
            #[inline(always)]
            fn to_sum($a: $acc) -> $sum {
                $from
            }
        }
    )*};
}
cum_element! {
    f16 => f32, f16, |x| x.to_f32(), |a| f16::from_f32(a);
    bf16 => f32, bf16, |x| x.to_f32(), |a| bf16::from_f32(a);
    f32 => f64, f32, |x| f64::from(x), |a| a as f32;
    f64 => f64, f64, |x| x, |a| a;
    Complex<f32> => Complex<f64>, Complex<f32>,
        |x| Complex::new(f64::from(x.re), f64::from(x.im)),
        |a| Complex::new(a.re as f32, a.im as f32);
    Complex<f64> => Complex<f64>, Complex<f64>, |x| x, |a| a;
    u8 => i64, i64, |x| i64::from(x), |a| a;
    i8 => i64, i64, |x| i64::from(x), |a| a;
    i16 => i64, i64, |x| i64::from(x), |a| a;
    i32 => i64, i64, |x| i64::from(x), |a| a;
    i64 => i64, i64, |x| x, |a| a;
    bool => i64, i64, |x| i64::from(x), |a| a;
}

macro_rules! cumulative {
    ($($(#[$doc:meta])* $name:ident: $identity:ident, $op:ident, $code:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, Default)]
        pub struct $name;
        impl<T: CumElement> Scanner<T> for $name {
            type Acc = T::Acc;
            type Out = T::Sum;
            const CHAINS: usize = 8;
            #[inline(always)]
            fn init(self) -> T::Acc {
                T::Acc::$identity
            }
            #[inline(always)]
            fn step(self, acc: T::Acc, x: T, _: usize) -> T::Acc {
                T::Acc::$op(acc, x.to_acc())
            }
            #[inline(always)]
            fn combine(self, carry: T::Acc, local: T::Acc) -> T::Acc {
                T::Acc::$op(carry, local)
            }
            #[inline(always)]
            fn value(self, acc: T::Acc) -> T::Sum {
                T::to_sum(acc)
            }
            fn device_op(self) -> crate::ops::op_codes::ScanOp {
                crate::ops::op_codes::ScanOp::$code
            }
        }
    )*};
}
cumulative! {
    /// `cumsum`: running sums (integers wrap, as PyTorch's).
    CumSum: ZERO, add, Sum;
    /// `cumprod`: running products (integers wrap, as PyTorch's).
    CumProd: ONE, mul, Prod;
}

/// Element types of `logcumsumexp`: floating and complex.
#[diagnostic::on_unimplemented(
    message = "logcumsumexp needs a floating-point or complex tensor: `{Self}` is not one",
    label = "a tensor of `{Self}`",
    note = "PyTorch raises `\"logcumsumexp_out_cpu\" not implemented`; convert first: `x.cast::<f32>().logcumsumexp::<DIM>()`"
)]
pub trait LogCumSumExpElement: Element {
    /// What the running value is kept in (float64 for float32, as
    /// PyTorch's CPU kernel).
    type Acc: Copy + Send + Sync;
    /// The element as an accumulator.
    fn to_acc(self) -> Self::Acc;
    /// A running value, rounded once.
    fn from_acc(acc: Self::Acc) -> Self;
    /// `log(exp(x) + exp(y))`, with PyTorch's rules for infinities and NaN.
    fn log_add_exp(x: Self::Acc, y: Self::Acc) -> Self::Acc;
    /// `-inf`, the identity.
    fn neg_infinity() -> Self::Acc;
}

/// PyTorch's `_log_add_exp_helper` of reals: NaN spreads, two equal
/// infinities give themselves.
#[inline(always)]
fn log_add_exp_real<F: Float>(x: F, y: F) -> F {
    // `std::min(x, y)`/`std::max(x, y)` give `x` when either is NaN.
    let (min, max) = match y.is_nan() {
        true => (y, y),
        false => (if y < x { y } else { x }, if x < y { y } else { x }),
    };
    if min != max || min.is_finite() {
        (min - max).exp().ln_1p() + max
    } else {
        x
    }
}

macro_rules! log_cum_sum_exp {
    ($join:ident, $neg_inf:expr => $($t:ty => $acc:ty, |$x:ident| $to:expr, |$a:ident| $from:expr;)*) => {$(
        impl LogCumSumExpElement for $t {
            type Acc = $acc;
            #[inline(always)]
            fn to_acc(self) -> $acc {
                let $x = self;
                $to
            }
            #[inline(always)]
            fn from_acc($a: $acc) -> $t {
                $from
            }
            #[inline(always)]
            fn log_add_exp(x: $acc, y: $acc) -> $acc {
                $join(x, y)
            }
            fn neg_infinity() -> $acc {
                $neg_inf
            }
        }
    )*};
}
log_cum_sum_exp! {
    log_add_exp_real, <Self::Acc>::NEG_INFINITY =>
    f16 => f32, |x| x.to_f32(), |a| f16::from_f32(a);
    bf16 => f32, |x| x.to_f32(), |a| bf16::from_f32(a);
    f32 => f64, |x| f64::from(x), |a| a as f32;
    f64 => f64, |x| x, |a| a;
}
log_cum_sum_exp! {
    log_add_exp_complex, Complex::new(f64::NEG_INFINITY, 0.0) =>
    Complex<f32> => Complex<f64>,
        |x| Complex::new(f64::from(x.re), f64::from(x.im)),
        |a| Complex::new(a.re as f32, a.im as f32);
    Complex<f64> => Complex<f64>, |x| x, |a| a;
}

/// `logcumsumexp`: `log(sum(exp(x)))` of every prefix, without overflow.
#[derive(Copy, Clone, Debug, Default)]
pub struct LogCumSumExp;
impl<T: LogCumSumExpElement> Scanner<T> for LogCumSumExp {
    type Acc = T::Acc;
    type Out = T;
    const CHAINS: usize = 1;
    #[inline(always)]
    fn init(self) -> T::Acc {
        T::neg_infinity()
    }
    #[inline(always)]
    fn step(self, acc: T::Acc, x: T, _: usize) -> T::Acc {
        T::log_add_exp(x.to_acc(), acc)
    }
    #[inline(always)]
    fn combine(self, carry: T::Acc, local: T::Acc) -> T::Acc {
        T::log_add_exp(local, carry)
    }
    #[inline(always)]
    fn value(self, acc: T::Acc) -> T {
        T::from_acc(acc)
    }
    fn device_op(self) -> crate::ops::op_codes::ScanOp {
        crate::ops::op_codes::ScanOp::LogSumExp
    }
}

/// Element types of `cummax` and `cummin`: all but complex.
#[diagnostic::on_unimplemented(
    message = "cummax and cummin need an order: complex numbers have none, `{Self}` cannot be scanned for extremes",
    label = "scanned as `{Self}`",
    note = "PyTorch raises `\"cummax_cpu\" not implemented for 'ComplexFloat'`; scan the real parts (`real()`) or the magnitudes (`abs()`)"
)]
pub trait CumExtremum: Extremum {}
macro_rules! cum_extremum {
    ($($t:ty),*) => {$(impl CumExtremum for $t {})*};
}
cum_extremum!(f16, bf16, f32, f64, u8, i8, i16, i32, i64, bool);

/// `cummax`/`cummin`: the running extreme and its index. An equal value
/// takes over (the last index of the extreme is kept), and every NaN does,
/// then stays (PyTorch's rule).
#[derive(Copy, Clone, Debug, Default)]
pub struct CumExtreme<W>(pub core::marker::PhantomData<W>);
impl<W: Direction> CumExtreme<W> {
    /// `x` takes over from `acc` (which is not empty).
    #[inline(always)]
    fn takes_over<T: Extremum>(x: T, acc: T) -> bool {
        x.is_nan() || (!acc.is_nan() && !W::beats(acc, x))
    }
}
/// No element seen yet.
const NO_INDEX: usize = usize::MAX;
impl<T: Extremum, W: Direction> Scanner<T> for CumExtreme<W> {
    type Acc = (T, usize);
    type Out = T;
    const CHAINS: usize = 4;
    #[inline(always)]
    fn init(self) -> (T, usize) {
        (W::start(), NO_INDEX)
    }
    #[inline(always)]
    fn step(self, acc: (T, usize), x: T, index: usize) -> (T, usize) {
        if acc.1 == NO_INDEX || Self::takes_over(x, acc.0) {
            (x, index)
        } else {
            acc
        }
    }
    #[inline(always)]
    fn combine(self, carry: (T, usize), local: (T, usize)) -> (T, usize) {
        if local.1 == NO_INDEX {
            carry
        } else {
            self.step(carry, local.0, local.1)
        }
    }
    #[inline(always)]
    fn value(self, acc: (T, usize)) -> T {
        acc.0
    }
    #[inline(always)]
    fn index(self, acc: (T, usize)) -> i64 {
        acc.1 as i64
    }
    fn device_op(self) -> crate::ops::op_codes::ScanOp {
        match W::LARGEST {
            true => crate::ops::op_codes::ScanOp::Max,
            false => crate::ops::op_codes::ScanOp::Min,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::reductions::reducers::{Largest, Smallest};

    fn run<T: Copy, S: Scanner<T>>(s: S, xs: &[T]) -> Vec<(S::Out, i64)> {
        let mut acc = s.init();
        xs.iter()
            .enumerate()
            .map(|(i, &x)| {
                acc = s.step(acc, x, i);
                (s.value(acc), s.index(acc))
            })
            .collect()
    }

    #[test]
    fn cummax_keeps_the_last_equal_index_and_every_nan() {
        let nan = f32::NAN;
        let got = run(CumExtreme::<Largest>::default(), &[1.0, nan, 3.0, nan, 2.0]);
        let idx: Vec<i64> = got.iter().map(|g| g.1).collect();
        assert_eq!(idx, [0, 1, 1, 3, 3]);
        assert!(got[1..].iter().all(|g| g.0.is_nan()));
        let got = run(
            CumExtreme::<Smallest>::default(),
            &[1.0f32, 1.0, 0.0, 0.0, 2.0],
        );
        assert_eq!(got, [(1.0, 0), (1.0, 1), (0.0, 2), (0.0, 3), (0.0, 3)]);
        let got = run(CumExtreme::<Largest>::default(), &[true, false, true]);
        assert_eq!(got, [(true, 0), (true, 0), (true, 2)]);
    }

    #[test]
    fn combining_pieces_gives_the_serial_scan() {
        let xs = [3.0f32, f32::NAN, 1.0, 5.0, 5.0, f32::NAN, 2.0];
        let s = CumExtreme::<Largest>::default();
        let whole = run(s, &xs);
        for cut in 0..=xs.len() {
            let mut carry = s.init();
            for (i, &x) in xs[..cut].iter().enumerate() {
                carry = s.step(carry, x, i);
            }
            let mut local = s.init();
            for (i, &x) in xs.iter().enumerate().skip(cut) {
                local = s.step(local, x, i);
                let joined = s.combine(carry, local);
                assert_eq!(s.index(joined), whole[i].1, "cut {cut} at {i}");
            }
        }
    }

    #[test]
    fn log_add_exp_follows_pytorch_on_infinities_and_nan() {
        let inf = f64::INFINITY;
        assert_eq!(log_add_exp_real(inf, inf), inf);
        assert_eq!(log_add_exp_real(-inf, -inf), -inf);
        assert_eq!(log_add_exp_real(1.0, -inf), 1.0);
        assert!(log_add_exp_real(f64::NAN, 1.0).is_nan());
        assert!(log_add_exp_real(1.0, f64::NAN).is_nan());
        assert!((log_add_exp_real(0.0f64, 0.0) - 2f64.ln()).abs() < 1e-15);
        let c = log_add_exp_complex(Complex::new(2.0f64, -1.0), Complex::new(1.0, 1.0));
        assert!((c.re - 1.906_3).abs() < 1e-4 && (c.im + 0.623_8).abs() < 1e-4);
    }
}
