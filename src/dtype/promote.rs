//! Type promotion: the element type of `a op b` when
//! `a` and `b` hold different element types, at compile time and at run
//! time, from one table and a handful of named rules.
//!
//! - [`PromoteTypes`]: `torch.promote_types` for the 144 ordered pairs, from
//!   the one table (`promotion_table!`); [`DType::promote`] reads the same
//!   table at run time.
//! - [`Category`]: `bool < integer < floating < complex`.
//! - [`CombineCategories`]: PyTorch's `combine_categories(higher, lower)`: a
//!   lower-priority operand (a rank-0 tensor, a plain number) changes the
//!   result only when its category is higher. One rule per impl of
//!   [`CategoryRule`].
//! - [`Priority`]: what kind of operand a tensor is: [`Dimensioned`],
//!   [`ZeroDim`] (static rank 0), a plain Rust number ([`Scalar`]), or
//!   [`RuntimeRank`] (a `DynShape`, treated as dimensioned by the compiler and
//!   checked at run time).
//! - [`ResultType`]: the element type of a binary operation, one rule per
//!   pair of priorities ([`PriorityRule`]).
//! - [`StorableIn`]: the casting rule of in-place operations: a result may be
//!   stored into an output of the same or a higher category, never into
//!   bool from anything but bool.
//!
//! ```
//! use shaped::dtype::promote::{Promoted, ResultType, Dimensioned, ZeroDim, Scalar};
//! use num_complex::Complex;
//! fn same<A: 'static, B: 'static>() -> bool {
//!     core::any::TypeId::of::<A>() == core::any::TypeId::of::<B>()
//! }
//! assert!(same::<Promoted<i32, f32>, f32>());
//! assert!(same::<Promoted<u8, i8>, i16>());
//! // int32 tensor + int64 rank-0 tensor: int32 (same category: no widening).
//! assert!(same::<ResultType<i32, Dimensioned, i64, ZeroDim>, i32>());
//! // int32 tensor + 2.5: float32, the default floating type.
//! assert!(same::<ResultType<i32, Dimensioned, f64, Scalar>, f32>());
//! // float32 tensor + complex128 rank-0 tensor: complex64 (keeps the width).
//! assert!(same::<ResultType<f32, Dimensioned, Complex<f64>, ZeroDim>, Complex<f32>>());
//! ```

use super::{DType, Element};
use crate::shape::Shape;
use half::{bf16, f16};
use num_complex::Complex;

// ---------------------------------------------------------------- categories

/// The category of `bool`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BoolCategory;
/// The category of `u8`, `i8`, `i16`, `i32`, `i64`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct IntegerCategory;
/// The category of `f16`, `bf16`, `f32`, `f64`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct FloatingCategory;
/// The category of `Complex<f32>`, `Complex<f64>`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ComplexCategory;

/// A category of element types, ordered `bool < integer < floating <
/// complex`.
pub trait Category: Copy + Default + 'static {
    /// The element type a plain number of this category stands for: bool,
    /// int64, float32 (PyTorch's default dtype) or complex64.
    type Default: Element;
}
impl Category for BoolCategory {
    type Default = bool;
}
impl Category for IntegerCategory {
    type Default = i64;
}
impl Category for FloatingCategory {
    type Default = f32;
}
impl Category for ComplexCategory {
    type Default = Complex<f32>;
}

/// The element type a plain number of type `T` stands for in promotion:
/// its category's default (`2.5f64` counts as float32, `3u8` as int64).
pub type DefaultOf<T> = <<T as Element>::Category as Category>::Default;

/// The complex type that keeps a floating type's width: `f32` and `f64`
/// give complex64 and complex128. PyTorch gives `f16` and `bf16` the
/// complex32 types, which are not among the twelve dtypes: `shaped` widens
/// them to complex64.
pub trait ToComplex: Element {
    /// The complex type.
    type Complex: Element;
}
impl ToComplex for f16 {
    type Complex = Complex<f32>;
}
impl ToComplex for bf16 {
    type Complex = Complex<f32>;
}
impl ToComplex for f32 {
    type Complex = Complex<f32>;
}
impl ToComplex for f64 {
    type Complex = Complex<f64>;
}

// ----------------------------------------------------------- promote_types

/// `torch.promote_types(Self, B)`: the smallest type both operands convert
/// to without leaving their categories. Every type promotes with itself to
/// itself (one blanket impl, so that generic code over `T: Element` needs no
/// promotion bounds); other pairs read the one table (`promotion_table!`).
///
/// ```
/// use shaped::dtype::promote::Promoted;
/// let x: Promoted<half::f16, half::bf16> = 1.5f32; // float16 + bfloat16 = float32
/// # let _ = x;
/// ```
pub trait PromoteTypes<B> {
    /// The promoted type.
    type Output: Element;
}

/// `torch.promote_types(A, B)`.
pub type Promoted<A, B> = <A as PromoteTypes<B>>::Output;

impl<T: Element> PromoteTypes<T> for T {
    type Output = T;
}

/// The table behind [`PromoteTypes`], all 144 pairs.
pub trait PromotionTable<B> {
    /// The promoted type.
    type Output: Element;
}

/// complex64.
type C64 = Complex<f32>;
/// complex128.
type C128 = Complex<f64>;

/// The promotion table, written once: it generates the 144 impls of
/// [`PromotionTable`] and the runtime table of [`DType::promote`].
macro_rules! promotion_table {
    ($cols:tt $($row:ident [$($cell:ident),*],)*) => {
        $(promotion_table!(@row $row $cols [$($cell),*]);)*

        /// The runtime table, in the order of [`DType::ALL`].
        const PROMOTE: [[DType; 12]; 12] = [$([$(<$cell as Element>::DTYPE),*]),*];
    };
    (@row $row:ident [$($col:ident),*] [$($cell:ident),*]) => {
        $(impl PromotionTable<$col> for $row {
            type Output = $cell;
        })*
    };
}

promotion_table! {
    [f16, bf16, f32, f64, C64, C128, u8, i8, i16, i32, i64, bool]
    f16  [ f16,  f32,  f32,  f64,  C64, C128,  f16,  f16,  f16,  f16,  f16,  f16],
    bf16 [ f32, bf16,  f32,  f64,  C64, C128, bf16, bf16, bf16, bf16, bf16, bf16],
    f32  [ f32,  f32,  f32,  f64,  C64, C128,  f32,  f32,  f32,  f32,  f32,  f32],
    f64  [ f64,  f64,  f64,  f64, C128, C128,  f64,  f64,  f64,  f64,  f64,  f64],
    C64  [ C64,  C64,  C64, C128,  C64, C128,  C64,  C64,  C64,  C64,  C64,  C64],
    C128 [C128, C128, C128, C128, C128, C128, C128, C128, C128, C128, C128, C128],
    u8   [ f16, bf16,  f32,  f64,  C64, C128,   u8,  i16,  i16,  i32,  i64,   u8],
    i8   [ f16, bf16,  f32,  f64,  C64, C128,  i16,   i8,  i16,  i32,  i64,   i8],
    i16  [ f16, bf16,  f32,  f64,  C64, C128,  i16,  i16,  i16,  i32,  i64,  i16],
    i32  [ f16, bf16,  f32,  f64,  C64, C128,  i32,  i32,  i32,  i32,  i64,  i32],
    i64  [ f16, bf16,  f32,  f64,  C64, C128,  i64,  i64,  i64,  i64,  i64,  i64],
    bool [ f16, bf16,  f32,  f64,  C64, C128,   u8,   i8,  i16,  i32,  i64, bool],
}

/// Impls of a promotion trait for every ordered pair of two different
/// element types (the diagonal is the blanket `T with T is T`).
macro_rules! for_distinct_pairs {
    ($m:ident; [$($done:ty),*] []) => {};
    ($m:ident; [$($done:ty),*] [$head:ty $(, $rest:ty)*]) => {
        $($m!($head, $done); $m!($done, $head);)*
        for_distinct_pairs!($m; [$($done,)* $head] [$($rest),*]);
    };
}

/// [`for_distinct_pairs!`] over the twelve element types.
macro_rules! for_distinct_element_pairs {
    ($m:ident) => {
        for_distinct_pairs!($m; [] [f16, bf16, f32, f64, C64, C128, u8, i8, i16, i32, i64, bool]);
    };
}

macro_rules! promote_from_table {
    ($a:ty, $b:ty) => {
        impl PromoteTypes<$b> for $a {
            type Output = <$a as PromotionTable<$b>>::Output;
        }
    };
}
for_distinct_element_pairs!(promote_from_table);

// ------------------------------------------------------ combine_categories

/// PyTorch's `combine_categories(higher, lower)`: the result of a
/// higher-priority operand of type `Self` with a lower-priority one of type
/// `Lower` (a rank-0 tensor or a plain number).
pub trait CombineCategories<Lower> {
    /// The result type.
    type Output: Element;
}

/// `combine_categories(H, L)`.
pub type Combined<H, L> = <H as CombineCategories<L>>::Output;

/// A type combined with itself is itself.
impl<T: Element> CombineCategories<T> for T {
    type Output = T;
}

macro_rules! combine_by_category {
    ($h:ty, $l:ty) => {
        impl CombineCategories<$l> for $h {
            type Output =
                <(<$h as Element>::Category, <$l as Element>::Category) as CategoryRule<$h, $l>>::Output;
        }
    };
}
for_distinct_element_pairs!(combine_by_category);

/// One rule of `combine_categories`, chosen by the pair of categories
/// `(higher, lower)`.
pub trait CategoryRule<H, L> {
    /// The result type.
    type Output: Element;
}

/// A complex higher operand wins.
impl<H: Element, L, C> CategoryRule<H, L> for (ComplexCategory, C) {
    type Output = H;
}
/// A complex lower operand makes a floating one complex, keeping its width.
impl<H: ToComplex, L> CategoryRule<H, L> for (FloatingCategory, ComplexCategory) {
    type Output = H::Complex;
}
/// A complex lower operand wins over an integer one ...
impl<H, L: Element> CategoryRule<H, L> for (IntegerCategory, ComplexCategory) {
    type Output = L;
}
/// ... and over a bool one.
impl<H, L: Element> CategoryRule<H, L> for (BoolCategory, ComplexCategory) {
    type Output = L;
}
/// A floating higher operand wins over every lower non-complex one.
impl<H: Element, L> CategoryRule<H, L> for (FloatingCategory, FloatingCategory) {
    type Output = H;
}
/// (as above)
impl<H: Element, L> CategoryRule<H, L> for (FloatingCategory, IntegerCategory) {
    type Output = H;
}
/// (as above)
impl<H: Element, L> CategoryRule<H, L> for (FloatingCategory, BoolCategory) {
    type Output = H;
}
/// A floating lower operand wins over an integer one (its own type, as
/// `promote_types(integer, floating)` is the floating one) ...
impl<H, L: Element> CategoryRule<H, L> for (IntegerCategory, FloatingCategory) {
    type Output = L;
}
/// ... and over a bool one.
impl<H, L: Element> CategoryRule<H, L> for (BoolCategory, FloatingCategory) {
    type Output = L;
}
/// A bool higher operand takes an integer lower one's type.
impl<H, L: Element> CategoryRule<H, L> for (BoolCategory, IntegerCategory) {
    type Output = L;
}
/// Same category, or a lower one: the higher operand's type stays.
impl<H: Element, L> CategoryRule<H, L> for (IntegerCategory, IntegerCategory) {
    type Output = H;
}
/// (as above)
impl<H: Element, L> CategoryRule<H, L> for (IntegerCategory, BoolCategory) {
    type Output = H;
}
/// (as above)
impl<H: Element, L> CategoryRule<H, L> for (BoolCategory, BoolCategory) {
    type Output = H;
}

// -------------------------------------------------------------- priorities

/// A tensor with at least one dimension (a static rank of 1 or more).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Dimensioned;
/// A tensor of static rank 0.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ZeroDim;
/// A plain Rust number.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Scalar;
/// A tensor whose rank is known only at run time (`DynShape`). The compiler
/// treats it as [`Dimensioned`]; when it turns out to have rank 0 and
/// PyTorch would pick another type, the operation reports an error at run
/// time instead of silently differing.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct RuntimeRank;

/// The priority of an operand in promotion.
pub trait Priority: Copy + Default + 'static {
    /// The priority the compiler uses: [`RuntimeRank`] counts as
    /// [`Dimensioned`].
    type Static: Priority;
    /// The runtime kind, for [`DType::result_type`].
    const KIND: OperandKind;
}
impl Priority for Dimensioned {
    type Static = Dimensioned;
    const KIND: OperandKind = OperandKind::Dimensioned;
}
impl Priority for ZeroDim {
    type Static = ZeroDim;
    const KIND: OperandKind = OperandKind::ZeroDim;
}
impl Priority for Scalar {
    type Static = Scalar;
    const KIND: OperandKind = OperandKind::Scalar;
}
impl Priority for RuntimeRank {
    type Static = Dimensioned;
    const KIND: OperandKind = OperandKind::Dimensioned;
}

/// The result type of a binary operation between an operand of type `A` and
/// priority `PA` and one of type `B` and priority `PB`.
pub type ResultType<A, PA, B, PB> =
    <(<PA as Priority>::Static, <PB as Priority>::Static) as PriorityRule<A, B>>::Output;

/// One rule of result types, chosen by the pair of (static) priorities.
pub trait PriorityRule<A, B> {
    /// The result type.
    type Output: Element;
}

/// Two operands of the same priority: `promote_types`.
impl<A: PromoteTypes<B>, B> PriorityRule<A, B> for (Dimensioned, Dimensioned) {
    type Output = Promoted<A, B>;
}
/// (as above)
impl<A: PromoteTypes<B>, B> PriorityRule<A, B> for (ZeroDim, ZeroDim) {
    type Output = Promoted<A, B>;
}
/// A rank-0 tensor beside a dimensioned one: it counts only by its category.
impl<A: CombineCategories<B>, B> PriorityRule<A, B> for (Dimensioned, ZeroDim) {
    type Output = Combined<A, B>;
}
/// (as above, mirrored)
impl<A, B: CombineCategories<A>> PriorityRule<A, B> for (ZeroDim, Dimensioned) {
    type Output = Combined<B, A>;
}
/// A plain number beside a tensor: it counts as its category's default type,
/// and only by its category.
impl<A: CombineCategories<DefaultOf<B>>, B: Element> PriorityRule<A, B> for (Dimensioned, Scalar) {
    type Output = Combined<A, DefaultOf<B>>;
}
/// (as above)
impl<A: CombineCategories<DefaultOf<B>>, B: Element> PriorityRule<A, B> for (ZeroDim, Scalar) {
    type Output = Combined<A, DefaultOf<B>>;
}
/// (as above, mirrored)
impl<A: Element, B: CombineCategories<DefaultOf<A>>> PriorityRule<A, B> for (Scalar, Dimensioned) {
    type Output = Combined<B, DefaultOf<A>>;
}
/// (as above, mirrored)
impl<A: Element, B: CombineCategories<DefaultOf<A>>> PriorityRule<A, B> for (Scalar, ZeroDim) {
    type Output = Combined<B, DefaultOf<A>>;
}

/// The common type of a tensor of `Self`s with shape `SA` and a tensor of
/// `B`s with shape `SB`: [`ResultType`] with each shape's priority. One
/// bound for the operators to name.
pub trait CommonType<B: Element, SA: Shape, SB: Shape>: Element {
    /// The common type.
    type Output: Element;
}
/// Operands of one type: that type, whatever their priorities (so generic
/// code over `T: Element` and any shapes needs no promotion bounds).
impl<T: Element, SA: Shape, SB: Shape> CommonType<T, SA, SB> for T {
    type Output = T;
}

macro_rules! common_type_by_priority {
    ($a:ty, $b:ty) => {
        impl<SA: Shape, SB: Shape> CommonType<$b, SA, SB> for $a
        where
            (StaticPriority<SA>, StaticPriority<SB>): PriorityRule<$a, $b>,
        {
            type Output =
                <(StaticPriority<SA>, StaticPriority<SB>) as PriorityRule<$a, $b>>::Output;
        }
    };
}
for_distinct_element_pairs!(common_type_by_priority);

/// The common type of a tensor of `Self`s with shape `SA` and a plain
/// number of type `B` (on either side).
pub trait CommonWithScalar<B: Element, SA: Shape>: Element {
    /// The common type.
    type Output: Element;
}
/// A number of the tensor's own type: that type.
impl<T: Element, SA: Shape> CommonWithScalar<T, SA> for T {
    type Output = T;
}

macro_rules! common_with_scalar_by_priority {
    ($a:ty, $b:ty) => {
        impl<SA: Shape> CommonWithScalar<$b, SA> for $a
        where
            (StaticPriority<SA>, Scalar): PriorityRule<$a, $b>,
        {
            type Output = <(StaticPriority<SA>, Scalar) as PriorityRule<$a, $b>>::Output;
        }
    };
}
for_distinct_element_pairs!(common_with_scalar_by_priority);

/// The common type of tensors of `A`s (shape `SA`) and `B`s (shape `SB`).
pub type Common<A, SA, B, SB> = <A as CommonType<B, SA, SB>>::Output;
/// The common type of a tensor of `A`s (shape `SA`) and a number of type `B`.
pub type CommonScalar<A, SA, B> = <A as CommonWithScalar<B, SA>>::Output;

/// The priority the compiler gives a tensor of shape `S`.
pub type StaticPriority<S> = <<S as Shape>::Priority as Priority>::Static;

/// Checks the compiler's choice `C` for operands whose rank is known only at
/// run time: `Err` when PyTorch, seeing the actual ranks, picks another type.
pub fn check_runtime_rank<C: Element>(
    lhs: (DType, Option<usize>, usize),
    rhs: (DType, Option<usize>, usize),
) -> Result<(), crate::error::Error> {
    if lhs.1.is_some() && rhs.1.is_some() || lhs.0 == rhs.0 {
        return Ok(());
    }
    let kind = |rank: usize| {
        if rank == 0 {
            OperandKind::ZeroDim
        } else {
            OperandKind::Dimensioned
        }
    };
    let pytorch = DType::result_type((lhs.0, kind(lhs.2)), (rhs.0, kind(rhs.2)));
    if pytorch == C::DTYPE {
        Ok(())
    } else {
        Err(crate::error::Error::RuntimeRankPromotion {
            lhs: (lhs.0, lhs.2),
            rhs: (rhs.0, rhs.2),
            pytorch,
            chosen: C::DTYPE,
        })
    }
}

// ----------------------------------------------------------------- casting

/// A result of type `Self` may be stored into an output of element type
/// `Out` (an in-place operation's left-hand side): PyTorch's `canCast`.
/// Floating results cannot go into integer or bool outputs, complex ones
/// only into complex outputs, and bool outputs take only bool results.
pub trait StorableIn<Out> {}

/// A result always fits an output of its own type.
impl<T: Element> StorableIn<T> for T {}

macro_rules! storable_by_category {
    ($c:ty, $out:ty) => {
        impl StorableIn<$out> for $c where
            for<'a> (<$c as Element>::Category, <$out as Element>::Category):
                CastRule<$c, $out, &'a ()>
        {
        }
    };
}
for_distinct_element_pairs!(storable_by_category);

/// One rule of [`StorableIn`], by the pair of categories `(result, output)`.
/// The forbidden pairs have an impl too, which requires a trait nothing
/// implements: its message is the compile error a user sees.
pub trait CastRule<C, Out, L> {}

/// A bool result goes anywhere.
impl<C, Out, K, L> CastRule<C, Out, L> for (BoolCategory, K) {}
/// An integer result goes into integer, floating and complex outputs ...
impl<C, Out, L> CastRule<C, Out, L> for (IntegerCategory, IntegerCategory) {}
/// (as above)
impl<C, Out, L> CastRule<C, Out, L> for (IntegerCategory, FloatingCategory) {}
/// (as above)
impl<C, Out, L> CastRule<C, Out, L> for (IntegerCategory, ComplexCategory) {}
/// ... but not into bool.
impl<C: Element, Out: Element, L> CastRule<C, Out, L> for (IntegerCategory, BoolCategory) where
    (): ForbiddenCast<C::TorchName, Out::TorchName>
{
}
/// A floating result goes into floating and complex outputs ...
impl<C, Out, L> CastRule<C, Out, L> for (FloatingCategory, FloatingCategory) {}
/// (as above)
impl<C, Out, L> CastRule<C, Out, L> for (FloatingCategory, ComplexCategory) {}
/// ... but not into integer or bool ones.
impl<C: Element, Out: Element, L> CastRule<C, Out, L> for (FloatingCategory, IntegerCategory) where
    (): ForbiddenCast<C::TorchName, Out::TorchName>
{
}
/// (as above)
impl<C: Element, Out: Element, L> CastRule<C, Out, L> for (FloatingCategory, BoolCategory) where
    (): ForbiddenCast<C::TorchName, Out::TorchName>
{
}
/// A complex result goes only into complex outputs.
impl<C, Out, L> CastRule<C, Out, L> for (ComplexCategory, ComplexCategory) {}
/// (as above)
impl<C: Element, Out: Element, L> CastRule<C, Out, L> for (ComplexCategory, FloatingCategory) where
    (): ForbiddenCast<C::TorchName, Out::TorchName>
{
}
/// (as above)
impl<C: Element, Out: Element, L> CastRule<C, Out, L> for (ComplexCategory, IntegerCategory) where
    (): ForbiddenCast<C::TorchName, Out::TorchName>
{
}
/// (as above)
impl<C: Element, Out: Element, L> CastRule<C, Out, L> for (ComplexCategory, BoolCategory) where
    (): ForbiddenCast<C::TorchName, Out::TorchName>
{
}

/// Holds for no pair of names: a forbidden cast of an in-place result into
/// its output. Each pair's impl requires a message trait that nothing
/// implements, generated with PyTorch's words (`result type Float can't be
/// cast to the desired output type Long`): that message is the compile
/// error a user sees.
#[diagnostic::on_unimplemented(
    message = "result type {From} can't be cast to the desired output type {To}",
    label = "the result of this in-place operation cannot be stored in its left-hand side"
)]
pub trait ForbiddenCast<From, To> {}

shaped_macros::cast_messages!(
    Half,
    BFloat16,
    Float,
    Double,
    ComplexFloat,
    ComplexDouble,
    Byte,
    Char,
    Short,
    Int,
    Long,
    Bool
);

/// PyTorch's C++ names of the twelve dtypes, as they appear in its casting
/// errors (`result type Float can't be cast to the desired output type
/// Long`). Only names: [`Element::TorchName`] maps each element type to one.
pub mod names {
    macro_rules! names {
        ($($(#[$doc:meta])* $name:ident),*) => {$(
            $(#[$doc])*
            #[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
            pub struct $name;
        )*};
    }
    names! {
        /// float16.
        Half,
        /// bfloat16.
        BFloat16,
        /// float32.
        Float,
        /// float64.
        Double,
        /// complex64.
        ComplexFloat,
        /// complex128.
        ComplexDouble,
        /// uint8.
        Byte,
        /// int8.
        Char,
        /// int16.
        Short,
        /// int32.
        Int,
        /// int64.
        Long,
        /// bool.
        Bool
    }
}

// ------------------------------------------------------------ at run time

/// What kind of operand a value is, for [`DType::result_type`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum OperandKind {
    /// A tensor with at least one dimension.
    Dimensioned,
    /// A tensor of rank 0.
    ZeroDim,
    /// A plain number (of its category's default type).
    Scalar,
}

impl DType {
    /// The twelve dtypes, in the order of the promotion table.
    pub const ALL: [DType; 12] = [
        DType::F16,
        DType::BF16,
        DType::F32,
        DType::F64,
        DType::C64,
        DType::C128,
        DType::U8,
        DType::I8,
        DType::I16,
        DType::I32,
        DType::I64,
        DType::Bool,
    ];

    /// This dtype's position in [`DType::ALL`] (the order of the variants).
    const fn index(self) -> usize {
        self as usize
    }

    /// `torch.promote_types(a, b)`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(DType::promote(DType::U8, DType::I8), DType::I16);
    /// assert_eq!(DType::promote(DType::F16, DType::BF16), DType::F32);
    /// ```
    pub const fn promote(a: DType, b: DType) -> DType {
        PROMOTE[a.index()][b.index()]
    }

    /// The category rank: bool 0, integer 1, floating 2, complex 3.
    pub const fn category(self) -> u8 {
        if self.is_complex() {
            3
        } else if self.is_floating_point() {
            2
        } else if matches!(self, DType::Bool) {
            0
        } else {
            1
        }
    }

    /// The dtype a plain number of this dtype stands for in promotion:
    /// its category's default (bool, int64, float32, complex64).
    pub const fn category_default(self) -> DType {
        match self.category() {
            0 => DType::Bool,
            1 => DType::I64,
            2 => DType::F32,
            _ => DType::C64,
        }
    }

    /// The dtype an operand of this dtype and kind counts as: a plain number
    /// counts as its category's default.
    const fn as_operand(self, kind: OperandKind) -> DType {
        match kind {
            OperandKind::Scalar => self.category_default(),
            _ => self,
        }
    }

    /// PyTorch's `combine_categories(higher, lower)`.
    pub const fn combine_categories(higher: DType, lower: DType) -> DType {
        match (higher.category(), lower.category()) {
            (3, _) => higher,
            (2, 3) => match higher {
                DType::F64 => DType::C128,
                _ => DType::C64,
            },
            (_, 3) => lower,
            (2, _) => higher,
            (_, 2) => lower,
            (0, _) => lower,
            _ => higher,
        }
    }

    /// The result type of a binary operation between operands of these
    /// dtypes and kinds, as PyTorch's `torch.result_type` (a plain number
    /// counts as its category's default type).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::promote::OperandKind::*;
    /// assert_eq!(DType::result_type((DType::I32, Dimensioned), (DType::I64, ZeroDim)), DType::I32);
    /// assert_eq!(DType::result_type((DType::I32, Dimensioned), (DType::F64, Scalar)), DType::F32);
    /// assert_eq!(DType::result_type((DType::I32, ZeroDim), (DType::I64, ZeroDim)), DType::I64);
    /// ```
    pub const fn result_type(a: (DType, OperandKind), b: (DType, OperandKind)) -> DType {
        use OperandKind::*;
        let (da, db) = (a.0.as_operand(a.1), b.0.as_operand(b.1));
        match (a.1, b.1) {
            (Dimensioned, Dimensioned) | (ZeroDim, ZeroDim) | (Scalar, Scalar) => {
                DType::promote(da, db)
            }
            (Dimensioned, _) | (ZeroDim, Scalar) => DType::combine_categories(da, db),
            _ => DType::combine_categories(db, da),
        }
    }

    /// PyTorch's `canCast(from, to)`: whether a result of dtype `self` may
    /// be stored into an existing tensor of dtype `to`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert!(DType::I64.can_cast_to(DType::I32));
    /// assert!(!DType::F32.can_cast_to(DType::I64));
    /// assert!(!DType::I64.can_cast_to(DType::Bool));
    /// ```
    pub const fn can_cast_to(self, to: DType) -> bool {
        let (from, into) = (self.category(), to.category());
        from <= into && !(into == 0 && from != 0)
    }

    /// PyTorch's C++ name (`Float`, `Long`, ...), as in its error texts.
    pub const fn torch_name(self) -> &'static str {
        match self {
            DType::F16 => "Half",
            DType::BF16 => "BFloat16",
            DType::F32 => "Float",
            DType::F64 => "Double",
            DType::C64 => "ComplexFloat",
            DType::C128 => "ComplexDouble",
            DType::U8 => "Byte",
            DType::I8 => "Char",
            DType::I16 => "Short",
            DType::I32 => "Int",
            DType::I64 => "Long",
            DType::Bool => "Bool",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `$check!(A, B)` for every ordered pair of element types.
    macro_rules! every_pair {
        ($check:ident) => {
            every_pair!(@rows $check; f16, bf16, f32, f64, C64, C128, u8, i8, i16, i32, i64, bool);
        };
        (@rows $check:ident; $($a:ty),*) => {$(
            every_pair!(@row $check; $a; f16, bf16, f32, f64, C64, C128, u8, i8, i16, i32, i64, bool);
        )*};
        (@row $check:ident; $a:ty; $($b:ty),*) => {$( $check!($a, $b); )*};
    }

    /// The type-level table and the runtime one agree on every pair (they
    /// come from one macro; this checks the macro and the blanket diagonal).
    #[test]
    fn type_level_promotion_matches_the_runtime_table() {
        macro_rules! check {
            ($a:ty, $b:ty) => {
                assert_eq!(
                    <Promoted<$a, $b> as Element>::DTYPE,
                    DType::promote(<$a>::DTYPE, <$b>::DTYPE)
                );
            };
        }
        every_pair!(check);
    }

    /// The table promotes every type with itself to itself, as the blanket
    /// impl of [`PromoteTypes`] assumes.
    #[test]
    fn the_table_diagonal_is_the_identity() {
        for (i, d) in DType::ALL.into_iter().enumerate() {
            assert_eq!(d.index(), i, "DType::ALL follows the variants' order");
            assert_eq!(DType::promote(d, d), d);
            assert_eq!(DType::combine_categories(d, d), d);
        }
    }

    /// `combine_categories` at the type level and at run time agree on
    /// every pair.
    #[test]
    fn type_level_combination_matches_the_runtime_rule() {
        macro_rules! check {
            ($a:ty, $b:ty) => {
                assert_eq!(
                    <Combined<$a, $b> as Element>::DTYPE,
                    DType::combine_categories(<$a>::DTYPE, <$b>::DTYPE),
                    "combine_categories({}, {})",
                    <$a>::DTYPE,
                    <$b>::DTYPE
                );
            };
        }
        every_pair!(check);
    }
}
