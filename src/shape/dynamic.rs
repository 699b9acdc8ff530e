//! Shapes whose rank is known only at run time: [`DynShape`], its sizes
//! ([`DynSizes`]: up to [`INLINE_RANK`] entries live inline, so small
//! dynamic tensors need no heap allocation for their layout), and the shape
//! rules, which it passes at compile time and checks at run time.

use crate::error::Error;
use crate::shape::list::TupleShape;
use crate::shape::{BroadcastInto, BroadcastShape, ExpandTo, Shape, SizeArray};
use core::fmt;
use core::ops::{Deref, DerefMut};
use smallvec::SmallVec;

/// Entries stored without a heap allocation.
pub const INLINE_RANK: usize = 4;

/// The sizes or strides of a [`DynShape`] tensor: a list of
/// `usize` that compares equal to arrays, slices and vectors.
///
/// ```
/// use shaped::prelude::*;
/// let t = DynTensor::<f32>::zeros(&[5, 2]);
/// assert_eq!(t.shape(), [5, 2]);
/// assert_eq!(t.shape(), vec![5, 2]);
/// assert_eq!(t.shape()[1], 2);
/// ```
#[derive(Default, PartialEq, Eq, Hash)]
pub struct DynSizes(SmallVec<[usize; INLINE_RANK]>);

/// By [`SizeArray::copied`]: `SmallVec`'s own `clone` pushes entry by
/// entry (18 ns for the layout of a rank-2 view, most of what making one
/// costs).
impl Clone for DynSizes {
    #[inline]
    fn clone(&self) -> Self {
        <DynSizes as SizeArray>::copied(&self.0)
    }
}

impl DynSizes {
    /// The entries of a slice.
    #[inline]
    pub fn from_slice(values: &[usize]) -> Self {
        DynSizes(SmallVec::from_slice(values))
    }
}

impl DynSizes {
    /// Appends an entry.
    #[inline]
    pub fn push(&mut self, value: usize) {
        self.0.push(value);
    }

    /// Inserts an entry at `index`.
    #[inline]
    pub fn insert(&mut self, index: usize, value: usize) {
        self.0.insert(index, value);
    }

    /// Removes and returns the entry at `index`.
    #[inline]
    pub fn remove(&mut self, index: usize) -> usize {
        self.0.remove(index)
    }
}

impl SizeArray for DynSizes {
    #[inline]
    fn filled(rank: usize, value: usize) -> Self {
        if rank <= INLINE_RANK {
            // Inline, without `from_elem`'s out-of-line call.
            let mut v = SmallVec::from_buf([value; INLINE_RANK]);
            v.truncate(rank);
            return DynSizes(v);
        }
        DynSizes(SmallVec::from_elem(value, rank))
    }

    #[inline]
    fn copied(values: &[usize]) -> Self {
        // Each inline length by its own loads: `copy_from_slice` of a
        // runtime length is a call to `memcpy`, a tenth of a 3x3 addition.
        let inline = match *values {
            [] => [0; INLINE_RANK],
            [a] => [a, 0, 0, 0],
            [a, b] => [a, b, 0, 0],
            [a, b, c] => [a, b, c, 0],
            [a, b, c, d] => [a, b, c, d],
            _ => return DynSizes(SmallVec::from_slice(values)),
        };
        DynSizes(SmallVec::from_buf_and_len(inline, values.len()))
    }
}

impl Deref for DynSizes {
    type Target = [usize];
    #[inline]
    fn deref(&self) -> &[usize] {
        &self.0
    }
}

impl DerefMut for DynSizes {
    #[inline]
    fn deref_mut(&mut self) -> &mut [usize] {
        &mut self.0
    }
}

impl AsRef<[usize]> for DynSizes {
    #[inline]
    fn as_ref(&self) -> &[usize] {
        &self.0
    }
}

impl AsMut<[usize]> for DynSizes {
    #[inline]
    fn as_mut(&mut self) -> &mut [usize] {
        &mut self.0
    }
}

impl fmt::Debug for DynSizes {
    #[inline]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.iter()).finish()
    }
}

impl<const N: usize> PartialEq<[usize; N]> for DynSizes {
    #[inline]
    fn eq(&self, other: &[usize; N]) -> bool {
        self.0.as_slice() == other
    }
}

impl PartialEq<[usize]> for DynSizes {
    #[inline]
    fn eq(&self, other: &[usize]) -> bool {
        self.0.as_slice() == other
    }
}

impl PartialEq<&[usize]> for DynSizes {
    #[inline]
    fn eq(&self, other: &&[usize]) -> bool {
        self.0.as_slice() == *other
    }
}

impl PartialEq<Vec<usize>> for DynSizes {
    #[inline]
    fn eq(&self, other: &Vec<usize>) -> bool {
        self.0.as_slice() == other.as_slice()
    }
}

impl From<&[usize]> for DynSizes {
    #[inline]
    fn from(values: &[usize]) -> Self {
        Self::from_slice(values)
    }
}

impl From<DynSizes> for Vec<usize> {
    #[inline]
    fn from(sizes: DynSizes) -> Self {
        sizes.0.into_vec()
    }
}

impl<'a> IntoIterator for &'a DynSizes {
    type Item = &'a usize;
    type IntoIter = core::slice::Iter<'a, usize>;
    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// A shape whose rank is known only at run time.
///
/// ```
/// use shaped::prelude::*;
/// let t: Tensor<i64, DynShape> = DynTensor::from_vec((0..6).collect(), &[2, 3]).unwrap();
/// assert_eq!(t.rank(), 2);
/// assert_eq!(t[[1, 2]], 5);
/// ```
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq, Hash)]
pub struct DynShape;

impl Shape for DynShape {
    type Sizes = DynSizes;
    const RANK: Option<usize> = None;
    type Priority = crate::dtype::promote::RuntimeRank;

    fn check_sizes(sizes: &[usize]) -> Result<DynSizes, Error> {
        Ok(DynSizes::from_slice(sizes))
    }
}

/// A dynamic-rank operand broadcasts with anything, checked at run time.
#[diagnostic::do_not_recommend]
impl<B: Shape> BroadcastShape<B> for DynShape {
    type Output = DynShape;
}
/// A static-rank shape with a dynamic-rank one gives a dynamic-rank shape.
#[diagnostic::do_not_recommend]
impl<A: Shape + TupleShape> BroadcastShape<DynShape> for A {
    type Output = DynShape;
}

/// The in-place rule with a dynamic rank is checked at run time.
#[diagnostic::do_not_recommend]
impl<X: Shape> BroadcastInto<X> for DynShape {}
#[diagnostic::do_not_recommend]
impl<Y: Shape + TupleShape> BroadcastInto<DynShape> for Y {}

/// `expand` with a dynamic rank is checked at run time.
#[diagnostic::do_not_recommend]
impl<X: Shape> ExpandTo<X> for DynShape {}
#[diagnostic::do_not_recommend]
impl<Y: Shape + TupleShape> ExpandTo<DynShape> for Y {}
