//! `CpuBuffer`: the owned elements of a CPU tensor.
//!
//! Small buffers come from the global allocator. Large ones (at least
//! [`POOL_MIN_BYTES`]) come from a cache of freed large blocks, as PyTorch's
//! CUDA caching allocator does: a fresh multi-megabyte allocation costs a page
//! fault per 4 KiB on first touch, which for elementwise operations takes
//! longer than the arithmetic. Reusing a block whose pages are already mapped
//! lets `&a + &b` run at memory bandwidth. New large blocks are aligned to
//! 2 MiB and marked for transparent huge pages where the OS offers them.

use crate::dtype::Element;
use crate::error::Error;
use crate::error::OrPanic;
use crate::storage::StorageId;
use core::alloc::Layout;
use core::mem::MaybeUninit;
use core::ptr::NonNull;
use std::collections::HashMap;
#[cfg(feature = "safetensors")]
use std::sync::Arc;
use std::sync::Mutex;

/// Buffers of at least this many bytes are drawn from (and returned to) the cache.
pub const POOL_MIN_BYTES: usize = 1 << 20;

/// The lengths [`CpuBuffer::try_small_with`] allocates in line: far below
/// [`POOL_MIN_BYTES`] for any element type.
pub const SMALL_BUFFER_ELEMENTS: usize = 1 << 10;

/// Large blocks are sized and aligned in steps of this (a huge page).
const BLOCK_STEP: usize = 2 << 20;

/// How many bytes of freed blocks the cache keeps, unless
/// `SHAPED_CPU_CACHE_BYTES` says otherwise.
const DEFAULT_CACHE_LIMIT: usize = 1 << 30;

/// Freed large blocks by size, and their total.
struct Cache {
    blocks: HashMap<usize, Vec<NonNull<u8>>>,
    bytes: usize,
    limit: usize,
}

// SAFETY: the cache holds the addresses of blocks that nothing else refers to
// (they were freed by their buffers); moving them between threads is moving
// ownership of plain memory.
unsafe impl Send for Cache {}

static CACHE: Mutex<Option<Cache>> = Mutex::new(None);

fn with_cache<R>(f: impl FnOnce(&mut Cache) -> R) -> R {
    let mut guard = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let cache = guard.get_or_insert_with(|| Cache {
        blocks: HashMap::new(),
        bytes: 0,
        limit: std::env::var("SHAPED_CPU_CACHE_BYTES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(DEFAULT_CACHE_LIMIT),
    });
    f(cache)
}

fn block_layout(bytes: usize) -> Layout {
    Layout::from_size_align(bytes, BLOCK_STEP).expect("checked by `try_new_with`")
}

/// A large block of `bytes` (a multiple of [`BLOCK_STEP`]): a cached one if
/// there is one, else a new one.
fn take_block(bytes: usize) -> Option<NonNull<u8>> {
    if let Some(block) = with_cache(|c| {
        let block = c.blocks.get_mut(&bytes).and_then(Vec::pop);
        if block.is_some() {
            c.bytes -= bytes;
        }
        block
    }) {
        return Some(block);
    }
    let layout = block_layout(bytes);
    // SAFETY: `layout` has a non-zero size.
    let ptr = NonNull::new(unsafe { std::alloc::alloc(layout) })?;
    advise_huge_pages(ptr, bytes);
    Some(ptr)
}

/// Returns a block to the cache, or to the allocator when the cache is full.
fn give_block(ptr: NonNull<u8>, bytes: usize) {
    let kept = with_cache(|c| {
        if c.bytes.saturating_add(bytes) > c.limit {
            return false;
        }
        c.bytes += bytes;
        c.blocks.entry(bytes).or_default().push(ptr);
        true
    });
    if !kept {
        // SAFETY: `ptr` was allocated by `take_block` with this layout and
        // nothing refers to it any more.
        unsafe { std::alloc::dealloc(ptr.as_ptr(), block_layout(bytes)) };
    }
}

/// Frees every cached block (memory held for reuse goes back to the system).
///
/// ```
/// shaped::backend::cpu::empty_cache();
/// assert_eq!(shaped::backend::cpu::cached_bytes(), 0);
/// ```
pub fn empty_cache() {
    let blocks: Vec<(usize, NonNull<u8>)> = with_cache(|c| {
        c.bytes = 0;
        c.blocks
            .drain()
            .flat_map(|(bytes, v)| v.into_iter().map(move |p| (bytes, p)))
            .collect()
    });
    for (bytes, ptr) in blocks {
        // SAFETY: cached blocks were allocated by `take_block` with this
        // layout and nothing refers to them.
        unsafe { std::alloc::dealloc(ptr.as_ptr(), block_layout(bytes)) };
    }
}

/// Bytes currently held in the cache of freed large blocks.
pub fn cached_bytes() -> usize {
    with_cache(|c| c.bytes)
}

/// PyTorch's out-of-memory error for `len` elements of `T` (the bytes
/// saturate where they would overflow).
pub(crate) fn out_of_memory<T>(len: usize) -> Error {
    Error::OutOfMemory {
        bytes: len.saturating_mul(size_of::<T>()),
    }
}

/// An empty `Vec` with room for exactly `len` elements, or PyTorch's
/// out-of-memory error: how every allocation whose size a tensor or a
/// caller decides is made (`vec!`, `Vec::with_capacity` and `collect`
/// abort the process when the memory cannot be had).
///
/// ```text
/// let v: Vec<f32> = try_vec_with_capacity(1 << 10)?;   // len 0, capacity 1024
/// assert!(try_vec_with_capacity::<f32>(1 << 62).is_err());
/// ```
pub(crate) fn try_vec_with_capacity<T>(len: usize) -> Result<Vec<T>, Error> {
    vec_with_capacity(len).ok_or_else(|| out_of_memory::<T>(len))
}

/// An empty `Vec` with room for exactly `len` elements, or `None` when the
/// allocator refuses: `try_reserve_exact` without its out-of-line growth
/// path (a measurable share of a 3x3 addition).
#[inline]
fn vec_with_capacity<T>(len: usize) -> Option<Vec<T>> {
    let layout = std::alloc::Layout::array::<T>(len).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: `layout` has a non-zero size.
    let ptr = unsafe { std::alloc::alloc(layout) }.cast::<T>();
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` was allocated by the global allocator with the layout
    // of `len` elements of `T` (`Layout::array`), the layout a `Vec<T>` of
    // capacity `len` deallocates with; no element is initialized (length 0).
    Some(unsafe { Vec::from_raw_parts(ptr, 0, len) })
}

/// The items of `iter` in a `Vec` allocated as [`try_vec_with_capacity`]
/// (for the length the iterator reports; more items grow it fallibly).
pub(crate) fn try_collect<T>(iter: impl ExactSizeIterator<Item = T>) -> Result<Vec<T>, Error> {
    let mut v = try_vec_with_capacity(iter.len())?;
    for x in iter {
        if v.len() == v.capacity() {
            v.try_reserve(1)
                .map_err(|_| out_of_memory::<T>(v.len() + 1))?;
        }
        v.push(x);
    }
    Ok(v)
}

/// [`try_collect`] into a `SmallVec` (inline up to its array's length).
pub(crate) fn try_collect_small<A: smallvec::Array>(
    iter: impl ExactSizeIterator<Item = A::Item>,
) -> Result<smallvec::SmallVec<A>, Error> {
    let mut v = smallvec::SmallVec::new();
    v.try_reserve_exact(iter.len())
        .map_err(|_| out_of_memory::<A::Item>(iter.len()))?;
    for x in iter {
        if v.len() == v.capacity() {
            v.try_reserve(1)
                .map_err(|_| out_of_memory::<A::Item>(v.len() + 1))?;
        }
        v.push(x);
    }
    Ok(v)
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: NonNull<u8>, bytes: usize) {
    // SAFETY: the range is one block we just allocated; `madvise` only
    // changes how the kernel backs it, and a failure is harmless.
    unsafe {
        libc::madvise(ptr.as_ptr().cast(), bytes, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: NonNull<u8>, _: usize) {}

/// What writes a new buffer's elements, behind a trait object.
type Fill<'a, T> = dyn FnMut(&mut [MaybeUninit<T>]) -> Result<(), Error> + 'a;

/// Where a buffer's memory came from, and so how it is given back.
#[derive(Debug)]
enum Origin {
    /// A `Vec`'s allocation, of this capacity.
    Vec(usize),
    /// A large block of this many bytes.
    Block(usize),
    /// Memory that another owner holds (a file mapping), alive while this
    /// handle is.
    #[cfg(feature = "safetensors")]
    Shared(#[allow(dead_code)] KeepAlive),
}

/// Whatever owns the memory of a [`Origin::Shared`] buffer.
#[cfg(feature = "safetensors")]
struct KeepAlive(#[allow(dead_code)] Arc<dyn Owner>);

/// What may own a buffer's memory: shareable between threads, and (like
/// the other buffers) safe to observe after a panic.
#[cfg(feature = "safetensors")]
pub(crate) trait Owner: Send + Sync + std::panic::RefUnwindSafe {}
#[cfg(feature = "safetensors")]
impl<T: Send + Sync + std::panic::RefUnwindSafe> Owner for T {}

#[cfg(feature = "safetensors")]
impl core::fmt::Debug for KeepAlive {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("KeepAlive")
    }
}

/// The elements of a CPU tensor: `len` initialized values of `T`.
///
/// ```
/// use shaped::backend::cpu::CpuBuffer;
/// let b = CpuBuffer::from(vec![1.0f32, 2.0]);
/// assert_eq!(b.as_slice(), &[1.0, 2.0]);
/// ```
pub struct CpuBuffer<T: Element> {
    ptr: NonNull<T>,
    len: usize,
    origin: Origin,
    /// Its own, whatever `ptr` is (all empty `Vec`s have one address).
    id: StorageId,
}

// SAFETY: a `CpuBuffer` owns its elements like a `Vec<T>` does.
unsafe impl<T: Element> Send for CpuBuffer<T> {}
// SAFETY: shared access only reads, like `&Vec<T>`.
unsafe impl<T: Element> Sync for CpuBuffer<T> {}

impl<T: Element> From<Vec<T>> for CpuBuffer<T> {
    fn from(v: Vec<T>) -> Self {
        let mut v = core::mem::ManuallyDrop::new(v);
        let ptr = NonNull::new(v.as_mut_ptr()).expect("Vec pointers are never null");
        CpuBuffer {
            ptr,
            len: v.len(),
            origin: Origin::Vec(v.capacity()),
            id: StorageId::fresh(),
        }
    }
}

impl<T: Element> CpuBuffer<T> {
    /// A buffer of `len` elements, written by `fill` through the
    /// uninitialized slice it is given. `Err` (PyTorch's out-of-memory
    /// text) when the memory cannot be had.
    ///
    /// # Safety
    /// `fill` must initialize every element of the slice (unless it
    /// panics): the buffer takes them as initialized.
    pub(crate) unsafe fn try_new_with(
        len: usize,
        fill: impl FnOnce(&mut [MaybeUninit<T>]),
    ) -> Result<Self, Error> {
        // SAFETY: the caller's contract; the fill never fails.
        unsafe {
            Self::try_new_fallible(len, |slice| {
                fill(slice);
                Ok(())
            })
        }
    }

    /// [`CpuBuffer::try_new_with`] for a few elements (under
    /// [`SMALL_BUFFER_ELEMENTS`]), compiled in line at its caller: a `Vec`
    /// straight from the allocator, without the trait object the general
    /// path goes through (a third of a 3x3 addition's own work). Larger
    /// lengths take the general path.
    ///
    /// # Safety
    /// As [`CpuBuffer::try_new_with`].
    #[inline]
    pub(crate) unsafe fn try_small_with(
        len: usize,
        fill: impl FnOnce(&mut [MaybeUninit<T>]),
    ) -> Result<Self, Error> {
        if len >= SMALL_BUFFER_ELEMENTS {
            // SAFETY: the caller's contract.
            return unsafe { Self::try_new_with(len, fill) };
        }
        let mut v = vec_with_capacity::<T>(len).ok_or_else(|| out_of_memory::<T>(len))?;
        fill(&mut v.spare_capacity_mut()[..len]);
        // SAFETY: `fill` initialized the first `len` elements (the caller's
        // contract).
        unsafe { v.set_len(len) };
        Ok(v.into())
    }

    /// [`CpuBuffer::try_new_with`] whose `fill` may fail: its `Err` is
    /// returned and the memory given back.
    ///
    /// # Safety
    /// When `fill` returns `Ok`, it has initialized every element of the
    /// slice.
    pub(crate) unsafe fn try_new_fallible(
        len: usize,
        fill: impl FnOnce(&mut [MaybeUninit<T>]) -> Result<(), Error>,
    ) -> Result<Self, Error> {
        let mut fill = Some(fill);
        // SAFETY: the caller's contract (`try_new_with_dyn` calls the
        // closure at most once, which runs `fill`).
        unsafe {
            Self::try_new_with_dyn(len, &mut |slice| {
                fill.take().expect("a buffer is filled once")(slice)
            })
        }
    }

    /// [`CpuBuffer::try_new_fallible`] behind a trait object: the
    /// allocation is compiled once per element type, not once per caller.
    ///
    /// # Safety
    /// As [`CpuBuffer::try_new_fallible`].
    unsafe fn try_new_with_dyn(len: usize, fill: &mut Fill<'_, T>) -> Result<Self, Error> {
        let out_of_memory = |bytes| Error::OutOfMemory { bytes };
        let bytes = len
            .checked_mul(size_of::<T>())
            .filter(|&b| b <= isize::MAX as usize - BLOCK_STEP)
            .ok_or_else(|| out_of_memory(usize::MAX))?;
        if bytes < POOL_MIN_BYTES {
            let mut v = vec_with_capacity::<T>(len).ok_or_else(|| out_of_memory(bytes))?;
            fill(&mut v.spare_capacity_mut()[..len])?;
            // SAFETY: `fill` returned `Ok`, so it initialized the first
            // `len` elements (the caller's contract).
            unsafe { v.set_len(len) };
            return Ok(v.into());
        }
        let block_bytes = bytes.div_ceil(BLOCK_STEP) * BLOCK_STEP;
        let block = take_block(block_bytes).ok_or_else(|| out_of_memory(bytes))?;
        // Zero-length until filled: if `fill` fails or panics, the block
        // goes back.
        let mut buffer = CpuBuffer {
            ptr: block.cast(),
            len: 0,
            origin: Origin::Block(block_bytes),
            id: StorageId::fresh(),
        };
        // SAFETY: the block holds at least `len` elements of `T` (`bytes`
        // rounded up) and is aligned to 2 MiB, more than any element needs;
        // nothing else refers to it. A slice of `MaybeUninit` needs no
        // initialized elements.
        let slice = unsafe { core::slice::from_raw_parts_mut(block.as_ptr().cast(), len) };
        fill(slice)?;
        // `fill` returned `Ok`: every element is initialized (the caller's
        // contract).
        buffer.len = len;
        Ok(buffer)
    }

    /// `len` copies of `value`, or `Err` when the memory cannot be had.
    pub(crate) fn try_full(len: usize, value: T) -> Result<Self, Error> {
        // SAFETY: the loop writes every element.
        unsafe {
            Self::try_new_with(len, |s| {
                for x in s {
                    x.write(value);
                }
            })
        }
    }

    /// A buffer of the `len` elements at `ptr`, whose memory `owner` holds
    /// (a file mapping): no copy is made, and `owner` lives as long as the
    /// buffer does.
    ///
    /// # Safety
    /// `ptr` is aligned for `T` and points at `len` initialized, valid
    /// values of `T` (bools are 0 or 1), readable and writable for as long
    /// as `owner` lives; nothing else reads or writes them while the buffer
    /// lives (no other buffer covers any of them).
    #[cfg(feature = "safetensors")]
    pub(crate) unsafe fn from_shared(ptr: NonNull<T>, len: usize, owner: Arc<dyn Owner>) -> Self {
        CpuBuffer {
            ptr,
            len,
            origin: Origin::Shared(KeepAlive(owner)),
            id: StorageId::fresh(),
        }
    }

    /// True when the elements live in memory another owner holds (a file
    /// mapping) rather than in an allocation of this library.
    #[cfg(all(test, feature = "safetensors"))]
    pub(crate) fn is_shared(&self) -> bool {
        matches!(self.origin, Origin::Shared(_))
    }

    /// The elements as a `Vec`: the allocation itself when the buffer was
    /// made from one (no copy), else a copy; `Err` when the copy's memory
    /// cannot be had.
    pub(crate) fn try_into_vec(self) -> Result<Vec<T>, Error> {
        if let Origin::Vec(capacity) = self.origin {
            let buffer = core::mem::ManuallyDrop::new(self);
            // SAFETY: the buffer was made from a `Vec` of this pointer,
            // length and capacity (`From<Vec<T>>`), and is not dropped.
            return Ok(unsafe { Vec::from_raw_parts(buffer.ptr.as_ptr(), buffer.len, capacity) });
        }
        let mut v = try_vec_with_capacity(self.len)?;
        v.extend_from_slice(self.as_slice());
        Ok(v)
    }

    /// The elements.
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: `ptr` points at `len` initialized elements owned by `self`.
        unsafe { core::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    /// The elements, writable.
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as `as_slice`, and `&mut self` makes the access exclusive.
        unsafe { core::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }

    /// The start of the elements, for reading.
    pub(crate) fn as_ptr(&self) -> NonNull<T> {
        self.ptr
    }

    /// The buffer's identity, distinct from every other live buffer's.
    pub(crate) fn storage_id(&self) -> StorageId {
        self.id
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<T: Element> core::fmt::Debug for CpuBuffer<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CpuBuffer")
            .field("len", &self.len)
            .field("origin", &self.origin)
            .finish()
    }
}

impl<T: Element> Clone for CpuBuffer<T> {
    fn clone(&self) -> Self {
        let src = self.as_slice();
        // SAFETY: `dst` and `src` both have `self.len` elements, so the
        // loop writes every one.
        unsafe {
            Self::try_new_with(self.len, |dst| {
                for (d, &s) in dst.iter_mut().zip(src) {
                    d.write(s);
                }
            })
        }
        .or_panic()
    }
}

impl<T: Element> Drop for CpuBuffer<T> {
    fn drop(&mut self) {
        match self.origin {
            // SAFETY: rebuilds the `Vec` this buffer was made from; elements
            // are `Copy` and need no drop.
            Origin::Vec(capacity) => unsafe {
                drop(Vec::from_raw_parts(self.ptr.as_ptr(), self.len, capacity));
            },
            Origin::Block(bytes) => give_block(self.ptr.cast(), bytes),
            // The owner lets go of the memory when its last handle drops.
            #[cfg(feature = "safetensors")]
            Origin::Shared(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_blocks_are_reused() {
        let n = (5 * POOL_MIN_BYTES) / 4; // 5 MiB of f32: one 6 MiB block
        let a = CpuBuffer::<f32>::try_full(n, 1.5).unwrap();
        assert!(a.as_slice().iter().all(|&x| x == 1.5));
        let addr = a.as_ptr();
        drop(a);
        let b = CpuBuffer::<f32>::try_full(n, 2.5).unwrap();
        assert_eq!(b.as_ptr(), addr, "the freed block is reused");
        assert!(b.as_slice().iter().all(|&x| x == 2.5));
        let c = b.clone();
        assert_ne!(c.as_ptr(), b.as_ptr());
        assert_eq!(c.as_slice(), b.as_slice());
    }

    #[test]
    fn every_buffer_has_its_own_identity() {
        let empty = || CpuBuffer::<f32>::from(Vec::new());
        let (a, b) = (empty(), empty());
        assert_eq!(a.as_ptr(), b.as_ptr(), "one dangling address");
        assert_ne!(a.storage_id(), b.storage_id());
        assert_ne!(a.clone().storage_id(), a.storage_id());
        // Across threads too (each takes identities from a range of its own).
        let ids: Vec<StorageId> = std::thread::scope(|s| {
            let threads: Vec<_> = (0..4)
                .map(|_| s.spawn(|| (0..1000).map(|_| empty().storage_id()).collect::<Vec<_>>()))
                .collect();
            threads
                .into_iter()
                .flat_map(|t| t.join().unwrap())
                .collect()
        });
        let distinct: std::collections::HashSet<_> = ids.iter().collect();
        assert_eq!(distinct.len(), ids.len());
    }

    #[test]
    fn small_buffers_and_vecs() {
        let v = CpuBuffer::from(vec![1u8, 2, 3]);
        assert_eq!(v.as_slice(), &[1, 2, 3]);
        let mut s = CpuBuffer::<i64>::try_full(4, 7).unwrap();
        s.as_mut_slice()[2] = 0;
        assert_eq!(s.as_slice(), &[7, 7, 0, 7]);
        assert!(CpuBuffer::<f64>::try_full(0, 0.0).unwrap().is_empty());
        let too_big = CpuBuffer::<f64>::try_full(usize::MAX / 8, 0.0).unwrap_err();
        assert!(
            too_big
                .to_string()
                .contains("DefaultCPUAllocator: can't allocate memory")
        );
    }
}
