//! The tensor type: storage ([`Repr`] over a [`Backend`]) plus a strided
//! [`Layout`] of a [`Shape`].

mod bytes;
mod construct;
mod display;
mod format;
mod index;
pub mod iter;

use crate::backend::Elementwise;
use crate::backend::{Backend, Cpu, StridedRef};
use crate::device::Device;
use crate::dtype::{DType, Element};
use crate::error::OrPanic;
use crate::layout::{Layout, StridedLayout};
use crate::shape::{Shape, SizeArray};
use crate::storage::{self, Owned, OwnedData, Repr, Storage, View, ViewMut, Writable};

/// An n-dimensional array of `T` with shape `S` on device `D`.
///
/// `S` is a static shape (`shape![3, 224, 224]`), a mixed one
/// (`shape![Dyn, 3]`) or dynamic. `R` says who owns the elements: [`Owned`]
/// (the default), or a borrowed [`View`]/[`ViewMut`] of another tensor (see
/// [`TensorView`], [`TensorViewMut`]).
///
/// Invariants: the layout never reaches past the end of the storage, and a
/// tensor that may be written ([`Writable`]) never has two indices on one
/// element.
///
/// ```
/// use shaped::prelude::*;
/// let x = Tensor::<f32, shape![5, 1, 4, 1]>::zeros();
/// let y: Tensor<f32, shape![3, 1, 1]> = Tensor::ones();
/// let z = &x + &y; // Tensor<f32, shape![5, 3, 4, 1]>
/// assert_eq!(z.shape(), [5, 3, 4, 1]);
/// ```
pub struct Tensor<T: Element, S: Shape, D: Backend = Cpu, R: Repr = Owned> {
    pub(crate) data: R::Data<T, D>,
    pub(crate) layout: Layout<S>,
}

/// A read-only view borrowing another tensor's elements.
///
/// ```
/// use shaped::prelude::*;
/// let t = Tensor::<f32, shape![2, 2]>::ones();
/// let v: TensorView<'_, f32, shape![2, 2]> = t.as_view();
/// assert!(v.shares_storage_with(&t));
/// ```
pub type TensorView<'a, T, S, D = Cpu> = Tensor<T, S, D, View<'a>>;

/// A writable view borrowing another tensor's elements exclusively.
///
/// ```
/// use shaped::prelude::*;
/// let mut t = Tensor::<f32, shape![4, 4]>::zeros();
/// {
///     let mut vm: TensorViewMut<'_, f32, shape![4, 4]> = t.view_mut();
///     vm[[0, 0]] = 3.14;
/// }
/// assert_eq!(t[[0, 0]], 3.14);
/// ```
pub type TensorViewMut<'a, T, S, D = Cpu> = Tensor<T, S, D, ViewMut<'a>>;

impl<T: Element, S: Shape, D: Backend, R: Repr> Tensor<T, S, D, R> {
    /// The sizes: `[usize; N]` for a static rank.
    pub fn shape(&self) -> S::Sizes {
        self.layout.size_array().clone()
    }

    /// The strides, in elements.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = tensor![[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]];
    /// assert_eq!(x.strides(), [5, 1]);
    /// ```
    pub fn strides(&self) -> S::Sizes {
        self.layout.stride_array().clone()
    }

    /// The index of element `[0, 0, ..]` in the storage.
    pub fn storage_offset(&self) -> usize {
        self.layout.offset()
    }

    /// The number of elements.
    pub fn numel(&self) -> usize {
        self.layout.numel()
    }

    /// The number of dimensions.
    pub fn rank(&self) -> usize {
        self.layout.rank()
    }

    /// The layout (sizes, strides, offset).
    pub fn layout(&self) -> &Layout<S> {
        &self.layout
    }

    /// PyTorch's `is_contiguous()`: row-major without gaps.
    pub fn is_contiguous(&self) -> bool {
        self.layout.is_contiguous()
    }

    /// The element type's runtime tag.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(Tensor::<i16, shape![2]>::zeros().dtype(), DType::I16);
    /// ```
    pub fn dtype(&self) -> DType {
        T::DTYPE
    }

    /// The device holding the elements.
    pub fn device(&self) -> Device {
        self.data.device()
    }

    /// True when both tensors read the same storage (a tensor and its
    /// views), as PyTorch's comparison of storages. Storages are told apart
    /// by identity, not by address: two tensors made separately never share,
    /// even with no elements, and a view of no elements still shares its
    /// base's storage.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<f32, shape![3]>::zeros();
    /// let e = t.expand::<shape![2, 3]>();
    /// assert!(e.shares_storage_with(&t));
    /// assert!(!t.shares_storage_with(&Tensor::<f32, shape![3]>::zeros()));
    /// ```
    pub fn shares_storage_with<T2: Element, S2: Shape, R2: Repr>(
        &self,
        other: &Tensor<T2, S2, D, R2>,
    ) -> bool {
        self.device() == other.device() && self.data.storage_id() == other.data.storage_id()
    }

    /// A read-only view of the whole tensor.
    pub fn as_view(&self) -> crate::view::ViewOf<'_, T, S, D, R> {
        Tensor {
            data: R::viewed(&self.data),
            layout: self.layout.clone(),
        }
    }

    /// A read-only view of the whole tensor borrowed for as long as `self`
    /// is, whatever `R` is (a view of a view keeps its own borrow in
    /// [`as_view`](Self::as_view)): one type for the operands of functions
    /// that take tensors of any kind.
    pub(crate) fn reborrow(&self) -> Tensor<T, S, D, View<'_>> {
        Tensor {
            data: storage::borrow(&self.data),
            layout: self.layout.clone(),
        }
    }

    /// The shape-erased operand handed to kernels. A method of each shape:
    /// the operations that a program calls for many shapes write
    /// `StridedRef::new(&x.data, &x.layout)` instead, which compiles no
    /// function per shape.
    pub(crate) fn strided(&self) -> StridedRef<'_, T, D> {
        StridedRef::new(&self.data, &self.layout)
    }
}

impl<T: Element, S: Shape, D: Backend, R: Writable> Tensor<T, S, D, R> {
    /// A writable view of the whole tensor, borrowing it exclusively.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut t = Tensor::<i32, shape![2, 2]>::zeros();
    /// t.view_mut()[[1, 0]] = 7;
    /// assert_eq!(t.to_vec(), vec![0, 0, 7, 0]);
    /// ```
    pub fn view_mut(&mut self) -> TensorViewMut<'_, T, S, D> {
        Tensor {
            data: storage::borrow_mut::<T, D, R>(&mut self.data),
            layout: self.layout.clone(),
        }
    }
}

impl<T: Element, S: Shape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {
    /// A new owned, contiguous copy of the elements.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<f32, shape![3]>::arange();
    /// let grid = t.expand::<shape![2, 3]>().to_owned();
    /// assert!(grid.is_contiguous());
    /// assert!(!grid.shares_storage_with(&t));
    /// ```
    pub fn to_owned(&self) -> Tensor<T, S, D> {
        let buffer = D::map1(self.strided(), crate::ops::functions::Identity).or_panic();
        Tensor {
            data: OwnedData::new(buffer),
            layout: crate::layout::StridedLayout::contiguous(self.layout.size_array().clone()),
        }
    }
}

impl<T: Element, S: Shape, R: Repr> Tensor<T, S, Cpu, R> {
    /// The elements in row-major (logical) order.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let t = Tensor::<i64, shape![2, 3]>::from_vec((0..6).collect()).unwrap();
    /// assert_eq!(t.expand::<shape![2, 2, 3]>().to_vec().len(), 12);
    /// ```
    pub fn to_vec(&self) -> Vec<T> {
        crate::backend::cpu::elementwise::gather(self.strided())
    }
}

impl<T: Element, S: Shape, D: Backend> Tensor<T, S, D> {
    /// An owned tensor from a buffer and a layout that fits it.
    pub(crate) fn from_buffer(buffer: D::Buffer<T>, layout: Layout<S>) -> Self {
        from_parts!(owned_parts(buffer, layout))
    }
}

/// An owned tensor without its shape: its data and its layout over a size
/// array. The shape-erased cores of operations return these (one copy per
/// rank), and each per-shape method only puts them in a
/// `Tensor { data, layout }`, so that a new shape costs the compiler one
/// small function per operation.
pub(crate) type OwnedParts<T, D, A> = (OwnedData<T, D>, StridedLayout<A>);

/// The [`OwnedParts`] of a tensor of shape `S`.
pub(crate) type PartsOf<T, D, S> = OwnedParts<T, D, <S as Shape>::Sizes>;

/// `Tensor { data, layout }` of an expression giving [`OwnedParts`]: a
/// macro rather than a function, so that attaching a shape to a core's
/// result compiles no function of its own per shape.
macro_rules! from_parts {
    ($parts:expr) => {{
        let (data, layout) = $parts;
        $crate::tensor::Tensor { data, layout }
    }};
}
pub(crate) use from_parts;

/// A buffer and a layout that fits it, as an owned tensor's parts.
pub(crate) fn owned_parts<T: Element, D: Backend, A: SizeArray>(
    buffer: D::Buffer<T>,
    layout: StridedLayout<A>,
) -> OwnedParts<T, D, A> {
    let data = OwnedData::new(buffer);
    // The tensor invariant. Every caller builds the layout from the sizes
    // the buffer was allocated (and filled) for, after checking them, so
    // this holds by construction and is checked in debug builds, where the
    // whole test suite runs: as a release `assert!` it cost a 3x3 addition
    // of runtime shapes 40 ns of its 105.
    debug_assert!(
        layout.storage_span().is_some_and(|end| end <= data.len()),
        "an output layout fits its new buffer"
    );
    (data, layout)
}

impl<T: Element, S: Shape> Clone for Tensor<T, S, Cpu> {
    /// A deep copy, as the inherent [`Tensor::clone`] (PyTorch's `clone()`
    /// with `preserve_format`).
    fn clone(&self) -> Self {
        Tensor::clone(self)
    }
}

impl<T, S, R1, R2, S2> PartialEq<Tensor<T, S2, Cpu, R2>> for Tensor<T, S, Cpu, R1>
where
    T: Element,
    S: Shape,
    S2: Shape,
    R1: Repr,
    R2: Repr,
{
    /// Same sizes and the same elements (not PyTorch's elementwise `==`;
    /// that is [`Tensor::eq`]).
    fn eq(&self, other: &Tensor<T, S2, Cpu, R2>) -> bool {
        self.layout.sizes() == other.layout.sizes() && self.to_vec() == other.to_vec()
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;

    #[test]
    fn empty_tensors_have_storages_of_their_own() {
        // Every empty allocation of an element type has the same address;
        // storages are still told apart.
        let a = DynTensor::<f32>::zeros(&[0, 3]);
        let b = DynTensor::<f32>::zeros(&[0, 3]);
        assert!(!a.shares_storage_with(&b));
        let v = DynTensor::<f32>::from_vec(Vec::new(), &[3, 0]).unwrap();
        assert!(!v.shares_storage_with(&a));
        let s = Tensor::<f32, shape![0]>::zeros();
        assert!(!s.shares_storage_with(&Tensor::<f32, shape![0]>::zeros()));
        assert!(!s.shares_storage_with(&a));
        // Copies are new storages, empty or not.
        assert!(!a.clone().shares_storage_with(&a));
        assert!(!a.to_owned().shares_storage_with(&a));
        // Views share their base's, empty or not.
        assert!(a.shares_storage_with(&a));
        assert!(a.as_view().shares_storage_with(&a));
        assert!(a.t().unwrap().shares_storage_with(&a));
        assert!(a.contiguous().shares_storage_with(&a));
    }

    #[test]
    fn an_empty_view_shares_its_base() {
        let t = DynTensor::<i64>::from_vec((0..12).collect(), &[3, 4]).unwrap();
        let e = t.narrow(0, 1, 0).unwrap();
        assert_eq!(e.numel(), 0);
        assert!(e.shares_storage_with(&t));
        assert!(t.shares_storage_with(&e));
        let ee = e.narrow(1, 0, 0).unwrap();
        assert!(ee.shares_storage_with(&t));
        assert!(ee.shares_storage_with(&e));
        let other = DynTensor::<i64>::arange(12);
        assert!(!e.shares_storage_with(&other));
    }
}
