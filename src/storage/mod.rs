//! Who owns a tensor's elements and whether they may be written ([`Repr`]:
//! owned, borrowed, mutably borrowed), and the identity of a buffer
//! ([`StorageId`]). Where the elements live is the backend's business
//! ([`crate::backend`]).
//!
//! As in ndarray, storage and shape are kept apart: a [`Tensor`](crate::Tensor)
//! is a `Repr::Data` plus a [`Layout`](crate::layout::Layout). Owned tensors
//! hold their backend's buffer; views hold a raw handle to the owner's buffer
//! and a lifetime that ties them to the borrow they came from.

use crate::backend::Backend;
use crate::device::Device;

use crate::dtype::{ComplexElement, Element};
use core::cell::Cell;
use core::fmt::Debug;
use core::marker::PhantomData;
use core::sync::atomic::{AtomicU64, Ordering};

pub(crate) mod sealed {
    pub trait Sealed {}
}

/// The identity of one buffer: every buffer gets its own when it is made, so
/// that two live buffers never share one, empty ones included (their data
/// addresses may well be equal: every empty allocation of an element type has
/// the same dangling address). A tensor and its views carry their buffer's.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct StorageId(u64);

impl StorageId {
    /// An identity never handed out before. (2^64 buffers are not going to
    /// be made: the counter does not wrap around in practice.)
    #[inline]
    pub(crate) fn fresh() -> StorageId {
        // Each thread takes identities from a range of its own, so that the
        // shared counter (an atomic read-modify-write, which costs about as
        // much as the arithmetic of a small elementwise operation) is
        // touched once per `BATCH` buffers.
        const BATCH: u64 = 1 << 16;
        static NEXT: AtomicU64 = AtomicU64::new(0);
        thread_local! {
            /// The next identity of this thread's range, and its end.
            static RANGE: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
        }
        RANGE
            .try_with(|range| {
                let (mut next, mut end) = range.get();
                if next == end {
                    next = NEXT.fetch_add(BATCH, Ordering::Relaxed);
                    end = next + BATCH;
                }
                range.set((next + 1, end));
                StorageId(next)
            })
            // A buffer made while the thread's locals are torn down.
            .unwrap_or_else(|_| StorageId(NEXT.fetch_add(1, Ordering::Relaxed)))
    }
}

/// Who owns a tensor's elements and whether they may be written.
pub trait Repr: sealed::Sealed {
    /// What the tensor holds for its elements.
    type Data<T: Element, D: Backend>: Storage<T, D>;

    /// The kind of a read-only view of a tensor borrowed for `'s`: a view of
    /// an owned tensor borrows it for `'s`; a view of a read-only view keeps
    /// the original borrow, so views of views chain (`x.t()?.narrow(..)?`).
    type Viewed<'s>: Repr
    where
        Self: 's;

    /// The copy-on-write kind for the same borrow (`reshape`, `contiguous`).
    type CowViewed<'s>: Repr
    where
        Self: 's;

    /// The elements, borrowed read-only for a view.
    fn viewed<'s, T: Element, D: Backend>(
        data: &'s Self::Data<T, D>,
    ) -> <Self::Viewed<'s> as Repr>::Data<T, D>
    where
        Self: 's;

    /// The elements, borrowed read-only for a copy-on-write tensor.
    fn cow_viewed<'s, T: Element, D: Backend>(
        data: &'s Self::Data<T, D>,
    ) -> <Self::CowViewed<'s> as Repr>::Data<T, D>
    where
        Self: 's;

    /// New elements, owned by a copy-on-write tensor.
    fn cow_owned<'s, T: Element, D: Backend>(
        data: OwnedData<T, D>,
    ) -> <Self::CowViewed<'s> as Repr>::Data<T, D>
    where
        Self: 's;
}

/// `Viewed` / `CowViewed` for kinds whose views borrow the tensor itself.
macro_rules! views_borrow_self {
    () => {
        type Viewed<'s>
            = View<'s>
        where
            Self: 's;
        type CowViewed<'s>
            = CowView<'s>
        where
            Self: 's;
        fn viewed<'s, T: Element, D: Backend>(data: &'s Self::Data<T, D>) -> Borrowed<'s, T, D>
        where
            Self: 's,
        {
            borrow(data)
        }
        fn cow_viewed<'s, T: Element, D: Backend>(data: &'s Self::Data<T, D>) -> CowData<'s, T, D>
        where
            Self: 's,
        {
            CowData::Borrowed(borrow(data))
        }
        fn cow_owned<'s, T: Element, D: Backend>(data: OwnedData<T, D>) -> CowData<'s, T, D>
        where
            Self: 's,
        {
            CowData::Owned(data)
        }
    };
}

/// Read access to the buffer behind a tensor.
pub trait Storage<T: Element, D: Backend> {
    /// The start of the whole underlying buffer.
    fn ptr(&self) -> D::Ptr<T>;
    /// The length of the whole underlying buffer.
    fn len(&self) -> usize;
    /// True for an empty buffer.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The device the buffer lives on.
    fn device(&self) -> Device;
    /// The identity of the whole underlying buffer.
    fn storage_id(&self) -> StorageId;
}

/// Storage kinds whose tensors may be written: owned tensors and mutable
/// views. Their layouts never put two indices on one element.
pub trait Writable: Repr {
    /// The start of the whole buffer, with write permission.
    fn ptr_mut<T: Element, D: Backend>(data: &mut Self::Data<T, D>) -> D::Ptr<T>;
}

/// Holds for nothing: the operations that would write through a read-only
/// [`View`] (`x[[i]] = v`, `x += y`) exist only to require it, so that the
/// compiler explains the mistake in these words.
#[diagnostic::on_unimplemented(
    message = "cannot write through a read-only view",
    label = "this tensor is a read-only view",
    note = "views from `as_view()`, `expand()` and `broadcast_to()` are read-only; an expanded (stride-0) view maps many indices to one element",
    note = "write into an owned tensor or a `view_mut()` of one; `to_owned()` copies a view into a new tensor"
)]
pub trait WriteThroughView {}

/// The tensor owns its buffer.
#[derive(Copy, Clone, Debug)]
pub struct Owned;
/// A read-only view borrowing the buffer for `'a`.
#[derive(Copy, Clone, Debug)]
pub struct View<'a>(PhantomData<&'a ()>);
/// A writable view borrowing the buffer exclusively for `'a`.
#[derive(Copy, Clone, Debug)]
pub struct ViewMut<'a>(PhantomData<&'a mut ()>);

/// Either a read-only view or an owned copy, as `reshape` and `contiguous()`
/// give: the same storage when the layout allows, else new storage.
#[derive(Copy, Clone, Debug)]
pub struct CowView<'a>(PhantomData<&'a ()>);

impl sealed::Sealed for Owned {}
impl sealed::Sealed for CowView<'_> {}
impl sealed::Sealed for View<'_> {}
impl sealed::Sealed for ViewMut<'_> {}

/// The owner's buffer.
pub struct OwnedData<T: Element, D: Backend> {
    pub(crate) buffer: D::Buffer<T>,
    pub(crate) device: Device,
}

/// A borrowed handle to a buffer.
pub struct Borrowed<'a, T: Element, D: Backend> {
    ptr: D::Ptr<T>,
    len: usize,
    device: Device,
    id: StorageId,
    _borrow: PhantomData<&'a D::Buffer<T>>,
}

impl<T: Element, D: Backend> Clone for Borrowed<'_, T, D> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Element, D: Backend> Copy for Borrowed<'_, T, D> {}

/// An exclusively borrowed handle to a buffer.
pub struct BorrowedMut<'a, T: Element, D: Backend> {
    ptr: D::Ptr<T>,
    len: usize,
    device: Device,
    id: StorageId,
    _borrow: PhantomData<&'a mut D::Buffer<T>>,
}

impl Repr for Owned {
    type Data<T: Element, D: Backend> = OwnedData<T, D>;
    views_borrow_self!();
}
impl<'a> Repr for View<'a> {
    type Data<T: Element, D: Backend> = Borrowed<'a, T, D>;
    type Viewed<'s>
        = View<'a>
    where
        Self: 's;
    type CowViewed<'s>
        = CowView<'a>
    where
        Self: 's;
    fn viewed<'s, T: Element, D: Backend>(data: &'s Borrowed<'a, T, D>) -> Borrowed<'a, T, D>
    where
        Self: 's,
    {
        *data
    }
    fn cow_viewed<'s, T: Element, D: Backend>(data: &'s Borrowed<'a, T, D>) -> CowData<'a, T, D>
    where
        Self: 's,
    {
        CowData::Borrowed(*data)
    }
    fn cow_owned<'s, T: Element, D: Backend>(data: OwnedData<T, D>) -> CowData<'a, T, D>
    where
        Self: 's,
    {
        CowData::Owned(data)
    }
}
impl<'a> Repr for CowView<'a> {
    type Data<T: Element, D: Backend> = CowData<'a, T, D>;
    views_borrow_self!();
}
impl<'a> Repr for ViewMut<'a> {
    type Data<T: Element, D: Backend> = BorrowedMut<'a, T, D>;
    views_borrow_self!();
}

impl<T: Element, D: Backend> OwnedData<T, D> {
    pub(crate) fn new(buffer: D::Buffer<T>) -> Self {
        let device = D::device(&buffer);
        OwnedData { buffer, device }
    }
}

impl<T: Element, D: Backend> Storage<T, D> for OwnedData<T, D> {
    fn ptr(&self) -> D::Ptr<T> {
        D::ptr(&self.buffer)
    }
    fn len(&self) -> usize {
        D::len(&self.buffer)
    }
    fn device(&self) -> Device {
        self.device
    }
    fn storage_id(&self) -> StorageId {
        D::storage_id(&self.buffer)
    }
}
impl Writable for Owned {
    fn ptr_mut<T: Element, D: Backend>(data: &mut OwnedData<T, D>) -> D::Ptr<T> {
        D::ptr_mut(&mut data.buffer)
    }
}

impl<T: Element, D: Backend> Storage<T, D> for Borrowed<'_, T, D> {
    fn ptr(&self) -> D::Ptr<T> {
        self.ptr
    }
    fn len(&self) -> usize {
        self.len
    }
    fn device(&self) -> Device {
        self.device
    }
    fn storage_id(&self) -> StorageId {
        self.id
    }
}

impl<T: Element, D: Backend> Storage<T, D> for BorrowedMut<'_, T, D> {
    fn ptr(&self) -> D::Ptr<T> {
        self.ptr
    }
    fn len(&self) -> usize {
        self.len
    }
    fn device(&self) -> Device {
        self.device
    }
    fn storage_id(&self) -> StorageId {
        self.id
    }
}
impl Writable for ViewMut<'_> {
    fn ptr_mut<T: Element, D: Backend>(data: &mut BorrowedMut<'_, T, D>) -> D::Ptr<T> {
        data.ptr
    }
}

/// Borrowed or owned elements (see [`CowView`]).
pub enum CowData<'a, T: Element, D: Backend> {
    /// The elements of the tensor this came from.
    Borrowed(Borrowed<'a, T, D>),
    /// A new buffer.
    Owned(OwnedData<T, D>),
}

impl<T: Element, D: Backend> Storage<T, D> for CowData<'_, T, D> {
    fn ptr(&self) -> D::Ptr<T> {
        match self {
            CowData::Borrowed(b) => b.ptr(),
            CowData::Owned(o) => o.ptr(),
        }
    }
    fn len(&self) -> usize {
        match self {
            CowData::Borrowed(b) => b.len(),
            CowData::Owned(o) => o.len(),
        }
    }
    fn device(&self) -> Device {
        match self {
            CowData::Borrowed(b) => b.device(),
            CowData::Owned(o) => o.device(),
        }
    }
    fn storage_id(&self) -> StorageId {
        match self {
            CowData::Borrowed(b) => b.storage_id(),
            CowData::Owned(o) => o.storage_id(),
        }
    }
}

/// Borrows any storage for reading.
pub(crate) fn borrow<'a, T: Element, D: Backend, S: Storage<T, D> + ?Sized>(
    data: &'a S,
) -> Borrowed<'a, T, D> {
    Borrowed {
        ptr: data.ptr(),
        len: data.len(),
        device: data.device(),
        id: data.storage_id(),
        _borrow: PhantomData,
    }
}

impl<'a, C: ComplexElement, D: Backend> Borrowed<'a, C, D> {
    /// The same buffer seen as the parts of its complex elements: element
    /// `k`'s real part is part `2k`, its imaginary part `2k + 1`
    /// (`num_complex::Complex` is `#[repr(C)]`, two parts in that order).
    pub(crate) fn parts(self) -> Borrowed<'a, C::Real, D> {
        Borrowed {
            ptr: D::cast_ptr(self.ptr),
            len: self.len * 2,
            device: self.device,
            id: self.id,
            _borrow: PhantomData,
        }
    }
}

impl<'a, C: ComplexElement, D: Backend> BorrowedMut<'a, C, D> {
    /// As [`Borrowed::parts`], exclusively.
    pub(crate) fn parts(self) -> BorrowedMut<'a, C::Real, D> {
        BorrowedMut {
            ptr: D::cast_ptr(self.ptr),
            len: self.len * 2,
            device: self.device,
            id: self.id,
            _borrow: PhantomData,
        }
    }
}

#[cfg(any(feature = "ndarray", feature = "nalgebra"))]
impl<'a, T: Element, D: Backend> Borrowed<'a, T, D> {
    /// A read-only handle on `len` elements at `ptr` that no tensor owns
    /// (another library's array, [`crate::interop`]): a storage of its own,
    /// borrowed for `'a`.
    ///
    /// # Safety
    /// For `'a`, every element of `ptr[..len]` that a layout attached to
    /// this handle addresses is an initialized value of `T` (a bool is 0 or
    /// 1), inside one live allocation, and written by no one.
    pub(crate) unsafe fn foreign(ptr: D::Ptr<T>, len: usize, device: Device) -> Self {
        Borrowed {
            ptr,
            len,
            device,
            id: StorageId::fresh(),
            _borrow: PhantomData,
        }
    }
}

#[cfg(any(feature = "ndarray", feature = "nalgebra"))]
impl<'a, T: Element, D: Backend> BorrowedMut<'a, T, D> {
    /// As [`Borrowed::foreign`], exclusively: a writable handle.
    ///
    /// # Safety
    /// For `'a`, every element of `ptr[..len]` that a layout attached to
    /// this handle addresses is an initialized value of `T`, inside one live
    /// allocation, and read or written through this handle alone.
    pub(crate) unsafe fn foreign(ptr: D::Ptr<T>, len: usize, device: Device) -> Self {
        BorrowedMut {
            ptr,
            len,
            device,
            id: StorageId::fresh(),
            _borrow: PhantomData,
        }
    }
}

/// Borrows writable storage exclusively.
pub(crate) fn borrow_mut<'a, T: Element, D: Backend, R: Writable>(
    data: &'a mut R::Data<T, D>,
) -> BorrowedMut<'a, T, D> {
    let ptr = R::ptr_mut(data);
    BorrowedMut {
        ptr,
        len: data.len(),
        device: data.device(),
        id: data.storage_id(),
        _borrow: PhantomData,
    }
}
