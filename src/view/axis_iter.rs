//! `axis_iter::<I>()` and `rows()`: the sub-tensors along one axis as typed
//! views, one per index (ndarray's `axis_iter`, PyTorch's `unbind` without
//! the list). Pure views: any device.

use crate::backend::Backend;
use crate::dtype::Element;
use crate::shape::axes::Remove;
use crate::shape::list::TupleShape;
use crate::shape::{Dim, Shape};
use crate::storage::Repr;
use crate::tensor::Tensor;
use crate::view::ViewOf;

/// The views `x.select::<I>(k)` for `k` from 0 up ([`Tensor::axis_iter`]).
pub struct AxisIter<'a, T: Element, S: Shape, D: Backend, R: Repr, const I: usize> {
    x: &'a Tensor<T, S, D, R>,
    next: usize,
    end: usize,
}

impl<'a, T, S, D, R, const I: usize> Iterator for AxisIter<'a, T, S, D, R, I>
where
    T: Element,
    S: Shape + TupleShape + Remove<I>,
    <S as Remove<I>>::Output: Shape,
    D: Backend,
    R: Repr,
{
    type Item = ViewOf<'a, T, <S as Remove<I>>::Output, D, R>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.end {
            return None;
        }
        let k = self.next;
        self.next += 1;
        // (An index below the size: never out of range.)
        Some(self.x.select::<I>(k as isize))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.end - self.next;
        (left, Some(left))
    }
}

impl<T, S, D, R, const I: usize> ExactSizeIterator for AxisIter<'_, T, S, D, R, I>
where
    T: Element,
    S: Shape + TupleShape + Remove<I>,
    <S as Remove<I>>::Output: Shape,
    D: Backend,
    R: Repr,
{
}

impl<T: Element, S: Shape + TupleShape, D: Backend, R: Repr> Tensor<T, S, D, R> {
    /// The views along axis `I`, one per index, each of the shape without
    /// `I` (an axis the shape lacks is a compile error, as for `select`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i32, shape![2, 3]>::from_vec((0..6).collect()).unwrap();
    /// let columns: Vec<Vec<i32>> = x.axis_iter::<1>().map(|c| c.to_vec()).collect();
    /// assert_eq!(columns, [[0, 3], [1, 4], [2, 5]]);
    /// let sums: Vec<i32> = x.axis_iter::<0>().map(|row| row.iter().sum()).collect();
    /// assert_eq!(sums, [3, 12]);
    /// ```
    pub fn axis_iter<const I: usize>(&self) -> AxisIter<'_, T, S, D, R, I>
    where
        S: Remove<I>,
        <S as Remove<I>>::Output: Shape,
    {
        AxisIter {
            x: self,
            next: 0,
            end: self.layout.sizes()[I],
        }
    }
}

impl<T: Element, A: Dim, B: Dim, D: Backend, R: Repr> Tensor<T, (A, B), D, R> {
    /// The rows of a matrix, as views of shape `(B,)`: `axis_iter::<0>()`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![2, 2]>::from_vec(vec![1., 2., 3., 4.]).unwrap();
    /// let rows: Vec<Tensor<f32, shape![2], Cpu, _>> = x.rows().collect();
    /// assert_eq!(rows[1].to_vec(), [3., 4.]);
    /// ```
    pub fn rows(&self) -> AxisIter<'_, T, (A, B), D, R, 0> {
        self.axis_iter::<0>()
    }
}
