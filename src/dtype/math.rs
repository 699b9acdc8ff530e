//! What each element type can compute beyond `+ - * /`: the element
//! capabilities behind [`crate::ops::math`].
//!
//! - [`FloatMath`]: the transcendental functions (`exp`, `ln`, `sqrt`, ...),
//!   for floating and complex types; half types compute in `f32` and round
//!   once, as PyTorch does. float32's `exp`, `ln`, `tanh` and `sigmoid` are the
//!   CPU backend's vectorized polynomials (`backend/cpu/vector_math.rs`).
//! - [`ToFloat`]: the type such a function computes in: the type itself, or
//!   float32 (PyTorch's default dtype) for integers and bool.
//! - [`Abs`], [`Rounding`], [`Clampable`], [`MaxMin`], [`Power`]: the
//!   functions PyTorch defines on fewer types, each with the compile error
//!   that names what PyTorch refuses.
//!
//! ```
//! use shaped::dtype::math::{Abs, FloatMath, Rounding};
//! use num_complex::Complex;
//! assert_eq!(Complex::new(3.0f32, 4.0).abs(), 5.0f32);
//! assert_eq!(Rounding::round(2.5f32), 2.0); // half to even
//! assert_eq!(FloatMath::recip(4.0f64), 0.25);
//! ```

use super::{Element, Ordered};
use crate::backend::cpu::vector_math::{self, VectorFn};
use half::{bf16, f16};
use num_complex::Complex;

/// Element types with the transcendental functions: floating and complex.
///
/// ```
/// use shaped::dtype::math::FloatMath;
/// assert_eq!(FloatMath::sigmoid(0.0f32), 0.5);
/// assert_eq!(FloatMath::log2(half::f16::from_f32(8.0)).to_f32(), 3.0);
/// ```
pub trait FloatMath: Element {
    /// `e^x`.
    fn exp(self) -> Self;
    /// The natural logarithm (PyTorch's `log`).
    fn ln(self) -> Self;
    /// The base-2 logarithm.
    fn log2(self) -> Self;
    /// The square root.
    fn sqrt(self) -> Self;
    /// The sine.
    fn sin(self) -> Self;
    /// The cosine.
    fn cos(self) -> Self;
    /// The hyperbolic tangent.
    fn tanh(self) -> Self;
    /// `1 / (1 + e^-x)`.
    fn sigmoid(self) -> Self;
    /// `1 / x`.
    fn recip(self) -> Self;
    /// The tangent.
    fn tan(self) -> Self;
    /// The inverse sine.
    fn asin(self) -> Self;
    /// The inverse cosine.
    fn acos(self) -> Self;
    /// The inverse tangent.
    fn atan(self) -> Self;
    /// The hyperbolic sine.
    fn sinh(self) -> Self;
    /// The hyperbolic cosine.
    fn cosh(self) -> Self;
    /// The inverse hyperbolic sine.
    fn asinh(self) -> Self;
    /// The inverse hyperbolic cosine.
    fn acosh(self) -> Self;
    /// The inverse hyperbolic tangent.
    fn atanh(self) -> Self;
    /// `2^x`.
    fn exp2(self) -> Self;
    /// `e^x - 1`, accurate near 0.
    fn expm1(self) -> Self;
    /// The base-10 logarithm.
    fn log10(self) -> Self;
    /// `ln(1 + x)`, accurate near 0.
    fn log1p(self) -> Self;
    /// `1 / sqrt(x)`.
    fn rsqrt(self) -> Self;
    /// The normalized sinc, `sin(pi x) / (pi x)`, and 1 at 0 (PyTorch's
    /// formula: `pi x` rounded first).
    fn sinc(self) -> Self;
    /// `self^e`.
    fn pow(self, e: Self) -> Self;
    /// `self^e` for an exponent given as a number, as PyTorch's
    /// `pow(tensor, scalar)` computes it: the exponents 2, 3, 0.5, -0.5, -1
    /// and -2 go through multiplication, `sqrt` and reciprocals (so
    /// `(-inf)^0.5` is NaN, as `sqrt`), every other one through `pow`.
    fn pow_scalar(self, e: Self) -> Self;
}

/// [`FloatMath::pow_scalar`] of a type with the usual operations;
/// `sqrt_cases` says whether the exponents ±0.5 go through `sqrt` (PyTorch
/// does so for every floating type but float16).
#[inline(always)]
fn pow_by_cases<T>(
    x: T,
    e: f64,
    one: T,
    sqrt_cases: bool,
    sqrt: impl Fn(T) -> T,
    pow: impl Fn(T) -> T,
) -> T
where
    T: Copy + core::ops::Mul<Output = T> + core::ops::Div<Output = T>,
{
    match e {
        2.0 => x * x,
        3.0 => x * x * x,
        0.5 if sqrt_cases => sqrt(x),
        -0.5 if sqrt_cases => one / sqrt(x),
        -1.0 => one / x,
        -2.0 => one / (x * x),
        _ => pow(x),
    }
}

/// The real floating types: `f32` and `f64` compute directly, `f16` and
/// `bf16` through `f32`, rounding once.
/// `exp`, `ln`, `tanh` and `sigmoid` of the types the real float types compute
/// in: float32's are the CPU backend's vectorized polynomials (the same
/// bits in a loop over a slice and alone, and on CUDA), float64's the
/// standard library's.
trait Kernels: Copy {
    fn exp(self) -> Self;
    fn ln(self) -> Self;
    fn tanh(self) -> Self;
    fn sigmoid(self) -> Self;
    fn gelu(self) -> Self;
    fn silu(self) -> Self;
    fn sinc(self) -> Self;
}
/// PyTorch's `sinc`: 1 at ±0, else `sin(pi x) / (pi x)` with `pi x`
/// rounded first.
macro_rules! sinc_of {
    ($x:expr, $pi:expr) => {
        if $x == 0.0 {
            1.0
        } else {
            let product = $pi * $x;
            product.sin() / product
        }
    };
}
impl Kernels for f32 {
    #[inline(always)]
    fn exp(self) -> f32 {
        vector_math::one(VectorFn::Exp, self)
    }
    #[inline(always)]
    fn ln(self) -> f32 {
        vector_math::one(VectorFn::Ln, self)
    }
    #[inline(always)]
    fn tanh(self) -> f32 {
        vector_math::one(VectorFn::Tanh, self)
    }
    #[inline(always)]
    fn sigmoid(self) -> f32 {
        vector_math::one(VectorFn::Sigmoid, self)
    }
    #[inline(always)]
    fn gelu(self) -> f32 {
        vector_math::one(VectorFn::Gelu, self)
    }
    #[inline(always)]
    fn silu(self) -> f32 {
        vector_math::one(VectorFn::Silu, self)
    }
    #[inline(always)]
    fn sinc(self) -> f32 {
        sinc_of!(self, core::f32::consts::PI)
    }
}
impl Kernels for f64 {
    #[inline(always)]
    fn exp(self) -> f64 {
        f64::exp(self)
    }
    #[inline(always)]
    fn ln(self) -> f64 {
        f64::ln(self)
    }
    #[inline(always)]
    fn tanh(self) -> f64 {
        f64::tanh(self)
    }
    #[inline(always)]
    fn sigmoid(self) -> f64 {
        1.0 / (1.0 + (-self).exp())
    }
    /// `x / 2 (1 + erf(x / sqrt 2))`, PyTorch's formula.
    #[inline(always)]
    fn gelu(self) -> f64 {
        self * 0.5 * (1.0 + CMath::erf(self * core::f64::consts::FRAC_1_SQRT_2))
    }
    #[inline(always)]
    fn silu(self) -> f64 {
        self / (1.0 + (-self).exp())
    }
    #[inline(always)]
    fn sinc(self) -> f64 {
        sinc_of!(self, core::f64::consts::PI)
    }
}

/// The C library's `asinh`, `acosh`, `atanh`, `erf`, `erfc` and `lgamma`,
/// which Rust's standard library computes by formulas of its own (or has
/// not): PyTorch calls the C library's (`std::asinh`), and the host-built
/// CUDA kernels do too, so the CPU backend calls them as well (the other
/// functions of [`FloatMath`] are the C library's through the standard
/// library already).
pub(super) trait CMath: Copy {
    fn asinh(self) -> Self;
    fn acosh(self) -> Self;
    fn atanh(self) -> Self;
    fn erf(self) -> Self;
    fn erfc(self) -> Self;
    /// `ln |Γ(x)|`, through the reentrant `lgamma_r` (plain `lgamma` writes
    /// the sign of Γ to a global, which threads would share).
    fn lgamma(self) -> Self;
}
mod c_library {
    use core::ffi::c_int;
    // SAFETY: each is a pure function of one float of the C library (which
    // the standard library links): no state Rust reads (they may set
    // `errno`), defined for every input, NaN and infinities included; the
    // `lgamma_r` pair writes the sign of Γ(x) through its one pointer, which
    // a `&mut c_int` makes valid and unaliased. So they are declared safe to
    // call.
    unsafe extern "C" {
        pub(super) safe fn asinhf(x: f32) -> f32;
        pub(super) safe fn acoshf(x: f32) -> f32;
        pub(super) safe fn atanhf(x: f32) -> f32;
        pub(super) safe fn erff(x: f32) -> f32;
        pub(super) safe fn erfcf(x: f32) -> f32;
        pub(super) safe fn lgammaf_r(x: f32, sign: &mut c_int) -> f32;
        pub(super) safe fn asinh(x: f64) -> f64;
        pub(super) safe fn acosh(x: f64) -> f64;
        pub(super) safe fn atanh(x: f64) -> f64;
        pub(super) safe fn erf(x: f64) -> f64;
        pub(super) safe fn erfc(x: f64) -> f64;
        pub(super) safe fn lgamma_r(x: f64, sign: &mut c_int) -> f64;
    }
}
impl CMath for f32 {
    #[inline(always)]
    fn asinh(self) -> f32 {
        c_library::asinhf(self)
    }
    #[inline(always)]
    fn acosh(self) -> f32 {
        c_library::acoshf(self)
    }
    #[inline(always)]
    fn atanh(self) -> f32 {
        c_library::atanhf(self)
    }
    #[inline(always)]
    fn erf(self) -> f32 {
        c_library::erff(self)
    }
    #[inline(always)]
    fn erfc(self) -> f32 {
        c_library::erfcf(self)
    }
    #[inline(always)]
    fn lgamma(self) -> f32 {
        c_library::lgammaf_r(self, &mut 0)
    }
}
impl CMath for f64 {
    #[inline(always)]
    fn asinh(self) -> f64 {
        c_library::asinh(self)
    }
    #[inline(always)]
    fn acosh(self) -> f64 {
        c_library::acosh(self)
    }
    #[inline(always)]
    fn atanh(self) -> f64 {
        c_library::atanh(self)
    }
    #[inline(always)]
    fn erf(self) -> f64 {
        c_library::erf(self)
    }
    #[inline(always)]
    fn erfc(self) -> f64 {
        c_library::erfc(self)
    }
    #[inline(always)]
    fn lgamma(self) -> f64 {
        c_library::lgamma_r(self, &mut 0)
    }
}

macro_rules! float_math {
    ($($t:ty => |$x:ident| $to:expr, |$y:ident| $from:expr, $sqrt_cases:expr;)*) => {$(
        impl FloatMath for $t {
            #[inline(always)]
            fn exp(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| Kernels::exp(v)) }
            #[inline(always)]
            fn ln(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| Kernels::ln(v)) }
            #[inline(always)]
            fn log2(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| v.log2()) }
            #[inline(always)]
            fn sqrt(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| v.sqrt()) }
            #[inline(always)]
            fn sin(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| v.sin()) }
            #[inline(always)]
            fn cos(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| v.cos()) }
            #[inline(always)]
            fn tanh(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| Kernels::tanh(v)) }
            #[inline(always)]
            fn sigmoid(self) -> Self {
                float_math!(@via self, $x, $to, $y, $from, |v| Kernels::sigmoid(v))
            }
            #[inline(always)]
            fn recip(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| 1.0 / v) }
            #[inline(always)]
            fn tan(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| v.tan()) }
            #[inline(always)]
            fn asin(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| v.asin()) }
            #[inline(always)]
            fn acos(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| v.acos()) }
            #[inline(always)]
            fn atan(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| v.atan()) }
            #[inline(always)]
            fn sinh(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| v.sinh()) }
            #[inline(always)]
            fn cosh(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| v.cosh()) }
            #[inline(always)]
            fn asinh(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| CMath::asinh(v)) }
            #[inline(always)]
            fn acosh(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| CMath::acosh(v)) }
            #[inline(always)]
            fn atanh(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| CMath::atanh(v)) }
            #[inline(always)]
            fn exp2(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| v.exp2()) }
            #[inline(always)]
            fn expm1(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| v.exp_m1()) }
            #[inline(always)]
            fn log10(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| v.log10()) }
            #[inline(always)]
            fn log1p(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| v.ln_1p()) }
            #[inline(always)]
            fn rsqrt(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| 1.0 / v.sqrt()) }
            #[inline(always)]
            fn sinc(self) -> Self {
                float_math!(@via self, $x, $to, $y, $from, |v| Kernels::sinc(v))
            }
            #[inline(always)]
            fn pow(self, e: Self) -> Self {
                let f = |$x: $t| $to;
                let g = |$y| -> $t { $from };
                g(f(self).powf(f(e)))
            }
            #[inline(always)]
            fn pow_scalar(self, e: Self) -> Self {
                let f = |$x: $t| $to;
                let g = |$y| -> $t { $from };
                let (x, e) = (f(self), f(e));
                g(pow_by_cases(x, e as f64, 1.0, $sqrt_cases, |v| v.sqrt(), |v| v.powf(e)))
            }
        }
    )*};
    (@via $v:expr, $x:ident, $to:expr, $y:ident, $from:expr, |$w:ident| $body:expr) => {{
        let f = |$x: Self| $to;
        let g = |$y| -> Self { $from };
        let $w = f($v);
        g($body)
    }};
}
float_math! {
    f32 => |x| x, |y| y, true;
    f64 => |x| x, |y| y, true;
    f16 => |x| x.to_f32(), |y| f16::from_f32(y), false;
    bf16 => |x| x.to_f32(), |y| bf16::from_f32(y), true;
}

/// The C library's complex functions (C99's `csin`, `casin`, ...), which
/// PyTorch's CPU kernels call through `std::sin(std::complex)`: the same
/// values at the branch cuts, signed zeros, infinities and NaN (C99 Annex
/// G), where textbook formulas give others (`sin(inf + 0i)` is `NaN + 0i`,
/// not `NaN + NaN i`). The host-built CUDA kernels call them too; on a
/// device the kernels call Thrust's, which follow the same annex.
trait CComplex: Copy {
    fn c_exp(self) -> Self;
    fn c_log(self) -> Self;
    fn c_sqrt(self) -> Self;
    fn c_sin(self) -> Self;
    fn c_cos(self) -> Self;
    fn c_tan(self) -> Self;
    fn c_sinh(self) -> Self;
    fn c_cosh(self) -> Self;
    fn c_tanh(self) -> Self;
    fn c_asin(self) -> Self;
    fn c_acos(self) -> Self;
    fn c_atan(self) -> Self;
    fn c_asinh(self) -> Self;
    fn c_acosh(self) -> Self;
    fn c_atanh(self) -> Self;
}
macro_rules! c_complex {
    ($r:ty, $module:ident; $($method:ident => $c:ident),*) => {
        mod $module {
            use num_complex::Complex;
            // SAFETY: each is a pure function of one complex number of the
            // C library (which the standard library links), defined for
            // every input; `Complex<T>` is `#[repr(C)]`, two `T`s, which is
            // how the C ABI passes `T _Complex` (the x86-64 and AArch64
            // ABIs say so). So they are declared safe to call.
            unsafe extern "C" {
                $(pub(super) safe fn $c(z: Complex<$r>) -> Complex<$r>;)*
            }
        }
        impl CComplex for Complex<$r> {
            $(
            #[inline(always)]
            fn $method(self) -> Self {
                $module::$c(self)
            }
            )*
        }
    };
}
c_complex!(f32, c99_f32; c_exp => cexpf, c_log => clogf, c_sqrt => csqrtf, c_sin => csinf,
    c_cos => ccosf, c_tan => ctanf, c_sinh => csinhf, c_cosh => ccoshf, c_tanh => ctanhf,
    c_asin => casinf, c_acos => cacosf, c_atan => catanf, c_asinh => casinhf,
    c_acosh => cacoshf, c_atanh => catanhf);
c_complex!(f64, c99_f64; c_exp => cexp, c_log => clog, c_sqrt => csqrt, c_sin => csin,
    c_cos => ccos, c_tan => ctan, c_sinh => csinh, c_cosh => ccosh, c_tanh => ctanh,
    c_asin => casin, c_acos => cacos, c_atan => catan, c_asinh => casinh,
    c_acosh => cacosh, c_atanh => catanh);

/// The complex arccosine as PyTorch computes it: the C library's for
/// complex64; `pi/2 - asin(z)` for complex128 (its vectorized kernel's
/// formula, which gives `acos(0) = pi/2 + 0i` where C's gives `-0i`).
trait ComplexAcos {
    fn complex_acos(self) -> Self;
}
impl ComplexAcos for Complex<f32> {
    #[inline(always)]
    fn complex_acos(self) -> Self {
        self.c_acos()
    }
}
impl ComplexAcos for Complex<f64> {
    #[inline(always)]
    fn complex_acos(self) -> Self {
        let a = self.c_asin();
        Complex::new(core::f64::consts::FRAC_PI_2 - a.re, 0.0 - a.im)
    }
}
#[inline(always)]
fn complex_acos<Z: ComplexAcos>(z: Z) -> Z {
    z.complex_acos()
}

/// The complex types: the C library's functions ([`CComplex`]), and
/// PyTorch's formulas for the others (`log2`, `log10`, `exp2`, `expm1`,
/// `log1p`, `sigmoid`, `rsqrt`, `pow`); `recip` divides as `/` does
/// (Smith's scaled division, as PyTorch).
macro_rules! complex_math {
    ($($r:ty),*) => {$(
        impl FloatMath for Complex<$r> {
            #[inline(always)]
            fn exp(self) -> Self { self.c_exp() }
            #[inline(always)]
            fn ln(self) -> Self { self.c_log() }
            #[inline(always)]
            fn log2(self) -> Self { self.c_log() / core::f64::consts::LN_2 as $r }
            #[inline(always)]
            fn sqrt(self) -> Self { self.c_sqrt() }
            #[inline(always)]
            fn sin(self) -> Self { self.c_sin() }
            #[inline(always)]
            fn cos(self) -> Self { self.c_cos() }
            #[inline(always)]
            fn tanh(self) -> Self { self.c_tanh() }
            #[inline(always)]
            fn sigmoid(self) -> Self {
                <Self as FloatMath>::recip(Complex::new(1.0, 0.0) + (-self).c_exp())
            }
            #[inline(always)]
            fn recip(self) -> Self { super::complex_div(Complex::new(1.0, 0.0), self) }
            #[inline(always)]
            fn tan(self) -> Self { self.c_tan() }
            #[inline(always)]
            fn asin(self) -> Self { self.c_asin() }
            #[inline(always)]
            fn acos(self) -> Self { complex_acos(self) }
            #[inline(always)]
            fn atan(self) -> Self { self.c_atan() }
            #[inline(always)]
            fn sinh(self) -> Self { self.c_sinh() }
            #[inline(always)]
            fn cosh(self) -> Self { self.c_cosh() }
            #[inline(always)]
            fn asinh(self) -> Self { self.c_asinh() }
            #[inline(always)]
            fn acosh(self) -> Self { self.c_acosh() }
            #[inline(always)]
            fn atanh(self) -> Self { self.c_atanh() }
            /// PyTorch's `exp(ln(2) z)`.
            #[inline(always)]
            fn exp2(self) -> Self {
                let ln2 = core::f64::consts::LN_2 as $r;
                Complex::new(ln2 * self.re, ln2 * self.im).c_exp()
            }
            /// PyTorch's formula: `expm1(x) cos(y) - 2 sin(y/2)^2 + i e^x sin(y)`.
            #[inline(always)]
            fn expm1(self) -> Self {
                let (x, y) = (self.re, self.im);
                let a = (y / 2.0).sin();
                Complex::new(x.exp_m1() * y.cos() - 2.0 * a * a, x.exp() * y.sin())
            }
            #[inline(always)]
            fn log10(self) -> Self { self.c_log() / core::f64::consts::LN_10 as $r }
            /// PyTorch's CPU formula (NumPy's): `u = 1 + z`; `z` where `u` is
            /// 1, `ln(u)` where `u - 1` is `z`, else `ln(u) z / (u - 1)`.
            #[inline(always)]
            fn log1p(self) -> Self {
                let u = Complex::new(self.re + 1.0, self.im);
                if u.re == 1.0 && u.im == 0.0 {
                    return self;
                }
                let log_u = u.c_log();
                let shifted = Complex::new(u.re - 1.0, u.im);
                if shifted == self {
                    return log_u;
                }
                log_u * super::complex_div(self, shifted)
            }
            #[inline(always)]
            fn rsqrt(self) -> Self { <Self as FloatMath>::recip(self.c_sqrt()) }
            /// PyTorch's formula: `pi` as a complex number times `z`
            /// (so an infinite part makes the other NaN), then the sine over
            /// that product by `/`'s division.
            #[inline(always)]
            fn sinc(self) -> Self {
                if self.re == 0.0 && self.im == 0.0 {
                    return Complex::new(1.0, 0.0);
                }
                let product = Complex::new(core::f64::consts::PI as $r, 0.0) * self;
                super::complex_div(product.c_sin(), product)
            }
            /// `exp(e ln(z))`, as the C library's `cpow`; `z^0` is 1.
            #[inline(always)]
            fn pow(self, e: Self) -> Self {
                if e.re == 0.0 && e.im == 0.0 {
                    return Complex::new(1.0, 0.0);
                }
                (e * self.c_log()).c_exp()
            }
            #[inline(always)]
            fn pow_scalar(self, e: Self) -> Self {
                let real = if e.im == 0.0 { e.re as f64 } else { f64::NAN };
                let recip = |z: Self| <Self as FloatMath>::recip(z);
                match real {
                    -1.0 => recip(self),
                    -0.5 => recip(self.c_sqrt()),
                    -2.0 => recip(self * self),
                    _ => pow_by_cases(self, real, Complex::new(1.0, 0.0), true, |z| z.c_sqrt(), |z| {
                        <Self as FloatMath>::pow(z, e)
                    }),
                }
            }
        }
    )*};
}
complex_math!(f32, f64);

/// The type an element computes [`FloatMath`] functions in: floating and
/// complex types their own, integers and bool float32 (`torch.exp` of an
/// int64 tensor is float32).
///
/// ```
/// use shaped::dtype::math::ToFloat;
/// let x: <i64 as ToFloat>::Float = 1.5f32;
/// let y: <f64 as ToFloat>::Float = 1.5f64;
/// # let _ = (x, y);
/// ```
pub trait ToFloat: Element {
    /// The type of the result.
    type Float: FloatMath;
}
macro_rules! to_float {
    ($($t:ty => $f:ty),*) => {$(
        impl ToFloat for $t {
            type Float = $f;
        }
    )*};
}
to_float!(f16 => f16, bf16 => bf16, f32 => f32, f64 => f64,
    Complex<f32> => Complex<f32>, Complex<f64> => Complex<f64>,
    u8 => f32, i8 => f32, i16 => f32, i32 => f32, i64 => f32, bool => f32);

/// The type [`FloatMath`] functions of a `T` give.
pub type FloatOf<T> = <T as ToFloat>::Float;

/// The type PyTorch's `float_power` computes and gives: float64, or
/// complex128 for complex types. Every type has it.
///
/// ```
/// use shaped::dtype::math::FloatPower;
/// let x: <i8 as FloatPower>::Output = 1.5f64;
/// let z: <num_complex::Complex<f32> as FloatPower>::Output = num_complex::Complex::new(1.0f64, 0.0);
/// # let _ = (x, z);
/// ```
pub trait FloatPower: Element {
    /// float64 or complex128.
    type Output: Power;
}
/// The type `float_power` of a `T` gives.
pub type FloatPowerOf<T> = <T as FloatPower>::Output;
macro_rules! float_power {
    ($($t:ty => $out:ty),*) => {$(
        impl FloatPower for $t {
            type Output = $out;
        }
    )*};
}
float_power!(f16 => f64, bf16 => f64, f32 => f64, f64 => f64, u8 => f64, i8 => f64, i16 => f64,
    i32 => f64, i64 => f64, bool => f64, Complex<f32> => Complex<f64>, Complex<f64> => Complex<f64>);

/// Element types with `abs`: all but bool. Integers wrap as PyTorch's do
/// (`abs(-128i8)` is `-128`); a complex value gives its magnitude, of the
/// real type.
#[diagnostic::on_unimplemented(
    message = "`abs` is not implemented for {Self} tensors",
    label = "the elements are {Self}",
    note = "PyTorch raises `\"abs_cpu\" not implemented for 'Bool'`; a bool is its own absolute value"
)]
pub trait Abs: Element {
    /// The result type (the real type for complex elements).
    type Output: Element;
    /// `|x|`.
    fn abs(self) -> Self::Output;
}
macro_rules! abs_impls {
    ($($t:ty => |$x:ident| $body:expr),*) => {$(
        impl Abs for $t {
            type Output = $t;
            #[inline(always)]
            fn abs(self) -> $t {
                let $x = self;
                $body
            }
        }
    )*};
}
abs_impls!(f16 => |x| if x.is_sign_negative() { -x } else { x },
    bf16 => |x| if x.is_sign_negative() { -x } else { x },
    f32 => |x| x.abs(), f64 => |x| x.abs(), u8 => |x| x,
    i8 => |x| x.wrapping_abs(), i16 => |x| x.wrapping_abs(),
    i32 => |x| x.wrapping_abs(), i64 => |x| x.wrapping_abs());
impl<R: num_traits::Float> Abs for Complex<R>
where
    Complex<R>: Element,
    R: Element,
{
    type Output = R;
    #[inline(always)]
    fn abs(self) -> R {
        self.re.hypot(self.im)
    }
}

/// Element types with `floor`, `ceil`, `round` and `trunc`: real floating
/// types (`round` goes half to even, as PyTorch), and integers (unchanged).
#[diagnostic::on_unimplemented(
    message = "`floor`, `ceil`, `round` and `trunc` need real numbers, not {Self}",
    label = "the elements are {Self}",
    note = "PyTorch raises `floor is not supported for complex inputs` and `\"floor_vml_cpu\" not implemented for 'Bool'`"
)]
pub trait Rounding: Element {
    /// The largest integer not above `x`.
    fn floor(self) -> Self;
    /// The smallest integer not below `x`.
    fn ceil(self) -> Self;
    /// The nearest integer, half to even.
    fn round(self) -> Self;
    /// The integer part, rounded toward zero.
    fn trunc(self) -> Self;
}
macro_rules! rounding_float {
    ($($t:ty => |$x:ident| $to:expr, |$y:ident| $from:expr;)*) => {$(
        impl Rounding for $t {
            #[inline(always)]
            fn floor(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| v.floor()) }
            #[inline(always)]
            fn ceil(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| v.ceil()) }
            #[inline(always)]
            fn round(self) -> Self {
                float_math!(@via self, $x, $to, $y, $from, |v| v.round_ties_even())
            }
            #[inline(always)]
            fn trunc(self) -> Self { float_math!(@via self, $x, $to, $y, $from, |v| v.trunc()) }
        }
    )*};
}
rounding_float! {
    f32 => |x| x, |y| y;
    f64 => |x| x, |y| y;
    f16 => |x| x.to_f32(), |y| f16::from_f32(y);
    bf16 => |x| x.to_f32(), |y| bf16::from_f32(y);
}
macro_rules! rounding_int {
    ($($t:ty),*) => {$(
        impl Rounding for $t {
            #[inline(always)]
            fn floor(self) -> Self { self }
            #[inline(always)]
            fn ceil(self) -> Self { self }
            #[inline(always)]
            fn round(self) -> Self { self }
            #[inline(always)]
            fn trunc(self) -> Self { self }
        }
    )*};
}
rounding_int!(u8, i8, i16, i32, i64);

/// Element types with `clamp` and `relu`: real numbers, not bool.
#[diagnostic::on_unimplemented(
    message = "`clamp` and `relu` need real, non-bool numbers, not {Self}",
    label = "computed as {Self}",
    note = "PyTorch raises `clamp is not supported for complex types`, `Boolean inputs not supported for relu` and `\"clamp_scalar_cpu\" not implemented for 'Bool'`"
)]
pub trait Clampable: Element + PartialOrd {
    /// The values an integer type holds (`None` for floating types): clamp
    /// bounds outside it are limited to it, or refused when no value fits.
    const RANGE: Option<(i64, i64)>;
}
macro_rules! clampable {
    ($($t:ty => $range:expr),*) => {$(
        impl Clampable for $t {
            const RANGE: Option<(i64, i64)> = $range;
        }
    )*};
}
clampable!(f16 => None, bf16 => None, f32 => None, f64 => None,
    u8 => Some((0, u8::MAX as i64)), i8 => Some((i8::MIN as i64, i8::MAX as i64)),
    i16 => Some((i16::MIN as i64, i16::MAX as i64)),
    i32 => Some((i32::MIN as i64, i32::MAX as i64)), i64 => Some((i64::MIN, i64::MAX)));
macro_rules! marker_impls {
    ($tr:ident: $($t:ty),*) => {$( impl $tr for $t {} )*};
}

/// Element types with `maximum` and `minimum`: all but complex. A NaN on
/// either side gives NaN.
#[diagnostic::on_unimplemented(
    message = "`maximum` and `minimum` are not implemented for complex tensors, not for {Self}",
    label = "compared as {Self}",
    note = "PyTorch raises `maximum not implemented for complex tensors.`; compare magnitudes (`abs()`) or real parts instead"
)]
pub trait MaxMin: Element + PartialOrd {}
marker_impls!(MaxMin: f16, bf16, f32, f64, u8, i8, i16, i32, i64, bool);

/// Element types with `pow`: all but bool. Integers to a negative integer
/// power give `1` for a base of 1, `±1` for -1 and `0` otherwise, as PyTorch
/// does for tensor exponents; integer powers wrap.
///
/// ```
/// use shaped::dtype::math::Power;
/// assert_eq!(Power::power(3i8, 5i8), -13); // 243 wraps
/// assert_eq!(Power::power(-1i32, -3i32), -1);
/// assert_eq!(Power::power(2i32, -1i32), 0);
/// ```
#[diagnostic::on_unimplemented(
    message = "`pow` is not implemented for {Self}",
    label = "computed as {Self}",
    note = "PyTorch raises `\"pow\" not implemented for 'Bool'`; `cast::<i64>()` or `cast::<f32>()` the operands first"
)]
pub trait Power: Element {
    /// `self^e`.
    fn power(self, e: Self) -> Self;
    /// `self^e` with `e` given as a number ([`FloatMath::pow_scalar`] for
    /// floating types).
    fn power_scalar(self, e: Self) -> Self {
        self.power(e)
    }
}
macro_rules! power_float {
    ($($t:ty),*) => {$(
        impl Power for $t {
            #[inline(always)]
            fn power(self, e: Self) -> Self { FloatMath::pow(self, e) }
            #[inline(always)]
            fn power_scalar(self, e: Self) -> Self { FloatMath::pow_scalar(self, e) }
        }
    )*};
}
power_float!(f16, bf16, f32, f64, Complex<f32>, Complex<f64>);
macro_rules! power_int {
    ($($t:ty),*) => {$(
        impl Power for $t {
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn power(self, e: Self) -> Self {
                if e < 0 {
                    // Only 1 and -1 have integer reciprocals.
                    return match self as i64 {
                        1 => 1,
                        -1 if e % 2 == 0 => 1,
                        -1 => self,
                        _ => 0,
                    };
                }
                // Square and multiply, wrapping.
                let (mut base, mut e, mut acc) = (self, e, 1 as $t);
                while e > 0 {
                    if e & 1 == 1 {
                        acc = acc.wrapping_mul(base);
                    }
                    base = base.wrapping_mul(base);
                    e >>= 1;
                }
                acc
            }
        }
    )*};
}
power_int!(u8, i8, i16, i32, i64);

/// Element types with `%` (PyTorch's `remainder`), `fmod` and
/// `floor_divide`: integers and real floating types.
///
/// - `remainder` takes the sign of the divisor (Python's `%`): `-5 % 3` is
///   1, `5.5 % -2.0` is -0.5;
/// - `fmod` takes the sign of the dividend (C's `fmod`): `fmod(-5, 3)` is -2;
/// - `floor_divide` rounds the quotient down (Python's `//`), by PyTorch's
///   `div_floor_floating` steps for floats: `-5.5 // 2` is -3.0, `x // 0`
///   is `x / 0`.
///
/// An integer divisor of 0 is PyTorch's `ZeroDivisionError`, which the
/// operations check before they compute; these functions give 0 for it
/// (and wrap `MIN / -1`) so that they never panic.
///
/// ```
/// use shaped::dtype::math::Modular;
/// assert_eq!(Modular::remainder(-5i32, 3), 1);
/// assert_eq!(Modular::fmod(-5i32, 3), -2);
/// assert_eq!(Modular::floor_divide(-5i32, 3), -2);
/// assert_eq!(Modular::remainder(5.5f32, -2.0), -0.5);
/// assert_eq!(Modular::floor_divide(-5.5f64, 2.0), -3.0);
/// ```
#[diagnostic::on_unimplemented(
    message = "`%`, `fmod` and `floor_divide` need integer or real floating numbers, not {Self}",
    label = "computed as {Self}",
    note = "PyTorch raises `\"remainder_cpu\" not implemented for 'Bool'` (and 'ComplexFloat'); `cast::<i64>()` a bool tensor first"
)]
pub trait Modular: Element {
    /// The remainder with the sign of the divisor.
    fn remainder(self, b: Self) -> Self;
    /// The remainder with the sign of the dividend.
    fn fmod(self, b: Self) -> Self;
    /// The quotient rounded down.
    fn floor_divide(self, b: Self) -> Self;
}
macro_rules! modular_int {
    ($($t:ty),*) => {$(
        impl Modular for $t {
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn remainder(self, b: Self) -> Self {
                let r = self.checked_rem(b).unwrap_or(0);
                if r != 0 && (r < 0) != (b < 0) { r.wrapping_add(b) } else { r }
            }
            #[inline(always)]
            fn fmod(self, b: Self) -> Self {
                self.checked_rem(b).unwrap_or(0)
            }
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn floor_divide(self, b: Self) -> Self {
                if b == 0 {
                    return 0;
                }
                let (q, r) = (self.wrapping_div(b), self.wrapping_rem(b));
                if r != 0 && (self < 0) != (b < 0) { q.wrapping_sub(1) } else { q }
            }
        }
    )*};
}
modular_int!(u8, i8, i16, i32, i64);

/// PyTorch's `div_floor_floating`, each step in `T`'s arithmetic.
#[inline(always)]
fn div_floor_floating<T>(a: T, b: T, zero: T, one: T, half: T, floor: impl Fn(T) -> T) -> T
where
    T: Copy
        + PartialOrd
        + core::ops::Sub<Output = T>
        + core::ops::Div<Output = T>
        + core::ops::Rem<Output = T>
        + core::ops::Add<Output = T>
        + core::ops::Neg<Output = T>,
{
    if b == zero {
        return a / b;
    }
    let m = a % b;
    let mut div = (a - m) / b;
    if m != zero && (b < zero) != (m < zero) {
        div = div - one;
    }
    if div != zero {
        let mut q = floor(div);
        if div - q > half {
            q = q + one;
        }
        q
    } else {
        // 0 with the sign of a / b.
        let sign = a / b;
        if sign < zero || (sign == zero && (one / sign) < zero) {
            -zero
        } else {
            zero
        }
    }
}

macro_rules! modular_float {
    ($($t:ty => $zero:expr, $one:expr, $half:expr, |$v:ident| $floor:expr;)*) => {$(
        impl Modular for $t {
            #[inline(always)]
            fn remainder(self, b: Self) -> Self {
                let m = self % b;
                if m != $zero && (b < $zero) != (m < $zero) { m + b } else { m }
            }
            #[inline(always)]
            fn fmod(self, b: Self) -> Self {
                self % b
            }
            #[inline(always)]
            fn floor_divide(self, b: Self) -> Self {
                div_floor_floating(self, b, $zero, $one, $half, |$v: $t| $floor)
            }
        }
    )*};
}
modular_float! {
    f32 => 0.0, 1.0, 0.5, |v| v.floor();
    f64 => 0.0, 1.0, 0.5, |v| v.floor();
    f16 => f16::ZERO, f16::ONE, f16::from_f32(0.5), |v| f16::from_f32(v.to_f32().floor());
    bf16 => bf16::ZERO, bf16::ONE, bf16::from_f32(0.5), |v| bf16::from_f32(v.to_f32().floor());
}

/// Element types with the activations of `torch.nn.functional` (`gelu`,
/// `softplus`, `mish`, ...): the real floating types. float16 and bfloat16
/// compute in float32 and round once, as PyTorch's kernels do; parameters
/// (`beta`, `alpha`, slopes) are numbers in the type of the computation.
///
/// ```
/// use shaped::dtype::math::{Activation, ActivationMath};
/// assert_eq!(<f32 as Activation>::Compute::leaky_relu(-2.0, 0.5), -1.0);
/// assert_eq!(ActivationMath::hardsigmoid(0.0f64), 0.5);
/// ```
#[diagnostic::on_unimplemented(
    message = "the activations need real floating tensors (float16, bfloat16, float32, float64), not {Self}",
    label = "the elements are {Self}",
    note = "PyTorch raises `\"GeluKernelImpl\" not implemented for 'Long'` (and `silu_cpu`, `softplus_cpu`, ...); `cast::<f32>()` the tensor first"
)]
pub trait Activation: FloatMath + Ordered {
    /// The type the activations compute in: float32 for the half types.
    type Compute: ActivationMath + Element;
}
impl Activation for f16 {
    type Compute = f32;
}
impl Activation for bf16 {
    type Compute = f32;
}
impl Activation for f32 {
    type Compute = f32;
}
impl Activation for f64 {
    type Compute = f64;
}

/// The activations' formulas, PyTorch's CPU kernels' operation for
/// operation (float32's `exp` and `tanh` the vectorized polynomials, the
/// rest the C library's), in `f32` and `f64`; the CUDA kernels compute the
/// same (`kernels/math.cuh`).
pub trait ActivationMath: Copy {
    /// `x Φ(x)`: `x / 2 (1 + erf(x / sqrt 2))`.
    fn gelu(self) -> Self;
    /// `x / 2 (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))`.
    fn gelu_tanh(self) -> Self;
    /// `x / (1 + e^-x)`.
    fn silu(self) -> Self;
    /// `ln(1 + e^(beta x)) / beta`, or `x` where `beta x > threshold`.
    fn softplus(self, beta: f64, threshold: f64) -> Self;
    /// `x tanh(ln(1 + e^x))`.
    fn mish(self) -> Self;
    /// `x` for `x > 0`, else `alpha (e^x - 1)`.
    fn elu(self, alpha: f64) -> Self;
    /// `x` for `x > 0`, else `slope x`.
    fn leaky_relu(self, slope: f64) -> Self;
    /// `min(max(x + 3, 0), 6) / 6`.
    fn hardsigmoid(self) -> Self;
    /// `x min(max(x + 3, 0), 6) / 6`.
    fn hardswish(self) -> Self;
    /// `min(x, 0) - ln(1 + e^-|x|)`.
    fn logsigmoid(self) -> Self;
}
macro_rules! activation_math {
    ($($r:ident),*) => {$(
        impl ActivationMath for $r {
            #[inline(always)]
            fn gelu(self) -> $r {
                Kernels::gelu(self)
            }
            #[inline(always)]
            fn gelu_tanh(self) -> $r {
                let beta = (core::f64::consts::SQRT_2 * core::f64::consts::FRAC_2_SQRT_PI * 0.5) as $r;
                let kappa = 0.044715 as $r;
                let cube = self * self * self;
                let inner = beta * (self + kappa * cube);
                0.5 * self * (1.0 + Kernels::tanh(inner))
            }
            #[inline(always)]
            fn silu(self) -> $r {
                Kernels::silu(self)
            }
            #[inline(always)]
            fn softplus(self, beta: f64, threshold: f64) -> $r {
                let (beta, threshold) = (beta as $r, threshold as $r);
                let scaled = self * beta;
                if scaled > threshold { self } else { Kernels::exp(scaled).ln_1p() / beta }
            }
            #[inline(always)]
            fn mish(self) -> $r {
                self * Kernels::tanh(Kernels::exp(self).ln_1p())
            }
            #[inline(always)]
            fn elu(self, alpha: f64) -> $r {
                if self <= 0.0 { self.exp_m1() * alpha as $r } else { self }
            }
            #[inline(always)]
            fn leaky_relu(self, slope: f64) -> $r {
                if self > 0.0 { self } else { self * slope as $r }
            }
            #[inline(always)]
            fn hardsigmoid(self) -> $r {
                relu6_of(self + 3.0) / 6.0
            }
            #[inline(always)]
            fn hardswish(self) -> $r {
                self * relu6_of(self + 3.0) / 6.0
            }
            #[inline(always)]
            fn logsigmoid(self) -> $r {
                let low = if 0.0 < self { 0.0 } else { self };
                low - Kernels::exp(-self.abs()).ln_1p()
            }
        }
    )*};
}
activation_math!(f32, f64);

/// `min(max(y, 0), 6)` as C++'s `std::min(std::max(y, 0), 6)` (NaN stays).
#[inline(always)]
fn relu6_of<R: Copy + PartialOrd + From<u8>>(y: R) -> R {
    let y = if y < R::from(0) { R::from(0) } else { y };
    if R::from(6) < y { R::from(6) } else { y }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_types_compute_in_f32_and_round_once() {
        assert_eq!(
            FloatMath::pow_scalar(f16::from_f32(-3.0), f16::from_f32(2.0)).to_f32(),
            9.0
        );
        assert!(FloatMath::pow_scalar(f32::NEG_INFINITY, 0.5).is_nan());
        assert_eq!(FloatMath::pow(f32::NEG_INFINITY, 0.5), f32::INFINITY);
        let h = f16::from_f32(1.0);
        assert_eq!(FloatMath::exp(h), f16::from_f32(1.0f32.exp()));
        assert_eq!(
            FloatMath::sqrt(bf16::from_f32(2.0)),
            bf16::from_f32(2.0f32.sqrt())
        );
        assert_eq!(Rounding::round(f16::from_f32(2.5)).to_f32(), 2.0);
        assert_eq!(Rounding::round(f16::from_f32(3.5)).to_f32(), 4.0);
        assert_eq!(Abs::abs(f16::from_f32(-0.0)).to_bits(), 0);
    }

    #[test]
    fn integer_powers_wrap_and_handle_negative_exponents() {
        assert_eq!(Power::power(2i64, 62), 1 << 62);
        assert_eq!(Power::power(2i64, 64), 0);
        assert_eq!(Power::power(0i32, 0), 1);
        assert_eq!(Power::power(0i32, -1), 0);
        assert_eq!(Power::power(1i16, -5), 1);
        assert_eq!(Power::power(-1i16, -4), 1);
        assert_eq!(Power::power(200u8, 2), 64);
        assert_eq!(Abs::abs(i8::MIN), i8::MIN);
    }
}
