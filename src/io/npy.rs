//! NumPy's `.npy` files (one array) and `.npz` archives (zip files of
//! `.npy` members), read and written as NumPy 2 does.
//!
//! - **dtypes**: float16, float32, float64, complex64, complex128, uint8,
//!   int8, int16, int32, int64 and bool (`'<f2'` .. `'|b1'`). Big-endian
//!   files (`'>f8'`) are read and converted. NumPy has no bfloat16: writing
//!   one is refused (convert with `to_dtype(DType::F32)`, which is exact),
//!   and ml_dtypes' untyped `'<V2'` is refused on reading.
//! - **Layouts**: a Fortran-order file is read without reordering its
//!   elements, as a tensor with column-major strides (as `numpy.load`
//!   does); writers write C order, so a view is copied to row-major first.
//! - **Versions**: 1.0, 2.0 and 3.0 are read; 1.0 is written unless the
//!   header needs 2.0. Headers are NumPy's, byte for byte.
//! - **Strictness**: the data must be exactly what the header describes.
//!   Bytes after it are an error (`numpy.load` ignores them), as is a bool
//!   byte other than 0 or 1.
//!
//! ```
//! use shaped::prelude::*;
//! use shaped::io::npy::{read_npy_bytes, npy_bytes};
//! let x = Tensor::<f32, shape![2, 3]>::from_vec(vec![1., 2., 3., 4., 5., 6.]).unwrap();
//! let back = read_npy_bytes(&npy_bytes(&x).unwrap()).unwrap();
//! assert_eq!(back.into_typed::<Tensor<f32, shape![2, 3]>>().unwrap().to_vec(), x.to_vec());
//! ```

use super::{HostTensor, file_error};
use crate::backend::cpu::CpuBuffer;
use crate::dtype::bytes::{check_element_bytes, component_size, swap_byte_order};
use crate::dtype::{DType, Element, with_dtype};
use crate::dynamic::{AnyTensor, DynSizes, DynTensor, FromAny};
use crate::error::Error;
use crate::layout::{StridedLayout, check_contiguous_strides, checked_storage, contiguous_strides};
use crate::tensor::Tensor;
use std::fmt::Display;
use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::mem::MaybeUninit;
use std::path::Path;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter};

/// The first bytes of every `.npy` file.
const MAGIC: &[u8; 6] = b"\x93NUMPY";

/// NumPy aligns the data to this many bytes.
const ALIGN: usize = 64;

/// The spaces NumPy leaves after the header so that the growing axis's
/// size can be rewritten in place (its `GROWTH_AXIS_MAX_DIGITS`).
const GROWTH_DIGITS: usize = 21;

/// The dtypes this module reads, as NumPy writes them.
const SUPPORTED: &str = "'<f2', '<f4', '<f8', '<c8', '<c16', '|u1', '|i1', '<i2', '<i4', '<i8' \
                         and '|b1' (either byte order)";

/// Why a bfloat16 tensor is not written.
const NO_BF16: &str = "NumPy has no bfloat16 dtype: convert with `to_dtype(DType::F32)` (exact) \
                       first, or use safetensors";

/// Where a `.npy` is read from or written to, named in every error.
#[derive(Clone, Copy)]
struct Place<'a> {
    path: &'a Path,
    member: Option<&'a str>,
}

impl<'a> Place<'a> {
    fn file(path: &'a Path) -> Self {
        Place { path, member: None }
    }

    fn bytes() -> Self {
        Place::file(Path::new("<bytes>"))
    }

    fn error(self, problem: impl Display) -> Error {
        match self.member {
            Some(member) => file_error(self.path, format!("member '{member}': {problem}")),
            None => file_error(self.path, problem.to_string()),
        }
    }
}

// ---------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------

/// Reads a `.npy` file: its dtype and shape are the file's.
///
/// ```
/// use shaped::prelude::*;
/// use shaped::io::npy::{read_npy, write_npy};
/// let path = std::env::temp_dir().join(format!("shaped-doc-read-npy-{}.npy", std::process::id()));
/// write_npy(&path, &Tensor::<i64, shape![3]>::from_vec(vec![1, 2, 3]).unwrap()).unwrap();
/// let x = read_npy(&path).unwrap();
/// assert_eq!((x.dtype(), x.shape()), (DType::I64, vec![3]));
/// std::fs::remove_file(&path).unwrap();
/// ```
pub fn read_npy(path: impl AsRef<Path>) -> Result<AnyTensor, Error> {
    let path = path.as_ref();
    let at = Place::file(path);
    let mut file = File::open(path).map_err(|e| at.error(e))?;
    let meta = file.metadata().map_err(|e| at.error(e))?;
    if meta.is_file() {
        return read_from(&mut file, meta.len(), at);
    }
    // A pipe or a device: no length known beforehand.
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(|e| at.error(e))?;
    read_from(&mut &bytes[..], bytes.len() as u64, at)
}

/// Reads a `.npy` file held in memory; errors name it `<bytes>`.
///
/// ```
/// use shaped::prelude::*;
/// use shaped::io::npy::{npy_bytes, read_npy_bytes};
/// let x = AnyTensor::from(DynTensor::<bool>::from_vec(vec![true, false], &[2]).unwrap());
/// let y = read_npy_bytes(&npy_bytes(&x).unwrap()).unwrap();
/// assert_eq!(y.downcast::<bool>().unwrap().to_vec(), [true, false]);
/// assert_eq!(
///     read_npy_bytes(b"PK\x03\x04").unwrap_err().to_string(),
///     "<bytes>: not a .npy file (it does not start with \\x93NUMPY)"
/// );
/// ```
pub fn read_npy_bytes(bytes: &[u8]) -> Result<AnyTensor, Error> {
    read_from(&mut &*bytes, bytes.len() as u64, Place::bytes())
}

/// Reads a `.npy` file as the typed tensor `X`, checking its dtype and
/// shape (see [`FromAny`]).
///
/// ```
/// use shaped::prelude::*;
/// use shaped::io::npy::{load_npy, write_npy};
/// let path = std::env::temp_dir().join(format!("shaped-doc-load-npy-{}.npy", std::process::id()));
/// write_npy(&path, &Tensor::<f64, shape![2, 3]>::ones()).unwrap();
/// let x = load_npy::<Tensor<f64, shape![2, 3]>>(&path).unwrap();
/// assert_eq!(x.to_vec(), [1.0; 6]);
/// let err = load_npy::<Tensor<f32, shape![2, 3]>>(&path).unwrap_err().to_string();
/// assert!(err.ends_with("expected a float32 tensor of shape [2, 3], got a float64 tensor of shape [2, 3] (dtype differs)"));
/// std::fs::remove_file(&path).unwrap();
/// ```
pub fn load_npy<X: FromAny>(path: impl AsRef<Path>) -> Result<X, Error> {
    let path = path.as_ref();
    read_npy(path)?
        .into_typed()
        .map_err(|e| file_error(path, e.to_string()))
}

/// What a `.npy` header says about the array.
#[derive(Clone, Debug, PartialEq)]
struct Header {
    dtype: DType,
    /// The file's byte order is not the host's.
    swap: bool,
    fortran: bool,
    shape: Vec<usize>,
}

impl Header {
    /// The size of the data in bytes, or why it cannot be had.
    fn data_bytes(&self) -> Result<usize, String> {
        checked_storage(&self.shape, self.dtype.itemsize()).map_err(|_| {
            format!(
                "the shape {:?} of {} elements is too large: its size in bytes overflows",
                self.shape,
                self.dtype.name()
            )
        })
    }

    /// The data is `actual` (bytes, in words) instead of `expected` bytes.
    fn length_problem(&self, expected: usize, actual: impl Display) -> String {
        format!(
            "the data is {actual} bytes, expected {expected} for a {} array of shape {:?}",
            self.dtype.name(),
            self.shape
        )
    }

    /// A tensor of this header's shape over `buffer`, with column-major
    /// strides when the file is in Fortran order.
    fn tensor<T: Element>(&self, buffer: CpuBuffer<T>) -> Result<DynTensor<T>, Error> {
        let shape = &self.shape;
        // The sizes must have row-major strides in either order: a tensor
        // is made contiguous in row-major order (NumPy refuses such shapes
        // too: "array is too big"; an empty one of sizes whose other
        // product overflows was read, then written in C order and refused).
        check_contiguous_strides(shape)?;
        let strides = if self.fortran {
            let reversed: Vec<usize> = shape.iter().rev().copied().collect();
            check_contiguous_strides(&reversed)?;
            DynSizes::from_slice(&fortran_strides(shape))
        } else {
            contiguous_strides::<DynSizes>(shape)
        };
        let layout = StridedLayout::from_parts(DynSizes::from_slice(shape), strides, 0);
        Ok(Tensor::from_buffer(buffer, layout))
    }
}

/// Column-major strides for `sizes` (size-0 dimensions step as size 1, as
/// in [`crate::layout::contiguous_strides`]).
fn fortran_strides(sizes: &[usize]) -> Vec<usize> {
    let mut step = 1usize;
    sizes
        .iter()
        .map(|&n| {
            let stride = step;
            step = step.saturating_mul(n.max(1));
            stride
        })
        .collect()
}

/// A `.npy` array from `reader`, which holds `len` bytes.
fn read_from(reader: &mut impl Source, len: u64, at: Place) -> Result<AnyTensor, Error> {
    let (header, start) = read_header(reader, len).map_err(|p| at.error(p))?;
    let expected = header.data_bytes().map_err(|p| at.error(p))?;
    let available = len - start;
    if available != expected as u64 {
        return Err(at.error(header.length_problem(expected, available)));
    }
    with_dtype!(header.dtype, T => {
        let n = expected / size_of::<T>();
        // SAFETY: `fill_elements` returns `Ok` only when it has written
        // every byte of the slice, and the bytes are valid values of `T`.
        let buffer = unsafe {
            CpuBuffer::<T>::try_new_fallible(n, |slice| fill_elements(reader, slice, &header, at))
        }?;
        let tensor = header.tensor(buffer).map_err(|e| at.error(e))?;
        Ok(AnyTensor::from(tensor))
    })
}

/// Reads the magic string, the version, the header's length and the header
/// itself; gives the header and the offset of the data.
fn read_header(reader: &mut impl Read, len: u64) -> Result<(Header, u64), String> {
    let mut lead = [0u8; 12];
    let got = read_full(reader, &mut lead[..8]).map_err(|e| e.to_string())?;
    check_magic(&lead[..got])?;
    let width = length_width(lead[6], lead[7])?;
    let more = read_full(reader, &mut lead[8..8 + width]).map_err(|e| e.to_string())?;
    if more < width {
        return Err(ends_early(8 + more));
    }
    let header_len = match width {
        2 => u64::from(u16::from_le_bytes([lead[8], lead[9]])),
        _ => u64::from(u32::from_le_bytes([lead[8], lead[9], lead[10], lead[11]])),
    };
    let start = (8 + width) as u64 + header_len;
    if start > len {
        return Err(format!(
            "the header's length {header_len} runs past the end of the file ({len} bytes)"
        ));
    }
    let mut text = Vec::new();
    let got = reader
        .take(header_len)
        .read_to_end(&mut text)
        .map_err(|e| e.to_string())?;
    if (got as u64) < header_len {
        return Err(ends_early(8 + width + got));
    }
    Ok((parse_header(&text)?, start))
}

/// Checks the first bytes (up to 8) against NumPy's magic string.
fn check_magic(lead: &[u8]) -> Result<(), String> {
    if lead.is_empty() {
        return Err("the file is empty, not a .npy file".into());
    }
    if !MAGIC.starts_with(&lead[..lead.len().min(MAGIC.len())]) {
        return Err("not a .npy file (it does not start with \\x93NUMPY)".into());
    }
    if lead.len() < 8 {
        return Err(ends_early(lead.len()));
    }
    Ok(())
}

/// The width in bytes of the header's length, by format version.
fn length_width(major: u8, minor: u8) -> Result<usize, String> {
    match (major, minor) {
        (1, 0) => Ok(2),
        (2, 0) | (3, 0) => Ok(4),
        _ => Err(format!(
            "unsupported .npy format version {major}.{minor} (this reader reads 1.0, 2.0 and 3.0)"
        )),
    }
}

fn ends_early(at: usize) -> String {
    format!("the file ends inside the .npy header, after {at} bytes")
}

/// Reads into `buf` until it is full or the reader ends; the bytes read.
fn read_full(reader: &mut (impl Read + ?Sized), buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// Where the bytes of a `.npy` come from: a reader that can also fill
/// uninitialized memory (a new tensor's buffer) without zeroing it first.
trait Source: Read {
    /// Fills `buf` from the source, up to its end; the number of bytes
    /// written (all of `buf` unless the source ended).
    fn read_uninit(&mut self, buf: &mut [MaybeUninit<u8>]) -> io::Result<usize> {
        let mut chunk = vec![0u8; buf.len().min(1 << 16)];
        let mut filled = 0;
        while filled < buf.len() {
            let want = (buf.len() - filled).min(chunk.len());
            let got = read_full(self, &mut chunk[..want])?;
            buf[filled..filled + got].write_copy_of_slice(&chunk[..got]);
            filled += got;
            if got < want {
                break;
            }
        }
        Ok(filled)
    }
}

impl Source for &[u8] {
    fn read_uninit(&mut self, buf: &mut [MaybeUninit<u8>]) -> io::Result<usize> {
        let n = buf.len().min(self.len());
        let (head, rest) = self.split_at(n);
        buf[..n].write_copy_of_slice(head);
        *self = rest;
        Ok(n)
    }
}

impl<R: Read> Source for zip::read::ZipFile<'_, R> {}

impl Source for File {
    /// Straight from the kernel into the buffer (one `read` up to 1 GiB),
    /// as `numpy.load` does.
    #[cfg(unix)]
    fn read_uninit(&mut self, buf: &mut [MaybeUninit<u8>]) -> io::Result<usize> {
        use std::os::fd::AsRawFd;
        let mut filled = 0;
        while filled < buf.len() {
            // At most 1 GiB a call: macOS refuses counts past `i32::MAX`.
            let end = buf.len().min(filled + (1 << 30));
            let rest = &mut buf[filled..end];
            // SAFETY: `read` writes at most `rest.len()` bytes at the start
            // of `rest`, memory this call borrows exclusively, and reads
            // none of it, so it need not be initialized.
            let n = unsafe { libc::read(self.as_raw_fd(), rest.as_mut_ptr().cast(), rest.len()) };
            match usize::try_from(n) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(_) => {
                    let e = io::Error::last_os_error();
                    if e.kind() != io::ErrorKind::Interrupted {
                        return Err(e);
                    }
                }
            }
        }
        Ok(filled)
    }
}

/// Reads the data into a new tensor's `elements`, which must then be the
/// end of the source; converts the byte order; checks bools. `Ok` only
/// when every byte of `elements` is written with a valid element.
fn fill_elements<T: Element>(
    source: &mut impl Source,
    elements: &mut [MaybeUninit<T>],
    header: &Header,
    at: Place,
) -> Result<(), Error> {
    let expected = size_of_val(elements);
    // SAFETY: the same memory as bytes, which may hold anything
    // (`MaybeUninit<u8>`, alignment 1); the length is its size in bytes,
    // and the view borrows `elements` exclusively.
    let raw: &mut [MaybeUninit<u8>] =
        unsafe { core::slice::from_raw_parts_mut(elements.as_mut_ptr().cast(), expected) };
    let got = source.read_uninit(raw).map_err(|e| at.error(e))?;
    if got < expected {
        return Err(at.error(header.length_problem(expected, got)));
    }
    // The end of the source (a zip member checks its checksum there).
    if read_full(source, &mut [0u8]).map_err(|e| at.error(e))? > 0 {
        let more = format!("more than {expected}");
        return Err(at.error(header.length_problem(expected, more)));
    }
    // SAFETY: `read_uninit` wrote all `expected` bytes (checked above).
    let bytes = unsafe { raw.assume_init_mut() };
    if header.swap {
        swap_byte_order(bytes, component_size(T::DTYPE));
    }
    check_element_bytes::<T>(bytes).map_err(|bad| at.error(bad.describe(T::DTYPE)))?;
    Ok(())
}

// ---------------------------------------------------------------------------
// The header: a Python dict literal
// ---------------------------------------------------------------------------

/// A value of the header's dict, as far as `.npy` headers use them.
#[derive(Debug)]
enum Value {
    Str(Vec<u8>),
    Bool(bool),
    Int(Int),
    Tuple(Vec<Int>),
}

/// An integer literal: its text, and its value when it is a size.
#[derive(Debug)]
struct Int {
    text: String,
    /// `None` when negative or past `isize::MAX`.
    size: Option<usize>,
}

/// Parses the header's dict and checks its three entries.
fn parse_header(text: &[u8]) -> Result<Header, String> {
    let entries = Cursor { text, at: 0 }
        .dict()
        .map_err(|problem| format!("invalid header {}: {problem}", quote(text)))?;
    let (mut descr, mut fortran, mut shape) = (None, None, None);
    for (key, value) in entries {
        let slot = match key.as_slice() {
            b"descr" => &mut descr,
            b"fortran_order" => &mut fortran,
            b"shape" => &mut shape,
            other => {
                return Err(format!(
                    "the header has an unknown key '{}' (a .npy header has 'descr', \
                     'fortran_order' and 'shape')",
                    String::from_utf8_lossy(other)
                ));
            }
        };
        if slot.replace(value).is_some() {
            return Err(format!(
                "the header gives '{}' twice",
                String::from_utf8_lossy(&key)
            ));
        }
    }
    let missing = |key: &str| format!("the header has no '{key}'");
    let (dtype, swap) = match descr.ok_or_else(|| missing("descr"))? {
        Value::Str(s) => parse_descr(&s)?,
        _ => return Err("the header's 'descr' is not a string".into()),
    };
    let fortran = match fortran.ok_or_else(|| missing("fortran_order"))? {
        Value::Bool(b) => b,
        _ => return Err("the header's 'fortran_order' is not True or False".into()),
    };
    let shape = match shape.ok_or_else(|| missing("shape"))? {
        Value::Tuple(ints) => sizes(&ints)?,
        Value::Int(int) => {
            let n = int.text;
            return Err(format!(
                "the header's 'shape' is {n}, not a tuple such as ({n},)"
            ));
        }
        _ => return Err("the header's 'shape' is not a tuple".into()),
    };
    Ok(Header {
        dtype,
        swap,
        fortran,
        shape,
    })
}

/// The header for messages: its first 100 characters, quoted.
fn quote(text: &[u8]) -> String {
    let text = String::from_utf8_lossy(text);
    let text = text.trim_end();
    match text.char_indices().nth(100) {
        Some((cut, _)) => format!("{:?}...", &text[..cut]),
        None => format!("{text:?}"),
    }
}

/// The shape's sizes: non-negative integers.
fn sizes(ints: &[Int]) -> Result<Vec<usize>, String> {
    ints.iter()
        .map(|int| {
            int.size.ok_or_else(|| {
                if int.text.starts_with('-') {
                    format!("the shape has a negative size, {}", int.text)
                } else {
                    format!("the shape's size {} is too large", int.text)
                }
            })
        })
        .collect()
}

/// The dtype of a `descr` string, and whether its byte order is not the
/// host's.
fn parse_descr(descr: &[u8]) -> Result<(DType, bool), String> {
    let (order, code) = match descr {
        [o @ (b'<' | b'>' | b'=' | b'|'), code @ ..] => (*o, code),
        code => (b'=', code),
    };
    let dtype = match code {
        b"f2" => DType::F16,
        b"f4" => DType::F32,
        b"f8" => DType::F64,
        b"c8" => DType::C64,
        b"c16" => DType::C128,
        b"u1" => DType::U8,
        b"i1" => DType::I8,
        b"i2" => DType::I16,
        b"i4" => DType::I32,
        b"i8" => DType::I64,
        b"b1" => DType::Bool,
        _ => {
            let descr = String::from_utf8_lossy(descr);
            let bf16 = if code == b"V2" {
                " (bfloat16 saved through ml_dtypes is untyped '<V2' bytes: save it as float32)"
            } else {
                ""
            };
            return Err(format!(
                "unsupported dtype '{descr}'{bf16}; this reader takes {SUPPORTED}"
            ));
        }
    };
    let big = match order {
        b'<' => false,
        b'>' => true,
        _ => cfg!(target_endian = "big"),
    };
    let swap = big != cfg!(target_endian = "big") && dtype.itemsize() > 1;
    Ok((dtype, swap))
}

/// A cursor over the text of a header.
struct Cursor<'a> {
    text: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// Skips space, then takes `b` if it comes next.
    fn eat(&mut self, b: u8) -> bool {
        self.skip_space();
        let found = self.peek() == Some(b);
        if found {
            self.at += 1;
        }
        found
    }

    fn expect(&mut self, b: u8, wanted: &str) -> Result<(), String> {
        if self.eat(b) {
            Ok(())
        } else {
            Err(self.unexpected(wanted))
        }
    }

    fn unexpected(&self, wanted: &str) -> String {
        let found = match self.peek() {
            Some(b) if b.is_ascii_graphic() || b == b' ' => format!("'{}'", b as char),
            Some(b) => format!("byte 0x{b:02x}"),
            None => "the end".into(),
        };
        format!("expected {wanted} at byte {}, found {found}", self.at)
    }

    /// The whole text: one dict of string keys, then only space.
    fn dict(mut self) -> Result<Vec<(Vec<u8>, Value)>, String> {
        self.expect(b'{', "'{'")?;
        let mut entries = Vec::new();
        while !self.eat(b'}') {
            let key = self.string()?;
            self.expect(b':', "':'")?;
            entries.push((key, self.value()?));
            if !self.eat(b',') {
                self.expect(b'}', "',' or '}'")?;
                break;
            }
        }
        self.skip_space();
        if self.at < self.text.len() {
            return Err(self.unexpected("the end of the header"));
        }
        Ok(entries)
    }

    fn value(&mut self) -> Result<Value, String> {
        self.skip_space();
        match self.peek() {
            Some(b'\'' | b'"' | b'u' | b'U') if self.is_string() => self.string().map(Value::Str),
            Some(b'(') => self.tuple(),
            Some(b'-' | b'0'..=b'9') => self.int().map(Value::Int),
            Some(b'[') => Err("structured dtypes ('descr' a list) are not supported".into()),
            Some(b'A'..=b'Z' | b'a'..=b'z' | b'_') => {
                let start = self.at;
                match self.name() {
                    b"True" => Ok(Value::Bool(true)),
                    b"False" => Ok(Value::Bool(false)),
                    name => Err(format!(
                        "unexpected name '{}' at byte {start}",
                        String::from_utf8_lossy(name)
                    )),
                }
            }
            _ => Err(self.unexpected("a string, True, False, an integer or a tuple")),
        }
    }

    /// A string literal starts here (after an optional `u` prefix).
    fn is_string(&self) -> bool {
        let at = match self.peek() {
            Some(b'u' | b'U') => self.at + 1,
            _ => self.at,
        };
        matches!(self.text.get(at), Some(b'\'' | b'"'))
    }

    fn name(&mut self) -> &[u8] {
        let start = self.at;
        while matches!(self.peek(), Some(b) if b.is_ascii_alphanumeric() || b == b'_') {
            self.at += 1;
        }
        &self.text[start..self.at]
    }

    /// A quoted string; a backslash takes the next byte as it is.
    fn string(&mut self) -> Result<Vec<u8>, String> {
        self.skip_space();
        if matches!(self.peek(), Some(b'u' | b'U')) && self.is_string() {
            self.at += 1;
        }
        let quote = match self.peek() {
            Some(q @ (b'\'' | b'"')) => q,
            _ => return Err(self.unexpected("a string")),
        };
        self.at += 1;
        let mut s = Vec::new();
        loop {
            match self.peek() {
                None | Some(b'\n') => return Err(self.unexpected("the string's closing quote")),
                Some(b) if b == quote => break,
                Some(b'\\') => {
                    self.at += 1;
                    match self.peek() {
                        Some(b) => s.push(b),
                        None => return Err(self.unexpected("an escaped character")),
                    }
                }
                Some(b) => s.push(b),
            }
            self.at += 1;
        }
        self.at += 1;
        Ok(s)
    }

    /// A tuple of integers, or a parenthesized integer (`(3)` is 3).
    fn tuple(&mut self) -> Result<Value, String> {
        self.expect(b'(', "'('")?;
        if self.eat(b')') {
            return Ok(Value::Tuple(Vec::new()));
        }
        let first = self.int()?;
        if !self.eat(b',') {
            self.expect(b')', "',' or ')'")?;
            return Ok(Value::Int(first));
        }
        let mut ints = vec![first];
        while !self.eat(b')') {
            ints.push(self.int()?);
            if !self.eat(b',') {
                self.expect(b')', "',' or ')'")?;
                break;
            }
        }
        Ok(Value::Tuple(ints))
    }

    /// A decimal integer, with Python 2's `L` suffix allowed.
    fn int(&mut self) -> Result<Int, String> {
        self.skip_space();
        let start = self.at;
        let negative = self.eat(b'-');
        self.skip_space();
        let digits_start = self.at;
        let mut value: Option<usize> = Some(0);
        while let Some(d @ b'0'..=b'9') = self.peek() {
            value = value
                .and_then(|v| v.checked_mul(10))
                .and_then(|v| v.checked_add(usize::from(d - b'0')));
            self.at += 1;
        }
        if self.at == digits_start {
            return Err(self.unexpected("an integer"));
        }
        let text = String::from_utf8_lossy(&self.text[start..self.at]).into_owned();
        if matches!(self.peek(), Some(b'L' | b'l')) {
            self.at += 1;
        }
        let size = value.filter(|&v| v <= isize::MAX as usize && (!negative || v == 0));
        Ok(Int { text, size })
    }
}

// ---------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------

/// Writes `x` to a `.npy` file in the host's byte order, version 1.0
/// unless the header needs 2.0: in Fortran order when its elements lie in
/// column-major order and not row-major (a transposed matrix, as
/// `numpy.save` does), else in C order, a strided view gathered a few MiB
/// at a time. A bfloat16 tensor is refused: NumPy has no such dtype.
///
/// An existing file is rewritten in place (its pages are reused, which
/// takes half the time of truncating and refilling them); its first byte
/// is cleared before anything else is written and the header written
/// last, so a write that fails or is cut short leaves no file a reader
/// takes for an array.
///
/// ```
/// use shaped::prelude::*;
/// use shaped::io::npy::{read_npy, write_npy};
/// let path = std::env::temp_dir().join(format!("shaped-doc-write-npy-{}.npy", std::process::id()));
/// let x = Tensor::<u8, shape![2, 3]>::from_vec(vec![1, 2, 3, 4, 5, 6]).unwrap();
/// write_npy(&path, &x.t()).unwrap(); // column-major: Fortran order, no copy
/// let back = read_npy(&path).unwrap().downcast::<u8>().unwrap();
/// assert_eq!((back.shape().as_ref(), back.strides().as_ref()), ([3, 2].as_slice(), [1, 3].as_slice()));
/// assert_eq!(back.to_vec(), [1, 4, 2, 5, 3, 6]);
/// let err = write_npy(&path, &Tensor::<half::bf16, shape![2]>::zeros()).unwrap_err();
/// assert!(err.to_string().ends_with("NumPy has no bfloat16 dtype: convert with `to_dtype(DType::F32)` (exact) first, or use safetensors"));
/// std::fs::remove_file(&path).unwrap();
/// ```
pub fn write_npy(path: impl AsRef<Path>, x: &(impl HostTensor + ?Sized)) -> Result<(), Error> {
    let path = path.as_ref();
    let at = Place::file(path);
    let (header, fortran) = header_of(x).map_err(|p| at.error(p))?;
    let mut file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| at.error(e))?;
    let regular = file.metadata().is_ok_and(|m| m.is_file());
    if !regular {
        // A pipe or a device: in order, once.
        file.write_all(&header).map_err(|e| at.error(e))?;
        return write_body(x, fortran, &mut |b| {
            file.write_all(b).map_err(|e| at.error(e))
        });
    }
    let data_len = data_bytes(x);
    file.write_all(&[0]).map_err(|e| at.error(e))?;
    file.seek(SeekFrom::Start(header.len() as u64))
        .map_err(|e| at.error(e))?;
    reserve(&file, header.len(), data_len).map_err(|e| at.error(e))?;
    write_body(x, fortran, &mut |b| {
        file.write_all(b).map_err(|e| at.error(e))
    })?;
    let end = file.stream_position().map_err(|e| at.error(e))?;
    file.set_len(end).map_err(|e| at.error(e))?;
    file.seek(SeekFrom::Start(0)).map_err(|e| at.error(e))?;
    file.write_all(&header).map_err(|e| at.error(e))?;
    Ok(())
}

/// The number of bytes of `x`'s elements.
fn data_bytes(x: &(impl HostTensor + ?Sized)) -> usize {
    // A tensor's bytes fit in memory: no overflow.
    x.host_sizes().iter().product::<usize>() * x.host_dtype().itemsize()
}

/// Hands the bytes a `.npy` file stores after its header to `sink`: the
/// column-major bytes when the header says Fortran order, else the
/// row-major ones, in pieces.
fn write_body(
    x: &(impl HostTensor + ?Sized),
    fortran: Option<&[u8]>,
    sink: &mut dyn FnMut(&[u8]) -> Result<(), Error>,
) -> Result<(), Error> {
    match fortran {
        Some(bytes) => sink(bytes),
        None => x.host_bytes_in_pieces(sink),
    }
}

/// Data of at least this many bytes has its disk space reserved before it
/// is written (NumPy's threshold).
const RESERVE_MIN_BYTES: usize = 16 << 20;

/// Reserves the disk space of `len` bytes at `offset`, as `numpy.save`
/// does: the blocks are then allocated once, up front, rather than by the
/// flush that ext4 starts on closing a file truncated and rewritten (which
/// made a 256 MiB write three times slower). Only a full disk is an error;
/// a file system without `fallocate` just goes on.
#[cfg(target_os = "linux")]
fn reserve(file: &File, offset: usize, len: usize) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    if len < RESERVE_MIN_BYTES {
        return Ok(());
    }
    let (Ok(offset), Ok(len)) = (libc::off_t::try_from(offset), libc::off_t::try_from(len)) else {
        return Ok(());
    };
    // SAFETY: `fallocate` on an open descriptor of `file` reads and writes
    // no memory of this process.
    let done = unsafe { libc::fallocate(file.as_raw_fd(), libc::FALLOC_FL_KEEP_SIZE, offset, len) };
    match io::Error::last_os_error() {
        e if done != 0 && e.raw_os_error() == Some(libc::ENOSPC) => Err(e),
        _ => Ok(()),
    }
}

#[cfg(not(target_os = "linux"))]
fn reserve(_: &File, _: usize, _: usize) -> io::Result<()> {
    Ok(())
}

/// The bytes of a `.npy` file holding `x`, as [`write_npy`] writes them.
///
/// ```
/// use shaped::prelude::*;
/// use shaped::io::npy::npy_bytes;
/// let bytes = npy_bytes(&Tensor::<f32, shape![2, 3]>::zeros()).unwrap();
/// assert_eq!(bytes.len(), 128 + 24); // the data starts at a multiple of 64
/// assert!(bytes.starts_with(b"\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"));
/// ```
pub fn npy_bytes(x: &(impl HostTensor + ?Sized)) -> Result<Vec<u8>, Error> {
    let (mut bytes, fortran) = header_of(x).map_err(|p| Place::bytes().error(p))?;
    let total = bytes.len().saturating_add(data_bytes(x));
    bytes
        .try_reserve_exact(total - bytes.len())
        .map_err(|_| Error::OutOfMemory { bytes: total })?;
    write_body(x, fortran, &mut |b| {
        bytes.extend_from_slice(b);
        Ok(())
    })?;
    Ok(bytes)
}

/// The magic string, version, length and padded header for `x`, and its
/// column-major bytes when it is written in Fortran order.
fn header_of<X: HostTensor + ?Sized>(x: &X) -> Result<(Vec<u8>, Option<&[u8]>), String> {
    let descr = descr_of(x.host_dtype())?;
    let fortran = x.host_column_major_bytes();
    Ok((
        npy_header(descr, &x.host_sizes(), fortran.is_some()),
        fortran,
    ))
}

/// The `descr` NumPy writes for `dtype` in the host's byte order.
fn descr_of(dtype: DType) -> Result<String, String> {
    let code = match dtype {
        DType::F16 => "f2",
        DType::BF16 => return Err(NO_BF16.into()),
        DType::F32 => "f4",
        DType::F64 => "f8",
        DType::C64 => "c8",
        DType::C128 => "c16",
        DType::U8 => "u1",
        DType::I8 => "i1",
        DType::I16 => "i2",
        DType::I32 => "i4",
        DType::I64 => "i8",
        DType::Bool => "b1",
    };
    let order = match dtype.itemsize() {
        1 => '|',
        _ if cfg!(target_endian = "big") => '>',
        _ => '<',
    };
    Ok(format!("{order}{code}"))
}

/// NumPy's header, byte for byte: the dict with sorted keys, room for the
/// size that grows (the first in C order, the last in Fortran order) to
/// reach 21 digits, and spaces and a newline up to a multiple of 64 bytes;
/// version 2.0 past 65535 bytes.
fn npy_header(descr: String, sizes: &[usize], fortran: bool) -> Vec<u8> {
    let shape = match sizes {
        [] => "()".to_string(),
        [n] => format!("({n},)"),
        _ => {
            let list: Vec<String> = sizes.iter().map(usize::to_string).collect();
            format!("({})", list.join(", "))
        }
    };
    let order = if fortran { "True" } else { "False" };
    let mut dict = format!("{{'descr': '{descr}', 'fortran_order': {order}, 'shape': {shape}, }}");
    let growing = if fortran { sizes.last() } else { sizes.first() };
    if let Some(size) = growing {
        let digits = size.to_string().len();
        dict.extend(std::iter::repeat_n(
            ' ',
            GROWTH_DIGITS.saturating_sub(digits),
        ));
    }
    let text_len = dict.len() + 1; // and the newline
    let pad = |prefix: usize| ALIGN - (prefix + text_len) % ALIGN;
    let (version, prefix) = if text_len + pad(10) <= usize::from(u16::MAX) {
        (1, 10)
    } else {
        (2, 12)
    };
    let header_len = text_len + pad(prefix);
    let mut bytes = Vec::with_capacity(prefix + header_len);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&[version, 0]);
    match version {
        // Fits: checked above.
        1 => bytes.extend_from_slice(&(header_len as u16).to_le_bytes()),
        // A header of 4 GiB would need a shape of 200 million dimensions.
        _ => bytes.extend_from_slice(&(header_len as u32).to_le_bytes()),
    }
    bytes.extend_from_slice(dict.as_bytes());
    bytes.resize(prefix + header_len - 1, b' ');
    bytes.push(b'\n');
    bytes
}

// ---------------------------------------------------------------------------
// .npz archives
// ---------------------------------------------------------------------------

/// Reads every array of a `.npz` archive, in the archive's order, named
/// without their `.npy` suffix.
///
/// ```
/// use shaped::prelude::*;
/// use shaped::io::npy::{read_npz, write_npz};
/// let path = std::env::temp_dir().join(format!("shaped-doc-read-npz-{}.npz", std::process::id()));
/// let (w, b) = (Tensor::<f32, shape![2, 2]>::ones(), Tensor::<i64, shape![2]>::zeros());
/// write_npz(&path, &[("w", &w), ("b", &b)], false).unwrap();
/// let arrays = read_npz(&path).unwrap();
/// assert_eq!(arrays.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["w", "b"]);
/// assert_eq!(arrays[1].1.dtype(), DType::I64);
/// std::fs::remove_file(&path).unwrap();
/// ```
pub fn read_npz(path: impl AsRef<Path>) -> Result<Vec<(String, AnyTensor)>, Error> {
    let path = path.as_ref();
    let mut archive = open_archive(path)?;
    (0..archive.len())
        .map(|index| read_member(&mut archive, index, path))
        .collect()
}

/// Reads the array `name` (a member `name.npy`, or `name` itself) of a
/// `.npz` archive as the typed tensor `X`.
///
/// ```
/// use shaped::prelude::*;
/// use shaped::io::npy::{load_npz_tensor, write_npz};
/// let path = std::env::temp_dir().join(format!("shaped-doc-load-npz-{}.npz", std::process::id()));
/// let w = Tensor::<f64, shape![3]>::from_vec(vec![1.0, 2.0, 3.0]).unwrap();
/// write_npz(&path, &[("w", &w)], true).unwrap();
/// let x = load_npz_tensor::<Tensor<f64, shape![3]>>(&path, "w").unwrap();
/// assert_eq!(x.to_vec(), [1.0, 2.0, 3.0]);
/// let err = load_npz_tensor::<Tensor<f64, shape![3]>>(&path, "v").unwrap_err().to_string();
/// assert!(err.ends_with("no array named 'v' (the archive holds 'w')"));
/// std::fs::remove_file(&path).unwrap();
/// ```
pub fn load_npz_tensor<X: FromAny>(path: impl AsRef<Path>, name: &str) -> Result<X, Error> {
    let path = path.as_ref();
    let mut archive = open_archive(path)?;
    let member = format!("{name}.npy");
    let Some(index) = archive
        .index_for_name(&member)
        .or_else(|| archive.index_for_name(name))
    else {
        return Err(file_error(
            path,
            format!(
                "no array named '{name}' (the archive holds {})",
                member_list(&archive)
            ),
        ));
    };
    let (_, any) = read_member(&mut archive, index, path)?;
    let at = Place {
        path,
        member: Some(&member),
    };
    any.into_typed().map_err(|e| at.error(e))
}

/// The names of an archive's arrays, quoted, for messages.
fn member_list<R: Read + Seek>(archive: &ZipArchive<R>) -> String {
    let names: Vec<String> = (0..archive.len())
        .filter_map(|i| archive.name_for_index(i)?.ok())
        .map(|name| format!("'{}'", name.strip_suffix(".npy").unwrap_or(&name)))
        .collect();
    if names.is_empty() {
        "no arrays".into()
    } else {
        names.join(", ")
    }
}

fn open_archive(path: &Path) -> Result<ZipArchive<BufReader<File>>, Error> {
    let file = File::open(path).map_err(|e| file_error(path, e.to_string()))?;
    zip_archive(BufReader::new(file), path)
}

fn zip_archive<R: Read + Seek>(reader: R, path: &Path) -> Result<ZipArchive<R>, Error> {
    ZipArchive::new(reader)
        .map_err(|e| file_error(path, format!("not a valid .npz (zip) archive: {e}")))
}

/// The array of member `index`: its name without `.npy`, and the array.
/// The member's declared size must be the one its header describes, so no
/// more than that is ever inflated or allocated.
fn read_member<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    index: usize,
    path: &Path,
) -> Result<(String, AnyTensor), Error> {
    let mut member = archive
        .by_index(index)
        .map_err(|e| file_error(path, format!("member {index}: {e}")))?;
    let name = match member.name() {
        Ok(name) => name.into_owned(),
        Err(e) => return Err(file_error(path, format!("member {index}: {e}"))),
    };
    let at = Place {
        path,
        member: Some(&name),
    };
    let len = member.size();
    let array = read_from(&mut member, len, at)?;
    let key = name.strip_suffix(".npy").unwrap_or(&name).to_string();
    Ok((key, array))
}

/// Writes a `.npz` archive of `arrays`, each as a member `name.npy`:
/// stored as NumPy's `savez` does, or deflated (`compressed`) as its
/// `savez_compressed`. Names must differ; bfloat16 tensors are refused.
///
/// ```
/// use shaped::prelude::*;
/// use shaped::io::npy::{read_npz, write_npz};
/// let path = std::env::temp_dir().join(format!("shaped-doc-write-npz-{}.npz", std::process::id()));
/// let x = AnyTensor::from(DynTensor::<i16>::zeros(&[1000]));
/// write_npz(&path, &[("x", &x)], true).unwrap();
/// assert!(std::fs::metadata(&path).unwrap().len() < 1000); // deflated
/// assert_eq!(read_npz(&path).unwrap()[0].1.shape(), [1000]);
/// std::fs::remove_file(&path).unwrap();
/// ```
pub fn write_npz(
    path: impl AsRef<Path>,
    arrays: &[(&str, &dyn HostTensor)],
    compressed: bool,
) -> Result<(), Error> {
    let path = path.as_ref();
    let headers = npz_headers(path, arrays)?;
    let writer = BufWriter::new(File::create(path).map_err(|e| file_error(path, e.to_string()))?);
    let file = write_members(writer, path, arrays, &headers, compressed)?;
    file.into_inner()
        .map_err(|e| file_error(path, e.error().to_string()))?;
    Ok(())
}

/// Each array's member name and `.npy` header, checked before anything is
/// written: names differ, no dtype is bfloat16.
fn npz_headers(
    path: &Path,
    arrays: &[(&str, &dyn HostTensor)],
) -> Result<Vec<(String, Vec<u8>)>, Error> {
    let mut headers = Vec::with_capacity(arrays.len());
    for (i, &(name, x)) in arrays.iter().enumerate() {
        if arrays[..i].iter().any(|&(other, _)| other == name) {
            return Err(file_error(
                path,
                format!("the name '{name}' is given twice"),
            ));
        }
        let member = format!("{name}.npy");
        let at = Place {
            path,
            member: Some(&member),
        };
        let (header, _) = header_of(x).map_err(|p| at.error(p))?;
        headers.push((member, header));
    }
    Ok(headers)
}

/// Writes the archive of `arrays` (with their [`npz_headers`]) into
/// `writer`, giving the writer back.
fn write_members<W: Write + Seek>(
    writer: W,
    path: &Path,
    arrays: &[(&str, &dyn HostTensor)],
    headers: &[(String, Vec<u8>)],
    compressed: bool,
) -> Result<W, Error> {
    let zip_error = |e: zip::result::ZipError| file_error(path, e.to_string());
    let method = if compressed {
        CompressionMethod::Deflated
    } else {
        CompressionMethod::Stored
    };
    let mut zip = ZipWriter::new(writer);
    for ((member, header), &(_, x)) in headers.iter().zip(arrays) {
        let size = (header.len() + data_bytes(x)) as u64;
        let options = SimpleFileOptions::default()
            .compression_method(method)
            .large_file(size >= u64::from(u32::MAX));
        let at = Place {
            path,
            member: Some(member),
        };
        zip.start_file(member.as_str(), options)
            .map_err(zip_error)?;
        zip.write_all(header).map_err(|e| at.error(e))?;
        write_body(x, x.host_column_major_bytes(), &mut |b| {
            zip.write_all(b).map_err(|e| at.error(e))
        })?;
    }
    zip.finish().map_err(zip_error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prelude::*;
    use num_complex::Complex;
    use std::io::Cursor as IoCursor;

    /// The bytes of a `.npz` archive of `arrays`, or the error.
    fn npz_into(arrays: &[(&str, &dyn HostTensor)], compressed: bool) -> Result<Vec<u8>, Error> {
        let path = Path::new("x.npz");
        let headers = npz_headers(path, arrays)?;
        let writer = IoCursor::new(Vec::new());
        Ok(write_members(writer, path, arrays, &headers, compressed)?.into_inner())
    }

    fn problem(bytes: &[u8]) -> String {
        read_npy_bytes(bytes).unwrap_err().to_string()
    }

    /// A file of `header` (a dict, padded as NumPy pads) and `data`.
    fn npy_with(dict: &str, data: &[u8]) -> Vec<u8> {
        let mut text = dict.to_string();
        while !(10 + text.len() + 1).is_multiple_of(64) {
            text.push(' ');
        }
        text.push('\n');
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&[1, 0]);
        bytes.extend_from_slice(&(text.len() as u16).to_le_bytes());
        bytes.extend_from_slice(text.as_bytes());
        bytes.extend_from_slice(data);
        bytes
    }

    fn f32_file() -> Vec<u8> {
        let x = Tensor::<f32, shape![2, 3]>::from_vec(vec![1., 2., 3., 4., 5., 6.]).unwrap();
        npy_bytes(&x).unwrap()
    }

    #[test]
    fn headers_are_numpys_byte_for_byte() {
        // np.save(f, np.zeros((2, 3), np.float32)): the header, padded to 128.
        let dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
        let expected = [
            MAGIC,
            &b"\x01\x00v\x00"[..],
            dict.as_bytes(),
            &[b' '; 58],
            b"\n",
        ]
        .concat();
        assert_eq!(&f32_file()[..128], expected);
        let scalar = npy_header(descr_of(DType::I64).unwrap(), &[], false);
        assert_eq!(scalar.len(), 128);
        assert!(scalar.ends_with(
            b"'shape': (), }                                                              \n"
        ));
        let vector = npy_header(descr_of(DType::Bool).unwrap(), &[5], false);
        assert_eq!(vector.len(), 128);
        assert!(
            vector[10..].starts_with(b"{'descr': '|b1', 'fortran_order': False, 'shape': (5,), }")
        );
    }

    #[test]
    fn huge_ranks_take_version_2() {
        let sizes = vec![1usize; 30_000];
        let header = npy_header(descr_of(DType::U8).unwrap(), &sizes, false);
        assert_eq!(&header[6..8], &[2, 0]);
        assert_eq!(header.len() % 64, 0);
        let mut file = header;
        file.push(7);
        let x = read_npy_bytes(&file).unwrap();
        assert_eq!(x.shape(), sizes);
        assert_eq!(x.downcast::<u8>().unwrap().to_vec(), [7]);
    }

    #[test]
    fn headers_parse_as_python_reads_them() {
        let data = [1u8, 0, 0, 0, 2, 0, 0, 0];
        for dict in [
            "{'shape': (2,), 'fortran_order': False, 'descr': '<i4'}",
            "{ 'descr' : '<i4' , 'fortran_order' : False , 'shape' : ( 2 , ) , }",
            "{\"descr\": \"<i4\", \"fortran_order\": False, \"shape\": (2L,)}",
            "{u'descr': u'<i4', 'fortran_order': False, 'shape': (2,),}",
            "{'descr':'<i4','fortran_order':False,'shape':(2,)}\t\r\n",
        ] {
            let x =
                read_npy_bytes(&npy_with(dict, &data)).unwrap_or_else(|e| panic!("{dict}: {e}"));
            assert_eq!(x.downcast::<i32>().unwrap().to_vec(), [1, 2], "{dict}");
        }
        let scalar = npy_with(
            "{'descr': '<f8', 'fortran_order': True, 'shape': ()}",
            &2.5f64.to_le_bytes(),
        );
        assert_eq!(
            read_npy_bytes(&scalar)
                .unwrap()
                .downcast::<f64>()
                .unwrap()
                .to_vec(),
            [2.5]
        );
        let empty = npy_with(
            "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 3)}",
            &[],
        );
        assert_eq!(read_npy_bytes(&empty).unwrap().shape(), [0, 3]);
    }

    #[test]
    fn fortran_files_are_column_major_views_of_the_buffer() {
        let data: Vec<u8> = (0..6i16).flat_map(i16::to_le_bytes).collect();
        let file = npy_with(
            "{'descr': '<i2', 'fortran_order': True, 'shape': (2, 3)}",
            &data,
        );
        let x = read_npy_bytes(&file).unwrap().downcast::<i16>().unwrap();
        assert_eq!(x.strides().as_ref(), [1, 2]);
        assert_eq!(x.to_vec(), [0, 2, 4, 1, 3, 5]);
        let file = npy_with(
            "{'descr': '<i2', 'fortran_order': True, 'shape': (3, 0, 2)}",
            &[],
        );
        let x = read_npy_bytes(&file).unwrap().downcast::<i16>().unwrap();
        assert_eq!(
            (x.shape().as_ref(), x.strides().as_ref()),
            ([3, 0, 2].as_ref(), [1, 3, 3].as_ref())
        );
        // Empty, with sizes whose row-major strides overflow though the
        // column-major ones fit (found by the coverage-guided fuzzer: read,
        // then written in C order and refused): refused in either order,
        // as NumPy refuses it ("array is too big").
        for fortran in ["True", "False"] {
            let file = npy_with(
                &format!(
                    "{{'descr': '<f8', 'fortran_order': {fortran}, 'shape': (0, 111111111131, 1111, 11111, 11)}}"
                ),
                &[],
            );
            let err = read_npy_bytes(&file).unwrap_err().to_string();
            assert_eq!(err, "<bytes>: Stride calculation overflowed");
        }
    }

    #[test]
    fn big_endian_files_are_converted_per_component() {
        let file = npy_with(
            "{'descr': '>i4', 'fortran_order': False, 'shape': (2,)}",
            &[0, 0, 1, 2, 255, 255, 255, 254],
        );
        assert_eq!(
            read_npy_bytes(&file)
                .unwrap()
                .downcast::<i32>()
                .unwrap()
                .to_vec(),
            [258, -2]
        );
        let data = [1.5f32.to_be_bytes(), (-2.0f32).to_be_bytes()].concat();
        let file = npy_with(
            "{'descr': '>c8', 'fortran_order': False, 'shape': ()}",
            &data,
        );
        let z = read_npy_bytes(&file)
            .unwrap()
            .downcast::<num_complex::Complex<f32>>()
            .unwrap();
        assert_eq!(z.to_vec(), [num_complex::Complex::new(1.5, -2.0)]);
        let file = npy_with(
            "{'descr': '|i1', 'fortran_order': False, 'shape': (1,)}",
            &[0xff],
        );
        assert_eq!(
            read_npy_bytes(&file)
                .unwrap()
                .downcast::<i8>()
                .unwrap()
                .to_vec(),
            [-1]
        );
    }

    #[test]
    fn every_dtype_round_trips() {
        let anys = [
            AnyTensor::from(DynTensor::<f32>::from_vec(vec![1.0, f32::NAN], &[2]).unwrap()),
            AnyTensor::from(DynTensor::<half::f16>::from_vec(vec![half::f16::MAX], &[1]).unwrap()),
            AnyTensor::from(DynTensor::<f64>::from_vec(vec![-0.0], &[1, 1]).unwrap()),
            AnyTensor::from(
                DynTensor::<Complex<f32>>::from_vec(vec![Complex::new(1.0, 2.0)], &[]).unwrap(),
            ),
            AnyTensor::from(
                DynTensor::<Complex<f64>>::from_vec(vec![Complex::new(3.0, -4.0)], &[1]).unwrap(),
            ),
            AnyTensor::from(DynTensor::<u8>::from_vec(vec![255], &[1]).unwrap()),
            AnyTensor::from(DynTensor::<i8>::from_vec(vec![-128], &[1]).unwrap()),
            AnyTensor::from(DynTensor::<i16>::from_vec(vec![-300], &[1]).unwrap()),
            AnyTensor::from(DynTensor::<i32>::from_vec(vec![i32::MIN], &[1]).unwrap()),
            AnyTensor::from(DynTensor::<i64>::from_vec(vec![i64::MAX], &[1]).unwrap()),
            AnyTensor::from(DynTensor::<bool>::from_vec(vec![true, false], &[2]).unwrap()),
        ];
        for x in anys {
            let y = read_npy_bytes(&npy_bytes(&x).unwrap()).unwrap();
            assert_eq!((y.dtype(), y.shape()), (x.dtype(), x.shape()));
            assert_eq!(y.bytes(), x.bytes(), "{:?}", x.dtype());
        }
    }

    #[test]
    fn bad_files_say_what_is_wrong() {
        let good = f32_file();
        assert_eq!(problem(b""), "<bytes>: the file is empty, not a .npy file");
        assert_eq!(
            problem(b"\x93NUM"),
            "<bytes>: the file ends inside the .npy header, after 4 bytes"
        );
        assert_eq!(
            problem(b"GIF89a.."),
            "<bytes>: not a .npy file (it does not start with \\x93NUMPY)"
        );
        let mut v4 = good.clone();
        v4[6] = 4;
        assert_eq!(
            problem(&v4),
            "<bytes>: unsupported .npy format version 4.0 (this reader reads 1.0, 2.0 and 3.0)"
        );
        let mut long = good.clone();
        long[8..10].copy_from_slice(&500u16.to_le_bytes());
        assert_eq!(
            problem(&long),
            "<bytes>: the header's length 500 runs past the end of the file (152 bytes)"
        );
        assert_eq!(
            problem(&good[..150]),
            "<bytes>: the data is 22 bytes, expected 24 for a float32 array of shape [2, 3]"
        );
        let mut trailing = good.clone();
        trailing.push(0);
        assert_eq!(
            problem(&trailing),
            "<bytes>: the data is 25 bytes, expected 24 for a float32 array of shape [2, 3]"
        );
        let cases = [
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4294967296)}",
                "the shape [4294967296, 4294967296, 4294967296] of float32 elements is too large: its size in bytes overflows",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2, -3)}",
                "the shape has a negative size, -3",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999,)}",
                "the shape's size 99999999999999999999999 is too large",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (9223372036854775808,)}",
                "the shape's size 9223372036854775808 is too large",
            ),
            (
                "{'descr': '<u2', 'fortran_order': False, 'shape': (1,)}",
                "unsupported dtype '<u2'; this reader takes '<f2', '<f4', '<f8', '<c8', '<c16', '|u1', '|i1', '<i2', '<i4', '<i8' and '|b1' (either byte order)",
            ),
            (
                "{'descr': '<V2', 'fortran_order': False, 'shape': (1,)}",
                "unsupported dtype '<V2' (bfloat16 saved through ml_dtypes is untyped '<V2' bytes: save it as float32); this reader takes '<f2', '<f4', '<f8', '<c8', '<c16', '|u1', '|i1', '<i2', '<i4', '<i8' and '|b1' (either byte order)",
            ),
            (
                "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}",
                "invalid header \"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}\": structured dtypes ('descr' a list) are not supported",
            ),
            (
                "{'descr': '<f4', 'fortran_order': 0, 'shape': (1,)}",
                "the header's 'fortran_order' is not True or False",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (3)}",
                "the header's 'shape' is 3, not a tuple such as (3,)",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': '3'}",
                "the header's 'shape' is not a tuple",
            ),
            (
                "{'descr': 4, 'fortran_order': False, 'shape': (1,)}",
                "the header's 'descr' is not a string",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False}",
                "the header has no 'shape'",
            ),
            (
                "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': ()}",
                "the header gives 'descr' twice",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (), 'x': 1}",
                "the header has an unknown key 'x' (a .npy header has 'descr', 'fortran_order' and 'shape')",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (1.5,)}",
                "invalid header \"{'descr': '<f4', 'fortran_order': False, 'shape': (1.5,)}\": expected ',' or ')' at byte 52, found '.'",
            ),
            (
                "{'descr': '<f4', 'fortran_order': None, 'shape': ()}",
                "invalid header \"{'descr': '<f4', 'fortran_order': None, 'shape': ()}\": unexpected name 'None' at byte 34",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': ()} x",
                "invalid header \"{'descr': '<f4', 'fortran_order': False, 'shape': ()} x\": expected the end of the header at byte 54, found 'x'",
            ),
            (
                "{'descr': '<f4, 'fortran_order': False, 'shape': ()}",
                "invalid header \"{'descr': '<f4, 'fortran_order': False, 'shape': ()}\": expected ',' or '}' at byte 17, found 'f'",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': ((1,),)}",
                "invalid header \"{'descr': '<f4', 'fortran_order': False, 'shape': ((1,),)}\": expected an integer at byte 51, found '('",
            ),
        ];
        for (dict, expected) in cases {
            assert_eq!(
                problem(&npy_with(dict, &[0; 4])),
                format!("<bytes>: {expected}"),
                "{dict}"
            );
        }
        let bools = npy_with(
            "{'descr': '|b1', 'fortran_order': False, 'shape': (3,)}",
            &[0, 1, 2],
        );
        assert_eq!(
            problem(&bools),
            "<bytes>: bool element 2 is the byte 2, not 0 or 1"
        );
    }

    #[test]
    fn every_truncation_is_an_error() {
        for file in [
            f32_file(),
            npy_bytes(&DynTensor::<bool>::ones(&[3, 2])).unwrap(),
        ] {
            for end in 0..file.len() {
                assert!(read_npy_bytes(&file[..end]).is_err(), "{end} bytes");
            }
            assert!(read_npy_bytes(&file).is_ok());
        }
    }

    /// Flips bytes of valid files at pseudo-random positions: every result
    /// is an array or an error, never a panic.
    #[test]
    fn mutated_files_never_panic() {
        let files = [
            f32_file(),
            npy_with(
                "{'descr': '>c16', 'fortran_order': True, 'shape': (1, 1)}",
                &[0; 16],
            ),
            npy_with(
                "{'descr': '|b1', 'fortran_order': False, 'shape': (2L, 2L), }",
                &[1, 0, 1, 0],
            ),
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut read, mut refused) = (0, 0);
        for i in 0..6000 {
            let mut file = files[i % files.len()].clone();
            for _ in 0..1 + next() % 3 {
                let at = (next() % file.len() as u64) as usize;
                file[at] = match next() % 4 {
                    0 => file[at] ^ (1 << (next() % 8)),
                    1 => b"0123456789(),:' -LTF[{}"[(next() % 23) as usize],
                    _ => next() as u8,
                };
            }
            if next() % 8 == 0 {
                file.truncate((next() % file.len() as u64) as usize);
            }
            match std::panic::catch_unwind(|| read_npy_bytes(&file)) {
                Ok(Ok(_)) => read += 1,
                Ok(Err(_)) => refused += 1,
                Err(_) => panic!("reading panicked on {file:?}"),
            }
        }
        assert!(
            read > 100 && refused > 1000,
            "{read} read, {refused} refused"
        );
    }

    #[test]
    fn large_writes_reserve_their_space_first() {
        let path =
            std::env::temp_dir().join(format!("shaped-npy-reserve-{}.npy", std::process::id()));
        let x = DynTensor::<u8>::full(&[RESERVE_MIN_BYTES], 7);
        for _ in 0..2 {
            write_npy(&path, &x).unwrap(); // the second time over the first
            assert_eq!(
                std::fs::metadata(&path).unwrap().len(),
                128 + RESERVE_MIN_BYTES as u64
            );
        }
        let y = read_npy(&path).unwrap();
        assert_eq!(y.bytes(), x.bytes());
        std::fs::remove_file(&path).unwrap();
    }

    /// An existing file is rewritten in place: a longer one is cut to the
    /// new length, a shorter one grows, a file that was not an array
    /// becomes one; what a failed write leaves is no array (its first byte
    /// is cleared before the data goes in).
    #[test]
    fn existing_files_are_rewritten_in_place() {
        use std::os::unix::fs::MetadataExt;
        let path =
            std::env::temp_dir().join(format!("shaped-npy-in-place-{}.npy", std::process::id()));
        std::fs::write(&path, vec![0xAB; 5000]).unwrap();
        let inode = std::fs::metadata(&path).unwrap().ino();
        let small = DynTensor::<i16>::arange(10);
        let large = DynTensor::<f64>::full(&[300, 3], -0.25);
        for x in [&small as &dyn HostTensor, &large, &small] {
            write_npy(&path, x).unwrap();
            let file = std::fs::read(&path).unwrap();
            assert_eq!(file, npy_bytes(x).unwrap());
            assert_eq!(std::fs::metadata(&path).unwrap().ino(), inode);
        }
        // A bfloat16 tensor is refused before the file is touched.
        let bf16 = DynTensor::<half::bf16>::zeros(&[2]);
        assert!(write_npy(&path, &bf16).is_err());
        assert_eq!(std::fs::read(&path).unwrap(), npy_bytes(&small).unwrap());
        // A sink that fails mid-way (the disk full): the magic is gone.
        let mut file = OpenOptions::new().write(true).open(&path).unwrap();
        file.write_all(&[0]).unwrap();
        drop(file);
        let err = read_npy(&path).unwrap_err().to_string();
        assert!(err.contains("not a .npy file"), "{err}");
        std::fs::remove_file(&path).unwrap();
    }

    /// Writers take views in their order: a column-major one as Fortran
    /// order (NumPy's bytes for `np.asfortranarray`), any other strided one
    /// gathered in pieces, in `.npy` files and `.npz` members alike.
    #[test]
    fn views_are_written_in_their_order() {
        let x = DynTensor::<i32>::from_vec((0..6).collect(), &[2, 3]).unwrap();
        let t = x.t().unwrap();
        let bytes = npy_bytes(&t).unwrap();
        let dict = "{'descr': '<i4', 'fortran_order': True, 'shape': (3, 2), }";
        assert_eq!(
            std::str::from_utf8(&bytes[10..128]).unwrap().trim_end(),
            dict
        );
        assert_eq!(&bytes[128..], &*x.bytes()); // the buffer as it is
        let back = read_npy_bytes(&bytes).unwrap().downcast::<i32>().unwrap();
        assert_eq!(
            (back.strides().to_vec(), back.to_vec()),
            (vec![1, 3], t.to_vec())
        );
        // Rank 1 and one-row views are row-major too: C order, as NumPy.
        assert!(
            npy_bytes(&x.select(0, 1).unwrap()).unwrap()[10..]
                .starts_with(b"{'descr': '<i4', 'fortran_order': False")
        );
        // A strided view of several pieces (4 MiB each): rows with a step.
        let big = DynTensor::<i16>::from_vec(
            (0..3 << 21).map(|i| i as i16).collect(),
            &[3 << 11, 1 << 10],
        )
        .unwrap();
        let stepped = big.slice(s![1..;2]).unwrap();
        let written = npy_bytes(&stepped).unwrap();
        assert_eq!(written, npy_bytes(&stepped.contiguous()).unwrap());
        let arrays: [(&str, &dyn HostTensor); 2] = [("t", &t), ("stepped", &stepped)];
        for compressed in [false, true] {
            let zip = npz_into(&arrays, compressed).unwrap();
            let mut archive = zip_archive(IoCursor::new(zip), Path::new("x.npz")).unwrap();
            let (_, first) = read_member(&mut archive, 0, Path::new("x.npz")).unwrap();
            assert_eq!((first.strides(), first.bytes()), (vec![1, 3], t.bytes()));
            let (_, second) = read_member(&mut archive, 1, Path::new("x.npz")).unwrap();
            assert_eq!(second.bytes(), stepped.contiguous().bytes());
        }
        // Not a regular file: written in order, once.
        write_npy("/dev/null", &stepped).unwrap();
    }

    /// Files on disk go through `read_uninit`'s `read` straight into the
    /// tensor's buffer (a pooled block from 1 MiB on).
    #[test]
    fn files_are_read_into_the_new_buffer() {
        let dir = std::env::temp_dir();
        let path = dir.join(format!("shaped-npy-unit-{}.npy", std::process::id()));
        let n = 3 << 18; // 3 MiB of f32
        let x =
            DynTensor::<f32>::from_vec((0..n).map(|i| i as f32).collect(), &[n / 4, 4]).unwrap();
        write_npy(&path, &x).unwrap();
        let y = read_npy(&path).unwrap().downcast::<f32>().unwrap();
        assert_eq!(
            (y.shape().as_ref(), y.bytes()),
            (x.shape().as_ref(), x.bytes())
        );
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.truncate(bytes.len() - 1);
        std::fs::write(&path, &bytes).unwrap();
        let err = read_npy(&path).unwrap_err().to_string();
        assert!(err.ends_with("the data is 3145727 bytes, expected 3145728 for a float32 array of shape [196608, 4]"), "{err}");
        // Big-endian float64, two mebibytes.
        let values: Vec<f64> = (0..1 << 18).map(|i| f64::from(i) - 0.5).collect();
        let data: Vec<u8> = values.iter().flat_map(|v| v.to_be_bytes()).collect();
        let file = npy_with(
            "{'descr': '>f8', 'fortran_order': True, 'shape': (512, 512)}",
            &data,
        );
        std::fs::write(&path, &file).unwrap();
        let z = read_npy(&path).unwrap().downcast::<f64>().unwrap();
        assert_eq!(z.strides().as_ref(), [1, 512]);
        assert_eq!(z.t().unwrap().contiguous().to_vec(), values);
        let bools = npy_with(
            "{'descr': '|b1', 'fortran_order': False, 'shape': (3,)}",
            &[1, 0, 9],
        );
        std::fs::write(&path, &bools).unwrap();
        assert!(
            read_npy(&path)
                .unwrap_err()
                .to_string()
                .ends_with("bool element 2 is the byte 9, not 0 or 1")
        );
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn npz_round_trips_in_memory() {
        let w = Tensor::<f32, shape![2, 2]>::from_vec(vec![1., 2., 3., 4.]).unwrap();
        let b = AnyTensor::from(DynTensor::<bool>::from_vec(vec![true], &[1]).unwrap());
        let big = DynTensor::<i64>::from_vec((0..40_000).collect(), &[40_000]).unwrap();
        for compressed in [false, true] {
            let arrays: [(&str, &dyn HostTensor); 2] = [("w", &w), ("dir/b", &b)];
            let zip = npz_into(&arrays, compressed).unwrap();
            let mut archive = zip_archive(IoCursor::new(zip), Path::new("x.npz")).unwrap();
            let (name, x) = read_member(&mut archive, 0, Path::new("x.npz")).unwrap();
            assert_eq!(
                (name.as_str(), x.downcast::<f32>().unwrap().to_vec()),
                ("w", vec![1., 2., 3., 4.])
            );
            let (name, x) = read_member(&mut archive, 1, Path::new("x.npz")).unwrap();
            assert_eq!(
                (name.as_str(), x.downcast::<bool>().unwrap().to_vec()),
                ("dir/b", vec![true])
            );
            // 320 kB: read through several 64 KiB chunks.
            let zip = npz_into(&[("big", &big)], compressed).unwrap();
            let mut archive = zip_archive(IoCursor::new(zip), Path::new("x.npz")).unwrap();
            let (_, x) = read_member(&mut archive, 0, Path::new("x.npz")).unwrap();
            assert_eq!(x.bytes(), big.bytes());
        }
        let twice: [(&str, &dyn HostTensor); 2] = [("w", &w), ("w", &b)];
        let err = npz_into(&twice, false).unwrap_err();
        assert_eq!(err.to_string(), "x.npz: the name 'w' is given twice");
        let bf = Tensor::<half::bf16, shape![1]>::zeros();
        let err = npz_into(&[("h", &bf)], false).unwrap_err();
        assert_eq!(err.to_string(), format!("x.npz: member 'h.npy': {NO_BF16}"));
    }

    /// A zip of one member `name` holding `bytes`, deflated.
    fn zip_of(name: &str, bytes: &[u8]) -> Vec<u8> {
        let mut zip = ZipWriter::new(IoCursor::new(Vec::new()));
        let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
        zip.start_file(name, options).unwrap();
        zip.write_all(bytes).unwrap();
        zip.finish().unwrap().into_inner()
    }

    fn npz_problem(zip: Vec<u8>) -> String {
        let path = Path::new("x.npz");
        let mut archive = match zip_archive(IoCursor::new(zip), path) {
            Ok(archive) => archive,
            Err(e) => return e.to_string(),
        };
        read_member(&mut archive, 0, path).unwrap_err().to_string()
    }

    #[test]
    fn npz_members_are_checked_before_inflating() {
        // A small header and a mebibyte of zeros (which deflate to 1 KiB):
        // refused from the declared size, before the zeros are inflated.
        let mut bomb = npy_with(
            "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)}",
            &[],
        );
        bomb.resize(bomb.len() + (1 << 20), 0);
        assert_eq!(
            npz_problem(zip_of("w.npy", &bomb)),
            "x.npz: member 'w.npy': the data is 1048576 bytes, expected 8 for a float32 array of shape [2]"
        );
        let huge = npy_with(
            "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000,)}",
            &[0; 8],
        );
        assert_eq!(
            npz_problem(zip_of("w.npy", &huge)),
            "x.npz: member 'w.npy': the data is 8 bytes, expected 8000000000000 for a float64 array of shape [1000000000000]"
        );
        assert_eq!(
            npz_problem(zip_of("notes.txt", b"hello")),
            "x.npz: member 'notes.txt': not a .npy file (it does not start with \\x93NUMPY)"
        );
        assert!(
            npz_problem(b"PK\x03\x04 not a zip".to_vec())
                .starts_with("x.npz: not a valid .npz (zip) archive: ")
        );
    }

    #[test]
    fn corrupt_npz_archives_never_panic() {
        let w = DynTensor::<i32>::from_vec((0..40).collect(), &[8, 5]).unwrap();
        let arrays: [(&str, &dyn HostTensor); 1] = [("w", &w)];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for compressed in [false, true] {
            let good = npz_into(&arrays, compressed).unwrap();
            for _ in 0..1500 {
                let mut zip = good.clone();
                let at = (next() % zip.len() as u64) as usize;
                zip[at] ^= 1 << (next() % 8);
                let outcome = std::panic::catch_unwind(|| {
                    let path = Path::new("x.npz");
                    let mut archive = zip_archive(IoCursor::new(zip.clone()), path)?;
                    read_member(&mut archive, 0, path)
                });
                assert!(outcome.is_ok(), "panicked on a flip at byte {at}");
            }
        }
    }
}
