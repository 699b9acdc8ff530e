//! A CPU tensor's elements from Rust (issue 25): `as_slice` and
//! `as_mut_slice` of contiguous tensors, `iter`, `iter_mut` and
//! `indexed_iter` in logical (row-major) order for any layout, `into_iter`,
//! and the constructors `from_slice`, `from_fn` and `FromIterator`.
//!
//! A contiguous tensor iterates as a slice (so `x.iter().sum()` is a
//! slice's sum); any other layout walks its offsets, one index per
//! dimension, as the engine does.

use super::Tensor;
use crate::DynShape;
use crate::backend::Cpu;
use crate::backend::cpu::CpuBuffer;
use crate::dtype::Element;
use crate::dynamic::DynTensor;
use crate::error::{Error, OrPanic};
use crate::layout::{StridedLayout, check_contiguous_strides, checked_numel};
use crate::shape::{FixedShape, Shape, SizeArray};
use crate::storage::{Repr, Storage, Writable};
use core::marker::PhantomData;
use smallvec::SmallVec;

/// The buffer offsets of a layout's elements in logical order, with the
/// index of the next one.
#[derive(Clone, Debug)]
struct Offsets {
    sizes: SmallVec<[usize; 6]>,
    strides: SmallVec<[usize; 6]>,
    index: SmallVec<[usize; 6]>,
    next: usize,
    left: usize,
}

impl Offsets {
    fn of(sizes: &[usize], strides: &[usize], offset: usize) -> Offsets {
        Offsets {
            sizes: sizes.into(),
            strides: strides.into(),
            index: SmallVec::from_elem(0, sizes.len()),
            next: offset,
            left: crate::layout::numel(sizes),
        }
    }

    /// The next element's index and offset.
    #[inline]
    fn step(&mut self) -> Option<usize> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let at = self.next;
        for d in (0..self.sizes.len()).rev() {
            self.index[d] += 1;
            if self.index[d] < self.sizes[d] {
                self.next += self.strides[d];
                break;
            }
            // (The last element wraps every dimension back to the start.)
            self.next -= (self.sizes[d] - 1) * self.strides[d];
            self.index[d] = 0;
        }
        Some(at)
    }
}

/// The elements of a CPU tensor in logical order, by reference
/// ([`Tensor::iter`]).
pub struct Iter<'a, T> {
    inner: Inner<'a, T>,
}

enum Inner<'a, T> {
    Slice(core::slice::Iter<'a, T>),
    Strided {
        base: *const T,
        offsets: Offsets,
        _elements: PhantomData<&'a T>,
    },
}

impl<'a, T> Iterator for Iter<'a, T> {
    type Item = &'a T;

    #[inline]
    fn next(&mut self) -> Option<&'a T> {
        match &mut self.inner {
            Inner::Slice(it) => it.next(),
            Inner::Strided { base, offsets, .. } => {
                let at = offsets.step()?;
                // SAFETY: `at` is an index of the tensor's layout, inside its
                // live buffer (the tensor invariant), which the tensor's
                // shared borrow for 'a keeps alive and unwritten.
                Some(unsafe { &*base.add(at) })
            }
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.inner {
            Inner::Slice(it) => it.size_hint(),
            Inner::Strided { offsets, .. } => (offsets.left, Some(offsets.left)),
        }
    }

    /// The slice's own fold for a contiguous tensor (`sum`, `for_each`).
    #[inline]
    fn fold<B, F: FnMut(B, &'a T) -> B>(self, init: B, mut f: F) -> B {
        match self.inner {
            Inner::Slice(it) => it.fold(init, f),
            inner => {
                let mut acc = init;
                for x in (Iter { inner }) {
                    acc = f(acc, x);
                }
                acc
            }
        }
    }
}

impl<T> ExactSizeIterator for Iter<'_, T> {}

/// The elements of a writable CPU tensor in logical order, by mutable
/// reference ([`Tensor::iter_mut`]).
pub struct IterMut<'a, T> {
    inner: InnerMut<'a, T>,
}

enum InnerMut<'a, T> {
    Slice(core::slice::IterMut<'a, T>),
    Strided {
        base: *mut T,
        offsets: Offsets,
        _elements: PhantomData<&'a mut T>,
    },
}

impl<'a, T> Iterator for IterMut<'a, T> {
    type Item = &'a mut T;

    #[inline]
    fn next(&mut self) -> Option<&'a mut T> {
        match &mut self.inner {
            InnerMut::Slice(it) => it.next(),
            InnerMut::Strided { base, offsets, .. } => {
                let at = offsets.step()?;
                // SAFETY: `at` is an index of the tensor's layout, inside its
                // live buffer, which the tensor's exclusive borrow for 'a
                // gives to this iterator alone; a writable layout never puts
                // two indices on one element and each is visited once, so
                // the references never overlap.
                Some(unsafe { &mut *base.add(at) })
            }
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.inner {
            InnerMut::Slice(it) => it.size_hint(),
            InnerMut::Strided { offsets, .. } => (offsets.left, Some(offsets.left)),
        }
    }
}

impl<T> ExactSizeIterator for IterMut<'_, T> {}

/// The elements with their indices, in logical order
/// ([`Tensor::indexed_iter`]).
pub struct IndexedIter<'a, T, A> {
    base: *const T,
    offsets: Offsets,
    _elements: PhantomData<(&'a T, A)>,
}

impl<'a, T, A: SizeArray> Iterator for IndexedIter<'a, T, A> {
    type Item = (A, &'a T);

    #[inline]
    fn next(&mut self) -> Option<(A, &'a T)> {
        let index = A::copied(&self.offsets.index);
        let at = self.offsets.step()?;
        // SAFETY: as `Iter`'s: an index of the tensor's layout, inside its
        // live buffer, borrowed shared for 'a.
        Some((index, unsafe { &*self.base.add(at) }))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.offsets.left, Some(self.offsets.left))
    }
}

impl<T: Element, S: Shape, R: Repr> Tensor<T, S, Cpu, R> {
    /// The elements as one slice in logical order, when the layout is
    /// contiguous (row-major, from its offset); `None` otherwise.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i32, shape![2, 3]>::from_vec((0..6).collect()).unwrap();
    /// assert_eq!(x.as_slice(), Some(&[0, 1, 2, 3, 4, 5][..]));
    /// assert_eq!(x.t().as_slice(), None);
    /// assert_eq!(x.select::<0>(1).as_slice(), Some(&[3, 4, 5][..]));
    /// ```
    pub fn as_slice(&self) -> Option<&[T]> {
        let n = self.layout.numel();
        if n == 0 {
            return Some(&[]);
        }
        if !self.layout.is_contiguous() {
            return None;
        }
        let base = self.data.ptr().as_ptr();
        // SAFETY: a contiguous layout's indices are `offset..offset + n`,
        // inside the live buffer (the tensor invariant), which `&self`
        // keeps alive and unwritten for the slice's life.
        Some(unsafe { core::slice::from_raw_parts(base.add(self.layout.offset()), n) })
    }

    /// The elements in logical (row-major) order, for any layout.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::from_vec(vec![1., 2., 3., 4., 5., 6.]).unwrap();
    /// assert_eq!(x.iter().sum::<f32>(), 21.0);
    /// let t: Vec<f32> = x.t().iter().copied().collect();
    /// assert_eq!(t, [1., 4., 2., 5., 3., 6.]);
    /// ```
    pub fn iter(&self) -> Iter<'_, T> {
        if let Some(s) = self.as_slice() {
            return Iter {
                inner: Inner::Slice(s.iter()),
            };
        }
        Iter {
            inner: Inner::Strided {
                base: self.data.ptr().as_ptr(),
                offsets: Offsets::of(
                    self.layout.sizes(),
                    self.layout.strides(),
                    self.layout.offset(),
                ),
                _elements: PhantomData,
            },
        }
    }

    /// The elements with their indices (`[usize; N]` for static shapes),
    /// in logical order.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i64, shape![2, 2]>::from_vec(vec![5, 6, 7, 8]).unwrap();
    /// let t = x.t();
    /// let mut it = t.indexed_iter();
    /// assert_eq!(it.next(), Some(([0, 0], &5)));
    /// assert_eq!(it.next(), Some(([0, 1], &7)));
    /// ```
    pub fn indexed_iter(&self) -> IndexedIter<'_, T, S::Sizes> {
        IndexedIter {
            base: self.data.ptr().as_ptr(),
            offsets: Offsets::of(
                self.layout.sizes(),
                self.layout.strides(),
                self.layout.offset(),
            ),
            _elements: PhantomData,
        }
    }
}

impl<T: Element, S: Shape, R: Writable> Tensor<T, S, Cpu, R> {
    /// The elements as one mutable slice, when the layout is contiguous;
    /// `None` otherwise.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = Tensor::<i32, shape![2, 2]>::zeros();
    /// x.as_mut_slice().unwrap().copy_from_slice(&[1, 2, 3, 4]);
    /// assert_eq!(x.to_vec(), [1, 2, 3, 4]);
    /// ```
    pub fn as_mut_slice(&mut self) -> Option<&mut [T]> {
        let n = self.layout.numel();
        if n == 0 {
            return Some(&mut []);
        }
        if !self.layout.is_contiguous() {
            return None;
        }
        let base = R::ptr_mut(&mut self.data).as_ptr();
        // SAFETY: a contiguous layout's indices are `offset..offset + n`,
        // inside the live buffer, which `&mut self` gives to this slice
        // alone for its life.
        Some(unsafe { core::slice::from_raw_parts_mut(base.add(self.layout.offset()), n) })
    }

    /// The elements by mutable reference, in logical order, for any
    /// layout (through a mutable view, into the tensor it views).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = Tensor::<i32, shape![2, 4]>::zeros();
    /// for (k, v) in x.slice_mut(s![.., ..;2]).iter_mut().enumerate() {
    ///     *v = k as i32 + 1;
    /// }
    /// assert_eq!(x.to_vec(), [1, 0, 2, 0, 3, 0, 4, 0]);
    /// ```
    pub fn iter_mut(&mut self) -> IterMut<'_, T> {
        if self.layout.numel() == 0 || self.layout.is_contiguous() {
            let slice = self.as_mut_slice().expect("a contiguous layout");
            return IterMut {
                inner: InnerMut::Slice(slice.iter_mut()),
            };
        }
        let offsets = Offsets::of(
            self.layout.sizes(),
            self.layout.strides(),
            self.layout.offset(),
        );
        IterMut {
            inner: InnerMut::Strided {
                base: R::ptr_mut(&mut self.data).as_ptr(),
                offsets,
                _elements: PhantomData,
            },
        }
    }
}

impl<'a, T: Element, S: Shape, R: Repr> IntoIterator for &'a Tensor<T, S, Cpu, R> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;
    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

impl<T: Element, S: Shape> IntoIterator for Tensor<T, S, Cpu> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    /// The elements by value, in logical order.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<u8, shape![3]>::from_vec(vec![1, 2, 3]).unwrap();
    /// let doubled: Vec<u8> = x.into_iter().map(|v| v * 2).collect();
    /// assert_eq!(doubled, [2, 4, 6]);
    /// ```
    fn into_iter(self) -> std::vec::IntoIter<T> {
        self.to_vec().into_iter()
    }
}

/// The elements `f(index)` of `sizes` in row-major order, in a new buffer
/// (pooled and on huge pages from 1 MiB on, as operations' results).
fn elements_of<T: Element, A: SizeArray>(
    sizes: &[usize],
    mut f: impl FnMut(A) -> T,
) -> Result<CpuBuffer<T>, Error> {
    let n = checked_numel(sizes)?;
    let mut offsets = Offsets::of(sizes, &vec![0; sizes.len()], 0);
    // SAFETY: the loop writes each of the `n` elements (unless `f`
    // panics): one per slot, the offsets stepping through the `n` indices.
    unsafe {
        CpuBuffer::try_new_with(n, |dst| {
            for slot in dst {
                slot.write(f(A::copied(&offsets.index)));
                offsets.step();
            }
        })
    }
}

impl<T: Element, S: FixedShape> Tensor<T, S, Cpu> {
    /// A tensor of a static shape from a slice of its elements in
    /// row-major order; `Err` (PyTorch's text) when their number does not
    /// fill the shape.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f64, shape![2]>::from_slice(&[0.5, 1.5]).unwrap();
    /// assert_eq!(x.to_vec(), [0.5, 1.5]);
    /// ```
    pub fn from_slice(data: &[T]) -> Result<Self, Error> {
        Self::from_vec(data.to_vec())
    }

    /// A tensor of a static shape whose element at each index (`[usize;
    /// N]`) is `f(index)`, called in row-major order.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let eye = Tensor::<f32, shape![3, 3]>::from_fn(|[i, j]| if i == j { 1.0 } else { 0.0 });
    /// assert_eq!(eye.to_vec(), [1., 0., 0., 0., 1., 0., 0., 0., 1.]);
    /// ```
    pub fn from_fn(f: impl FnMut(S::Sizes) -> T) -> Self {
        let data = elements_of(S::SIZES.as_ref(), f).or_panic();
        Tensor::from_buffer(data, StridedLayout::contiguous(S::SIZES))
    }
}

impl<T: Element, S: Shape> Tensor<T, S, Cpu> {
    /// A tensor of `sizes` (a shape with `Dyn` entries, or `DynTensor`)
    /// whose element at each index is `f(index)`, called in row-major
    /// order; `Err` when the sizes do not fit the shape or overflow.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i64>::from_fn_with(&[2, 3], |ix| (10 * ix[0] + ix[1]) as i64).unwrap();
    /// assert_eq!(x.to_vec(), [0, 1, 2, 10, 11, 12]);
    /// ```
    pub fn from_fn_with(sizes: &[usize], mut f: impl FnMut(&[usize]) -> T) -> Result<Self, Error> {
        checked_numel(sizes)?;
        check_contiguous_strides(sizes)?;
        let checked = S::check_sizes(sizes)?;
        let data = elements_of::<T, <DynShape as Shape>::Sizes>(sizes, |ix| f(ix.as_ref()))?;
        Ok(Tensor::from_buffer(
            data,
            StridedLayout::contiguous(checked),
        ))
    }
}

/// A vector (`DynTensor` of one dim) of the iterator's elements.
///
/// ```
/// use shaped::prelude::*;
/// let x: DynTensor<i32> = (1..=4).collect();
/// assert_eq!(x.shape().as_ref(), [4]);
/// assert_eq!(x.to_vec(), [1, 2, 3, 4]);
/// ```
impl<T: Element> FromIterator<T> for DynTensor<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let data: Vec<T> = iter.into_iter().collect();
        let n = data.len();
        Self::from_vec_with(data, &[n]).or_panic()
    }
}
