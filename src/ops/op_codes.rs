//! The names of element functions for device kernels.
//!
//! A device backend cannot run a Rust closure: it runs a compiled kernel
//! chosen by an operation code. Each element function of [`functions`]
//! names its kernel with `kernel_op()`, and the functions that fix one
//! operand to a number ([`WithLeft`], [`WithRight`], [`Constant`]) carry
//! that number along. The codes mirror `kernels/elementwise.cuh`.
//!
//! [`functions`]: super::functions
//! [`WithLeft`]: super::functions::WithLeft
//! [`WithRight`]: super::functions::WithRight
//! [`Constant`]: super::functions::Constant
//!
//! ```
//! use shaped::ops::op_codes::{OpCode, Side};
//! use shaped::ops::functions::{Add, UnaryFn, WithRight};
//! let op = UnaryFn::<f32, f32>::kernel_op(&WithRight(Add, 2.0f32)).unwrap();
//! assert_eq!(op.code, OpCode::Add);
//! assert_eq!(op.scalar.unwrap().0, Side::Right);
//! ```

use crate::dtype::{DType, Scalar};

/// An operation, as the device kernels number them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum OpCode {
    /// `a + b`.
    Add = 0,
    /// `a - b`.
    Sub = 1,
    /// `a * b`.
    Mul = 2,
    /// `a / b` (true division).
    Div = 3,
    /// `a == b`.
    Eq = 4,
    /// `a != b`.
    Ne = 5,
    /// `a < b`.
    Lt = 6,
    /// `a <= b`.
    Le = 7,
    /// `a > b`.
    Gt = 8,
    /// `a >= b`.
    Ge = 9,
    /// Whether both are nonzero (any types, giving bool).
    LogicalAnd = 10,
    /// Whether either is nonzero.
    LogicalOr = 11,
    /// Whether exactly one is nonzero.
    LogicalXor = 12,
    /// `a & b` (integers and bool).
    BitAnd = 13,
    /// `a | b`.
    BitOr = 14,
    /// `a ^ b`.
    BitXor = 15,
    /// `-a`.
    Neg = 16,
    /// `a` (copies).
    Identity = 17,
    /// The fixed operand, whatever `a` is (`fill`).
    Constant = 18,
    /// The complex conjugate (the value itself for real types).
    Conj = 19,
    /// `a` converted to the output's element type (`cast::<U>()`).
    Cast = 20,
    /// `!a` (PyTorch's `~`; `not` for bool).
    BitNot = 21,
    /// Whether `a` is zero (`logical_not`).
    LogicalNot = 22,
    /// `a << b` (integers; 0 past the width).
    Shl = 24,
    /// `a >> b` (integers; the sign past the width).
    Shr = 25,
    /// Whether `a` is NaN (either part of a complex value).
    IsNan = 26,
    /// Whether `a` is infinite (either part).
    IsInf = 27,
    /// Whether `a` is `+inf` (real types).
    IsPosInf = 28,
    /// Whether `a` is `-inf` (real types).
    IsNegInf = 29,
    /// Whether `a` is finite (both parts).
    IsFinite = 30,
    /// Whether `a`'s imaginary part is 0.
    IsReal = 31,
    /// `e^a` (integers and bool in float32, as every function down to
    /// `Recip`).
    Exp = 32,
    /// The natural logarithm.
    Ln = 33,
    /// The base-2 logarithm.
    Log2 = 34,
    /// The square root.
    Sqrt = 35,
    /// The sine.
    Sin = 36,
    /// The cosine.
    Cos = 37,
    /// The hyperbolic tangent.
    Tanh = 38,
    /// `1 / (1 + e^-a)`.
    Sigmoid = 39,
    /// `1 / a`.
    Recip = 40,
    /// `|a|` (complex values give their real type).
    Abs = 41,
    /// Rounds down.
    Floor = 42,
    /// Rounds up.
    Ceil = 43,
    /// Rounds half to even.
    Round = 44,
    /// `max(a, 0)`.
    Relu = 45,
    /// `min(max(a, lo), hi)`: `lo` the fixed right operand, `hi` the
    /// [`KernelOp::upper`] bound.
    Clamp = 46,
    /// `a^e` for a fixed exponent `e` (PyTorch's `pow(tensor, number)`).
    PowScalar = 47,
    /// The larger of `a` and `b`, NaN if either is.
    Maximum = 48,
    /// The smaller of `a` and `b`, NaN if either is.
    Minimum = 49,
    /// `a^b`.
    Pow = 50,
    /// `scatter_reduce`'s `mean`: the sum `a` over the count `b` where `b`
    /// is not 0 (Euclid's division for integers), else `a`; computed in
    /// int64, float32, float64 or a complex type.
    MeanOf = 51,
    /// `a % b` with the sign of `b` (PyTorch's `remainder`).
    Remainder = 52,
    /// `a % b` with the sign of `a` (PyTorch's `fmod`).
    Fmod = 53,
    /// `a / b` rounded down (PyTorch's `floor_divide`).
    FloorDivide = 54,
    /// The tangent.
    Tan = 100,
    /// The inverse sine.
    Asin = 101,
    /// The inverse cosine.
    Acos = 102,
    /// The inverse tangent.
    Atan = 103,
    /// The hyperbolic sine.
    Sinh = 104,
    /// The hyperbolic cosine.
    Cosh = 105,
    /// The inverse hyperbolic sine.
    Asinh = 106,
    /// The inverse hyperbolic cosine.
    Acosh = 107,
    /// The inverse hyperbolic tangent.
    Atanh = 108,
    /// `2^x`.
    Exp2 = 109,
    /// `e^x - 1`, accurate near 0.
    Expm1 = 110,
    /// The base-10 logarithm.
    Log10 = 111,
    /// `ln(1 + x)`, accurate near 0.
    Log1p = 112,
    /// `1 / sqrt(x)`.
    Rsqrt = 113,
    /// `x Φ(x) with the error function`.
    Gelu = 114,
    /// `gelu` approximated with `tanh`.
    GeluTanh = 115,
    /// `x / (1 + e^-x)`.
    Silu = 116,
    /// `ln(1 + e^(beta x)) / beta` (beta the fixed operand, the threshold the second number).
    Softplus = 117,
    /// `x tanh(softplus(x))`.
    Mish = 118,
    /// `x`, or `alpha (e^x - 1)` where `x <= 0` (alpha the fixed operand).
    Elu = 119,
    /// `x`, or `slope x` where `x <= 0` (the slope the fixed operand).
    LeakyRelu = 120,
    /// `relu6(x + 3) / 6`.
    Hardsigmoid = 121,
    /// `x relu6(x + 3) / 6`.
    Hardswish = 122,
    /// `ln(sigmoid(x))`.
    LogSigmoid = 123,
    /// The error function.
    Erf = 124,
    /// `1 - erf(x)`.
    Erfc = 125,
    /// The inverse error function.
    Erfinv = 126,
    /// `ln |Γ(x)|`.
    Lgamma = 127,
    /// `Γ'(x) / Γ(x)`.
    Digamma = 128,
    /// `sin(pi x) / (pi x)`.
    Sinc = 129,
    /// Degrees to radians.
    Deg2rad = 130,
    /// Radians to degrees.
    Rad2deg = 131,
    /// Rounding toward zero.
    Trunc = 132,
    /// `x - trunc(x)`.
    Frac = 133,
    /// 1, -1 or 0.
    Sign = 134,
    /// The sign bit, as bool.
    Signbit = 135,
    /// The sign, or `z / |z|`.
    Sgn = 136,
    /// `x * x` (bool to int64).
    Square = 137,
    /// NaN, +inf and -inf replaced by the three fixed numbers (of the real
    /// part's type).
    NanToNum = 138,
    /// `atan2(a, b)`.
    Atan2 = 139,
    /// `sqrt(a² + b²)`.
    Hypot = 140,
    /// `|a|` with the sign of `b`.
    Copysign = 141,
    /// The next number after `a` toward `b`.
    Nextafter = 142,
    /// `ln(e^a + e^b)`.
    LogAddExp = 143,
    /// `log2(2^a + 2^b)`.
    LogAddExp2 = 144,
    /// `a ln(b)`, 0 where `a` is 0.
    Xlogy = 145,
}

/// A reduction, as the device kernels number them (`kernels/reduce.cuh`):
/// the kernel of a [`Reducer`](crate::ops::reductions::Reducer), named by its
/// `device_op()`.
///
/// ```
/// use shaped::ops::op_codes::ReduceOp;
/// use shaped::ops::reductions::Reducer;
/// use shaped::ops::reductions::reducers::Sum;
/// assert_eq!(Reducer::<f32>::device_op(Sum), Some(ReduceOp::Sum));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum ReduceOp {
    /// `sum` (integers and bool in `i64`, the half types in `f32`).
    Sum = 64,
    /// `prod`, accumulated as `sum`.
    Prod = 65,
    /// `mean`: the sum divided by the count.
    Mean = 66,
    /// `amax`: the largest value, NaN if any.
    Amax = 67,
    /// `amin`: the smallest value, NaN if any.
    Amin = 68,
    /// `max` along a dim: the largest value and its index.
    MaxAt = 69,
    /// `min` along a dim: the smallest value and its index.
    MinAt = 70,
    /// `all`: every element nonzero.
    All = 71,
    /// `any`: some element nonzero.
    Any = 72,
    /// `var`/`std` with the mean (Welford's updates; float32 and float64).
    Var = 73,
    /// `logsumexp` in one read: a running maximum and the sum of
    /// exponentials scaled to it (float32 and float64).
    LogSumExp = 74,
    /// `softmax`/`log_softmax` along one dim: the running maximum and sum,
    /// then every element written (float32 and float64).
    Softmax = 75,
    /// `vector_norm` of order 0, 1, 2, inf or -inf (float32 and float64).
    Norm = 76,
}

/// The scans a device runs (`kernels/scan.cuh`), one code per scanner
/// of [`crate::ops::scans::scanners`].
///
/// ```
/// use shaped::ops::op_codes::ScanOp;
/// use shaped::ops::scans::scanners::{CumSum, Scanner};
/// assert_eq!(Scanner::<f32>::device_op(CumSum), ScanOp::Sum);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum ScanOp {
    /// `cumsum` (integers and bool in `i64`).
    Sum = 80,
    /// `cumprod`, accumulated as `cumsum`.
    Prod = 81,
    /// `logcumsumexp`.
    LogSumExp = 82,
    /// `cummax`: the running maximum and its index.
    Max = 83,
    /// `cummin`: the running minimum and its index.
    Min = 84,
}

/// The kernel families: operations compiled together, one kernel per family
/// and element type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// `+ - * /`.
    Arith,
    /// `== != < <= > >=`, giving bool.
    Compare,
    /// Copies, `fill`, negation, the conjugate.
    Unary,
    /// Conversions from one element type (the kernel's) to any other.
    Cast,
    /// `+ - * /`, comparisons, `maximum`, `minimum` and `pow` on operands
    /// of any element types, computed in the kernel's type (type
    /// promotion) and stored as the output's.
    Promoted,
    /// Elementwise math (`exp` to `pow`), on operands of the kernel's type.
    Math,
    /// The transcendental functions from `tan` to `rsqrt`, the special
    /// functions, `sinc`, the angle conversions, `trunc`, `frac`, the
    /// signs, `square` and `nan_to_num`, on operands of the kernel's type
    /// (a family apart from [`Family::Math`] so that each family's kernels
    /// stay small enough to assemble quickly).
    Special,
}

impl OpCode {
    /// The family whose kernel runs this operation on operands of its
    /// own type (a [`KernelOp`] with a `compute` type runs in
    /// [`Family::Promoted`]).
    pub fn family(self) -> Family {
        match self {
            OpCode::Add
            | OpCode::Sub
            | OpCode::Mul
            | OpCode::Div
            | OpCode::BitAnd
            | OpCode::BitOr
            | OpCode::BitXor
            | OpCode::Shl
            | OpCode::Shr => Family::Arith,
            OpCode::Eq
            | OpCode::Ne
            | OpCode::Lt
            | OpCode::Le
            | OpCode::Gt
            | OpCode::Ge
            | OpCode::LogicalAnd
            | OpCode::LogicalOr
            | OpCode::LogicalXor => Family::Compare,
            OpCode::Neg
            | OpCode::Identity
            | OpCode::Constant
            | OpCode::Conj
            | OpCode::BitNot
            | OpCode::LogicalNot
            | OpCode::IsNan
            | OpCode::IsInf
            | OpCode::IsPosInf
            | OpCode::IsNegInf
            | OpCode::IsFinite
            | OpCode::IsReal => Family::Unary,
            OpCode::Cast => Family::Cast,
            OpCode::Tan
            | OpCode::Asin
            | OpCode::Acos
            | OpCode::Atan
            | OpCode::Sinh
            | OpCode::Cosh
            | OpCode::Asinh
            | OpCode::Acosh
            | OpCode::Atanh
            | OpCode::Exp2
            | OpCode::Expm1
            | OpCode::Log10
            | OpCode::Log1p
            | OpCode::Rsqrt
            | OpCode::Erf
            | OpCode::Erfc
            | OpCode::Erfinv
            | OpCode::Lgamma
            | OpCode::Digamma
            | OpCode::Sinc
            | OpCode::Deg2rad
            | OpCode::Rad2deg
            | OpCode::Trunc
            | OpCode::Frac
            | OpCode::Sign
            | OpCode::Signbit
            | OpCode::Sgn
            | OpCode::Square
            | OpCode::NanToNum => Family::Special,
            _ if self.is_pair() => Family::Special,
            _ => Family::Math,
        }
    }

    /// The functions of two tensors of the special family (`atan2` ..
    /// `xlogy`: `SpecialPair` in kernels/math.cuh).
    ///
    /// ```
    /// use shaped::ops::op_codes::OpCode;
    /// assert!(OpCode::Hypot.is_pair());
    /// assert!(!OpCode::Maximum.is_pair());
    /// ```
    pub fn is_pair(self) -> bool {
        matches!(
            self,
            OpCode::Atan2
                | OpCode::Hypot
                | OpCode::Copysign
                | OpCode::Nextafter
                | OpCode::LogAddExp
                | OpCode::LogAddExp2
                | OpCode::Xlogy
        )
    }

    /// Whether the operation reads one operand (`b` is ignored), else two
    /// (one of which may be a fixed number).
    ///
    /// ```
    /// use shaped::ops::op_codes::OpCode;
    /// assert!(OpCode::Exp.is_unary());
    /// assert!(!OpCode::Maximum.is_unary());
    /// ```
    pub fn is_unary(self) -> bool {
        matches!(
            self.family(),
            Family::Unary | Family::Cast | Family::Math | Family::Special
        ) && !self.is_pair()
            && !matches!(
                self,
                OpCode::Maximum
                    | OpCode::Minimum
                    | OpCode::Pow
                    | OpCode::MeanOf
                    | OpCode::Remainder
                    | OpCode::Fmod
                    | OpCode::FloorDivide
            )
    }
}

/// Which operand of a binary operation is a fixed number.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// `scalar op x` (and `fill`'s value).
    Left,
    /// `x op scalar`.
    Right,
}

/// What a device kernel computes for one element function: an operation,
/// the number fixed on one side, if any, and the type the operands are
/// converted to first, if they have other types.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct KernelOp {
    /// The operation.
    pub code: OpCode,
    /// The fixed operand and its side (a value of the `compute` type when
    /// there is one, else of the operands' type).
    pub scalar: Option<(Side, Scalar)>,
    /// The common type of a mixed-dtype operation: both operands are
    /// converted to it, the operation computed in it, and the result
    /// converted to the output's type (`None`: operands and output have
    /// the operation's own types).
    pub compute: Option<DType>,
    /// A second fixed number: `clamp`'s upper bound (a value of the
    /// operands' type).
    pub upper: Option<Scalar>,
    /// A third fixed number: `nan_to_num`'s replacement of -inf.
    pub third: Option<Scalar>,
}

impl KernelOp {
    /// The operation on tensor operands only.
    pub fn new(code: OpCode) -> KernelOp {
        KernelOp {
            code,
            scalar: None,
            compute: None,
            upper: None,
            third: None,
        }
    }

    /// The same operation computed in `dtype`, on operands (and into an
    /// output) of other types.
    ///
    /// ```
    /// use shaped::ops::op_codes::{Family, KernelOp, OpCode};
    /// use shaped::DType;
    /// let op = KernelOp::new(OpCode::Add).computed_in(DType::F32);
    /// assert_eq!(op.family(), Family::Promoted);
    /// ```
    pub fn computed_in(self, dtype: DType) -> KernelOp {
        KernelOp {
            compute: Some(dtype),
            ..self
        }
    }

    /// The family whose kernel runs this operation.
    pub fn family(&self) -> Family {
        match self.compute {
            Some(_) => Family::Promoted,
            None => self.code.family(),
        }
    }

    /// The same operation with the operand on `side` fixed to `value`.
    pub fn with_scalar(self, side: Side, value: Scalar) -> KernelOp {
        KernelOp {
            scalar: Some((side, value)),
            ..self
        }
    }

    /// `clamp` between the fixed numbers `lo` and `hi`.
    ///
    /// ```
    /// use shaped::ops::op_codes::{KernelOp, OpCode, Side};
    /// use shaped::dtype::Scalar;
    /// let op = KernelOp::clamp(Scalar::Float(0.0), Scalar::Float(1.0));
    /// assert_eq!(op.code, OpCode::Clamp);
    /// assert_eq!(op.scalar, Some((Side::Right, Scalar::Float(0.0))));
    /// assert_eq!(op.upper, Some(Scalar::Float(1.0)));
    /// ```
    pub fn clamp(lo: Scalar, hi: Scalar) -> KernelOp {
        KernelOp {
            upper: Some(hi),
            ..KernelOp::new(OpCode::Clamp).with_scalar(Side::Right, lo)
        }
    }
}

/// An operation of three operands, as the device kernels number them
/// (`kernels/select.cuh`, `shaped_ternary_<dtype>`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum TernaryCode {
    /// `lerp(a, b, c)`: `c` the weight tensor.
    Lerp = 0,
    /// `lerp(a, b, value)`: the weight a number; `c` is not read.
    LerpNumber = 1,
    /// `a + value * b * c`.
    Addcmul = 2,
    /// `a + value * b / c`.
    Addcdiv = 3,
}

/// A device kernel's operation of three operands and its number (the
/// weight or `value`; unused by [`TernaryCode::Lerp`]).
///
/// ```
/// use shaped::dtype::Scalar;
/// use shaped::ops::op_codes::{TernaryCode, TernaryOp};
/// let op = TernaryOp { code: TernaryCode::Addcmul, value: Scalar::Float(0.5) };
/// assert_eq!(op.code as i32, 2);
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TernaryOp {
    /// The operation.
    pub code: TernaryCode,
    /// Its number, converted by the kernel as PyTorch's `value.to<opmath_t>()`.
    pub value: Scalar,
}
