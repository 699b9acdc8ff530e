//! Element access with `x[[i, j, ..]]`, on the CPU.

use super::Tensor;
use crate::dtype::Element;
use crate::shape::Shape;
use crate::storage::{Cpu, Repr, Storage, Writable};
use core::ops::{Index, IndexMut};

impl<T: Element, S: Shape, R: Repr> Tensor<T, S, Cpu, R> {
    /// The storage index of `index`, or a panic with PyTorch's text.
    fn element_offset(&self, index: &[usize]) -> usize {
        self.layout
            .index_offset(index)
            .unwrap_or_else(|e| panic!("{e}"))
    }
}

/// `x[[i, j]]` reads one element; an index past a size panics with PyTorch's
/// message (`index 3 is out of bounds for dimension 0 with size 3`).
///
/// ```
/// use shaped::prelude::*;
/// let x = tensor![[1, 2, 3], [4, 5, 6]];
/// assert_eq!(x[[1, 0]], 4);
/// ```
impl<T, S, R, const N: usize> Index<[usize; N]> for Tensor<T, S, Cpu, R>
where
    T: Element,
    S: Shape<Sizes = [usize; N]>,
    R: Repr,
{
    type Output = T;

    fn index(&self, index: [usize; N]) -> &T {
        let at = self.element_offset(&index);
        // SAFETY: `at` is a checked index into the layout, and layouts never
        // reach past the end of their storage, so `at < self.data.len()`. The
        // storage lives at least as long as `&self` (owned, or borrowed for
        // longer), and no writer can exist while `&self` does: writable
        // tensors are owned or exclusive borrows.
        unsafe { &*self.data.ptr().as_ptr().add(at) }
    }
}

/// `x[[i, j]] = v` writes one element of an owned tensor or a mutable view.
///
/// ```
/// use shaped::prelude::*;
/// let mut x = Tensor::<f32, shape![2, 2]>::zeros();
/// x[[0, 1]] = 1.5;
/// assert_eq!(x.to_vec(), vec![0.0, 1.5, 0.0, 0.0]);
/// ```
impl<T, S, R, const N: usize> IndexMut<[usize; N]> for Tensor<T, S, Cpu, R>
where
    T: Element,
    S: Shape<Sizes = [usize; N]>,
    R: Writable,
{
    fn index_mut(&mut self, index: [usize; N]) -> &mut T {
        let at = self.element_offset(&index);
        // SAFETY: `at < self.data.len()` as in `index`. A writable tensor owns
        // its storage or borrows it exclusively, and its layout never puts two
        // indices on one element, so this is the only reference to the element
        // for the duration of `&mut self`.
        unsafe { &mut *R::ptr_mut(&mut self.data).as_ptr().add(at) }
    }
}
