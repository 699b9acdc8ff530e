//! safetensors files: Hugging Face's format for model weights (an 8-byte
//! header length, a JSON header of names, dtypes, shapes and byte ranges,
//! then the elements, little-endian and row-major).
//!
//! Headers are parsed and validated here, with the reference
//! implementation's rules (Hugging Face's `safetensors` crate: the tensors'
//! bytes cover the data in order without gaps, each exactly its elements,
//! no product of sizes overflows), and the tests check that every file this
//! module accepts, among a million mutated ones, the reference accepts too.
//! Not the crate itself: it needs serde_json, whose `PartialEq` impls
//! between numbers and JSON values would reach the type inference of every
//! program using this one. Three ways in:
//!
//! - [`load`] / [`load_all`]: one tensor (typed, its dtype and shape
//!   checked) or every tensor, each read straight into its own buffer.
//! - [`SafeTensors::open`]: the header only; each [`tensor`](SafeTensors::tensor)
//!   reads just its bytes, so reading one tensor of a large file costs the
//!   size of that tensor.
//! - [`SafeTensors::mmap`]: the file memory-mapped (copy-on-write);
//!   [`take`](SafeTensors::take) and [`into_tensors`](SafeTensors::into_tensors)
//!   give tensors whose elements are the file's pages, no copy, where the
//!   file aligns them (writers align them: the header is padded to 8 bytes
//!   and tensors are sorted by alignment), a copy where it does not.
//!
//! Writing ([`save`], [`to_bytes`]) takes any [`HostTensor`]. The format
//! has no complex128: such a tensor is stored as float64 with a trailing
//! dimension of 2 (PyTorch's `view_as_real`) and its name listed under the
//! metadata key [`COMPLEX128_KEY`], which [`load`] reads back as complex128
//! (Python sees the float64 pairs; `torch.view_as_complex` joins them).
//!
//! ```
//! use shaped::prelude::*;
//! use shaped::io::safetensors;
//! let path = std::env::temp_dir().join(format!("doc-st-{}.safetensors", std::process::id()));
//! let w = Tensor::<f32, shape![2, 3]>::from_vec(vec![1., 2., 3., 4., 5., 6.])?;
//! let b = Tensor::<i64, shape![3]>::arange();
//! safetensors::save(&path, &[("w", &w), ("b", &b)], None)?;
//! let w2 = safetensors::load::<Tensor<f32, shape![2, 3]>>(&path, "w")?;
//! assert_eq!(w2.to_vec(), w.to_vec());
//! let err = safetensors::load::<Tensor<f32, shape![3]>>(&path, "b").unwrap_err();
//! assert!(err.to_string().ends_with(
//!     "tensor 'b': expected a float32 tensor of shape [3], got an int64 tensor of shape [3] (dtype differs)"
//! ));
//! # std::fs::remove_file(&path).unwrap();
//! # Ok::<(), shaped::Error>(())
//! ```

use super::json::{self, Json};
use super::{HostTensor, file_error};
use crate::backend::cpu::CpuBuffer;
use crate::dtype::bytes::{check_element_bytes, component_size, swap_byte_order};
use crate::dtype::{DType, Element};
use crate::dynamic::{AnyTensor, DynTensor, FromAny};
use crate::error::Error;
use crate::layout::{StridedLayout, check_contiguous_strides, checked_numel};
use crate::shape::dynamic::DynSizes;
use crate::tensor::Tensor;
use std::borrow::Cow;
use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::sync::Arc;

/// The metadata key listing (as a JSON array) the tensors stored as
/// float64 pairs that are complex128 tensors.
pub const COMPLEX128_KEY: &str = "shaped.complex128";

/// The largest header the format allows (the `safetensors` crate's limit).
const MAX_HEADER_BYTES: u64 = 100_000_000;

/// One tensor's entry in a file: what it is and where its bytes are
/// (relative to the start of the data).
#[derive(Clone, Debug)]
struct Entry {
    name: String,
    dtype: DType,
    shape: Vec<usize>,
    start: usize,
    end: usize,
    taken: bool,
}

/// A memory-mapped file, and the start of its pages, taken from the
/// mapping while it was held exclusively (so writes through it are allowed).
struct Mapping {
    _map: memmap2::MmapMut,
    base: NonNull<u8>,
}

// SAFETY: `base` points into the mapping this value owns. Tensors built on
// it cover disjoint ranges (each entry is handed out once, and the header's
// ranges are disjoint, validated), so no two threads reach one byte except
// by reading it before any tensor owns it.
unsafe impl Send for Mapping {}
// SAFETY: as above; shared access only passes `base` along.
unsafe impl Sync for Mapping {}

/// Where the elements are read from.
enum Source {
    /// The open file, read range by range.
    File(File),
    /// The file, and its mapping.
    Mapped(File, Arc<Mapping>),
}

/// A safetensors file: its header read and checked, its tensors read on
/// demand (or handed out from a memory mapping).
///
/// ```
/// use shaped::prelude::*;
/// use shaped::io::safetensors::{self, SafeTensors};
/// let path = std::env::temp_dir().join(format!("doc-open-{}.safetensors", std::process::id()));
/// let x = DynTensor::<bool>::from_vec(vec![true, false], &[2])?;
/// safetensors::save(&path, &[("mask", &x)], None)?;
/// let file = SafeTensors::open(&path)?;
/// assert_eq!(file.names(), ["mask"]);
/// assert_eq!(file.dtype_and_shape("mask"), Some((DType::Bool, &[2][..])));
/// assert_eq!(file.tensor("mask")?.downcast::<bool>()?.to_vec(), [true, false]);
/// # std::fs::remove_file(&path).unwrap();
/// # Ok::<(), shaped::Error>(())
/// ```
pub struct SafeTensors {
    path: PathBuf,
    entries: Vec<Entry>,
    metadata: Option<HashMap<String, String>>,
    data_start: u64,
    source: Source,
}

impl SafeTensors {
    /// Opens `path` and reads its header (nothing else): `Err` naming the
    /// file when it cannot be read or is not a valid safetensors file
    /// (including a header whose tensors reach past the end of the file).
    pub fn open(path: impl AsRef<Path>) -> Result<SafeTensors, Error> {
        let path = path.as_ref();
        let file = File::open(path).map_err(|e| file_error(path, e.to_string()))?;
        let file_len = file
            .metadata()
            .map_err(|e| file_error(path, e.to_string()))?
            .len();
        if file_len < 8 {
            return Err(file_error(path, too_short(file_len)));
        }
        let mut prefix = [0u8; 8];
        read_exact_at(&file, &mut prefix, 0)
            .map_err(|e| file_error(path, format!("cannot read the header length: {e}")))?;
        let header_len = check_header_len(u64::from_le_bytes(prefix), file_len)
            .map_err(|p| file_error(path, p))?;
        let mut header = vec![0u8; header_len];
        read_exact_at(&file, &mut header, 8)
            .map_err(|e| file_error(path, format!("cannot read the header: {e}")))?;
        let (entries, metadata, data_len) =
            parse_header(&header).map_err(|p| file_error(path, p))?;
        let data_start = 8 + header_len as u64;
        if data_start.checked_add(data_len as u64) != Some(file_len) {
            return Err(file_error(
                path,
                data_mismatch(data_len, file_len - data_start),
            ));
        }
        Ok(SafeTensors {
            path: path.to_path_buf(),
            entries,
            metadata,
            data_start,
            source: Source::File(file),
        })
    }

    /// [`open`](Self::open), with the file memory-mapped copy-on-write:
    /// [`take`](Self::take) and [`into_tensors`](Self::into_tensors) then
    /// give tensors whose elements are the file's pages (no copy, no read
    /// until touched) wherever the file aligns them for their dtype, and
    /// writes to them stay in this process.
    ///
    /// # Safety
    /// The file must not be modified or truncated by anyone while the
    /// mapping or any tensor from it lives: the operating system shows a
    /// mapped file's changes to the mapping (values changing under a
    /// tensor, bool bytes that are not 0 or 1), and reading past a
    /// truncated end kills the process (`SIGBUS`). This is the contract of
    /// every memory map (`memmap2::Mmap::map`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::io::safetensors::{self, SafeTensors};
    /// let path = std::env::temp_dir().join(format!("doc-mmap-{}.safetensors", std::process::id()));
    /// safetensors::save(&path, &[("x", &DynTensor::<f32>::ones(&[4]))], None)?;
    /// // SAFETY: the file is this example's own, and nothing else writes it.
    /// let mut file = unsafe { SafeTensors::mmap(&path)? };
    /// let mut x = file.take("x")?.downcast::<f32>()?;
    /// x.as_mut_slice().unwrap()[0] = 2.0; // the process's private copy of the page
    /// assert_eq!(x.to_vec(), [2.0, 1.0, 1.0, 1.0]);
    /// assert_eq!(SafeTensors::open(&path)?.tensor("x")?.downcast::<f32>()?.to_vec(), [1.0; 4]);
    /// # std::fs::remove_file(&path).unwrap();
    /// # Ok::<(), shaped::Error>(())
    /// ```
    pub unsafe fn mmap(path: impl AsRef<Path>) -> Result<SafeTensors, Error> {
        let mut st = SafeTensors::open(path)?;
        let Source::File(file) = st.source else {
            unreachable!("`open` reads from the file")
        };
        // SAFETY: the caller's contract (the file is not changed while
        // mapped); the mapping is private, so writes never reach the file.
        let mut map = unsafe { memmap2::MmapOptions::new().map_copy(&file) }
            .map_err(|e| file_error(&st.path, format!("cannot map the file: {e}")))?;
        let base = NonNull::new(map.as_mut_ptr()).expect("a mapping's address is never null");
        st.source = Source::Mapped(file, Arc::new(Mapping { _map: map, base }));
        Ok(st)
    }

    /// The tensors' names, in the order of their bytes in the file.
    pub fn names(&self) -> Vec<&str> {
        self.entries.iter().map(|e| e.name.as_str()).collect()
    }

    /// A tensor's dtype and shape, if the file has it.
    pub fn dtype_and_shape(&self, name: &str) -> Option<(DType, &[usize])> {
        self.entry(name)
            .ok()
            .map(|e| (self.entries[e].dtype, &self.entries[e].shape[..]))
    }

    /// The file's free-form metadata (the header's `__metadata__`), without
    /// this library's own [`COMPLEX128_KEY`].
    pub fn metadata(&self) -> Option<&HashMap<String, String>> {
        self.metadata.as_ref()
    }

    /// The tensor `name`, copied out of the file (read from the file, or
    /// from the mapping); `Err` when the file has no such tensor, cannot be
    /// read, or holds a bool byte that is not 0 or 1.
    pub fn tensor(&self, name: &str) -> Result<AnyTensor, Error> {
        let at = self.entry(name)?;
        self.copy_out(&self.entries[at])
    }

    /// The tensor `name` as the typed tensor `X`: dtype and shape checked,
    /// the error saying precisely what differs.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::io::safetensors::{self, SafeTensors};
    /// let path = std::env::temp_dir().join(format!("doc-typed-{}.safetensors", std::process::id()));
    /// safetensors::save(&path, &[("h", &DynTensor::<half::f16>::ones(&[2, 4]))], None)?;
    /// let file = SafeTensors::open(&path)?;
    /// let h: Tensor<half::f16, shape![Dyn, 4]> = file.tensor_as("h")?;
    /// assert_eq!(h.shape(), [2, 4]);
    /// let err = file.tensor_as::<Tensor<half::f16, shape![4, 2]>>("h").unwrap_err();
    /// assert!(err.to_string().ends_with("tensor 'h': expected a float16 tensor of shape [4, 2], got a float16 tensor of shape [2, 4] (shape differs)"));
    /// # std::fs::remove_file(&path).unwrap();
    /// # Ok::<(), shaped::Error>(())
    /// ```
    pub fn tensor_as<X: FromAny>(&self, name: &str) -> Result<X, Error> {
        let any = self.tensor(name)?;
        X::from_any(any).map_err(|e| file_error(&self.path, format!("tensor '{name}': {e}")))
    }

    /// The tensor `name`, without a copy when the file is memory-mapped
    /// ([`mmap`](Self::mmap)) and aligns its bytes for its dtype; each
    /// tensor can be taken once (`Err` the second time: use
    /// [`tensor`](Self::tensor) for copies).
    pub fn take(&mut self, name: &str) -> Result<AnyTensor, Error> {
        let at = self.entry(name)?;
        if self.entries[at].taken {
            return Err(file_error(
                &self.path,
                format!("tensor '{name}' was already taken; `tensor` copies it"),
            ));
        }
        let any = self.share_or_copy(&self.entries[at])?;
        self.entries[at].taken = true;
        Ok(any)
    }

    /// Every tensor not yet taken, by name in file order, without copies
    /// where [`take`](Self::take) makes none.
    pub fn into_tensors(mut self) -> Result<Vec<(String, AnyTensor)>, Error> {
        let names: Vec<String> = self
            .entries
            .iter()
            .filter(|e| !e.taken)
            .map(|e| e.name.clone())
            .collect();
        names
            .into_iter()
            .map(|name| {
                let t = self.take(&name)?;
                Ok((name, t))
            })
            .collect()
    }

    /// The position of the entry `name`, or `Err` listing what the file holds.
    fn entry(&self, name: &str) -> Result<usize, Error> {
        self.entries
            .iter()
            .position(|e| e.name == name)
            .ok_or_else(|| {
                let mut names: Vec<String> = self
                    .entries
                    .iter()
                    .take(8)
                    .map(|e| format!("'{}'", e.name))
                    .collect();
                if self.entries.len() > 8 {
                    names.push("...".into());
                }
                file_error(
                    &self.path,
                    format!(
                        "no tensor named '{name}' (the file holds {}: {})",
                        self.entries.len(),
                        names.join(", ")
                    ),
                )
            })
    }

    /// The entry's tensor over the mapping's pages when the file is mapped
    /// and the bytes are aligned (and, for bools, valid); else a copy.
    fn share_or_copy(&self, e: &Entry) -> Result<AnyTensor, Error> {
        let Source::Mapped(_, mapping) = &self.source else {
            return self.copy_out(e);
        };
        if cfg!(target_endian = "big") {
            return self.copy_out(e);
        }
        let start = self.data_start as usize + e.start;
        // SAFETY: `start..start + (end - start)` is inside the mapping:
        // `open` checked that the data section ends at the end of the file,
        // and the header's ranges lie inside the data section.
        let ptr = unsafe { mapping.base.add(start) };
        crate::dtype::with_dtype!(e.dtype, T => {
            if ptr.as_ptr().align_offset(align_of::<T>()) != 0 {
                return self.copy_out(e);
            }
            // SAFETY: as above, the range is inside the mapping, and no
            // tensor owns it yet (entries are handed out once).
            let bytes = unsafe { core::slice::from_raw_parts(ptr.as_ptr(), e.end - e.start) };
            let len = check_element_bytes::<T>(bytes)
                .map_err(|bad| self.entry_error(e, bad.describe(e.dtype)))?;
            let owner: Arc<dyn crate::backend::cpu::Owner> = mapping.clone();
            // SAFETY: `ptr` is aligned for `T` (checked) and points at `len`
            // valid `T`s (a whole number of elements, bools checked 0 or 1)
            // of the private, writable mapping that `owner` keeps alive;
            // this entry is marked taken by the caller, so no other buffer
            // covers them, and entries do not overlap (validated header).
            let buffer = unsafe { CpuBuffer::<T>::from_shared(ptr.cast(), len, owner) };
            Ok(AnyTensor::from(tensor_of(buffer, &e.shape)?))
        })
    }

    /// The entry's tensor, its bytes copied into a new buffer.
    fn copy_out(&self, e: &Entry) -> Result<AnyTensor, Error> {
        let offset = self.data_start + e.start as u64;
        let byte_len = e.end - e.start;
        crate::dtype::with_dtype!(e.dtype, T => {
            let len = byte_len / size_of::<T>();
            let buffer = match &self.source {
                Source::Mapped(_, mapping) if !e.taken => {
                    // SAFETY: the range is inside the mapping (checked by
                    // `open`), and no tensor owns it (not taken), so nothing
                    // writes it while it is read.
                    let bytes = unsafe {
                        core::slice::from_raw_parts(
                            mapping.base.as_ptr().add(offset as usize),
                            byte_len,
                        )
                    };
                    buffer_from_bytes::<T>(bytes).map_err(|p| self.entry_error(e, p))?
                }
                Source::File(file) | Source::Mapped(file, _) => read_buffer::<T>(file, offset, len)
                    .map_err(|p| self.entry_error(e, p))?,
            };
            Ok(AnyTensor::from(tensor_of(buffer, &e.shape)?))
        })
    }

    /// An [`Error::File`] about the entry `e`.
    fn entry_error(&self, e: &Entry, problem: String) -> Error {
        file_error(&self.path, format!("tensor '{}': {problem}", e.name))
    }
}

/// A contiguous tensor of `shape` over `buffer`, which holds exactly its
/// elements (the header's validation checked the count).
fn tensor_of<T: Element>(buffer: CpuBuffer<T>, shape: &[usize]) -> Result<DynTensor<T>, Error> {
    checked_numel(shape)?;
    check_contiguous_strides(shape)?;
    debug_assert_eq!(crate::layout::numel(shape), buffer.len());
    let layout = StridedLayout::contiguous(DynSizes::from_slice(shape));
    Ok(Tensor::from_buffer(buffer, layout))
}

/// A buffer of the elements little-endian `bytes` hold; the problem in
/// words when they are not valid elements.
fn buffer_from_bytes<T: Element>(bytes: &[u8]) -> Result<CpuBuffer<T>, String> {
    let len = check_element_bytes::<T>(bytes).map_err(|bad| bad.describe(T::DTYPE))?;
    // SAFETY: the fill writes all `len * size_of::<T>()` bytes of the
    // slice (`bytes` holds exactly that many: checked above), and they are
    // valid values of `T` (checked above; byte order fixed on big-endian
    // hosts).
    unsafe {
        CpuBuffer::try_new_with(len, |dst| {
            let out = core::slice::from_raw_parts_mut(dst.as_mut_ptr().cast::<u8>(), bytes.len());
            out.copy_from_slice(bytes);
            if cfg!(target_endian = "big") {
                swap_byte_order(out, component_size(T::DTYPE));
            }
        })
    }
    .map_err(|e| e.to_string())
}

/// Reads `len` elements of `T` at byte `offset` of `file` straight into a
/// new buffer; the problem in words when the read fails or the bytes are
/// not valid elements.
fn read_buffer<T: Element>(file: &File, offset: u64, len: usize) -> Result<CpuBuffer<T>, String> {
    let bytes = len * size_of::<T>();
    // SAFETY: on `Ok` the fill has written all `bytes` bytes of the slice
    // (`read_into` reads exactly that many or fails), and checked that they
    // are valid values of `T`.
    unsafe {
        CpuBuffer::try_new_fallible(len, |dst| {
            let out = dst.as_mut_ptr().cast::<u8>();
            read_into(file, out, bytes, offset)
                .map_err(|e| file_error(Path::new(""), format!("cannot read the elements: {e}")))?;
            let written = core::slice::from_raw_parts_mut(out, bytes);
            if cfg!(target_endian = "big") {
                swap_byte_order(written, component_size(T::DTYPE));
            }
            check_element_bytes::<T>(written)
                .map(|_| ())
                .map_err(|bad| file_error(Path::new(""), bad.describe(T::DTYPE)))
        })
    }
    .map_err(|e| match e {
        Error::File { problem, .. } => problem,
        other => other.to_string(),
    })
}

/// Reads exactly `len` bytes at `offset` of `file` into `out`.
///
/// # Safety
/// `out` is valid for writes of `len` bytes (it may be uninitialized).
#[cfg(unix)]
unsafe fn read_into(file: &File, out: *mut u8, len: usize, offset: u64) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let mut done = 0usize;
    while done < len {
        let at = libc::off_t::try_from(offset + done as u64)
            .map_err(|_| std::io::Error::other("offset past the platform's file size"))?;
        let chunk = (len - done).min(1 << 30);
        // SAFETY: `out + done .. out + done + chunk` is inside the `len`
        // writable bytes (the caller's contract); `pread` writes at most
        // `chunk` bytes there and touches nothing else.
        let n = unsafe { libc::pread(file.as_raw_fd(), out.add(done).cast(), chunk, at) };
        match n {
            n if n > 0 => done += n as usize,
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            _ => {
                let err = std::io::Error::last_os_error();
                if err.kind() != std::io::ErrorKind::Interrupted {
                    return Err(err);
                }
            }
        }
    }
    Ok(())
}

/// Reads exactly `len` bytes at `offset` of `file` into `out`.
///
/// # Safety
/// `out` is valid for writes of `len` bytes (it may be uninitialized).
#[cfg(not(unix))]
unsafe fn read_into(file: &File, out: *mut u8, len: usize, offset: u64) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    // SAFETY: zeroing makes the bytes initialized before a slice of them
    // is made (the caller's contract gives `len` writable bytes).
    let slice = unsafe {
        out.write_bytes(0, len);
        core::slice::from_raw_parts_mut(out, len)
    };
    let mut f = file;
    f.seek(SeekFrom::Start(offset))?;
    f.read_exact(slice)
}

/// Reads exactly `out.len()` bytes at `offset`.
fn read_exact_at(file: &File, out: &mut [u8], offset: u64) -> std::io::Result<()> {
    // SAFETY: `out` is a live, writable slice of its length.
    unsafe { read_into(file, out.as_mut_ptr(), out.len(), offset) }
}

/// A parsed header: its entries, the user's metadata, and the length of
/// the data section.
type Header = (Vec<Entry>, Option<HashMap<String, String>>, usize);

/// The format's dtype names with their sizes in bits, in the order of the
/// reference implementation's `Dtype` (writers sort by it, descending, so
/// that every tensor starts aligned for its type).
const FILE_DTYPES: [(&str, usize); 22] = [
    ("BOOL", 8),
    ("F4", 4),
    ("F6_E2M3", 6),
    ("F6_E3M2", 6),
    ("U8", 8),
    ("I8", 8),
    ("F8_E5M2", 8),
    ("F8_E4M3", 8),
    ("F8_E8M0", 8),
    ("F8_E4M3FNUZ", 8),
    ("F8_E5M2FNUZ", 8),
    ("I16", 16),
    ("U16", 16),
    ("F16", 16),
    ("BF16", 16),
    ("I32", 32),
    ("U32", 32),
    ("F32", 32),
    ("C64", 64),
    ("F64", 64),
    ("I64", 64),
    ("U64", 64),
];

/// A header entry as the file gives it.
struct Info {
    name: String,
    dtype: &'static str,
    shape: Vec<usize>,
    start: usize,
    end: usize,
}

/// An integer of a header that must fit `usize`.
fn size_of_json(value: &Json, what: &str) -> Result<usize, String> {
    match value {
        Json::Integer(n) => usize::try_from(*n).map_err(|_| format!("{what} {n} is too large")),
        _ => Err(format!("{what} is not a non-negative integer")),
    }
}

/// A list of integers of a header.
fn sizes_of_json(value: &Json, what: &str) -> Result<Vec<usize>, String> {
    match value {
        Json::Array(items) => items.iter().map(|v| size_of_json(v, what)).collect(),
        _ => Err(format!("{what} is not a list")),
    }
}

/// One tensor's entry: `{"dtype": .., "shape": [..], "data_offsets": [a, b]}`
/// (other members ignored, as the reference reader does).
fn info_of(name: String, value: &Json) -> Result<Info, String> {
    let Json::Object(members) = value else {
        return Err(format!("the entry of tensor '{name}' is not an object"));
    };
    let field = |key: &str| {
        members
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
            .ok_or_else(|| format!("the entry of tensor '{name}' has no \"{key}\""))
    };
    let dtype = match field("dtype")? {
        Json::String(d) => FILE_DTYPES
            .iter()
            .find(|(n, _)| n == d)
            .map(|(n, _)| *n)
            .ok_or_else(|| format!("tensor '{name}' has the unknown dtype \"{d}\""))?,
        _ => return Err(format!("the dtype of tensor '{name}' is not a string")),
    };
    let shape = sizes_of_json(field("shape")?, &format!("a size of tensor '{name}'"))?;
    let offsets = sizes_of_json(
        field("data_offsets")?,
        &format!("an offset of tensor '{name}'"),
    )?;
    let [start, end] = offsets[..] else {
        return Err(format!(
            "tensor '{name}' has {} data offsets, not 2",
            offsets.len()
        ));
    };
    Ok(Info {
        name,
        dtype,
        shape,
        start,
        end,
    })
}

/// Checks that the entries cover the data section in order without gaps
/// or overlaps, each exactly its elements' bytes; returns the section's
/// length.
fn check_offsets(infos: &[Info]) -> Result<usize, String> {
    let mut next = 0usize;
    for info in infos {
        if info.start != next || info.end < info.start {
            return Err(format!(
                "the bytes of tensor '{}' ({}..{}) do not start where those before end ({next})",
                info.name, info.start, info.end
            ));
        }
        let bits = FILE_DTYPES
            .iter()
            .find(|(n, _)| *n == info.dtype)
            .map_or(8, |d| d.1);
        let numel = info.shape.iter().try_fold(1usize, |n, &s| n.checked_mul(s));
        let bytes = numel
            .and_then(|n| n.checked_mul(bits))
            .filter(|b| b % 8 == 0)
            .map(|b| b / 8)
            .ok_or_else(|| {
                format!(
                    "the shape {:?} of tensor '{}' overflows or splits a byte",
                    info.shape, info.name
                )
            })?;
        if info.end - info.start != bytes {
            return Err(format!(
                "tensor '{}' of dtype {} and shape {:?} needs {bytes} bytes, its offsets give {}",
                info.name,
                info.dtype,
                info.shape,
                info.end - info.start
            ));
        }
        next = info.end;
    }
    Ok(next)
}

/// The entries, the user's metadata and the data section's length of a
/// header; the problem in words when it is not valid.
fn parse_header(header: &[u8]) -> Result<Header, String> {
    let invalid = |p: String| format!("invalid header: {p}");
    let Json::Object(members) = json::parse(header).map_err(invalid)? else {
        return Err(invalid("not a JSON object".into()));
    };
    let mut user: Option<HashMap<String, String>> = None;
    let mut infos = Vec::new();
    for (key, value) in members {
        if key != "__metadata__" {
            infos.push(info_of(key, &value).map_err(invalid)?);
            continue;
        }
        let Json::Object(pairs) = value else {
            return Err(invalid("\"__metadata__\" is not an object".into()));
        };
        let mut map = HashMap::new();
        for (k, v) in pairs {
            let Json::String(v) = v else {
                return Err(invalid(format!("the metadata \"{k}\" is not a string")));
            };
            map.insert(k, v);
        }
        user = Some(map);
    }
    infos.sort_by_key(|i| (i.start, i.end));
    let data_len = check_offsets(&infos).map_err(invalid)?;
    let complex: Vec<String> = match user.as_mut().and_then(|m| m.remove(COMPLEX128_KEY)) {
        Some(list) => match json::parse(list.as_bytes()) {
            Ok(Json::Array(names)) => names
                .into_iter()
                .map(|n| match n {
                    Json::String(n) => Ok(n),
                    _ => Err(format!(
                        "invalid {COMPLEX128_KEY} metadata: not a list of names"
                    )),
                })
                .collect::<Result<_, _>>()?,
            _ => {
                return Err(format!(
                    "invalid {COMPLEX128_KEY} metadata: not a list of names"
                ));
            }
        },
        None => Vec::new(),
    };
    if user.as_ref().is_some_and(HashMap::is_empty) && !complex.is_empty() {
        user = None;
    }
    let entries = infos
        .into_iter()
        .map(|i| entry_of(i, &complex))
        .collect::<Result<_, _>>()?;
    Ok((entries, user, data_len))
}

/// One validated header entry as ours.
fn entry_of(info: Info, complex: &[String]) -> Result<Entry, String> {
    let Info {
        name,
        dtype: file_dtype,
        mut shape,
        start,
        end,
    } = info;
    let dtype = if complex.contains(&name) {
        if file_dtype != "F64" || shape.last() != Some(&2) {
            return Err(format!(
                "tensor '{name}' is listed as complex128 but is not float64 pairs (dtype {file_dtype}, shape {shape:?})"
            ));
        }
        shape.pop();
        DType::C128
    } else {
        dtype_of(file_dtype).ok_or_else(|| {
            format!(
                "tensor '{name}' has dtype {file_dtype}, which has no element type here (these read: BOOL, U8, I8, I16, I32, I64, F16, BF16, F32, F64, C64)"
            )
        })?
    };
    Ok(Entry {
        name,
        dtype,
        shape,
        start,
        end,
        taken: false,
    })
}

/// The dtype of a file's dtype name, if it is one of the twelve.
fn dtype_of(d: &str) -> Option<DType> {
    DType::ALL
        .into_iter()
        .find(|&t| t != DType::C128 && file_dtype(t) == d)
}

/// The file's dtype name of a dtype (complex128 is stored as float64 pairs).
fn file_dtype(d: DType) -> &'static str {
    match d {
        DType::Bool => "BOOL",
        DType::U8 => "U8",
        DType::I8 => "I8",
        DType::I16 => "I16",
        DType::I32 => "I32",
        DType::I64 => "I64",
        DType::F16 => "F16",
        DType::BF16 => "BF16",
        DType::F32 => "F32",
        DType::F64 | DType::C128 => "F64",
        DType::C64 => "C64",
    }
}

/// A tensor as it is written: its name, file dtype, shape and
/// little-endian bytes.
struct Prepared<'a> {
    name: String,
    dtype: &'static str,
    shape: Vec<usize>,
    bytes: Cow<'a, [u8]>,
}

/// The tensors in the order they are written (by alignment, largest
/// first, then by name, as the reference writer orders them), with the
/// header that describes them: its length and text, padded with spaces to
/// 8 bytes so the data starts aligned.
fn prepare<'a>(
    tensors: &'a [(&str, &dyn HostTensor)],
    metadata: Option<&HashMap<String, String>>,
) -> Result<(Vec<Prepared<'a>>, Vec<u8>), String> {
    let mut prepared: Vec<Prepared> = Vec::with_capacity(tensors.len());
    let mut complex = Vec::new();
    for (name, t) in tensors {
        if prepared.iter().any(|p| p.name == *name) {
            return Err(format!("the name '{name}' is given twice"));
        }
        if *name == "__metadata__" {
            return Err("the name '__metadata__' is the header's own".into());
        }
        let dtype = t.host_dtype();
        let mut shape = t.host_sizes();
        let mut bytes = t
            .host_bytes()
            .map_err(|e| format!("tensor '{name}': {e}"))?;
        if cfg!(target_endian = "big") {
            swap_byte_order(bytes.to_mut(), component_size(dtype));
        }
        if dtype == DType::C128 {
            shape.push(2);
            complex.push(json::quote(name));
        }
        prepared.push(Prepared {
            name: name.to_string(),
            dtype: file_dtype(dtype),
            shape,
            bytes,
        });
    }
    let rank = |d: &str| FILE_DTYPES.iter().position(|(n, _)| *n == d);
    prepared.sort_by(|a, b| rank(b.dtype).cmp(&rank(a.dtype)).then(a.name.cmp(&b.name)));
    if metadata.is_some_and(|m| m.contains_key(COMPLEX128_KEY)) {
        return Err(format!(
            "the metadata key '{COMPLEX128_KEY}' is this library's own"
        ));
    }
    let mut pairs: Vec<(String, String)> = metadata
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default();
    if !complex.is_empty() {
        pairs.push((COMPLEX128_KEY.into(), format!("[{}]", complex.join(","))));
    }
    pairs.sort();
    let mut members = Vec::with_capacity(prepared.len() + 1);
    if metadata.is_some() || !pairs.is_empty() {
        let inner: Vec<String> = pairs
            .iter()
            .map(|(k, v)| format!("{}:{}", json::quote(k), json::quote(v)))
            .collect();
        members.push(format!("\"__metadata__\":{{{}}}", inner.join(",")));
    }
    let mut offset = 0usize;
    for p in &prepared {
        let end = offset + p.bytes.len();
        let shape: Vec<String> = p.shape.iter().map(usize::to_string).collect();
        members.push(format!(
            "{}:{{\"dtype\":\"{}\",\"shape\":[{}],\"data_offsets\":[{offset},{end}]}}",
            json::quote(&p.name),
            p.dtype,
            shape.join(",")
        ));
        offset = end;
    }
    let mut header = format!("{{{}}}", members.join(",")).into_bytes();
    header.resize(header.len().next_multiple_of(8), b' ');
    if header.len() as u64 > MAX_HEADER_BYTES {
        return Err(format!(
            "the header takes {} bytes, past the format's limit ({MAX_HEADER_BYTES})",
            header.len()
        ));
    }
    Ok((prepared, header))
}

/// Writes the file: the header's length, the header, the elements.
fn write_file(out: &mut impl Write, prepared: &[Prepared], header: &[u8]) -> std::io::Result<()> {
    out.write_all(&(header.len() as u64).to_le_bytes())?;
    out.write_all(header)?;
    for p in prepared {
        out.write_all(&p.bytes)?;
    }
    out.flush()
}

/// Writes `tensors` (names and tensors of any dtype, layout and device)
/// and the optional free-form `metadata` to a safetensors file at `path`,
/// replacing it: written beside it first and then renamed over it, so a
/// mapping of the old file is never truncated. `Err` on a repeated name or
/// when the file cannot be written.
pub fn save(
    path: impl AsRef<Path>,
    tensors: &[(&str, &dyn HostTensor)],
    metadata: Option<&HashMap<String, String>>,
) -> Result<(), Error> {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let path = path.as_ref();
    let (prepared, header) = prepare(tensors, metadata).map_err(|p| file_error(path, p))?;
    let file_name = path
        .file_name()
        .ok_or_else(|| file_error(path, "not a file name"))?;
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut temp_name = std::ffi::OsString::from(".");
    temp_name.push(file_name);
    temp_name.push(format!(".{}-{n}.tmp", std::process::id()));
    let temp = path.with_file_name(temp_name);
    let written = File::create(&temp).and_then(|f| {
        let mut out = std::io::BufWriter::with_capacity(1 << 20, f);
        write_file(&mut out, &prepared, &header)?;
        drop(out);
        std::fs::rename(&temp, path)
    });
    written.map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        file_error(path, e.to_string())
    })
}

/// The bytes of a safetensors file holding `tensors` and `metadata` (see
/// [`save`]).
///
/// ```
/// use shaped::prelude::*;
/// use shaped::io::safetensors;
/// let x = DynTensor::<num_complex::Complex<f64>>::ones(&[2]);
/// let bytes = safetensors::to_bytes(&[("z", &x)], None)?;
/// let back = safetensors::from_bytes(&bytes)?;
/// assert_eq!(back[0].0, "z");
/// assert_eq!(back[0].1.dtype(), DType::C128);
/// # Ok::<(), shaped::Error>(())
/// ```
pub fn to_bytes(
    tensors: &[(&str, &dyn HostTensor)],
    metadata: Option<&HashMap<String, String>>,
) -> Result<Vec<u8>, Error> {
    let here = Path::new("<bytes>");
    let (prepared, header) = prepare(tensors, metadata).map_err(|p| file_error(here, p))?;
    let mut out = Vec::new();
    write_file(&mut out, &prepared, &header).map_err(|e| file_error(here, e.to_string()))?;
    Ok(out)
}

/// Every tensor of the safetensors file held by `bytes`, by name in file
/// order, copied; `Err` naming `<bytes>` when they are not a valid file.
pub fn from_bytes(bytes: &[u8]) -> Result<Vec<(String, AnyTensor)>, Error> {
    let here = Path::new("<bytes>");
    let total = bytes.len() as u64;
    let prefix: [u8; 8] = bytes
        .get(..8)
        .and_then(|p| p.try_into().ok())
        .ok_or_else(|| file_error(here, too_short(total)))?;
    let header_len =
        check_header_len(u64::from_le_bytes(prefix), total).map_err(|p| file_error(here, p))?;
    let (entries, _, data_len) =
        parse_header(&bytes[8..8 + header_len]).map_err(|p| file_error(here, p))?;
    let data = &bytes[8 + header_len..];
    if data.len() != data_len {
        return Err(file_error(here, data_mismatch(data_len, data.len() as u64)));
    }
    entries
        .into_iter()
        .map(|e| {
            let any = crate::dtype::with_dtype!(e.dtype, T => {
                let buffer = buffer_from_bytes::<T>(&data[e.start..e.end])
                    .map_err(|p| file_error(here, format!("tensor '{}': {p}", e.name)))?;
                AnyTensor::from(tensor_of(buffer, &e.shape)?)
            });
            Ok((e.name, any))
        })
        .collect()
}

/// The problem of a file too short to hold a header length.
fn too_short(total: u64) -> String {
    format!("{total} bytes are too few for a safetensors file (its header length alone takes 8)")
}

/// The header length, if the file of `total` bytes holds it and the format
/// allows it.
fn check_header_len(header_len: u64, total: u64) -> Result<usize, String> {
    if header_len > MAX_HEADER_BYTES || header_len > total.saturating_sub(8) {
        return Err(format!(
            "the header length {header_len} reaches past the end of the file ({total} bytes) or the format's limit ({MAX_HEADER_BYTES})"
        ));
    }
    Ok(header_len as usize)
}

/// The problem of a data section of another length than the header's.
fn data_mismatch(described: usize, held: u64) -> String {
    format!(
        "the header describes {described} bytes of data but the file holds {held} after the header"
    )
}

/// Every tensor of the file at `path`, by name in file order, each read
/// straight into its own buffer.
///
/// ```
/// use shaped::prelude::*;
/// use shaped::io::safetensors;
/// let path = std::env::temp_dir().join(format!("doc-all-{}.safetensors", std::process::id()));
/// safetensors::save(&path, &[("a", &DynTensor::<u8>::ones(&[3])), ("b", &DynTensor::<f64>::zeros(&[]))], None)?;
/// let all = safetensors::load_all(&path)?;
/// let names: Vec<&str> = all.iter().map(|(n, _)| n.as_str()).collect();
/// assert_eq!(names, ["b", "a"]); // the writer orders by alignment, then name
/// # std::fs::remove_file(&path).unwrap();
/// # Ok::<(), shaped::Error>(())
/// ```
pub fn load_all(path: impl AsRef<Path>) -> Result<Vec<(String, AnyTensor)>, Error> {
    SafeTensors::open(path)?.into_tensors()
}

/// The tensor `name` of the file at `path` as the typed tensor `X`
/// (`Tensor<f32, shape![768, 3072]>`, `Tensor<i64, shape![Dyn, 3]>`,
/// `DynTensor<u8>`): its dtype and shape checked, the error saying
/// precisely what differs.
pub fn load<X: FromAny>(path: impl AsRef<Path>, name: &str) -> Result<X, Error> {
    SafeTensors::open(path)?.tensor_as(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prelude::*;
    use num_complex::Complex;

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!(
            "shaped-st-{}-{name}.safetensors",
            std::process::id()
        ))
    }

    #[test]
    fn every_dtype_round_trips_through_a_file_and_a_mapping() {
        let path = temp("dtypes");
        let a =
            DynTensor::<f32>::from_vec((0..6).map(|v| v as f32 - 2.5).collect(), &[2, 3]).unwrap();
        let z =
            DynTensor::<Complex<f64>>::from_vec(vec![Complex::new(1.0, -2.0); 3], &[3]).unwrap();
        let c =
            DynTensor::<Complex<f32>>::from_vec(vec![Complex::new(0.5, 4.0); 2], &[2, 1]).unwrap();
        let b = DynTensor::<bool>::from_vec(vec![true, false, true], &[3]).unwrap();
        let h = DynTensor::<half::bf16>::full(&[0, 4], half::bf16::ONE);
        let i = DynTensor::<i16>::from_vec(vec![-7, 300], &[2]).unwrap();
        let t = a.t().unwrap(); // a transposed view: written in logical order
        let meta = HashMap::from([("format".to_string(), "pt".to_string())]);
        save(
            &path,
            &[
                ("a", &a),
                ("z", &z),
                ("c", &c),
                ("b", &b),
                ("h", &h),
                ("i", &i),
                ("t", &t),
            ],
            Some(&meta),
        )
        .unwrap();
        for mapped in [false, true] {
            let mut file = if mapped {
                // SAFETY: the test's own file, unchanged while mapped.
                unsafe { SafeTensors::mmap(&path).unwrap() }
            } else {
                SafeTensors::open(&path).unwrap()
            };
            assert_eq!(file.metadata(), Some(&meta));
            assert_eq!(file.dtype_and_shape("z"), Some((DType::C128, &[3][..])));
            let a2 = file.take("a").unwrap().downcast::<f32>().unwrap();
            assert_eq!(a2.to_vec(), a.to_vec());
            assert_eq!(
                a2.data.buffer.is_shared(),
                mapped,
                "zero-copy exactly when mapped"
            );
            assert!(
                file.take("a")
                    .unwrap_err()
                    .to_string()
                    .ends_with("tensor 'a' was already taken; `tensor` copies it")
            );
            assert_eq!(
                file.tensor("a")
                    .unwrap()
                    .downcast::<f32>()
                    .unwrap()
                    .to_vec(),
                a.to_vec()
            );
            let all: HashMap<String, AnyTensor> =
                file.into_tensors().unwrap().into_iter().collect();
            assert_eq!(
                all["z"].downcast_ref::<Complex<f64>>().unwrap().to_vec(),
                z.to_vec()
            );
            assert_eq!(
                all["c"].downcast_ref::<Complex<f32>>().unwrap().shape(),
                [2, 1]
            );
            assert_eq!(
                all["b"].downcast_ref::<bool>().unwrap().to_vec(),
                b.to_vec()
            );
            assert_eq!(all["h"].shape(), [0, 4]);
            assert_eq!(all["i"].downcast_ref::<i16>().unwrap().to_vec(), [-7, 300]);
            assert_eq!(all["t"].downcast_ref::<f32>().unwrap().to_vec(), t.to_vec());
        }
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn mapped_tensors_are_private_copies_on_write_and_outlive_the_file_handle() {
        let path = temp("cow");
        save(&path, &[("x", &DynTensor::<i64>::ones(&[1000]))], None).unwrap();
        // SAFETY: the test's own file, unchanged while mapped.
        let mut x = unsafe { SafeTensors::mmap(&path) }
            .unwrap()
            .take("x")
            .unwrap()
            .downcast::<i64>()
            .unwrap();
        x.as_mut_slice().unwrap()[999] = 5;
        assert_eq!(x.to_vec()[999], 5);
        assert_eq!(
            load::<DynTensor<i64>>(&path, "x").unwrap().to_vec(),
            vec![1; 1000]
        );
        let v = x.into_vec(); // a mapping cannot become a Vec: copied
        assert_eq!(v[999], 5);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn misaligned_tensors_are_copied() {
        // A header of 13 bytes (not padded to 8) puts the data at byte 21.
        let header = br#"{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}"#;
        let mut bytes = (header.len() as u64).to_le_bytes().to_vec();
        bytes.extend_from_slice(header);
        bytes.extend_from_slice(&1.5f32.to_le_bytes());
        bytes.extend_from_slice(&(-2.0f32).to_le_bytes());
        let path = temp("misaligned");
        std::fs::write(&path, &bytes).unwrap();
        assert_ne!((8 + header.len()) % 4, 0);
        // SAFETY: the test's own file, unchanged while mapped.
        let x = unsafe { SafeTensors::mmap(&path) }
            .unwrap()
            .take("x")
            .unwrap()
            .downcast::<f32>()
            .unwrap();
        assert!(!x.data.buffer.is_shared());
        assert_eq!(x.to_vec(), [1.5, -2.0]);
        assert_eq!(
            from_bytes(&bytes).unwrap()[0]
                .1
                .downcast_ref::<f32>()
                .unwrap()
                .to_vec(),
            [1.5, -2.0]
        );
        std::fs::remove_file(&path).unwrap();
    }

    /// A file of one tensor with `header` as its JSON and `data` after it.
    fn file_of(header: &str, data: &[u8]) -> Vec<u8> {
        let mut bytes = (header.len() as u64).to_le_bytes().to_vec();
        bytes.extend_from_slice(header.as_bytes());
        bytes.extend_from_slice(data);
        bytes
    }

    fn open_error(bytes: &[u8], name: &str) -> String {
        let path = temp(name);
        std::fs::write(&path, bytes).unwrap();
        let err = match SafeTensors::open(&path) {
            Ok(f) => f.into_tensors().map(|_| ()).unwrap_err(),
            Err(e) => e,
        };
        std::fs::remove_file(&path).unwrap();
        let text = err.to_string();
        let prefix = format!("{}: ", path.display());
        assert!(text.starts_with(&prefix), "{text}");
        text[prefix.len()..].to_string()
    }

    #[test]
    fn bad_files_are_errors_naming_the_file_and_the_problem() {
        let ok = r#"{"x":{"dtype":"I32","shape":[2],"data_offsets":[0,8]}}"#;
        assert_eq!(
            open_error(&file_of(ok, &[0; 4]), "short"),
            "the header describes 8 bytes of data but the file holds 4 after the header"
        );
        assert_eq!(
            open_error(&[1, 2, 3], "tiny"),
            "3 bytes are too few for a safetensors file (its header length alone takes 8)"
        );
        assert_eq!(
            open_error(&u64::MAX.to_le_bytes(), "huge-header"),
            "the header length 18446744073709551615 reaches past the end of the file (8 bytes) or the format's limit (100000000)"
        );
        let overflow =
            r#"{"x":{"dtype":"F64","shape":[4294967296,4294967296],"data_offsets":[0,8]}}"#;
        assert!(
            open_error(&file_of(overflow, &[0; 8]), "overflow").starts_with("invalid header: ")
        );
        let unknown = r#"{"x":{"dtype":"U32","shape":[1],"data_offsets":[0,4]}}"#;
        assert_eq!(
            open_error(&file_of(unknown, &[0; 4]), "u32"),
            "tensor 'x' has dtype U32, which has no element type here (these read: BOOL, U8, I8, I16, I32, I64, F16, BF16, F32, F64, C64)"
        );
        let bools = r#"{"m":{"dtype":"BOOL","shape":[3],"data_offsets":[0,3]}}"#;
        assert_eq!(
            open_error(&file_of(bools, &[1, 0, 9]), "bool"),
            "tensor 'm': bool element 2 is the byte 9, not 0 or 1"
        );
        assert!(open_error(&file_of("{not json", &[]), "json").starts_with("invalid header: "));
        let gap = r#"{"x":{"dtype":"U8","shape":[1],"data_offsets":[4,5]}}"#;
        assert!(open_error(&file_of(gap, &[0; 5]), "gap").starts_with("invalid header: "));
        let missing = temp("absent-file");
        let err = SafeTensors::open(&missing).err().unwrap().to_string();
        assert!(err.contains("No such file or directory"), "{err}");
        let path = temp("names");
        save(&path, &[("a", &DynTensor::<u8>::ones(&[1]))], None).unwrap();
        let err = load::<DynTensor<u8>>(&path, "b").unwrap_err().to_string();
        assert!(
            err.ends_with("no tensor named 'b' (the file holds 1: 'a')"),
            "{err}"
        );
        let err = save(
            &path,
            &[
                ("a", &DynTensor::<u8>::ones(&[1])),
                ("a", &DynTensor::<u8>::ones(&[1])),
            ],
            None,
        );
        assert!(
            err.unwrap_err()
                .to_string()
                .ends_with("the name 'a' is given twice")
        );
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn every_prefix_and_many_mutations_of_a_file_are_handled() {
        let x = DynTensor::<f32>::ones(&[2, 2]);
        let m = DynTensor::<bool>::from_vec(vec![true, false], &[2]).unwrap();
        let good = to_bytes(&[("x", &x), ("m", &m)], None).unwrap();
        for end in 0..good.len() {
            assert!(from_bytes(&good[..end]).is_err(), "prefix of {end} bytes");
        }
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..4000 {
            let mut bytes = good.clone();
            for _ in 0..1 + next() % 3 {
                let at = (next() % bytes.len() as u64) as usize;
                bytes[at] = next() as u8;
            }
            // Whatever the bytes, a result: Ok of valid tensors or Err.
            if let Ok(tensors) = from_bytes(&bytes) {
                for (_, t) in tensors {
                    assert_eq!(t.bytes().len(), t.numel() * t.dtype().itemsize());
                }
            }
        }
    }
}
