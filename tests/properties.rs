//! Property tests: the three ways to write one computation (static shapes,
//! mixed shapes with `Dyn` entries, dynamic rank) agree with each other and
//! with a plain reference written here, and the fallible API never panics.
//!
//! 1. Dynamic rank against the reference: random shape pairs (mostly
//!    broadcastable), random values; `try_add/try_sub/try_mul/try_div` and
//!    the comparisons, and the in-place `try_*_assign`, give the reference's
//!    shape and values, or PyTorch's error text naming the right dimension.
//! 2. Mixed shapes against dynamic rank: the same pairs as static-rank shapes
//!    of `Dyn` (and some static) sizes give the same shapes, values and errors.
//! 3. Static shapes against dynamic rank: a fixed list of static shape pairs,
//!    random values; the operators, the `try_` forms, the dynamic forms and
//!    the reference agree; `into_dyn`/`into_static` round-trip and
//!    contradicting static shapes are refused.
//! 4. No panics: random, often invalid, inputs (huge sizes built as expand
//!    views or as empty tensors, random indices, expand sizes, `from_vec`
//!    lengths) give `Ok` or `Err`, and each answer is checked against the
//!    reference.
//!
//! The reference (`reference` module) knows nothing of the library: shapes are
//! `Vec<usize>`, elements are row-major `Vec`s, broadcasting is a loop.

use proptest::collection::vec;
use proptest::prelude::*;
use shaped::TensorView;
use shaped::prelude::*;
use shaped::shape::{FixedShape, Shape};
use shaped::storage::Repr;

/// The configuration of a property: `cases` cases, and shrinking bounded so
/// that a failing property reports within seconds.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        max_shrink_iters: 400,
        max_shrink_time: 5_000,
        ..ProptestConfig::default()
    }
}

/// Cases for the dynamic-rank properties (part 1).
const DYN_CASES: u32 = 3000;
/// Cases for each mixed-shape property (part 2).
const MIXED_CASES: u32 = 400;
/// Cases for each static shape pair (part 3).
const STATIC_CASES: u32 = 128;
/// Cases for each no-panic property (part 4).
const WILD_CASES: u32 = 3000;

// ---------------------------------------------------------------------------
// The reference, written plainly.
// ---------------------------------------------------------------------------

mod reference {
    /// What the element count of `sizes` allows.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Count {
        /// Every product of the sizes fits in `isize`: a tensor of these
        /// sizes exists (it may be too large to allocate).
        Fits(usize),
        /// The count (0 when a size is 0) fits in `usize`, but a product of
        /// some of the sizes (a row-major stride, a partial product) passes
        /// `isize::MAX`. PyTorch, whose sizes are `i64`, refuses such sizes;
        /// an implementation may refuse or accept them.
        Either(usize),
        /// The count does not fit in `usize`: no tensor has these sizes.
        Overflows,
    }

    impl Count {
        /// The number of elements, if a tensor of these sizes may exist.
        pub fn numel(self) -> Option<usize> {
            match self {
                Count::Fits(n) | Count::Either(n) => Some(n),
                Count::Overflows => None,
            }
        }
    }

    /// The element count of `sizes`.
    pub fn count(sizes: &[usize]) -> Count {
        let zero = sizes.contains(&0);
        let mut product: Option<usize> = Some(1);
        for &s in sizes.iter().filter(|&&s| s != 0) {
            product = product.and_then(|p| p.checked_mul(s));
        }
        match product {
            Some(p) if p <= isize::MAX as usize => Count::Fits(if zero { 0 } else { p }),
            Some(p) => Count::Either(if zero { 0 } else { p }),
            None if zero => Count::Either(0),
            None => Count::Overflows,
        }
    }

    /// The number of elements of sizes known to be small.
    pub fn numel(sizes: &[usize]) -> usize {
        count(sizes).numel().expect("small sizes")
    }

    /// PyTorch's text for two sizes that do not broadcast.
    pub fn mismatch_text(size_a: usize, size_b: usize, dim: usize) -> String {
        format!(
            "The size of tensor a ({size_a}) must match the size of tensor b ({size_b}) at non-singleton dimension {dim}"
        )
    }

    /// `sizes` with leading 1s up to `rank`.
    fn padded(sizes: &[usize], rank: usize) -> Vec<usize> {
        let mut out = vec![1; rank - sizes.len()];
        out.extend_from_slice(sizes);
        out
    }

    /// The broadcast shape, or PyTorch's error naming the right-most clash
    /// (the dimension counted from the left of the result).
    pub fn broadcast(a: &[usize], b: &[usize]) -> Result<Vec<usize>, String> {
        let rank = a.len().max(b.len());
        let (pa, pb) = (padded(a, rank), padded(b, rank));
        let mut out = vec![0; rank];
        for d in (0..rank).rev() {
            out[d] = if pa[d] == pb[d] || pb[d] == 1 {
                pa[d]
            } else if pa[d] == 1 {
                pb[d]
            } else {
                return Err(mismatch_text(pa[d], pb[d], d));
            };
        }
        Ok(out)
    }

    /// The multi-index of element `flat` of a row-major tensor of `sizes`.
    fn unflatten(mut flat: usize, sizes: &[usize]) -> Vec<usize> {
        let mut index = vec![0; sizes.len()];
        for d in (0..sizes.len()).rev() {
            index[d] = flat % sizes[d];
            flat /= sizes[d];
        }
        index
    }

    /// The element of `data` (row-major, `sizes`) seen at `index` of a tensor
    /// of `out` sizes that `sizes` broadcasts to.
    pub fn element<T: Copy>(data: &[T], sizes: &[usize], out: &[usize], index: &[usize]) -> T {
        assert_eq!(index.len(), out.len());
        let extra = out.len() - sizes.len();
        let mut flat = 0;
        for (k, &n) in sizes.iter().enumerate() {
            let i = if n == 1 { 0 } else { index[extra + k] };
            flat = flat * n + i;
        }
        data[flat]
    }

    /// `data` (row-major, `sizes`) broadcast to `out`, row-major.
    pub fn gather<T: Copy>(data: &[T], sizes: &[usize], out: &[usize]) -> Vec<T> {
        (0..numel(out))
            .map(|flat| element(data, sizes, out, &unflatten(flat, out)))
            .collect()
    }

    /// The result of an elementwise binary operation: its shape and its
    /// row-major elements, or PyTorch's error text.
    pub type Outcome<U> = Result<(Vec<usize>, Vec<U>), String>;

    /// `f(a, b)` with broadcasting.
    pub fn binary<T: Copy, U>(
        a: &[T],
        sa: &[usize],
        b: &[T],
        sb: &[usize],
        f: impl Fn(T, T) -> U,
    ) -> Outcome<U> {
        let out = broadcast(sa, sb)?;
        let ga = gather(a, sa, &out);
        let gb = gather(b, sb, &out);
        let values = ga.into_iter().zip(gb).map(|(x, y)| f(x, y)).collect();
        Ok((out, values))
    }

    /// True when `y` broadcasts to `x` without changing `x`'s shape.
    pub fn fits(sy: &[usize], sx: &[usize]) -> bool {
        sy.len() <= sx.len()
            && sy
                .iter()
                .rev()
                .zip(sx.iter().rev())
                .all(|(&n, &m)| n == m || n == 1)
    }

    /// `x = f(x, y)` in place: the new elements of `x`, or PyTorch's error.
    pub fn in_place<T: Copy>(
        x: &[T],
        sx: &[usize],
        y: &[T],
        sy: &[usize],
        f: impl Fn(T, T) -> T,
    ) -> Result<Vec<T>, String> {
        if fits(sy, sx) {
            let gy = gather(y, sy, sx);
            return Ok(x.iter().zip(gy).map(|(&a, b)| f(a, b)).collect());
        }
        let b = broadcast(sx, sy)?;
        Err(format!(
            "output with shape {sx:?} doesn't match the broadcast shape {b:?}"
        ))
    }

    /// PyTorch's `expand` on sizes: `-1` keeps a size, size-1 dimensions
    /// stretch, new leading dimensions appear. `None` when it is refused,
    /// else the sizes and their [`Count`]: with [`Count::Either`], refusing
    /// is also correct.
    pub fn expand(existing: &[usize], target: &[isize]) -> Option<(Vec<usize>, Count)> {
        if target.len() < existing.len() {
            return None;
        }
        let extra = target.len() - existing.len();
        let mut out = Vec::with_capacity(target.len());
        for (i, &t) in target.iter().enumerate() {
            let size = if i < extra {
                usize::try_from(t).ok()?
            } else {
                let n = existing[i - extra];
                if t == -1 {
                    n
                } else {
                    let t = usize::try_from(t).ok()?;
                    if t == n || n == 1 {
                        t
                    } else {
                        return None;
                    }
                }
            };
            out.push(size);
        }
        match count(&out) {
            Count::Overflows => None,
            c => Some((out, c)),
        }
    }

    /// Why sizes do not fit a static shape.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Refusal {
        /// The shape's rank and the number of sizes.
        Rank { expected: usize, actual: usize },
        /// The first dimension whose static size differs.
        Size {
            dim: usize,
            expected: usize,
            actual: usize,
        },
    }

    /// Why `actual` sizes contradict a shape of `template` (`None` for
    /// `Dyn`), or `None` when they agree.
    pub fn static_mismatch(actual: &[usize], template: &[Option<usize>]) -> Option<Refusal> {
        if actual.len() != template.len() {
            return Some(Refusal::Rank {
                expected: template.len(),
                actual: actual.len(),
            });
        }
        for (dim, (&a, &t)) in actual.iter().zip(template).enumerate() {
            if let Some(t) = t
                && t != a
            {
                return Some(Refusal::Size {
                    dim,
                    expected: t,
                    actual: a,
                });
            }
        }
        None
    }
}

use reference::{Outcome, Refusal};

/// The library's error for a refusal (its text is the library's own: no
/// PyTorch message exists for static shapes).
fn refusal_error(r: Refusal) -> Error {
    match r {
        Refusal::Rank { expected, actual } => Error::RankMismatch { expected, actual },
        Refusal::Size {
            dim,
            expected,
            actual,
        } => Error::StaticSizeMismatch {
            dim,
            expected,
            actual,
        },
    }
}

// ---------------------------------------------------------------------------
// Comparing the library's answers with the reference's.
// ---------------------------------------------------------------------------

/// Element equality for checks: floats bit for bit (any NaN equals any NaN).
trait Same: Copy + std::fmt::Debug {
    fn same(self, other: Self) -> bool;
}
impl Same for f64 {
    fn same(self, other: f64) -> bool {
        self.to_bits() == other.to_bits() || (self.is_nan() && other.is_nan())
    }
}
impl Same for f32 {
    fn same(self, other: f32) -> bool {
        self.to_bits() == other.to_bits() || (self.is_nan() && other.is_nan())
    }
}
impl Same for i64 {
    fn same(self, other: i64) -> bool {
        self == other
    }
}
impl Same for bool {
    fn same(self, other: bool) -> bool {
        self == other
    }
}

/// An overflow error: the answer for sizes whose products pass `isize::MAX`
/// (its text is built, to check that printing it does not panic either).
fn is_overflow(e: &Error) -> bool {
    let _ = e.to_string();
    matches!(
        e,
        Error::StorageOverflow { .. } | Error::NumelOverflow | Error::StrideOverflow
    )
}

/// An overflow or out-of-memory error: the answer for a result too large.
fn is_too_large(e: &Error) -> bool {
    is_overflow(e) || matches!(e, Error::OutOfMemory { .. })
}

/// A tensor's sizes as a `Vec`.
fn sizes_of<T: Element, S: Shape, R: Repr>(t: &Tensor<T, S, Cpu, R>) -> Vec<usize> {
    t.shape().as_ref().to_vec()
}

/// A tensor's strides as a `Vec`.
fn strides_of<T: Element, S: Shape, R: Repr>(t: &Tensor<T, S, Cpu, R>) -> Vec<usize> {
    t.strides().as_ref().to_vec()
}

fn same_values<T: Same>(got: &[T], want: &[T]) -> bool {
    got.len() == want.len() && got.iter().zip(want).all(|(&g, &w)| g.same(w))
}

/// A library result against the reference's outcome.
fn check<T: Element + Same, S: Shape>(
    what: &str,
    got: Result<Tensor<T, S>, Error>,
    want: &Outcome<T>,
) -> Result<(), TestCaseError> {
    match (got, want) {
        (Ok(t), Ok((shape, values))) => {
            prop_assert_eq!(sizes_of(&t), &shape[..], "{}: shape", what);
            let got = t.to_vec();
            prop_assert!(
                same_values(&got, values),
                "{}: values {:?}, want {:?}",
                what,
                got,
                values
            );
        }
        (Err(e), Err(text)) => prop_assert_eq!(&e.to_string(), text, "{}: error", what),
        (Ok(t), Err(text)) => {
            prop_assert!(false, "{}: Ok({:?}), want Err({})", what, t.to_vec(), text)
        }
        (Err(e), Ok((shape, _))) => {
            prop_assert!(false, "{}: Err({}), want shape {:?}", what, e, shape)
        }
    }
    Ok(())
}

/// A mixed (or static) result and the dynamic one: each against the
/// reference, the same error, and the dynamic result's sizes fit the
/// static output type `S`.
fn check_both<T: Element + Same, S: Shape>(
    what: &str,
    mixed: Result<Tensor<T, S>, Error>,
    dynamic: Result<DynTensor<T>, Error>,
    want: &Outcome<T>,
) -> Result<(), TestCaseError> {
    if let (Err(m), Err(d)) = (&mixed, &dynamic) {
        prop_assert_eq!(m, d, "{}: mixed and dynamic errors", what);
    }
    if let Ok(d) = &dynamic {
        prop_assert!(
            d.clone().into_static::<S>().is_ok(),
            "{}: dynamic shape {:?} contradicts the static output type",
            what,
            d.shape()
        );
    }
    check(&format!("{what} (static-rank)"), mixed, want)?;
    check(&format!("{what} (dynamic)"), dynamic, want)
}

/// An in-place result (`Ok(())`/`Err`) and the tensor after it, against the
/// reference: the shape never changes, and on error nothing changes.
fn check_in_place<T: Element + Same, S: Shape>(
    what: &str,
    result: Result<(), Error>,
    after: &Tensor<T, S>,
    before: &[T],
    shape: &[usize],
    want: &Result<Vec<T>, String>,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(sizes_of(after), shape, "{}: shape changed", what);
    let now = after.to_vec();
    match (result, want) {
        (Ok(()), Ok(values)) => prop_assert!(
            same_values(&now, values),
            "{}: values {:?}, want {:?}",
            what,
            now,
            values
        ),
        (Err(e), Err(text)) => {
            prop_assert_eq!(&e.to_string(), text, "{}: error", what);
            prop_assert!(same_values(&now, before), "{}: changed on error", what);
        }
        (Ok(()), Err(text)) => prop_assert!(false, "{}: Ok, want Err({})", what, text),
        (Err(e), Ok(_)) => prop_assert!(false, "{}: Err({}), want Ok", what, e),
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Strategies.
// ---------------------------------------------------------------------------

/// A size from 0 to 5, mostly 2..=5, often 1, sometimes 0.
fn size() -> impl Strategy<Value = usize> + Clone {
    prop_oneof![1 => Just(0usize), 3 => Just(1usize), 6 => 2usize..=5]
}

/// A shape of rank 0..=5.
fn shape() -> impl Strategy<Value = Vec<usize>> + Clone {
    vec(size(), 0..=5)
}

/// How a size of one shape becomes the aligned size of the other.
#[derive(Clone, Copy, Debug)]
enum Edit {
    Keep,
    One,
    Random(usize),
}

fn edit() -> impl Strategy<Value = Edit> + Clone {
    prop_oneof![12 => Just(Edit::Keep), 5 => Just(Edit::One), 1 => (0usize..=5).prop_map(Edit::Random)]
}

fn apply(size: usize, edit: Edit) -> usize {
    match edit {
        Edit::Keep => size,
        Edit::One => 1,
        Edit::Random(n) => n,
    }
}

type Pair = (Vec<usize>, Vec<usize>);

/// A shape pair, mostly broadcastable: `b` is `a` with leading dimensions
/// dropped, sizes set to 1 and occasionally changed (sides swapped half of
/// the time); one pair in eight is two independent shapes.
fn pair() -> impl Strategy<Value = Pair> + Clone {
    let derived = shape()
        .prop_flat_map(|a| {
            let r = a.len();
            // Fewer dimensions dropped than at random (the smaller of two).
            let drop = (0..=r, 0..=r).prop_map(|(x, y)| x.min(y));
            (Just(a), drop, vec(edit(), r), any::<bool>())
        })
        .prop_map(|(a, drop, edits, swap)| {
            let b: Vec<usize> = a
                .iter()
                .zip(&edits)
                .skip(drop)
                .map(|(&s, &e)| apply(s, e))
                .collect();
            if swap { (b, a) } else { (a, b) }
        });
    prop_oneof![7 => derived, 1 => (shape(), shape())]
}

/// A shape pair of fixed ranks, each size forced where its template says
/// (`None` for `Dyn`).
fn templated_pair(ta: Vec<Option<usize>>, tb: Vec<Option<usize>>) -> BoxedStrategy<Pair> {
    let (ra, rb) = (ta.len(), tb.len());
    (vec(size(), ra), vec(edit(), rb), vec(size(), rb), 0..10u8)
        .prop_map(move |(a, edits, fresh, mode)| {
            let a: Vec<usize> = a.iter().zip(&ta).map(|(&s, t)| t.unwrap_or(s)).collect();
            let b: Vec<usize> = (0..rb)
                .map(|i| {
                    let forced = tb[i];
                    let aligned = (i + ra).checked_sub(rb).map(|j| a[j]);
                    let s = match aligned {
                        Some(s) if mode < 9 => apply(s, edits[i]),
                        _ => fresh[i],
                    };
                    forced.unwrap_or(s)
                })
                .collect();
            (a, b)
        })
        .boxed()
}

/// An `f64`: mostly small exact values (0 included), some wide ones, a few
/// special ones (signed zeros, infinities, NaN, subnormals).
fn value() -> impl Strategy<Value = f64> + Clone {
    prop_oneof![
        8 => (-12i32..=12).prop_map(|i| f64::from(i) / 4.0),
        3 => -1e6f64..1e6,
        1 => prop::sample::select(vec![
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::MIN_POSITIVE / 4.0,
            f64::MAX,
        ]),
    ]
}

/// An `i64`: mostly small, sometimes anything (for wrapping).
fn int() -> impl Strategy<Value = i64> + Clone {
    prop_oneof![6 => -9i64..=9, 1 => any::<i64>()]
}

/// Shapes with random values of the right lengths.
type Case<T> = (Vec<usize>, Vec<usize>, Vec<T>, Vec<T>);

fn with_values<T: std::fmt::Debug + Clone + 'static>(
    pairs: impl Strategy<Value = Pair> + 'static,
    value: impl Strategy<Value = T> + Clone + 'static,
) -> BoxedStrategy<Case<T>> {
    pairs
        .prop_flat_map(move |(sa, sb)| {
            let (na, nb): (usize, usize) = (sa.iter().product(), sb.iter().product());
            (
                Just(sa),
                Just(sb),
                vec(value.clone(), na),
                vec(value.clone(), nb),
            )
        })
        .boxed()
}

/// An elementwise `f64` operation.
type Op = fn(f64, f64) -> f64;

fn dyn_tensor<T: Element>(data: &[T], sizes: &[usize]) -> DynTensor<T> {
    DynTensor::from_vec(data.to_vec(), sizes).expect("the reference's sizes and data agree")
}

// ---------------------------------------------------------------------------
// 1. Dynamic rank against the reference.
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(DYN_CASES))]

    /// Every binary operation and comparison of `f64` DynTensors.
    #[test]
    fn dynamic_binary_f64_matches_reference(
        (sa, sb, da, db) in with_values(pair(), value())
    ) {
        let (a, b) = (dyn_tensor(&da, &sa), dyn_tensor(&db, &sb));
        let r = |f: fn(f64, f64) -> f64| reference::binary(&da, &sa, &db, &sb, f);
        let c = |f: fn(f64, f64) -> bool| reference::binary(&da, &sa, &db, &sb, f);
        check("try_add", a.try_add(&b), &r(|x, y| x + y))?;
        check("try_sub", a.try_sub(&b), &r(|x, y| x - y))?;
        check("try_mul", a.try_mul(&b), &r(|x, y| x * y))?;
        check("try_div", a.try_div(&b), &r(|x, y| x / y))?;
        check("try_lt", a.try_lt(&b), &c(|x, y| x < y))?;
        check("try_le", a.try_le(&b), &c(|x, y| x <= y))?;
        check("try_gt", a.try_gt(&b), &c(|x, y| x > y))?;
        check("try_ge", a.try_ge(&b), &c(|x, y| x >= y))?;
        check("try_eq", a.try_eq(&b), &c(|x, y| x == y))?;
        check("try_ne", a.try_ne(&b), &c(|x, y| x != y))?;
    }

    /// Integer arithmetic wraps; integer `/` divides as `float32`.
    #[test]
    fn dynamic_binary_i64_matches_reference(
        (sa, sb, da, db) in with_values(pair(), int())
    ) {
        let (a, b) = (dyn_tensor(&da, &sa), dyn_tensor(&db, &sb));
        let r = |f: fn(i64, i64) -> i64| reference::binary(&da, &sa, &db, &sb, f);
        check("try_add", a.try_add(&b), &r(i64::wrapping_add))?;
        check("try_sub", a.try_sub(&b), &r(i64::wrapping_sub))?;
        check("try_mul", a.try_mul(&b), &r(i64::wrapping_mul))?;
        check(
            "try_div",
            a.try_div(&b),
            &reference::binary(&da, &sa, &db, &sb, |x, y| x as f32 / y as f32),
        )?;
        check("try_lt", a.try_lt(&b), &reference::binary(&da, &sa, &db, &sb, |x, y| x < y))?;
        check("try_eq", a.try_eq(&b), &reference::binary(&da, &sa, &db, &sb, |x, y| x == y))?;
    }

    /// `try_add_assign` .. follow the in-place rule: the output's shape never
    /// changes, and on error the output is untouched.
    #[test]
    fn dynamic_in_place_matches_reference(
        (sx, sy, dx, dy) in with_values(pair(), value())
    ) {
        let y = dyn_tensor(&dy, &sy);
        let ops: [(&str, Op); 4] = [
            ("try_add_assign", |a, b| a + b),
            ("try_sub_assign", |a, b| a - b),
            ("try_mul_assign", |a, b| a * b),
            ("try_div_assign", |a, b| a / b),
        ];
        for (i, (name, f)) in ops.into_iter().enumerate() {
            let mut x = dyn_tensor(&dx, &sx);
            let result = match i {
                0 => x.try_add_assign(&y),
                1 => x.try_sub_assign(&y),
                2 => x.try_mul_assign(&y),
                _ => x.try_div_assign(&y),
            };
            let want = reference::in_place(&dx, &sx, &dy, &sy, f);
            check_in_place(name, result, &x, &dx, &sx, &want)?;
        }
    }

    /// Expanded (stride-0) operands read the same elements as the reference.
    #[test]
    fn dynamic_expanded_operands_match_reference(
        (sa, sb, da, db) in with_values(pair(), value()),
        lead in vec(size(), 0..=1),
    ) {
        let (a, b) = (dyn_tensor(&da, &sa), dyn_tensor(&db, &sb));
        // `a` expanded to the broadcast shape (when there is one) with extra
        // leading dimensions: a view, no copy.
        if let Ok(out) = reference::broadcast(&sa, &sb) {
            let target: Vec<usize> = lead.iter().chain(&out).copied().collect();
            let signed: Vec<isize> = target.iter().map(|&s| s as isize).collect();
            let view = a.expand(&signed);
            prop_assert!(view.is_ok(), "expand {:?} to {:?}: {:?}", sa, target, view.err());
            let view = view.unwrap();
            prop_assert_eq!(sizes_of(&view), &target[..]);
            let va = reference::gather(&da, &sa, &target);
            prop_assert!(same_values(&view.to_vec(), &va));
            let want = reference::binary(&va, &target, &db, &sb, |x, y| x - y);
            check("expanded try_sub", view.try_sub(&b), &want)?;
            let want = reference::binary(&db, &sb, &va, &target, |x, y| x / y);
            check("try_div expanded", b.try_div(&view), &want)?;
        }
    }
}

// ---------------------------------------------------------------------------
// 2. Mixed shapes against dynamic rank.
// ---------------------------------------------------------------------------

/// A shape entry's template: `None` for `Dyn`, the size otherwise.
macro_rules! template {
    (Dyn) => {
        None
    };
    ($n:literal) => {
        Some($n)
    };
}

/// The in-place checks of a mixed pair, for pairs that compile.
macro_rules! mixed_in_place {
    ($ma:ident, $mb:ident, $xa:ident, $xb:ident, $sa:ident, $sb:ident, $da:ident, $db:ident) => {{
        let mut mx = $ma.clone();
        let mut dx = $xa.clone();
        let (rm, rd) = (mx.try_add_assign(&$mb), dx.try_add_assign(&$xb));
        prop_assert_eq!(&rm, &rd, "try_add_assign: mixed and dynamic");
        let want = reference::in_place(&$da, &$sa, &$db, &$sb, |x, y| x + y);
        check_in_place("mixed try_add_assign", rm, &mx, &$da, &$sa, &want)?;
        check_in_place("dynamic try_add_assign", rd, &dx, &$da, &$sa, &want)?;
        let mut mx = $ma.clone();
        let mut dx = $xa.clone();
        let (rm, rd) = (mx.try_mul_assign(&$mb), dx.try_mul_assign(&$xb));
        prop_assert_eq!(&rm, &rd, "try_mul_assign: mixed and dynamic");
        let want = reference::in_place(&$da, &$sa, &$db, &$sb, |x, y| x * y);
        check_in_place("mixed try_mul_assign", rm, &mx, &$da, &$sa, &want)?;
    }};
}

macro_rules! mixed_pairs {
    ($($name:ident: [$($a:tt),*] with [$($b:tt),*] $(, $in_place:ident)?;)*) => {
        proptest! {
            #![proptest_config(config(MIXED_CASES))]
            $(
                #[test]
                fn $name(
                    (sa, sb, da, db) in with_values(
                        templated_pair(vec![$(template!($a)),*], vec![$(template!($b)),*]),
                        value(),
                    )
                ) {
                    let ma = Tensor::<f64, shape![$($a),*]>::from_vec_with(da.clone(), &sa).unwrap();
                    let mb = Tensor::<f64, shape![$($b),*]>::from_vec_with(db.clone(), &sb).unwrap();
                    let (xa, xb) = (dyn_tensor(&da, &sa), dyn_tensor(&db, &sb));
                    let r = |f: fn(f64, f64) -> f64| reference::binary(&da, &sa, &db, &sb, f);
                    check_both("try_add", ma.try_add(&mb), xa.try_add(&xb), &r(|x, y| x + y))?;
                    check_both("try_sub", ma.try_sub(&mb), xa.try_sub(&xb), &r(|x, y| x - y))?;
                    check_both("try_mul", ma.try_mul(&mb), xa.try_mul(&xb), &r(|x, y| x * y))?;
                    check_both("try_div", ma.try_div(&mb), xa.try_div(&xb), &r(|x, y| x / y))?;
                    let want = reference::binary(&da, &sa, &db, &sb, |x, y| x < y);
                    check_both("try_lt", ma.try_lt(&mb), xa.try_lt(&xb), &want)?;
                    let want = reference::binary(&da, &sa, &db, &sb, |x, y| x != y);
                    check_both("try_ne", ma.try_ne(&mb), xa.try_ne(&xb), &want)?;
                    // A mixed operand with a dynamic-rank one gives a dynamic-rank result.
                    check("mixed + dynamic", ma.try_add(&xb), &r(|x, y| x + y))?;
                    check("dynamic + mixed", xa.try_add(&mb), &r(|x, y| x + y))?;
                    $( $in_place!(ma, mb, xa, xb, sa, sb, da, db); )?
                }
            )*
        }
    };
}

mixed_pairs! {
    mixed_rank_2_with_3: [Dyn, Dyn] with [Dyn, Dyn, Dyn];
    mixed_rank_3_with_2: [Dyn, Dyn, Dyn] with [Dyn, Dyn], mixed_in_place;
    mixed_rank_3_with_3: [Dyn, Dyn, Dyn] with [Dyn, Dyn, Dyn], mixed_in_place;
    mixed_rank_1_with_3: [Dyn] with [Dyn, Dyn, Dyn];
    mixed_rank_4_with_1: [Dyn, Dyn, Dyn, Dyn] with [Dyn], mixed_in_place;
    mixed_rank_2_with_2: [Dyn, Dyn] with [Dyn, Dyn], mixed_in_place;
    mixed_rank_1_with_1: [Dyn] with [Dyn], mixed_in_place;
    mixed_rank_0_with_2: [] with [Dyn, Dyn];
    mixed_rank_2_with_0: [Dyn, Dyn] with [], mixed_in_place;
    mixed_rank_5_with_4: [Dyn, Dyn, Dyn, Dyn, Dyn] with [Dyn, Dyn, Dyn, Dyn], mixed_in_place;
    mixed_partly_static_3_with_2: [Dyn, 1, 4] with [Dyn, Dyn], mixed_in_place;
    mixed_partly_static_2_with_3: [Dyn, 3] with [Dyn, 1, Dyn];
    mixed_partly_static_3_with_3: [2, Dyn, 1] with [Dyn, 4, Dyn], mixed_in_place;
}

// ---------------------------------------------------------------------------
// 3. Static shapes against dynamic rank.
// ---------------------------------------------------------------------------

/// The sizes the compiler gave a static result.
fn fixed_sizes<T: Element, S: FixedShape, R: Repr>(_: &Tensor<T, S, Cpu, R>) -> Vec<usize> {
    S::SIZES.as_ref().to_vec()
}

/// `into_dyn` then `into_static::<S>` gives back the same tensor.
fn round_trip<T: Element + Same, S: Shape>(t: &Tensor<T, S>) -> Result<(), TestCaseError> {
    let d: DynTensor<T> = t.clone().into_dyn();
    prop_assert_eq!(sizes_of(&d), sizes_of(t));
    prop_assert_eq!(strides_of(&d), strides_of(t));
    let back = d.into_static::<S>();
    prop_assert!(back.is_ok(), "round trip: {:?}", back.err());
    let back = back.unwrap();
    prop_assert_eq!(sizes_of(&back), sizes_of(t));
    prop_assert_eq!(strides_of(&back), strides_of(t));
    prop_assert!(same_values(&back.to_vec(), &t.to_vec()));
    Ok(())
}

/// `into_static::<W>` of a tensor whose sizes contradict `W` is an error,
/// the reference's one.
fn refused<T: Element, S: Shape, W: FixedShape>(t: &Tensor<T, S>) -> Result<(), TestCaseError> {
    let template: Vec<Option<usize>> = W::SIZES.as_ref().iter().map(|&s| Some(s)).collect();
    let want = reference::static_mismatch(&sizes_of(t), &template).map(refusal_error);
    prop_assert!(want.is_some(), "the test's contradicting shape agrees");
    let got = t.clone().into_dyn().into_static::<W>();
    prop_assert_eq!(got.err(), want.clone());
    let got = t.clone().into_static::<W>();
    let _ = got.as_ref().err().map(|e| e.to_string());
    prop_assert_eq!(got.err(), want);
    Ok(())
}

/// The in-place checks of a static pair, for pairs where the rule holds.
macro_rules! static_in_place {
    ($a:ident, $b:ident, $xa:ident, $xb:ident, $sa:ident, $sb:ident, $da:ident, $db:ident) => {{
        let want = reference::in_place(&$da, &$sa, &$db, &$sb, |x, y| x + y);
        let mut x = $a.clone();
        x += &$b;
        check_in_place("static +=", Ok(()), &x, &$da, &$sa, &want)?;
        let mut x = $a.clone();
        let r = x.try_add_assign(&$b);
        check_in_place("static try_add_assign", r, &x, &$da, &$sa, &want)?;
        let mut x = $xa.clone();
        let r = x.try_add_assign(&$xb);
        check_in_place("dynamic try_add_assign", r, &x, &$da, &$sa, &want)?;
        let want = reference::in_place(&$da, &$sa, &$db, &$sb, |x, y| x / y);
        let mut x = $a.clone();
        x /= &$b;
        check_in_place("static /=", Ok(()), &x, &$da, &$sa, &want)?;
    }};
}

macro_rules! static_pairs {
    ($($name:ident: [$($a:tt)*] with [$($b:tt)*], not [$($w:tt)*] $(, $in_place:ident)?;)*) => {
        proptest! {
            #![proptest_config(config(STATIC_CASES))]
            $(
                #[test]
                fn $name(
                    (da, db) in (
                        vec(value(), <shape![$($a)*] as FixedShape>::NUMEL),
                        vec(value(), <shape![$($b)*] as FixedShape>::NUMEL),
                    )
                ) {
                    let a = Tensor::<f64, shape![$($a)*]>::from_vec(da.clone()).unwrap();
                    let b = Tensor::<f64, shape![$($b)*]>::from_vec(db.clone()).unwrap();
                    let sa: Vec<usize> = sizes_of(&a);
                    let sb: Vec<usize> = sizes_of(&b);
                    let (xa, xb) = (dyn_tensor(&da, &sa), dyn_tensor(&db, &sb));
                    let r = |f: fn(f64, f64) -> f64| reference::binary(&da, &sa, &db, &sb, f);

                    let want = r(|x, y| x + y);
                    let s = &a + &b;
                    prop_assert_eq!(&fixed_sizes(&s), &want.as_ref().unwrap().0);
                    round_trip(&s)?;
                    check("static +", Ok(s), &want)?;
                    check_both("try_add", a.try_add(&b), xa.try_add(&xb), &want)?;

                    let want = r(|x, y| x - y);
                    check("static -", Ok(&a - &b), &want)?;
                    check_both("try_sub", a.try_sub(&b), xa.try_sub(&xb), &want)?;

                    let want = r(|x, y| x * y);
                    check("static *", Ok(&b * &a), &reference::binary(&db, &sb, &da, &sa, |x, y| x * y))?;
                    check_both("try_mul", a.try_mul(&b), xa.try_mul(&xb), &want)?;

                    let want = r(|x, y| x / y);
                    check("static /", Ok(&a / &b), &want)?;
                    check_both("try_div", a.try_div(&b), xa.try_div(&xb), &want)?;

                    let want = reference::binary(&da, &sa, &db, &sb, |x, y| x < y);
                    let s = a.lt(&b);
                    prop_assert_eq!(&fixed_sizes(&s), &want.as_ref().unwrap().0);
                    check("static lt", Ok(s), &want)?;
                    check_both("try_lt", a.try_lt(&b), xa.try_lt(&xb), &want)?;

                    round_trip(&a)?;
                    round_trip(&b)?;
                    refused::<f64, _, shape![$($w)*]>(&a)?;
                    $( $in_place!(a, b, xa, xb, sa, sb, da, db); )?
                }
            )*
        }
    };
}

static_pairs! {
    static_scalar_scalar: [] with [], not [1], static_in_place;
    static_scalar_vector: [] with [3], not [1];
    static_matrix_scalar: [2, 3] with [], not [3, 2], static_in_place;
    static_one_vs_four: [1] with [4], not [4];
    static_four_vs_one: [4] with [1], not [1], static_in_place;
    static_same_vector: [3] with [3], not [2], static_in_place;
    static_trailing_vector: [3, 1, 4] with [4], not [3, 4, 1], static_in_place;
    static_trailing_matrix: [3, 1, 4] with [5, 1], not [3, 1, 5];
    static_column_row: [3, 1] with [1, 4], not [1, 3];
    static_row_column: [1, 4] with [3, 1], not [1, 4, 1];
    static_pytorch_example: [5, 1, 4, 1] with [3, 1, 1], not [5, 1, 4, 2];
    static_empty_vs_one: [0] with [1], not [1], static_in_place;
    static_empty_rows: [0, 3] with [3], not [3, 0], static_in_place;
    static_empty_stretched: [1, 0] with [5, 1], not [5, 0];
    static_empty_middle: [2, 0, 3] with [1, 1, 1], not [2, 1, 3], static_in_place;
    static_empty_vs_scalar: [0] with [], not [], static_in_place;
    static_same_rank_3: [2, 3, 4] with [2, 3, 4], not [2, 3, 5], static_in_place;
    static_ones_vs_matrix: [1, 1, 1] with [2, 3], not [1, 1];
    static_rank_5: [2, 1, 3, 1, 2] with [5, 1, 1, 2], not [2, 1, 3, 1, 3];
    static_vector_vs_rank_3: [1] with [2, 1, 3], not [2];
    static_column_vs_one: [4, 1] with [1], not [4, 2], static_in_place;
    static_ones_vs_scalar: [1, 1] with [], not [1, 1, 1], static_in_place;
    static_vector_vs_column: [6] with [2, 1], not [7];
    static_rank_5_vs_4: [2, 2, 1, 1, 1] with [1, 1, 1, 3], not [2, 2, 1, 1, 3];
    static_rank_4_vs_rank_5: [1, 1, 1, 3] with [2, 2, 1, 1, 1], not [1, 1, 1];
    static_both_stretch_rank_3: [2, 1, 4] with [1, 3, 1], not [2, 3, 4];
    static_zero_vs_zero: [0, 1] with [1, 0], not [0, 0];
    static_six_in_place: [2, 3] with [1, 3], not [2, 3, 1], static_in_place;
}

// ---------------------------------------------------------------------------
// 4. No panics on random, often invalid, inputs.
// ---------------------------------------------------------------------------

/// Results with more elements than this are never computed: every size is
/// at most 5 or at least 2^48, so a result is either this small or far past
/// any memory (its buffer cannot be allocated) or its element count overflows.
const SMALL: usize = 1 << 20;
/// The smallest "huge" size: 2^58 `bool`s exceed the user address space
/// (2^47 bytes with 4-level paging, 2^56 with 5-level), so their buffer is
/// refused even where the kernel overcommits memory without limit.
const HUGE: usize = 1 << 58;

fn huge() -> impl Strategy<Value = usize> + Clone {
    prop_oneof![
        Just(usize::MAX),
        Just(isize::MAX as usize),
        Just(1usize << 62),
        Just(HUGE),
        HUGE..=usize::MAX,
    ]
}

/// A size: mostly 0..=5, sometimes huge.
fn wild_size() -> impl Strategy<Value = usize> + Clone {
    prop_oneof![10 => 0usize..=5, 2 => huge()]
}

fn wild_shape() -> impl Strategy<Value = Vec<usize>> + Clone {
    vec(wild_size(), 0..=5)
}

/// An `expand` size: -1, small, huge, or any negative number.
fn target_size() -> impl Strategy<Value = isize> + Clone {
    prop_oneof![
        4 => Just(-1isize),
        6 => 0isize..=5,
        2 => huge().prop_map(|h| h.min(isize::MAX as usize) as isize),
        1 => isize::MIN..-1,
        1 => Just(isize::MIN),
    ]
}

/// One operand: a tensor of `base` sizes (a real buffer when small, else an
/// empty tensor if `base` has a 0, else a fallback), maybe expanded to
/// `target`.
#[derive(Clone, Debug)]
struct Spec {
    base: Vec<usize>,
    target: Option<Vec<isize>>,
}

/// How an `expand` size is chosen for an existing dimension.
#[derive(Clone, Copy, Debug)]
enum Keep {
    MinusOne,
    Same,
    Other(isize),
}

fn spec() -> impl Strategy<Value = Spec> + Clone {
    prop_oneof![3 => any_spec(), 2 => huge_view_spec()]
}

/// A huge view: a small base of mostly size-1 dimensions, its 1s stretched
/// to huge sizes, huge leading dimensions added.
fn huge_view_spec() -> impl Strategy<Value = Spec> + Clone {
    let base = vec(prop_oneof![3 => Just(1usize), 1 => 0usize..=3], 0..=3);
    let stretch = prop_oneof![
        3 => huge().prop_map(|h| h.min(isize::MAX as usize) as isize),
        1 => Just(-1isize),
        1 => 0isize..=3,
    ];
    let lead = prop_oneof![
        3 => huge().prop_map(|h| h.min(isize::MAX as usize) as isize),
        1 => 0isize..=3,
    ];
    (base, vec(stretch, 3), vec(lead, 0..=2)).prop_map(|(base, stretch, lead)| {
        let mut t = lead;
        for (&n, &s) in base.iter().zip(&stretch) {
            t.push(if n == 1 { s } else { -1 });
        }
        Spec {
            base,
            target: Some(t),
        }
    })
}

/// Any base (huge sizes included) and an expand target made from it, or
/// random, or none.
fn any_spec() -> impl Strategy<Value = Spec> + Clone {
    wild_shape()
        .prop_flat_map(|base| {
            let r = base.len();
            let keep = prop_oneof![
                3 => Just(Keep::MinusOne),
                3 => Just(Keep::Same),
                2 => target_size().prop_map(Keep::Other),
            ];
            let existing = base.clone();
            let derived = (0..=2usize, vec(keep, r), vec(target_size(), 2)).prop_map(
                move |(extra, keep, lead)| {
                    let mut t: Vec<isize> = lead[..extra].to_vec();
                    for (&n, k) in existing.iter().zip(keep) {
                        t.push(match k {
                            Keep::MinusOne => -1,
                            Keep::Same => isize::try_from(n).unwrap_or(-1),
                            Keep::Other(s) => s,
                        });
                    }
                    t
                },
            );
            let target = prop_oneof![
                1 => Just(None),
                3 => derived.prop_map(Some),
                1 => vec(target_size(), 0..=6).prop_map(Some),
            ];
            (Just(base), target)
        })
        .prop_map(|(base, target)| Spec { base, target })
}

/// An operand's tensor, its row-major elements and its sizes.
type Base = (DynTensor<f64>, Vec<f64>, Vec<usize>);

/// The base tensor of a spec, its elements and sizes, checking `from_vec`;
/// `ones(&[1])` when there is no such tensor.
fn base_of(spec: &Spec) -> Result<Base, TestCaseError> {
    let count = reference::count(&spec.base);
    match count.numel() {
        Some(n) if n <= SMALL => {
            let data: Vec<f64> = (0..n).map(|i| i as f64 * 0.5 - 3.0).collect();
            match DynTensor::<f64>::from_vec(data.clone(), &spec.base) {
                Ok(t) => {
                    prop_assert_eq!(sizes_of(&t), &spec.base[..]);
                    prop_assert_eq!(t.numel(), n);
                    Ok((t, data, spec.base.clone()))
                }
                Err(e) if matches!(count, reference::Count::Either(_)) => {
                    prop_assert!(is_overflow(&e), "from_vec {:?}: {}", spec.base, e);
                    Ok((DynTensor::ones(&[1]), vec![1.0], vec![1]))
                }
                Err(e) => Err(TestCaseError::fail(format!(
                    "from_vec {:?}: {e}",
                    spec.base
                ))),
            }
        }
        _ => {
            // Too many elements: refused, whatever the length given.
            for len in [0, 1, 7] {
                let t = DynTensor::<f64>::from_vec(vec![0.0; len], &spec.base);
                prop_assert!(t.is_err(), "from_vec of {} elements {:?}", len, spec.base);
                let _ = t.unwrap_err().to_string();
            }
            Ok((DynTensor::ones(&[1]), vec![1.0], vec![1]))
        }
    }
}

/// The spec's operand as a view (of the base when it is not expanded or
/// `expand` refuses), and its sizes.
fn view_of<'a>(
    base: &'a DynTensor<f64>,
    sizes: &[usize],
    target: &Option<Vec<isize>>,
) -> (TensorView<'a, f64, DynShape>, Vec<usize>) {
    if let Some(t) = target
        && let Some((s, _)) = reference::expand(sizes, t)
        && let Ok(v) = base.expand(t)
    {
        return (v, s);
    }
    (base.as_view(), sizes.to_vec())
}

/// An `expand` result against the reference.
fn check_expanded<R: Repr>(
    name: &str,
    got: Result<Tensor<f64, DynShape, Cpu, R>, Error>,
    sizes: &[usize],
    target: &[isize],
) -> Result<(), TestCaseError> {
    let want = reference::expand(sizes, target);
    match (got, &want) {
        (Ok(v), Some((s, _))) => {
            prop_assert_eq!(sizes_of(&v), &s[..], "{} {:?} {:?}", name, sizes, target)
        }
        (Err(e), None) => {
            let _ = e.to_string();
        }
        (Err(e), Some((_, reference::Count::Either(_)))) => {
            prop_assert!(
                is_overflow(&e),
                "{} {:?} to {:?}: {}",
                name,
                sizes,
                target,
                e
            )
        }
        (Ok(v), None) => prop_assert!(
            false,
            "{} {:?} to {:?}: Ok({:?}), want Err",
            name,
            sizes,
            target,
            v.shape()
        ),
        (Err(e), Some((s, _))) => prop_assert!(
            false,
            "{} {:?} to {:?}: Err({}), want {:?}",
            name,
            sizes,
            target,
            e,
            s
        ),
    }
    Ok(())
}

/// Checks `expand` and `broadcast_to` against the reference.
fn check_expand(
    base: &DynTensor<f64>,
    sizes: &[usize],
    target: &[isize],
) -> Result<(), TestCaseError> {
    check_expanded("expand", base.expand(target), sizes, target)?;
    check_expanded("broadcast_to", base.broadcast_to(target), sizes, target)
}

/// A binary result on wild operands: Ok with the reference's values when
/// small, PyTorch's error when the shapes do not broadcast, an overflow or
/// out-of-memory error when the result is huge.
fn check_wild<T: Element + Same, S: Shape>(
    what: &str,
    got: Result<Tensor<T, S>, Error>,
    shapes: (&[usize], &[usize]),
    values: impl FnOnce(&[usize]) -> Vec<T>,
) -> Result<(), TestCaseError> {
    let want = reference::broadcast(shapes.0, shapes.1);
    match (got, want) {
        (got, Err(text)) => prop_assert_eq!(got.err().map(|e| e.to_string()), Some(text)),
        (got, Ok(out)) => match (reference::count(&out), got) {
            (reference::Count::Fits(n), got) if n <= SMALL => {
                let values = values(&out);
                check(what, got, &Ok((out, values)))?;
            }
            // Empty, with sizes PyTorch refuses: empty, or refused.
            (reference::Count::Either(0), Ok(t)) => {
                prop_assert_eq!(sizes_of(&t), &out[..], "{}: shape", what);
                prop_assert_eq!(t.numel(), 0, "{}: numel", what);
            }
            (c, got) => {
                let n = c.numel();
                prop_assert!(
                    n.is_none_or(|n| n == 0 || n >= HUGE),
                    "a mid-size result {:?}",
                    out
                );
                match got {
                    Err(e) if is_too_large(&e) => {}
                    Err(e) => prop_assert!(false, "{}: {:?} of {:?}: {}", what, shapes, out, e),
                    Ok(_) => prop_assert!(false, "{}: allocated a result of sizes {:?}", what, out),
                }
            }
        },
    }
    Ok(())
}

/// `into_static` of a view to each of several shapes, against the reference.
macro_rules! into_static_checks {
    ($base:ident, $sizes:ident, $target:ident; $([$($s:tt),*]),*) => {$({
        let (v, vs) = view_of(&$base, &$sizes, &$target);
        let want = reference::static_mismatch(&vs, &[$(template!($s)),*]).map(refusal_error);
        let got = v.into_static::<shape![$($s),*]>();
        match (&got, &want) {
            (Ok(t), None) => prop_assert_eq!(sizes_of(&t), &vs[..]),
            (Err(e), Some(w)) => {
                let _ = e.to_string();
                prop_assert_eq!(e, w);
            }
            _ => prop_assert!(
                false,
                "into_static {:?} to {}: {:?}, want {:?}",
                vs,
                stringify!([$($s),*]),
                got.as_ref().map(|t| t.shape()),
                want
            ),
        }
    })*};
}

proptest! {
    #![proptest_config(config(WILD_CASES))]

    /// `from_vec` with random sizes (huge ones included) and random lengths.
    #[test]
    fn wild_from_vec(sizes in wild_shape(), len in 0usize..=40, exact in any::<bool>()) {
        let count = reference::count(&sizes);
        let len = match count.numel() {
            Some(n) if exact && n <= SMALL => n,
            _ => len,
        };
        let data: Vec<f64> = (0..len).map(|i| i as f64).collect();
        let got = DynTensor::<f64>::from_vec(data.clone(), &sizes);
        match (count, got) {
            (c, Ok(t)) if c.numel() == Some(len) => {
                prop_assert_eq!(sizes_of(&t), &sizes[..]);
                prop_assert_eq!(t.numel(), len);
                prop_assert_eq!(t.to_vec(), data.clone());
            }
            (c, Ok(t)) => prop_assert!(
                false,
                "from_vec {} elements {:?} ({:?}): Ok({:?})",
                len,
                sizes,
                c,
                t.shape()
            ),
            (reference::Count::Fits(n), Err(e)) if n == len => {
                prop_assert!(false, "from_vec {} elements {:?}: {}", len, sizes, e)
            }
            (_, Err(e)) => {
                let _ = e.to_string();
            }
        }
        // The same with a static rank of two (a `Dyn` and a static 3).
        let got = Tensor::<f64, shape![Dyn, 3]>::from_vec_with(data, &sizes);
        let ok = count == reference::Count::Fits(len) && sizes.len() == 2 && sizes[1] == 3;
        prop_assert_eq!(got.is_ok(), ok, "from_vec_with [Dyn, 3] {} elements {:?}", len, sizes);
    }

    /// `expand`/`broadcast_to` with random sizes: -1, negative, huge.
    #[test]
    fn wild_expand(spec in spec()) {
        let (base, _, sizes) = base_of(&spec)?;
        if let Some(t) = &spec.target {
            check_expand(&base, &sizes, t)?;
        }
        // Expanding an expanded view again.
        let (v, vs) = view_of(&base, &sizes, &spec.target);
        let again: Vec<isize> = vs.iter().map(|&s| isize::try_from(s).unwrap_or(-1)).collect();
        check_expanded("expand again", v.expand(&again), &vs, &again)?;
    }

    /// Views of any sizes (huge, empty) count their elements and list them.
    #[test]
    fn wild_view_numel(spec in spec()) {
        let (base, data, sizes) = base_of(&spec)?;
        let (v, vs) = view_of(&base, &sizes, &spec.target);
        let n = reference::count(&vs).numel();
        prop_assert!(n.is_some(), "a view of sizes {:?} exists", vs);
        prop_assert_eq!(Some(v.numel()), n, "numel of {:?}", vs);
        if n.is_some_and(|n| n <= SMALL) {
            let want = reference::gather(&data, &sizes, &vs);
            prop_assert!(same_values(&v.to_vec(), &want), "to_vec of {:?}", vs);
            let owned = v.to_owned();
            prop_assert_eq!(sizes_of(&owned), vs.clone());
            prop_assert!(same_values(&owned.to_vec(), &want), "to_owned of {:?}", vs);
        }
    }

    /// `get` with random indices, of random lengths, on random operands.
    #[test]
    fn wild_get(
        spec in spec(),
        raw in vec(prop_oneof![6 => 0usize..=6, 1 => any::<usize>(), 1 => huge()], 0..=7),
        fit in any::<bool>(),
    ) {
        let (base, data, sizes) = base_of(&spec)?;
        let (v, vs) = view_of(&base, &sizes, &spec.target);
        let mut index = raw;
        if fit {
            index.resize(vs.len(), 0);
        }
        let valid = index.len() == vs.len() && index.iter().zip(&vs).all(|(&i, &n)| i < n);
        match v.get(&index) {
            Ok(&x) => {
                prop_assert!(valid, "get {:?} of {:?} is Ok", index, vs);
                let want = reference::element(&data, &sizes, &vs, &index);
                prop_assert!(x.same(want), "get {:?} of {:?}: {}, want {}", index, vs, x, want);
            }
            Err(e) => {
                prop_assert!(!valid, "get {:?} of {:?}: {}", index, vs, e);
                let _ = e.to_string();
            }
        }
        let mut owned = base.clone();
        let got = owned.get_mut(&index).map(|x| *x);
        let valid = index.len() == sizes.len() && index.iter().zip(&sizes).all(|(&i, &n)| i < n);
        prop_assert_eq!(got.is_ok(), valid, "get_mut {:?} of {:?}", index, sizes);
    }

    /// Every binary operation on random operands, expanded views of huge
    /// sizes included.
    #[test]
    fn wild_binary(x in spec(), y in spec()) {
        let (bx, dx, sx) = base_of(&x)?;
        let (by, dy, sy) = base_of(&y)?;
        let (a, sa) = view_of(&bx, &sx, &x.target);
        let (b, sb) = view_of(&by, &sy, &y.target);
        let shapes = (&sa[..], &sb[..]);
        let values = |f: fn(f64, f64) -> f64| {
            // The base broadcasts to the view and the view to the result:
            // the base broadcasts to the result the same way.
            let (dx, sx, dy, sy) = (&dx, &sx, &dy, &sy);
            move |out: &[usize]| -> Vec<f64> {
                let ga = reference::gather(dx, sx, out);
                let gb = reference::gather(dy, sy, out);
                ga.into_iter().zip(gb).map(|(p, q)| f(p, q)).collect()
            }
        };
        let compare = |f: fn(f64, f64) -> bool| {
            let (dx, sx, dy, sy) = (&dx, &sx, &dy, &sy);
            move |out: &[usize]| -> Vec<bool> {
                let ga = reference::gather(dx, sx, out);
                let gb = reference::gather(dy, sy, out);
                ga.into_iter().zip(gb).map(|(p, q)| f(p, q)).collect()
            }
        };
        check_wild("try_add", a.try_add(&b), shapes, values(|p, q| p + q))?;
        check_wild("try_sub", a.try_sub(&b), shapes, values(|p, q| p - q))?;
        check_wild("try_mul", a.try_mul(&b), shapes, values(|p, q| p * q))?;
        check_wild("try_div", a.try_div(&b), shapes, values(|p, q| p / q))?;
        check_wild("try_lt", a.try_lt(&b), shapes, compare(|p, q| p < q))?;
        check_wild("try_le", a.try_le(&b), shapes, compare(|p, q| p <= q))?;
        check_wild("try_gt", a.try_gt(&b), shapes, compare(|p, q| p > q))?;
        check_wild("try_ge", a.try_ge(&b), shapes, compare(|p, q| p >= q))?;
        check_wild("try_eq", a.try_eq(&b), shapes, compare(|p, q| p == q))?;
        check_wild("try_ne", a.try_ne(&b), shapes, compare(|p, q| p != q))?;
    }

    /// The in-place operations: an owned output of random (possibly huge,
    /// empty) sizes, a random operand.
    #[test]
    fn wild_in_place(x in spec(), y in spec()) {
        let (mut out, dx, sx) = base_of(&x)?;
        let (by, dy, sy) = base_of(&y)?;
        let (b, sb) = view_of(&by, &sy, &y.target);
        let result = out.try_add_assign(&b);
        let fits = reference::fits(&sb, &sx);
        prop_assert_eq!(sizes_of(&out), &sx[..], "the output's shape changed");
        match result {
            Ok(()) => {
                prop_assert!(fits, "try_add_assign {:?} into {:?} is Ok", sb, sx);
                // `sy` fits `sb`, which fits `sx`: `sy` fits `sx` the same way.
                let want = reference::in_place(&dx, &sx, &dy, &sy, |p, q| p + q);
                prop_assert!(same_values(&out.to_vec(), &want.unwrap()));
            }
            Err(e) => {
                prop_assert!(!fits, "try_add_assign {:?} into {:?}: {}", sb, sx, e);
                let _ = e.to_string();
                prop_assert!(same_values(&out.to_vec(), &dx), "changed on error");
            }
        }
        prop_assert_eq!(out.try_sub_assign(&b).is_ok(), fits);
        prop_assert_eq!(out.try_mul_assign(&b).is_ok(), fits);
        prop_assert_eq!(out.try_div_assign(&b).is_ok(), fits);
    }

    /// `into_static` of random operands to several static and mixed shapes.
    #[test]
    fn wild_into_static(spec in spec()) {
        let (base, _, sizes) = base_of(&spec)?;
        let target = spec.target;
        into_static_checks!(base, sizes, target;
            [], [Dyn], [Dyn, Dyn], [Dyn, Dyn, Dyn], [Dyn, Dyn, Dyn, Dyn, Dyn, Dyn],
            [1], [3], [0], [2, 3], [Dyn, 1], [1, Dyn], [0, Dyn, 5], [Dyn, 4, Dyn, 1]
        );
    }
}

// ---------------------------------------------------------------------------
// Huge expanded views, by hand.
// ---------------------------------------------------------------------------

/// Operations on expand views whose element count is past any memory, or
/// whose broadcast element count overflows, return errors: nothing is
/// allocated, nothing panics.
#[test]
fn huge_views_give_errors() {
    let one = DynTensor::<f64>::ones(&[1]);
    let ones = DynTensor::<f64>::ones(&[1, 1]);
    let max = isize::MAX;
    let big = 1isize << 58; // 2^61 bytes of f64: past any address space

    // Element counts past `usize`: `expand` itself refuses.
    for target in [vec![max, max], vec![big, big], vec![1 << 32, 1 << 32]] {
        match ones.expand(&target) {
            Ok(v) => panic!("expand to {target:?} gave a view of sizes {:?}", v.shape()),
            Err(e) => assert!(is_overflow(&e), "expand to {target:?}: {e}"),
        }
    }

    // Views that exist but whose results cannot be allocated.
    let cases: [(&[isize], &[isize]); 5] = [
        (&[max], &[max]),
        (&[big], &[1]),
        (&[1, big], &[big, 1]), // the broadcast count overflows
        (&[max, 1], &[1, 2]),   // overflows
        (&[1 << 31, 1 << 31], &[1]),
    ];
    for (ta, tb) in cases {
        let a = ones.expand(ta).or_else(|_| one.expand(ta)).unwrap();
        let b = ones.expand(tb).or_else(|_| one.expand(tb)).unwrap();
        let e = a.try_add(&b).expect_err("a huge try_add");
        assert!(is_too_large(&e), "{ta:?} + {tb:?}: {e}");
        let e = a.try_lt(&b).expect_err("a huge try_lt");
        assert!(is_too_large(&e), "{ta:?} < {tb:?}: {e}");
        // Reading one element of a huge view is fine.
        let last: Vec<usize> = a.shape().iter().map(|&n| n - 1).collect();
        assert_eq!(a.get(&last), Ok(&1.0));
    }
}

// ---------------------------------------------------------------------------
// The smallest inputs the properties above found failing, by hand.
// ---------------------------------------------------------------------------

/// A zero size with other sizes whose row-major strides pass `usize`:
/// `from_vec` gives an empty tensor or refuses the sizes (PyTorch refuses
/// them: "Stride calculation overflowed"); it does not panic.
#[test]
fn from_vec_of_empty_tensor_with_huge_sizes() {
    for sizes in [[0, 4, 1 << 62], [0, 2, usize::MAX], [usize::MAX, 2, 0]] {
        match DynTensor::<f64>::from_vec(vec![], &sizes) {
            Ok(t) => {
                assert_eq!(t.shape(), sizes);
                assert_eq!(t.numel(), 0);
                assert_eq!(t.to_vec(), Vec::<f64>::new());
            }
            Err(e) => assert!(is_overflow(&e), "from_vec {sizes:?}: {e}"),
        }
    }
}

/// An operation on an empty view whose sizes' strides pass `usize` gives an
/// empty result or an overflow error; it does not panic.
#[test]
fn operation_on_empty_view_with_huge_sizes() {
    let one = DynTensor::<f64>::ones(&[1]);
    match one.expand(&[0, 4, 1 << 62]) {
        Ok(v) => {
            match v.try_add(&one) {
                Ok(s) => assert_eq!((sizes_of(&s), s.numel()), (vec![0, 4, 1 << 62], 0)),
                Err(e) => assert!(is_overflow(&e), "try_add: {e}"),
            }
            match v.try_lt(&one) {
                Ok(s) => assert_eq!((sizes_of(&s), s.numel()), (vec![0, 4, 1 << 62], 0)),
                Err(e) => assert!(is_overflow(&e), "try_lt: {e}"),
            }
        }
        Err(e) => assert!(is_overflow(&e), "expand: {e}"),
    }
}

/// An empty view whose leading sizes multiply past `usize` counts no
/// elements (or `expand` refuses it); it does not panic.
#[test]
fn empty_view_with_huge_sizes_counts_no_elements() {
    let one = DynTensor::<f64>::ones(&[1]);
    match one.expand(&[1 << 62, 4, 0]) {
        Ok(v) => {
            assert_eq!(v.numel(), 0);
            assert_eq!(v.to_vec(), Vec::<f64>::new());
            assert_eq!(v.to_owned().shape(), [1 << 62, 4, 0]);
        }
        Err(e) => assert!(is_overflow(&e), "expand: {e}"),
    }
}

/// `expand` with a new leading dimension in front of an empty tensor whose
/// sizes multiply past `isize::MAX`: a view or an overflow error, no panic.
#[test]
fn expand_of_empty_tensor_with_huge_sizes() {
    let m = isize::MAX as usize;
    match DynTensor::<f64>::from_vec(vec![], &[m, 0, 5]) {
        Ok(t) => match t.expand(&[1, -1, -1, -1]) {
            Ok(v) => assert_eq!((sizes_of(&v), v.numel()), (vec![1, m, 0, 5], 0)),
            Err(e) => assert!(is_overflow(&e), "expand: {e}"),
        },
        Err(e) => assert!(is_overflow(&e), "from_vec: {e}"),
    }
}

/// `get` on an empty tensor with huge strides: an index error, no panic.
#[test]
fn get_on_empty_tensor_with_huge_strides() {
    let m = isize::MAX as usize;
    match DynTensor::<f64>::from_vec(vec![], &[4, 0, m]) {
        Ok(t) => {
            assert_eq!(
                t.get(&[3, 0, 0]),
                Err(Error::IndexOutOfRange {
                    index: 0,
                    dim: 1,
                    size: 0
                })
            );
            assert!(t.get(&[3, 0]).is_err());
        }
        Err(e) => assert!(is_overflow(&e), "from_vec: {e}"),
    }
}
