//! Element access with `x[[i, j, ..]]`, on the CPU; `get`/`get_mut` return
//! PyTorch's error instead of panicking.

use super::Tensor;
use crate::backend::Cpu;
use crate::dtype::Element;
use crate::dynamic::DynShape;
use crate::error::Error;
use crate::error::OrPanic;
use crate::layout::StridedLayout;
use crate::shape::{Shape, SizeArray};
use crate::storage::{Repr, Storage, Writable};
use core::ops::{Index, IndexMut};

impl<T: Element, S: Shape, R: Repr> Tensor<T, S, Cpu, R> {
    /// The element at `index`, or `Err` with PyTorch's text for an index
    /// out of range or of the wrong length.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i64>::arange(3);
    /// assert_eq!(x.get(&[2]), Ok(&2));
    /// assert_eq!(
    ///     x.get(&[3]).unwrap_err().to_string(),
    ///     "index 3 is out of bounds for dimension 0 with size 3"
    /// );
    /// assert_eq!(x.get(&[0, 0]).unwrap_err().to_string(), "too many indices for tensor of dimension 1");
    /// ```
    pub fn get(&self, index: &[usize]) -> Result<&T, Error> {
        element::<T, R, _>(&self.data, &self.layout, index)
    }
}

/// The element at `index` of a tensor's data and layout (generic over the
/// layout's arrays rather than the shape, so shapes of one rank share it).
fn element<'a, T, R, A>(
    data: &'a R::Data<T, Cpu>,
    layout: &StridedLayout<A>,
    index: &[usize],
) -> Result<&'a T, Error>
where
    T: Element,
    R: Repr,
    A: SizeArray,
{
    let at = layout.index_offset(index)?;
    // SAFETY: `at` is the storage index of an index of the layout (each
    // position checked against its size), and every index of a tensor's
    // layout lies inside its storage (the tensor invariant, checked when the
    // layout was attached to the tensor), so `at < data.len()` and the sum
    // did not overflow. The storage lives at least as long as `'a` (owned,
    // or borrowed for longer), and no writer can exist while `data` is
    // borrowed: writable tensors are owned or exclusive borrows.
    Ok(unsafe { &*data.ptr().as_ptr().add(at) })
}

impl<T: Element, S: Shape, R: Writable> Tensor<T, S, Cpu, R> {
    /// The element at `index`, writable, or `Err` with PyTorch's text.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = DynTensor::<i64>::zeros(&[2, 2]);
    /// *x.get_mut(&[1, 1]).unwrap() = 5;
    /// assert_eq!(x.to_vec(), vec![0, 0, 0, 5]);
    /// assert!(x.get_mut(&[2, 0]).is_err());
    /// ```
    pub fn get_mut(&mut self, index: &[usize]) -> Result<&mut T, Error> {
        let at = self.layout.index_offset(index)?;
        // SAFETY: `at < self.data.len()` as in `get`. A writable tensor owns
        // its storage or borrows it exclusively, and its layout never puts two
        // indices on one element (checked for writable layouts when the
        // layout was attached), so this is the only reference to the element
        // for the duration of `&mut self`.
        Ok(unsafe { &mut *R::ptr_mut(&mut self.data).as_ptr().add(at) })
    }
}

/// `x[[i, j]]` reads one element; the index has the tensor's static rank,
/// and one past a size panics with PyTorch's message
/// (`index 3 is out of bounds for dimension 0 with size 3`).
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
        element::<T, R, _>(&self.data, &self.layout, &index).or_panic()
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
        self.get_mut(&index).or_panic()
    }
}

/// Indexing a tensor of runtime rank: the index length is checked at run
/// time (`too many indices for tensor of dimension 2`).
///
/// ```
/// use shaped::prelude::*;
/// let mut d = DynTensor::<i32>::zeros(&[2, 3]);
/// d[[1, 2]] = 7;
/// assert_eq!(d[[1, 2]], 7);
/// assert_eq!(d[&[1usize, 2][..]], 7);
/// ```
macro_rules! dynamic_index {
    ($([$($gen:tt)*] $Index:ty;)*) => {$(
        impl<$($gen)* T: Element, R: Repr> Index<$Index> for Tensor<T, DynShape, Cpu, R> {
            type Output = T;
            fn index(&self, index: $Index) -> &T {
                self.get(&index[..]).or_panic()
            }
        }
        impl<$($gen)* T: Element, R: Writable> IndexMut<$Index> for Tensor<T, DynShape, Cpu, R> {
            fn index_mut(&mut self, index: $Index) -> &mut T {
                self.get_mut(&index[..]).or_panic()
            }
        }
    )*};
}
dynamic_index! {
    [const N: usize,] [usize; N];
    ['i,] &'i [usize];
}
