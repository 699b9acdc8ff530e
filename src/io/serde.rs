//! `Serialize` and `Deserialize` for tensors (the `serde` feature).
//!
//! Every tensor is the same three fields, whatever its device, shape or
//! layout: `{"dtype": "float32", "shape": [2, 3], "data": [...]}`, the
//! dtype named as PyTorch names it ([`DType::name`]) and the data in
//! row-major (logical) order.
//!
//! - Human-readable formats (JSON, YAML, TOML, RON) get the elements as
//!   numbers: integers, `true`/`false`, floats (float16 and bfloat16 as
//!   float32 numbers, exact), complex numbers as `[re, im]` pairs. NaN and
//!   the infinities, which JSON has no numbers for, are the strings `"nan"`,
//!   `"inf"` and `"-inf"` (a NaN's sign and payload are not kept), so every
//!   other value round-trips bit for bit through `serde_json`.
//! - Binary formats (`is_human_readable()` false: bincode, postcard, CBOR)
//!   get the elements' little-endian bytes in one `serialize_bytes`: exact,
//!   NaN payloads included, and compact.
//!
//! Reading checks everything before a tensor is made and says what is
//! wrong: an unknown dtype, sizes that overflow, elements out of their
//! dtype's range, and data that does not hold exactly the shape's element
//! count. Nothing is allocated for a shape before its data is there: a
//! hostile `"shape": [1e18]` fails on the data actually present. A typed
//! tensor checks its dtype and static sizes as [`AnyTensor::into_typed`]
//! does, in its words. The fields may come in any order (`jq -S` sorts
//! them), and as a sequence `[dtype, shape, data]`, as binary formats write
//! structs.

use crate::backend::Cpu;
use crate::dtype::bytes::{component_size, elements_from_bytes, swap_byte_order};
use crate::dtype::{DType, Element, Scalar};
use crate::dynamic::{AnyElement, AnyTensor, DynTensor};
use crate::layout::{checked_numel, checked_storage};
use crate::shape::Shape;
use crate::storage::Repr;
use crate::tensor::Tensor;
use ::serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Unexpected, Visitor};
use ::serde::ser::{SerializeSeq, SerializeStruct, SerializeTuple, Serializer};
use ::serde::{Deserialize, Serialize};
use core::fmt;
use half::{bf16, f16};
use num_complex::Complex;
use std::borrow::Cow;

/// The struct's name and its fields, in the order they are written.
const NAME: &str = "Tensor";
const FIELDS: &[&str] = &["dtype", "shape", "data"];

/// Elements preallocated from a sequence's size hint at most: more grow
/// as they arrive, so a lying hint costs nothing.
const HINT_CAP: usize = 4096;

// ---------------------------------------------------------------------
// Serialize
// ---------------------------------------------------------------------

/// A tensor: its dtype's name, sizes, and elements (numbers for
/// human-readable formats, little-endian bytes for binary ones), in
/// row-major order for any layout.
///
/// ```
/// use shaped::prelude::*;
/// let x = Tensor::<f32, shape![2, 2]>::from_vec(vec![1.0, 2.5, f32::NAN, -0.0]).unwrap();
/// let json = serde_json::to_string(&x.t()).unwrap();
/// assert_eq!(json, r#"{"dtype":"float32","shape":[2,2],"data":[1.0,"nan",2.5,-0.0]}"#);
/// let c = DynTensor::<num_complex::Complex<f64>>::full(&[1], num_complex::Complex::new(0.5, -1.0));
/// assert_eq!(serde_json::to_string(&c).unwrap(), r#"{"dtype":"complex128","shape":[1],"data":[[0.5,-1.0]]}"#);
/// ```
impl<T: Element, S: Shape, R: Repr> Serialize for Tensor<T, S, Cpu, R> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        let human_readable = serializer.is_human_readable();
        let mut st = serializer.serialize_struct(NAME, FIELDS.len())?;
        st.serialize_field(FIELDS[0], T::DTYPE.name())?;
        st.serialize_field(FIELDS[1], self.layout.sizes())?;
        if human_readable {
            st.serialize_field(FIELDS[2], &Elements(self))?;
        } else {
            st.serialize_field(
                FIELDS[2],
                &LittleEndian(little_endian(self.bytes(), T::DTYPE)),
            )?;
        }
        st.end()
    }
}

/// A tensor of any dtype, owned or a view, as its typed tensor.
///
/// ```
/// use shaped::prelude::*;
/// let x = AnyTensor::from(DynTensor::<bool>::from_vec(vec![true, false], &[2]).unwrap());
/// assert_eq!(serde_json::to_string(&x).unwrap(), r#"{"dtype":"bool","shape":[2],"data":[true,false]}"#);
/// ```
impl<R: Repr> Serialize for AnyTensor<Cpu, R> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        match self {
            AnyTensor::F16(x) => x.serialize(serializer),
            AnyTensor::BF16(x) => x.serialize(serializer),
            AnyTensor::F32(x) => x.serialize(serializer),
            AnyTensor::F64(x) => x.serialize(serializer),
            AnyTensor::C64(x) => x.serialize(serializer),
            AnyTensor::C128(x) => x.serialize(serializer),
            AnyTensor::U8(x) => x.serialize(serializer),
            AnyTensor::I8(x) => x.serialize(serializer),
            AnyTensor::I16(x) => x.serialize(serializer),
            AnyTensor::I32(x) => x.serialize(serializer),
            AnyTensor::I64(x) => x.serialize(serializer),
            AnyTensor::Bool(x) => x.serialize(serializer),
        }
    }
}

/// A CUDA tensor, copied to the host first (a device failure is the
/// serializer's error): the same form as a CPU tensor's.
///
/// ```no_run
/// use shaped::prelude::*;
/// let gpu = Cuda::new(0)?;
/// let x = Tensor::<f32, shape![2]>::ones().to_device(&gpu)?;
/// assert_eq!(serde_json::to_string(&x).unwrap(), r#"{"dtype":"float32","shape":[2],"data":[1.0,1.0]}"#);
/// # Ok::<(), shaped::Error>(())
/// ```
#[cfg(feature = "cuda")]
impl<T: Element, S: Shape, R: Repr> Serialize for Tensor<T, S, crate::backend::Cuda, R> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        self.to_cpu()
            .map_err(::serde::ser::Error::custom)?
            .serialize(serializer)
    }
}

/// A CUDA tensor of any dtype, copied to the host first.
///
/// ```no_run
/// use shaped::prelude::*;
/// let gpu = Cuda::new(0)?;
/// let x = AnyTensor::from(DynTensor::<u8>::ones(&[1])).to_device(&gpu)?;
/// assert_eq!(serde_json::to_string(&x).unwrap(), r#"{"dtype":"uint8","shape":[1],"data":[1]}"#);
/// # Ok::<(), shaped::Error>(())
/// ```
#[cfg(feature = "cuda")]
impl Serialize for AnyTensor<crate::backend::Cuda> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        self.to_cpu()
            .map_err(::serde::ser::Error::custom)?
            .serialize(serializer)
    }
}

/// Host bytes of elements of `dtype` as little-endian bytes (the same on
/// little-endian hosts; each real number reversed on big-endian ones).
fn little_endian(bytes: Cow<'_, [u8]>, dtype: DType) -> Cow<'_, [u8]> {
    if cfg!(target_endian = "big") && component_size(dtype) > 1 {
        let mut owned = bytes.into_owned();
        swap_byte_order(&mut owned, component_size(dtype));
        return Cow::Owned(owned);
    }
    bytes
}

/// Little-endian element bytes, serialized as bytes.
struct LittleEndian<'a>(Cow<'a, [u8]>);

impl Serialize for LittleEndian<'_> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        serializer.serialize_bytes(&self.0)
    }
}

/// A tensor's elements as a sequence, in row-major order.
struct Elements<'a, T: Element, S: Shape, R: Repr>(&'a Tensor<T, S, Cpu, R>);

impl<T: Element, S: Shape, R: Repr> Serialize for Elements<'_, T, S, R> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.numel()))?;
        for &x in self.0.iter() {
            seq.serialize_element(&Number(x))?;
        }
        seq.end()
    }
}

/// One element as a human-readable number.
struct Number<T>(T);

impl<T: Element> Serialize for Number<T> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        // `to_scalar` widens exactly, so each narrowing back is exact.
        match (T::DTYPE, self.0.to_scalar()) {
            (_, Scalar::Bool(b)) => serializer.serialize_bool(b),
            (DType::U8, Scalar::Int(v)) => serializer.serialize_u8(v as u8),
            (DType::I8, Scalar::Int(v)) => serializer.serialize_i8(v as i8),
            (DType::I16, Scalar::Int(v)) => serializer.serialize_i16(v as i16),
            (DType::I32, Scalar::Int(v)) => serializer.serialize_i32(v as i32),
            (_, Scalar::Int(v)) => serializer.serialize_i64(v),
            (DType::F64, Scalar::Float(v)) => Real(v, false).serialize(serializer),
            (_, Scalar::Float(v)) => Real(v, true).serialize(serializer),
            (dtype, Scalar::Complex(re, im)) => {
                let single = dtype == DType::C64;
                let mut pair = serializer.serialize_tuple(2)?;
                pair.serialize_element(&Real(re, single))?;
                pair.serialize_element(&Real(im, single))?;
                pair.end()
            }
        }
    }
}

/// A real number (a float32 one when `.1`): NaN and the infinities as the
/// strings `"nan"`, `"inf"` and `"-inf"`.
struct Real(f64, bool);

/// The float32 values whose shortest decimal, read as a float64 (as
/// human-readable deserializers read every number) and rounded to float32,
/// is another float32: rounded twice, it lands on the other side of a
/// midpoint (serde-rs/json#671). Every finite float32 was tried through
/// `serde_json` (its `ryu` digits, its `float_roundtrip` parser): these two
/// are all. They are written as float64 numbers, exact.
const TWICE_ROUNDED: f32 = 7.038531e-26;

impl Serialize for Real {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        let Real(v, single) = *self;
        if v.is_nan() {
            serializer.serialize_str("nan")
        } else if v.is_infinite() {
            serializer.serialize_str(if v > 0.0 { "inf" } else { "-inf" })
        } else if single && v.abs() != f64::from(TWICE_ROUNDED) {
            serializer.serialize_f32(v as f32)
        } else {
            serializer.serialize_f64(v)
        }
    }
}

// ---------------------------------------------------------------------
// Deserialize
// ---------------------------------------------------------------------

/// A tensor of a static, mixed or dynamic shape: read as an
/// [`AnyTensor`], then checked against `T` and `S` as
/// [`AnyTensor::into_typed`] checks, in its words.
///
/// ```
/// use shaped::prelude::*;
/// let json = r#"{"dtype":"int16","shape":[2,2],"data":[1,2,3,4]}"#;
/// let x: Tensor<i16, shape![2, 2]> = serde_json::from_str(json).unwrap();
/// assert_eq!(x.to_vec(), [1, 2, 3, 4]);
/// let d: DynTensor<i16> = serde_json::from_str(json).unwrap();
/// assert_eq!(d.shape(), [2, 2]);
/// let err = serde_json::from_str::<Tensor<i16, shape![4]>>(json).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "expected an int16 tensor of shape [4], got an int16 tensor of shape [2, 2] (shape differs)"
/// );
/// ```
impl<'de, T: AnyElement, S: Shape> Deserialize<'de> for Tensor<T, S, Cpu> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        AnyTensor::deserialize(deserializer)?
            .into_typed()
            .map_err(de::Error::custom)
    }
}

/// A tensor of any dtype and shape: the dtype as written.
///
/// ```
/// use shaped::prelude::*;
/// let x: AnyTensor = serde_json::from_str(r#"{"dtype":"float16","shape":[3],"data":[0.5,"inf",-2]}"#).unwrap();
/// assert_eq!(x.dtype(), DType::F16);
/// let err = serde_json::from_str::<AnyTensor>(r#"{"dtype":"uint8","shape":[2],"data":[1,256]}"#).unwrap_err();
/// assert_eq!(err.to_string(), "data element 1 is 256, not a uint8 value (0 to 255) at line 1 column 43");
/// ```
impl<'de> Deserialize<'de> for AnyTensor {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_struct(NAME, FIELDS, TensorVisitor)
    }
}

/// Reads the three fields in any order (a map) or in order (a sequence).
struct TensorVisitor;

impl<'de> Visitor<'de> for TensorVisitor {
    type Value = AnyTensor;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a tensor: its dtype, shape and data")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<AnyTensor, A::Error> {
        let (mut dtype, mut shape, mut data) = (None, None, None);
        while let Some(field) = map.next_key::<Field>()? {
            match field {
                Field::DType if dtype.is_some() => return Err(de::Error::duplicate_field("dtype")),
                Field::Shape if shape.is_some() => return Err(de::Error::duplicate_field("shape")),
                Field::Data if data.is_some() => return Err(de::Error::duplicate_field("data")),
                Field::DType => dtype = Some(map.next_value::<DTypeName>()?.0),
                Field::Shape => shape = Some(map.next_value::<Vec<usize>>()?),
                Field::Data => {
                    data = Some(map.next_value_seed(DataSeed::new(dtype, shape.as_deref()))?)
                }
            }
        }
        assemble(
            dtype.ok_or_else(|| de::Error::missing_field("dtype"))?,
            shape.ok_or_else(|| de::Error::missing_field("shape"))?,
            data.ok_or_else(|| de::Error::missing_field("data"))?,
        )
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<AnyTensor, A::Error> {
        let dtype = seq
            .next_element::<DTypeName>()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?
            .0;
        let shape = seq
            .next_element::<Vec<usize>>()?
            .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        let data = seq
            .next_element_seed(DataSeed::new(Some(dtype), Some(&shape)))?
            .ok_or_else(|| de::Error::invalid_length(2, &self))?;
        assemble(dtype, shape, data)
    }
}

/// One of the three fields.
enum Field {
    DType,
    Shape,
    Data,
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FieldVisitor;
        impl Visitor<'_> for FieldVisitor {
            type Value = Field;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("`dtype`, `shape` or `data`")
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<Field, E> {
                match name {
                    "dtype" => Ok(Field::DType),
                    "shape" => Ok(Field::Shape),
                    "data" => Ok(Field::Data),
                    _ => Err(E::unknown_field(name, FIELDS)),
                }
            }
            fn visit_u64<E: de::Error>(self, index: u64) -> Result<Field, E> {
                match index {
                    0 => Ok(Field::DType),
                    1 => Ok(Field::Shape),
                    2 => Ok(Field::Data),
                    _ => Err(E::invalid_value(Unexpected::Unsigned(index), &self)),
                }
            }
        }
        deserializer.deserialize_identifier(FieldVisitor)
    }
}

/// A dtype, by PyTorch's name (`"float32"`; `"torch.float32"` too).
struct DTypeName(DType);

impl<'de> Deserialize<'de> for DTypeName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NameVisitor;
        impl Visitor<'_> for NameVisitor {
            type Value = DTypeName;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a dtype's name")
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<DTypeName, E> {
                let bare = name.strip_prefix("torch.").unwrap_or(name);
                match DType::ALL.into_iter().find(|d| d.name() == bare) {
                    Some(dtype) => Ok(DTypeName(dtype)),
                    None => {
                        let names: Vec<&str> = DType::ALL.iter().map(|d| d.name()).collect();
                        Err(E::custom(format_args!(
                            "unknown dtype {name:?}: expected one of {}",
                            names.join(", ")
                        )))
                    }
                }
            }
        }
        deserializer.deserialize_str(NameVisitor)
    }
}

/// The data field as it was read: typed elements when the dtype came
/// before it, else numbers of no dtype yet; or bytes (binary formats).
enum Data {
    /// The elements, as a 1-d tensor of the dtype.
    Typed(AnyTensor),
    /// The elements, to be converted once the dtype is known.
    Loose(Vec<Loose>),
    /// Little-endian element bytes.
    Bytes(Vec<u8>),
}

/// Reads the data field, knowing what came before it: the dtype (to type
/// the elements as they arrive) and the shape (to stop at one element more
/// than it holds).
struct DataSeed {
    dtype: Option<DType>,
    limit: Option<usize>,
}

impl DataSeed {
    fn new(dtype: Option<DType>, shape: Option<&[usize]>) -> Self {
        DataSeed {
            dtype,
            limit: shape.and_then(|s| checked_numel(s).ok()),
        }
    }
}

impl<'de> DeserializeSeed<'de> for DataSeed {
    type Value = Data;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Data, D::Error> {
        let visitor = DataVisitor {
            dtype: self.dtype,
            limit: self.limit,
            human_readable: deserializer.is_human_readable(),
        };
        if visitor.human_readable {
            deserializer.deserialize_seq(visitor)
        } else {
            deserializer.deserialize_bytes(visitor)
        }
    }
}

/// See [`DataSeed`].
struct DataVisitor {
    dtype: Option<DType>,
    limit: Option<usize>,
    human_readable: bool,
}

/// The preallocation for a sequence: its hint, within the limit and
/// [`HINT_CAP`].
fn capacity(hint: Option<usize>, limit: Option<usize>) -> usize {
    hint.unwrap_or(0)
        .min(limit.map_or(usize::MAX, |n| n.saturating_add(1)))
        .min(HINT_CAP)
}

/// The error for data longer than its shape's element count.
fn too_long<E: de::Error>(limit: usize, unit: &str) -> E {
    E::custom(format_args!(
        "the data holds more than the {limit} {unit} of its shape"
    ))
}

impl<'de> Visitor<'de> for DataVisitor {
    type Value = Data;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.human_readable {
            f.write_str("a sequence of elements")
        } else {
            f.write_str("the elements' little-endian bytes")
        }
    }

    fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<Data, E> {
        Ok(Data::Bytes(bytes.to_vec()))
    }

    fn visit_byte_buf<E: de::Error>(self, bytes: Vec<u8>) -> Result<Data, E> {
        Ok(Data::Bytes(bytes))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Data, A::Error> {
        if !self.human_readable {
            // Formats that write bytes as a sequence of numbers.
            let limit = self
                .dtype
                .zip(self.limit)
                .and_then(|(d, n)| n.checked_mul(d.itemsize()));
            let mut bytes = Vec::with_capacity(capacity(seq.size_hint(), limit));
            while let Some(b) = seq.next_element::<u8>()? {
                if limit.is_some_and(|n| bytes.len() == n) {
                    return Err(too_long(limit.unwrap_or(0), "bytes"));
                }
                bytes.push(b);
            }
            return Ok(Data::Bytes(bytes));
        }
        let Some(dtype) = self.dtype else {
            let mut items = Vec::with_capacity(capacity(seq.size_hint(), None));
            while let Some(x) = seq.next_element_seed(LooseSeed)? {
                items.push(x);
            }
            return Ok(Data::Loose(items));
        };
        crate::dtype::with_dtype!(dtype, U => {
            let mut out = Vec::<U>::with_capacity(capacity(seq.size_hint(), self.limit));
            while let Some(x) = seq.next_element_seed(LooseSeed)? {
                if let Some(n) = self.limit.filter(|&n| out.len() == n) {
                    return Err(too_long(n, "elements"));
                }
                out.push(element(out.len(), x)?);
            }
            let n = out.len();
            DynTensor::<U>::from_vec_with(out, &[n])
                .map(|t| Data::Typed(AnyTensor::from(t)))
                .map_err(de::Error::custom)
        })
    }
}

/// A human-readable element before its dtype is applied.
#[derive(Clone, Copy, Debug)]
enum Loose {
    Bool(bool),
    Unsigned(u64),
    Signed(i64),
    Float(f64),
    Pair(f64, f64),
}

impl fmt::Display for Loose {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let real = |v: f64| -> String {
            if v.is_nan() {
                "\"nan\"".into()
            } else if v.is_infinite() {
                if v > 0.0 { "\"inf\"" } else { "\"-inf\"" }.into()
            } else {
                format!("{v:?}")
            }
        };
        match *self {
            Loose::Bool(b) => write!(f, "{b}"),
            Loose::Unsigned(v) => write!(f, "{v}"),
            Loose::Signed(v) => write!(f, "{v}"),
            Loose::Float(v) => f.write_str(&real(v)),
            Loose::Pair(re, im) => write!(f, "[{}, {}]", real(re), real(im)),
        }
    }
}

/// A real number's special values by name.
fn special(name: &str) -> Option<f64> {
    match name.to_ascii_lowercase().as_str() {
        "nan" | "+nan" | "-nan" => Some(f64::NAN),
        "inf" | "+inf" | "infinity" | "+infinity" => Some(f64::INFINITY),
        "-inf" | "-infinity" => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

/// Reads one human-readable element.
struct LooseSeed;

impl<'de> DeserializeSeed<'de> for LooseSeed {
    type Value = Loose;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Loose, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for LooseSeed {
    type Value = Loose;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an element: a number, a bool, \"nan\", \"inf\", \"-inf\" or a [re, im] pair")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Loose, E> {
        Ok(Loose::Bool(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Loose, E> {
        Ok(Loose::Unsigned(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Loose, E> {
        Ok(Loose::Signed(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Loose, E> {
        Ok(Loose::Float(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Loose, E> {
        special(v)
            .map(Loose::Float)
            .ok_or_else(|| E::invalid_value(Unexpected::Str(v), &self))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Loose, A::Error> {
        let pair = "a [re, im] pair";
        let re = seq
            .next_element_seed(PartSeed)?
            .ok_or_else(|| de::Error::invalid_length(0, &pair))?;
        let im = seq
            .next_element_seed(PartSeed)?
            .ok_or_else(|| de::Error::invalid_length(1, &pair))?;
        if seq.next_element::<de::IgnoredAny>()?.is_some() {
            return Err(de::Error::invalid_length(3, &pair));
        }
        Ok(Loose::Pair(re, im))
    }
}

/// Reads one part of a complex number: a real number.
struct PartSeed;

impl<'de> DeserializeSeed<'de> for PartSeed {
    type Value = f64;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<f64, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl Visitor<'_> for PartSeed {
    type Value = f64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a real number, \"nan\", \"inf\" or \"-inf\"")
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
        Ok(v as f64)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
        Ok(v as f64)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
        Ok(v)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<f64, E> {
        special(v).ok_or_else(|| E::invalid_value(Unexpected::Str(v), &self))
    }
}

/// Element types from human-readable elements.
trait FromLoose: Element {
    /// What an element of this dtype is, in words.
    const WHAT: &'static str;
    /// The element, if `x` is one.
    fn from_loose(x: Loose) -> Option<Self>;
}

/// Element `at` of a dtype from `x`, or the error naming both.
fn element<U: FromLoose, E: de::Error>(at: usize, x: Loose) -> Result<U, E> {
    U::from_loose(x).ok_or_else(|| {
        E::custom(format_args!(
            "data element {at} is {x}, not {} value ({})",
            U::DTYPE.with_article(),
            U::WHAT
        ))
    })
}

macro_rules! from_loose_float {
    ($($t:ty => $from:expr),*) => {$(
        impl FromLoose for $t {
            const WHAT: &'static str = "a number, \"nan\", \"inf\" or \"-inf\"";
            fn from_loose(x: Loose) -> Option<Self> {
                let from: fn(f64) -> $t = $from;
                match x {
                    Loose::Float(v) => Some(from(v)),
                    Loose::Unsigned(v) => Some(from(v as f64)),
                    Loose::Signed(v) => Some(from(v as f64)),
                    Loose::Bool(_) | Loose::Pair(..) => None,
                }
            }
        }
    )*};
}
from_loose_float!(
    f16 => f16::from_f64,
    bf16 => bf16::from_f64,
    f32 => |v| v as f32,
    f64 => |v| v
);

macro_rules! from_loose_complex {
    ($($t:ty => $part:ty),*) => {$(
        impl FromLoose for Complex<$t> {
            const WHAT: &'static str = "a [re, im] pair of numbers";
            fn from_loose(x: Loose) -> Option<Self> {
                match x {
                    Loose::Pair(re, im) => Some(Complex::new(re as $part, im as $part)),
                    _ => None,
                }
            }
        }
    )*};
}
from_loose_complex!(f32 => f32, f64 => f64);

macro_rules! from_loose_int {
    ($($t:ty => $range:literal),*) => {$(
        impl FromLoose for $t {
            const WHAT: &'static str = $range;
            fn from_loose(x: Loose) -> Option<Self> {
                match x {
                    Loose::Unsigned(v) => <$t>::try_from(v).ok(),
                    Loose::Signed(v) => <$t>::try_from(v).ok(),
                    _ => None,
                }
            }
        }
    )*};
}
from_loose_int!(
    u8 => "0 to 255",
    i8 => "-128 to 127",
    i16 => "-32768 to 32767",
    i32 => "-2147483648 to 2147483647",
    i64 => "-9223372036854775808 to 9223372036854775807"
);

impl FromLoose for bool {
    const WHAT: &'static str = "true or false";
    fn from_loose(x: Loose) -> Option<Self> {
        match x {
            Loose::Bool(b) => Some(b),
            _ => None,
        }
    }
}

/// The tensor of the three fields, checked: the sizes fit, the data has
/// exactly their element count (as elements of the dtype, or as bytes).
fn assemble<E: de::Error>(dtype: DType, shape: Vec<usize>, data: Data) -> Result<AnyTensor, E> {
    let itemsize = dtype.itemsize();
    let bytes = checked_storage(&shape, itemsize).map_err(E::custom)?;
    let numel = bytes / itemsize;
    let count = |n: usize, unit: &str, needed: usize| {
        E::custom(format_args!(
            "the data holds {n} {unit}, but {} tensor of shape {shape:?} has {needed}",
            dtype.with_article()
        ))
    };
    crate::dtype::with_dtype!(dtype, U => {
        let elements: Vec<U> = match data {
            Data::Typed(any) => any.downcast::<U>().map_err(E::custom)?.into_vec(),
            Data::Loose(items) => items
                .into_iter()
                .enumerate()
                .map(|(at, x)| element::<U, E>(at, x))
                .collect::<Result<_, E>>()?,
            Data::Bytes(mut raw) => {
                if raw.len() != bytes {
                    return Err(count(raw.len(), "bytes", bytes));
                }
                if cfg!(target_endian = "big") {
                    swap_byte_order(&mut raw, component_size(dtype));
                }
                elements_from_bytes::<U>(&raw)
                    .map_err(E::custom)?
                    .map_err(|bad| E::custom(bad.describe(dtype)))?
            }
        };
        if elements.len() != numel {
            return Err(count(elements.len(), "elements", numel));
        }
        DynTensor::<U>::from_vec_with(elements, &shape)
            .map(AnyTensor::from)
            .map_err(E::custom)
    })
}

#[cfg(test)]
mod tests {
    use super::Real;
    use crate::dynamic::AnyElement;
    use crate::prelude::*;
    use ::serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, SeqAccess, Visitor};
    use ::serde::ser::{self, Impossible, Serializer};
    use ::serde::{Deserialize, Serialize};
    use half::{bf16, f16};
    use num_complex::Complex;
    use std::fmt;

    fn json<X: Serialize>(x: &X) -> String {
        serde_json::to_string(x).unwrap()
    }

    fn from_json<X: for<'de> Deserialize<'de>>(text: &str) -> Result<X, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    /// Bit-exact equality of two tensors' elements (NaN payloads too).
    fn same_bits<T: Element>(a: &[T], b: &[T]) -> bool {
        crate::dtype::bytes::element_bytes(a) == crate::dtype::bytes::element_bytes(b)
    }

    /// JSON and the binary test format give back the same tensor, static
    /// and dynamic; JSON loses only NaN payloads and signs.
    fn round_trip<T: AnyElement>(values: Vec<T>) {
        let n = values.len();
        let x = DynTensor::<T>::from_vec(values.clone(), &[n]).unwrap();
        let text = json(&x);
        let back: DynTensor<T> = from_json(&text).unwrap();
        assert_eq!(back.shape(), [n]);
        let nan_free = |v: &[T]| {
            v.iter()
                .map(|e| match e.to_scalar() {
                    crate::dtype::Scalar::Float(f) if f.is_nan() => None,
                    crate::dtype::Scalar::Complex(re, im) if re.is_nan() || im.is_nan() => None,
                    _ => Some(*e),
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(nan_free(&back.to_vec()), nan_free(&values), "{text}");
        let again = json(&back);
        assert_eq!(again, text);
        let s: Tensor<T, shape![Dyn]> = from_json(&text).unwrap();
        assert_eq!(s.shape(), [n]);
        let any: AnyTensor = from_json(&text).unwrap();
        assert_eq!(any.dtype(), T::DTYPE);
        assert_eq!(json(&any), text);
        // Binary: the bytes, exactly.
        let val = x.serialize(ValSerializer).unwrap();
        assert!(matches!(&val, Val::Seq(fields) if matches!(fields[2], Val::Bytes(_))));
        let back = DynTensor::<T>::deserialize(ValDeserializer(val.clone())).unwrap();
        assert!(same_bits(&back.to_vec(), &values));
        let any = AnyTensor::deserialize(ValDeserializer(val)).unwrap();
        assert!(same_bits(&any.downcast::<T>().unwrap().to_vec(), &values));
    }

    #[test]
    fn every_dtype_round_trips() {
        round_trip(vec![
            f16::ONE,
            f16::NEG_ZERO,
            f16::MAX,
            f16::MIN_POSITIVE_SUBNORMAL,
            f16::NAN,
            f16::NEG_INFINITY,
            f16::from_f32(0.1),
        ]);
        round_trip(vec![
            bf16::ONE,
            bf16::MAX,
            bf16::MIN,
            bf16::MIN_POSITIVE_SUBNORMAL,
            bf16::INFINITY,
            bf16::from_f32(0.1),
        ]);
        round_trip(vec![
            0.1f32,
            -0.0,
            f32::MAX,
            f32::MIN_POSITIVE,
            1e-45,
            f32::NAN,
            f32::INFINITY,
            16777217.0,
            3.4028235e38,
        ]);
        round_trip(vec![
            0.1f64,
            -0.0,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            f64::NAN,
            f64::NEG_INFINITY,
            1.0 / 3.0,
        ]);
        round_trip(vec![
            Complex::new(0.1f32, -2.5),
            Complex::new(f32::INFINITY, f32::NAN),
            Complex::default(),
        ]);
        round_trip(vec![
            Complex::new(0.1f64, 1e300),
            Complex::new(-0.0, f64::NEG_INFINITY),
        ]);
        round_trip(vec![0u8, 1, 127, 255]);
        round_trip(vec![i8::MIN, -1, 0, i8::MAX]);
        round_trip(vec![i16::MIN, -1, 0, i16::MAX]);
        round_trip(vec![i32::MIN, -1, 0, i32::MAX]);
        round_trip(vec![i64::MIN, -1, 0, i64::MAX]);
        round_trip(vec![true, false, true]);
        round_trip(Vec::<f32>::new());
    }

    #[test]
    fn the_form_is_plain_json() {
        let x = Tensor::<i32, shape![2, 3]>::from_vec((0..6).collect()).unwrap();
        assert_eq!(
            json(&x),
            r#"{"dtype":"int32","shape":[2,3],"data":[0,1,2,3,4,5]}"#
        );
        // Any layout: logical order.
        assert_eq!(
            json(&x.t()),
            r#"{"dtype":"int32","shape":[3,2],"data":[0,3,1,4,2,5]}"#
        );
        let any = AnyTensor::from(x.clone().into_dyn());
        assert_eq!(json(&any.t().unwrap()), json(&x.t()));
        let e = x.slice(s![.., 1]).expand::<shape![2, 2]>();
        assert_eq!(
            json(&e),
            r#"{"dtype":"int32","shape":[2,2],"data":[1,4,1,4]}"#
        );
        let h = DynTensor::<f16>::from_vec(vec![f16::from_f32(0.1), f16::INFINITY], &[2]).unwrap();
        assert_eq!(
            json(&h),
            r#"{"dtype":"float16","shape":[2],"data":[0.099975586,"inf"]}"#
        );
        let s = Tensor::<f64, shape![]>::full(2.0);
        assert_eq!(json(&s), r#"{"dtype":"float64","shape":[],"data":[2.0]}"#);
        let back: Tensor<f64, shape![]> = from_json(&json(&s)).unwrap();
        assert_eq!(back.to_vec(), [2.0]);
        let empty = DynTensor::<u8>::zeros(&[0, 3]);
        assert_eq!(json(&empty), r#"{"dtype":"uint8","shape":[0,3],"data":[]}"#);
        let back: DynTensor<u8> = from_json(&json(&empty)).unwrap();
        assert_eq!(back.shape(), [0, 3]);
        // Pretty-printed, key-sorted JSON (data first) reads back too.
        let sorted =
            r#"{"data": [[1, -1.5], ["nan", "-inf"]], "dtype": "complex64", "shape": [2]}"#;
        let c: DynTensor<Complex<f32>> = from_json(sorted).unwrap();
        assert_eq!(c.to_vec()[0], Complex::new(1.0, -1.5));
        assert!(c.to_vec()[1].re.is_nan() && c.to_vec()[1].im == f32::NEG_INFINITY);
        let y: AnyTensor =
            from_json(r#"{"shape":[2],"data":[1,2],"dtype":"torch.int64"}"#).unwrap();
        assert_eq!(y.downcast::<i64>().unwrap().to_vec(), [1, 2]);
        // As a sequence, as binary formats write structs.
        let z: DynTensor<bool> = from_json(r#"["bool", [1, 2], [true, false]]"#).unwrap();
        assert_eq!(z.to_vec(), [true, false]);
        // Integers read as floats; special values in several spellings.
        let w: DynTensor<f32> =
            from_json(r#"{"dtype":"float32","shape":[4],"data":[3,-2,"Infinity","NaN"]}"#).unwrap();
        assert_eq!(&w.to_vec()[..3], &[3.0, -2.0, f32::INFINITY]);
        assert!(w.to_vec()[3].is_nan());
    }

    #[test]
    fn bad_inputs_say_what_is_wrong() {
        let cases: &[(&str, &str)] = &[
            (
                r#"{"dtype":"float33","shape":[1],"data":[1]}"#,
                "unknown dtype \"float33\": expected one of float16, bfloat16, float32, float64, \
                 complex64, complex128, uint8, int8, int16, int32, int64, bool",
            ),
            (
                r#"{"dtype":"float32","shape":[2,3],"data":[1,2,3,4,5]}"#,
                "the data holds 5 elements, but a float32 tensor of shape [2, 3] has 6",
            ),
            (
                r#"{"dtype":"float32","shape":[2],"data":[1,2,3]}"#,
                "the data holds more than the 2 elements of its shape",
            ),
            (
                r#"{"data":[1,2,3],"dtype":"float32","shape":[2]}"#,
                "the data holds 3 elements, but a float32 tensor of shape [2] has 2",
            ),
            (
                r#"{"dtype":"int8","shape":[2],"data":[1,200]}"#,
                "data element 1 is 200, not an int8 value (-128 to 127)",
            ),
            (
                r#"{"dtype":"int64","shape":[1],"data":[1.5]}"#,
                "data element 0 is 1.5, not an int64 value (-9223372036854775808 to 9223372036854775807)",
            ),
            (
                r#"{"dtype":"bool","shape":[1],"data":[1]}"#,
                "data element 0 is 1, not a bool value (true or false)",
            ),
            (
                r#"{"dtype":"complex128","shape":[1],"data":[2.5]}"#,
                "data element 0 is 2.5, not a complex128 value (a [re, im] pair of numbers)",
            ),
            (
                r#"{"dtype":"float64","shape":[1],"data":[[1,2]]}"#,
                "data element 0 is [1.0, 2.0], not a float64 value (a number, \"nan\", \"inf\" or \"-inf\")",
            ),
            (
                r#"{"dtype":"float64","shape":[1],"data":["many"]}"#,
                "invalid value: string \"many\", expected an element: a number, a bool, \"nan\", \"inf\", \
                 \"-inf\" or a [re, im] pair",
            ),
            (
                r#"{"dtype":"float64","shape":[1],"data":[null]}"#,
                "invalid type: null, expected an element: a number, a bool, \"nan\", \"inf\", \"-inf\" \
                 or a [re, im] pair",
            ),
            (r#"{"dtype":"float64","shape":[1]}"#, "missing field `data`"),
            (
                r#"{"dtype":"float64","dtype":"int8","shape":[1],"data":[1]}"#,
                "duplicate field `dtype`",
            ),
            (
                r#"{"dtype":"float64","shape":[1],"data":[1],"grad":null}"#,
                "unknown field `grad`, expected one of `dtype`, `shape`, `data`",
            ),
            (
                r#"{"dtype":"float64","shape":[-1],"data":[]}"#,
                "invalid value: integer `-1`, expected usize",
            ),
            (
                r#"{"dtype":"uint8","shape":[4611686018427387904,4,0],"data":[]}"#,
                "Storage size calculation overflowed with sizes=[4611686018427387904, 4, 0]",
            ),
            (
                // A huge shape with little data: refused without allocating for the shape.
                r#"{"dtype":"float64","shape":[1000000000000000],"data":[1]}"#,
                "the data holds 1 elements, but a float64 tensor of shape [1000000000000000] has \
                 1000000000000000",
            ),
            (
                r#"[1]"#,
                "invalid type: integer `1`, expected a dtype's name",
            ),
            (
                r#"["int8",[1]]"#,
                "invalid length 2, expected a tensor: its dtype, shape and data",
            ),
        ];
        for (text, message) in cases {
            let err = from_json::<AnyTensor>(text).unwrap_err();
            // serde_json adds where: " at line 1 column 53".
            let (what, _) = err.rsplit_once(" at line ").unwrap();
            assert_eq!(what, *message, "{text}");
        }
        // Typed tensors: the dtype and the static sizes.
        let text = r#"{"dtype":"float64","shape":[2,3],"data":[1,2,3,4,5,6]}"#;
        assert_eq!(
            from_json::<Tensor<f32, shape![2, 3]>>(text).unwrap_err(),
            "expected a float32 tensor of shape [2, 3], got a float64 tensor of shape [2, 3] (dtype differs)"
        );
        assert_eq!(
            from_json::<Tensor<f64, shape![3, 2]>>(text).unwrap_err(),
            "expected a float64 tensor of shape [3, 2], got a float64 tensor of shape [2, 3] (shape differs)"
        );
        assert_eq!(
            from_json::<DynTensor<i64>>(text).unwrap_err(),
            "expected an int64 tensor of any shape, got a float64 tensor of shape [2, 3] (dtype differs)"
        );
        assert!(from_json::<Tensor<f64, shape![2, Dyn]>>(text).is_ok());
    }

    #[test]
    fn non_finite_reals_are_named() {
        let v = |x: f64, single| serde_json::to_string(&Real(x, single)).unwrap();
        assert_eq!(v(f64::NAN, false), "\"nan\"");
        assert_eq!(v(-f64::NAN, true), "\"nan\"");
        assert_eq!(v(f64::INFINITY, true), "\"inf\"");
        assert_eq!(v(f64::NEG_INFINITY, false), "\"-inf\"");
        assert_eq!(v(0.1, true), "0.1");
        assert_eq!(v(f64::from(0.1f32), false), "0.10000000149011612");
        // Read through float64, the shortest digits of this float32 round to
        // its neighbour: it is written as the float64 it widens to.
        let x = super::TWICE_ROUNDED;
        assert_eq!(serde_json::to_string(&x).unwrap(), "7.038531e-26");
        assert_ne!(
            serde_json::from_str::<f64>("7.038531e-26").unwrap() as f32,
            x
        );
        assert_eq!(v(f64::from(-x), true), "-7.038530691851209e-26");
        for x in [x, -x] {
            let t = DynTensor::<f32>::from_vec(vec![x], &[1]).unwrap();
            let back: DynTensor<f32> = from_json(&json(&t)).unwrap();
            assert_eq!(back.to_vec()[0].to_bits(), x.to_bits());
            let c = DynTensor::<Complex<f32>>::from_vec(vec![Complex::new(x, -x)], &[1]).unwrap();
            let back: DynTensor<Complex<f32>> = from_json(&json(&c)).unwrap();
            assert_eq!(back.to_vec(), c.to_vec());
        }
    }

    #[test]
    fn binary_formats_get_little_endian_bytes() {
        let x = DynTensor::<i16>::from_vec(vec![1, -2, 0x0304], &[3]).unwrap();
        let val = x.t().unwrap().serialize(ValSerializer).unwrap();
        assert_eq!(
            val,
            Val::Seq(vec![
                Val::Str("int16".into()),
                Val::Seq(vec![Val::U(3)]),
                Val::Bytes(vec![1, 0, 0xfe, 0xff, 4, 3]),
            ])
        );
        // A strided view: its elements in logical order.
        let m = Tensor::<u8, shape![2, 2]>::from_vec(vec![1, 2, 3, 4]).unwrap();
        let val = m.t().serialize(ValSerializer).unwrap();
        assert!(matches!(&val, Val::Seq(f) if f[2] == Val::Bytes(vec![1, 3, 2, 4])));
        // Bytes written as a sequence of numbers read back too.
        let seq = Val::Seq(vec![
            Val::Str("uint8".into()),
            Val::Seq(vec![Val::U(2)]),
            Val::Seq(vec![Val::U(7), Val::U(9)]),
        ]);
        assert_eq!(
            DynTensor::<u8>::deserialize(ValDeserializer(seq))
                .unwrap()
                .to_vec(),
            [7, 9]
        );
        let bad = |dtype: &str, shape: u64, bytes: Vec<u8>| {
            let val = Val::Seq(vec![
                Val::Str(dtype.into()),
                Val::Seq(vec![Val::U(shape)]),
                Val::Bytes(bytes),
            ]);
            AnyTensor::deserialize(ValDeserializer(val)).unwrap_err().0
        };
        assert_eq!(
            bad("float32", 2, vec![0; 7]),
            "the data holds 7 bytes, but a float32 tensor of shape [2] has 8"
        );
        assert_eq!(
            bad("bool", 2, vec![1, 2]),
            "bool element 1 is the byte 2, not 0 or 1"
        );
        assert_eq!(
            bad("int64", 1, vec![0; 16]),
            "the data holds 16 bytes, but an int64 tensor of shape [1] has 8"
        );
        let long = Val::Seq(vec![
            Val::Str("uint8".into()),
            Val::Seq(vec![Val::U(1)]),
            Val::Seq(vec![Val::U(7), Val::U(9)]),
        ]);
        assert_eq!(
            AnyTensor::deserialize(ValDeserializer(long)).unwrap_err().0,
            "the data holds more than the 1 bytes of its shape"
        );
        // NaN payloads survive.
        let payload = f32::from_bits(0x7fc0_1234);
        let t = DynTensor::<f32>::from_vec(vec![payload], &[1]).unwrap();
        let back =
            DynTensor::<f32>::deserialize(ValDeserializer(t.serialize(ValSerializer).unwrap()))
                .unwrap();
        assert_eq!(back.to_vec()[0].to_bits(), 0x7fc0_1234);
    }

    // A minimal binary (non-human-readable) format for the tests: values as
    // a tree, structs as sequences, bytes as bytes (as bincode writes them).

    #[derive(Clone, Debug, PartialEq)]
    enum Val {
        Bool(bool),
        U(u64),
        I(i64),
        F(f64),
        Str(String),
        Bytes(Vec<u8>),
        Seq(Vec<Val>),
    }

    #[derive(Debug)]
    struct TestError(String);

    impl fmt::Display for TestError {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(&self.0)
        }
    }
    impl std::error::Error for TestError {}
    impl ser::Error for TestError {
        fn custom<M: fmt::Display>(m: M) -> Self {
            TestError(m.to_string())
        }
    }
    impl de::Error for TestError {
        fn custom<M: fmt::Display>(m: M) -> Self {
            TestError(m.to_string())
        }
    }

    struct ValSerializer;
    struct SeqSerializer(Vec<Val>);

    fn unsupported<X>() -> Result<X, TestError> {
        Err(TestError("not in the test format".into()))
    }

    impl Serializer for ValSerializer {
        type Ok = Val;
        type Error = TestError;
        type SerializeSeq = SeqSerializer;
        type SerializeTuple = SeqSerializer;
        type SerializeTupleStruct = SeqSerializer;
        type SerializeTupleVariant = Impossible<Val, TestError>;
        type SerializeMap = Impossible<Val, TestError>;
        type SerializeStruct = SeqSerializer;
        type SerializeStructVariant = Impossible<Val, TestError>;

        fn is_human_readable(&self) -> bool {
            false
        }
        fn serialize_bool(self, v: bool) -> Result<Val, TestError> {
            Ok(Val::Bool(v))
        }
        fn serialize_i8(self, v: i8) -> Result<Val, TestError> {
            Ok(Val::I(v.into()))
        }
        fn serialize_i16(self, v: i16) -> Result<Val, TestError> {
            Ok(Val::I(v.into()))
        }
        fn serialize_i32(self, v: i32) -> Result<Val, TestError> {
            Ok(Val::I(v.into()))
        }
        fn serialize_i64(self, v: i64) -> Result<Val, TestError> {
            Ok(Val::I(v))
        }
        fn serialize_u8(self, v: u8) -> Result<Val, TestError> {
            Ok(Val::U(v.into()))
        }
        fn serialize_u16(self, v: u16) -> Result<Val, TestError> {
            Ok(Val::U(v.into()))
        }
        fn serialize_u32(self, v: u32) -> Result<Val, TestError> {
            Ok(Val::U(v.into()))
        }
        fn serialize_u64(self, v: u64) -> Result<Val, TestError> {
            Ok(Val::U(v))
        }
        fn serialize_f32(self, v: f32) -> Result<Val, TestError> {
            Ok(Val::F(v.into()))
        }
        fn serialize_f64(self, v: f64) -> Result<Val, TestError> {
            Ok(Val::F(v))
        }
        fn serialize_char(self, v: char) -> Result<Val, TestError> {
            Ok(Val::Str(v.into()))
        }
        fn serialize_str(self, v: &str) -> Result<Val, TestError> {
            Ok(Val::Str(v.into()))
        }
        fn serialize_bytes(self, v: &[u8]) -> Result<Val, TestError> {
            Ok(Val::Bytes(v.to_vec()))
        }
        fn serialize_none(self) -> Result<Val, TestError> {
            unsupported()
        }
        fn serialize_some<X: Serialize + ?Sized>(self, v: &X) -> Result<Val, TestError> {
            v.serialize(self)
        }
        fn serialize_unit(self) -> Result<Val, TestError> {
            unsupported()
        }
        fn serialize_unit_struct(self, _: &'static str) -> Result<Val, TestError> {
            unsupported()
        }
        fn serialize_unit_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
        ) -> Result<Val, TestError> {
            unsupported()
        }
        fn serialize_newtype_struct<X: Serialize + ?Sized>(
            self,
            _: &'static str,
            v: &X,
        ) -> Result<Val, TestError> {
            v.serialize(self)
        }
        fn serialize_newtype_variant<X: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &X,
        ) -> Result<Val, TestError> {
            unsupported()
        }
        fn serialize_seq(self, _: Option<usize>) -> Result<SeqSerializer, TestError> {
            Ok(SeqSerializer(Vec::new()))
        }
        fn serialize_tuple(self, _: usize) -> Result<SeqSerializer, TestError> {
            Ok(SeqSerializer(Vec::new()))
        }
        fn serialize_tuple_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<SeqSerializer, TestError> {
            Ok(SeqSerializer(Vec::new()))
        }
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleVariant, TestError> {
            unsupported()
        }
        fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, TestError> {
            unsupported()
        }
        fn serialize_struct(self, _: &'static str, _: usize) -> Result<SeqSerializer, TestError> {
            Ok(SeqSerializer(Vec::new()))
        }
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStructVariant, TestError> {
            unsupported()
        }
    }

    impl SeqSerializer {
        fn push<X: Serialize + ?Sized>(&mut self, v: &X) -> Result<(), TestError> {
            self.0.push(v.serialize(ValSerializer)?);
            Ok(())
        }
    }
    impl ser::SerializeSeq for SeqSerializer {
        type Ok = Val;
        type Error = TestError;
        fn serialize_element<X: Serialize + ?Sized>(&mut self, v: &X) -> Result<(), TestError> {
            self.push(v)
        }
        fn end(self) -> Result<Val, TestError> {
            Ok(Val::Seq(self.0))
        }
    }
    impl ser::SerializeTuple for SeqSerializer {
        type Ok = Val;
        type Error = TestError;
        fn serialize_element<X: Serialize + ?Sized>(&mut self, v: &X) -> Result<(), TestError> {
            self.push(v)
        }
        fn end(self) -> Result<Val, TestError> {
            Ok(Val::Seq(self.0))
        }
    }
    impl ser::SerializeTupleStruct for SeqSerializer {
        type Ok = Val;
        type Error = TestError;
        fn serialize_field<X: Serialize + ?Sized>(&mut self, v: &X) -> Result<(), TestError> {
            self.push(v)
        }
        fn end(self) -> Result<Val, TestError> {
            Ok(Val::Seq(self.0))
        }
    }
    impl ser::SerializeStruct for SeqSerializer {
        type Ok = Val;
        type Error = TestError;
        fn serialize_field<X: Serialize + ?Sized>(
            &mut self,
            _: &'static str,
            v: &X,
        ) -> Result<(), TestError> {
            self.push(v)
        }
        fn end(self) -> Result<Val, TestError> {
            Ok(Val::Seq(self.0))
        }
    }

    struct ValDeserializer(Val);
    struct SeqDeserializer(std::vec::IntoIter<Val>);

    impl<'de> Deserializer<'de> for ValDeserializer {
        type Error = TestError;

        fn is_human_readable(&self) -> bool {
            false
        }
        fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TestError> {
            match self.0 {
                Val::Bool(v) => visitor.visit_bool(v),
                Val::U(v) => visitor.visit_u64(v),
                Val::I(v) => visitor.visit_i64(v),
                Val::F(v) => visitor.visit_f64(v),
                Val::Str(v) => visitor.visit_string(v),
                Val::Bytes(v) => visitor.visit_byte_buf(v),
                Val::Seq(v) => visitor.visit_seq(SeqDeserializer(v.into_iter())),
            }
        }
        ::serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct seq tuple
            tuple_struct map struct enum identifier ignored_any
        }
    }

    impl<'de> SeqAccess<'de> for SeqDeserializer {
        type Error = TestError;
        fn next_element_seed<X: DeserializeSeed<'de>>(
            &mut self,
            seed: X,
        ) -> Result<Option<X::Value>, TestError> {
            self.0
                .next()
                .map(|v| seed.deserialize(ValDeserializer(v)))
                .transpose()
        }
        fn size_hint(&self) -> Option<usize> {
            Some(self.0.len())
        }
    }

    #[test]
    fn the_test_format_is_not_human_readable() {
        assert!(!ValSerializer.is_human_readable());
        assert!(!ValDeserializer(Val::U(0)).is_human_readable());
        let x: u64 = Deserialize::deserialize(ValDeserializer(Val::U(5))).unwrap();
        assert_eq!(x, 5);
        let y: Result<u64, de::value::Error> = Deserialize::deserialize(5u64.into_deserializer());
        assert_eq!(y.unwrap(), 5);
    }
}
