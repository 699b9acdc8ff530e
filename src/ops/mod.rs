//! The typed front-end: for each op family, the methods and operators a
//! user calls, the shape rules they ask the compiler for, and the dispatch
//! to a backend ([`crate::backend`]).
//!
//! - [`arith`]: `+ - * /` and unary `-`, broadcasting, for every owned and
//!   borrowed combination and with plain numbers on either side.
//! - [`compare`]: `eq ne lt le gt ge`, giving `Tensor<bool, _>`.
//! - [`assign`]: `+= -= *= /=` under the in-place rule.
//! - [`expand`]: `expand`, `expand_as`, `broadcast_to`: stride-0 views.
//! - [`math`]: `exp`, `ln`, `sqrt`, `abs`, `clamp`, ..., `maximum`,
//!   `minimum`, `pow`, `where_`.
//! - [`convert`]: copies in another dtype, `cast::<U>()`.
//! - [`mod@concat`]: `cat` and `stack`, sized at compile time.
//! - [`functions`]: what each elementwise operation computes (one type per
//!   operation, generic over dtype), and [`op_codes`], the names a device
//!   gives their kernels.
//! - [`reductions`]: `sum`, `mean`, `prod`, `max`, `argmax`, `all`, ...,
//!   and the [`Reducer`](reductions::Reducer)s that say what each computes.
//! - [`matmul`]: `matmul`, `mm`, `bmm`, `mv`, `dot`, and their runtime plan.
//! - [`normalize`]: `softmax`, `log_softmax`, `logsumexp`.
//! - [`moments`]: `var`, `std`, `var_mean`, `std_mean`.
//! - [`norms`]: `vector_norm`, and the NaN-aware and counting reductions.

pub mod activations;
pub mod arith;
pub mod assign;
pub mod closures;
pub mod compare;
pub mod concat;
pub mod convert;
pub mod creation;
pub mod division;
pub mod expand;
pub mod functions;
pub mod indexing;
pub mod logic;
pub mod math;
pub mod matmul;
pub mod moments;
pub mod normalize;
pub mod norms;
pub mod op_codes;
pub mod pairs;
pub mod pointwise;
pub mod random;
pub mod rearrange;
pub mod reductions;
pub mod sampling;
pub mod scans;
pub mod sets;
pub mod sorting;
pub mod structured;
pub mod ternary;

use crate::backend::{Elementwise, StridedRef};
use crate::dtype::Element;
use crate::error::Error;
use crate::layout::{StridedLayout, array_from, checked_numel};
use crate::shape::{SizeArray, broadcast_sizes_into};
use crate::tensor::{OwnedParts, owned_parts};
use functions::{BinaryFn, UnaryFn};

/// The Rust types of plain numbers an operator takes beside a tensor:
/// Python's scalar kinds, `bool`, `i64`, `f64` and `Complex<f64>`. As in
/// PyTorch a number counts only by its category (`2.5` is "a float", which
/// promotes to float32), so one type per category suffices, and it lets
/// Rust infer unsuffixed literals (`&x * 2`, `&x + 0.5`) on its own. A
/// number of another type converts first: `&x * f64::from(lr)`.
///
/// Calls `$m!($($prefix)*; bool, i64, f64, Complex<f64>)`.
macro_rules! with_number_types {
    ($m:ident!($($prefix:tt)*)) => {
        $m!($($prefix)*; bool, i64, f64, num_complex::Complex<f64>);
    };
}
pub(crate) use with_number_types;

/// The elements of a new contiguous buffer of `sizes` (with `strides`, its
/// row-major strides), as a kernel operand.
pub(crate) fn dense_ref<'a, X: Element, D: crate::backend::Backend>(
    buffer: &'a D::Buffer<X>,
    sizes: &'a [usize],
    strides: &'a [usize],
) -> StridedRef<'a, X, D> {
    StridedRef {
        ptr: D::ptr(buffer),
        sizes,
        strides,
        offset: 0,
    }
}

/// The strides of a reduction's result (contiguous over the dims `mask`
/// keeps, `kept_strides`) broadcast back over the input's dims: 0 along
/// the reduced ones.
pub(crate) fn along_reduced(mask: &[bool], kept_strides: &[usize]) -> Vec<usize> {
    let mut kept = kept_strides.iter();
    mask.iter()
        .map(|&reduced| match reduced {
            true => 0,
            false => *kept.next().expect("one stride per kept dim"),
        })
        .collect()
}

/// Strides of an operand of sizes `sizes` and strides `strides`, broadcast
/// to `out_sizes`: aligned at the end, 0 where the operand is stretched or
/// missing.
#[inline]
pub(crate) fn broadcast_strides(
    sizes: &[usize],
    strides: &[usize],
    out_sizes: &[usize],
    out: &mut [usize],
) {
    let extra = out_sizes.len() - sizes.len();
    for (i, o) in out.iter_mut().enumerate() {
        *o = if i < extra || sizes[i - extra] != out_sizes[i] {
            0
        } else {
            strides[i - extra]
        };
    }
}

/// `f(a, b)` with broadcasting, the engine behind every binary operator:
/// the output's buffer and its contiguous layout. `Err` when `Dyn` sizes
/// turn out not to broadcast. Shape-erased: the layout's arrays have the
/// output's rank, so every pair of shapes broadcasting to one rank shares
/// this function.
pub(crate) fn broadcast_map2<A, B, U, Z, D, F>(
    a: StridedRef<'_, A, D>,
    b: StridedRef<'_, B, D>,
    f: F,
) -> Result<(D::Buffer<U>, StridedLayout<Z>), Error>
where
    A: Element,
    B: Element,
    U: Element,
    Z: SizeArray,
    D: Elementwise,
    F: BinaryFn<A, B, U>,
{
    let rank = a.sizes.len().max(b.sizes.len());
    // Compared in line: a slice `==` calls `memcmp`, which costs more than
    // the few sizes it compares.
    let same = a.sizes.len() == b.sizes.len() && a.sizes.iter().zip(b.sizes).all(|(x, y)| x == y);
    if same {
        // Nothing to broadcast (the common case): the operands' own strides
        // serve. The output is new memory, so its size is checked even so (a
        // view may have sizes whose product overflows, with a 0 after).
        let sizes = Z::copied(a.sizes);
        checked_numel(sizes.as_ref())?;
        let buffer = D::map2(sizes.as_ref(), a, b, f)?;
        return Ok((buffer, StridedLayout::contiguous(sizes)));
    }
    let mut sizes = Z::filled(rank, 0);
    broadcast_sizes_into(a.sizes, b.sizes, sizes.as_mut())?;
    checked_numel(sizes.as_ref())?;
    let mut a_strides = Z::filled(rank, 0);
    let mut b_strides = Z::filled(rank, 0);
    broadcast_strides(a.sizes, a.strides, sizes.as_ref(), a_strides.as_mut());
    broadcast_strides(b.sizes, b.strides, sizes.as_ref(), b_strides.as_mut());
    let buffer = D::map2(
        sizes.as_ref(),
        StridedRef {
            ptr: a.ptr,
            sizes: sizes.as_ref(),
            strides: a_strides.as_ref(),
            offset: a.offset,
        },
        StridedRef {
            ptr: b.ptr,
            sizes: sizes.as_ref(),
            strides: b_strides.as_ref(),
            offset: b.offset,
        },
        f,
    )?;
    Ok((buffer, StridedLayout::contiguous(sizes)))
}

/// `f` of each element of `a`, into a contiguous tensor of `a`'s sizes:
/// the shape-erased core of every unary operation (one copy per element
/// types, kernel and rank). `Err` only when the output cannot be allocated.
pub(crate) fn unary<A, U, Z, D, F>(
    a: StridedRef<'_, A, D>,
    f: F,
) -> Result<OwnedParts<U, D, Z>, Error>
where
    A: Element,
    U: Element,
    Z: SizeArray,
    D: Elementwise,
    F: UnaryFn<A, U>,
{
    let sizes = array_from(a.sizes);
    let buffer = D::map1(a, f)?;
    Ok(owned_parts(buffer, StridedLayout::contiguous(sizes)))
}
