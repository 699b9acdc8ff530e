//! The rearrangements and structured constructors on [`AnyTensor`]: the
//! `DynTensor` forms of `ops/rearrange.rs` and `ops/structured.rs` with a
//! runtime dtype; `block_diag` promotes its blocks to one dtype as
//! PyTorch's, a constant `pad` converts its value with PyTorch's checked
//! cast.

use super::any::{AnyTensor, any_tensor};
use super::any::{typed_parts, viewed};
use super::{Converted, DynTensor, checked_scalar};
use crate::backend::Cpu;
use crate::backend::cpu::try_vec_with_capacity;
use crate::backend::rearrange::{PadMode, Rearranging};
use crate::dtype::{DType, Scalar, with_dtype};
use crate::error::Error;
use crate::ops::structured::MeshIndexing;
use crate::storage::Repr;
use crate::tensor::Tensor;

impl<D: Rearranging, R: Repr> AnyTensor<D, R> {
    /// [`DynTensor::flip`](crate::DynTensor::flip).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<u8>::arange(3));
    /// assert_eq!(x.flip(&[0]).unwrap().downcast::<u8>().unwrap().to_vec(), [2, 1, 0]);
    /// ```
    pub fn flip(&self, dims: &[isize]) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.flip(dims)?.into()))
    }

    /// [`DynTensor::fliplr`](crate::DynTensor::fliplr).
    pub fn fliplr(&self) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.fliplr()?.into()))
    }

    /// [`DynTensor::flipud`](crate::DynTensor::flipud).
    pub fn flipud(&self) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.flipud()?.into()))
    }

    /// [`DynTensor::roll`](crate::DynTensor::roll).
    pub fn roll(&self, shifts: &[isize], dims: &[isize]) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.roll(shifts, dims)?.into()))
    }

    /// [`DynTensor::rot90`](crate::DynTensor::rot90).
    pub fn rot90(&self, k: i64, dims: &[isize]) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.rot90(k, dims)?.into()))
    }

    /// [`DynTensor::pad`](crate::DynTensor::pad), the value converted to
    /// the tensor's dtype (PyTorch's checked cast).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let x = AnyTensor::from(DynTensor::<i32>::arange(2));
    /// let p = x.pad(&[1, 1], PadMode::Constant, Some(Scalar::Int(7))).unwrap();
    /// assert_eq!(p.downcast::<i32>().unwrap().to_vec(), [7, 0, 1, 7]);
    /// ```
    pub fn pad(
        &self,
        pad: &[isize],
        mode: PadMode,
        value: Option<Scalar>,
    ) -> Result<AnyTensor<D>, Error> {
        // `F.pad` takes its value as a Python float: an integer is read as
        // one before the dtype's checked cast.
        let value = value.map(|v| match v {
            Scalar::Int(i) => Scalar::Float(i as f64),
            Scalar::Bool(b) => Scalar::Float(f64::from(u8::from(b))),
            other => other,
        });
        Ok(any_tensor!(@each self, x => {
            let v = value.map(checked_scalar).transpose()?;
            x.pad(pad, mode, v)?.into()
        }))
    }

    /// [`DynTensor::tril`](crate::DynTensor::tril).
    pub fn tril(&self, diagonal: i64) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.tril(diagonal)?.into()))
    }

    /// [`DynTensor::triu`](crate::DynTensor::triu).
    pub fn triu(&self, diagonal: i64) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.triu(diagonal)?.into()))
    }

    /// [`DynTensor::repeat`](crate::DynTensor::repeat).
    pub fn repeat(&self, reps: &[isize]) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.repeat(reps)?.into()))
    }

    /// [`DynTensor::tile`](crate::DynTensor::tile).
    pub fn tile(&self, reps: &[isize]) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.tile(reps)?.into()))
    }

    /// [`DynTensor::repeat_interleave`](crate::DynTensor::repeat_interleave).
    pub fn repeat_interleave(
        &self,
        repeats: i64,
        dim: Option<isize>,
    ) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.repeat_interleave(repeats, dim)?.into()))
    }

    /// [`DynTensor::diag`](crate::DynTensor::diag).
    pub fn diag(&self, diagonal: i64) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.diag(diagonal)?.into()))
    }

    /// [`DynTensor::diag_embed`](crate::DynTensor::diag_embed).
    pub fn diag_embed(&self, offset: i64, dim1: isize, dim2: isize) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.diag_embed(offset, dim1, dim2)?.into()))
    }

    /// [`DynTensor::diagflat`](crate::DynTensor::diagflat).
    pub fn diagflat(&self, offset: i64) -> Result<AnyTensor<D>, Error> {
        Ok(any_tensor!(@each self, x => x.diagflat(offset)?.into()))
    }
}

/// The functions of several tensors: owned ones, or views of one kind
/// (`AnyTensor::block_diag(&[&a.t()?, &b.t()?])`).
impl<D: Rearranging, R: Repr> AnyTensor<D, R> {
    /// [`DynTensor::block_diag`](crate::DynTensor::block_diag), the blocks
    /// promoted to one dtype (PyTorch's `promote_types` over all).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = AnyTensor::from(DynTensor::<i32>::ones(&[1, 1]));
    /// let b = AnyTensor::from(DynTensor::<f32>::ones(&[1, 1]));
    /// let m = AnyTensor::block_diag(&[&a, &b]).unwrap();
    /// assert_eq!((m.dtype(), m.shape()), (DType::F32, vec![2, 2]));
    /// ```
    pub fn block_diag(blocks: &[&AnyTensor<D, R>]) -> Result<AnyTensor<D>, Error> {
        let Some(first) = blocks.first() else {
            return Err(Error::BlockDiagEmpty);
        };
        let common = blocks
            .iter()
            .fold(first.dtype(), |acc, b| DType::promote(acc, b.dtype()));
        let converted = converted_to(blocks, common)?;
        with_dtype!(common, T => {
            let views = viewed(&converted)?;
            let typed = typed_parts::<T, D>(&views)?;
            Ok(AnyTensor::from(Tensor::block_diag(&typed)?))
        })
    }

    /// [`DynTensor::cartesian_prod`](crate::DynTensor::cartesian_prod):
    /// the inputs share one dtype.
    pub fn cartesian_prod(inputs: &[&AnyTensor<D, R>]) -> Result<AnyTensor<D>, Error> {
        let dtype = same_dtype(inputs)?;
        let converted = converted_to(inputs, dtype)?;
        with_dtype!(dtype, T => {
            let views = viewed(&converted)?;
            let typed = typed_parts::<T, D>(&views)?;
            Ok(AnyTensor::from(Tensor::cartesian_prod(&typed)?))
        })
    }

    /// [`DynTensor::meshgrid`](crate::DynTensor::meshgrid) with a runtime
    /// dtype (shared by the inputs): the grids as copies.
    pub fn meshgrid(
        inputs: &[&AnyTensor<D, R>],
        indexing: MeshIndexing,
    ) -> Result<Vec<AnyTensor<D>>, Error> {
        let dtype = same_dtype(inputs)?;
        let converted = converted_to(inputs, dtype)?;
        with_dtype!(dtype, T => {
            let views = viewed(&converted)?;
            let typed = typed_parts::<T, D>(&views)?;
            let grids = Tensor::meshgrid(&typed, indexing)?;
            let mut out = try_vec_with_capacity(grids.len())?;
            for g in grids {
                out.push(AnyTensor::from(g.contiguous_copy()?));
            }
            Ok(out)
        })
    }
}

impl<R: Repr> AnyTensor<Cpu, R> {
    /// [`DynTensor::repeat_interleave_by`](crate::DynTensor::repeat_interleave_by)
    /// with counts of a runtime dtype: int64 or int32 (PyTorch's text for
    /// another, after its size checks).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::ones(&[2]));
    /// let counts = AnyTensor::from(DynTensor::<i32>::from_vec(vec![1, 2], &[2]).unwrap());
    /// assert_eq!(x.repeat_interleave_by(&counts, None).unwrap().shape(), [3]);
    /// ```
    pub fn repeat_interleave_by<R2: Repr>(
        &self,
        repeats: &AnyTensor<Cpu, R2>,
        dim: Option<isize>,
    ) -> Result<AnyTensor, Error> {
        if let Some(r) = repeats.downcast_ref::<i64>() {
            return Ok(any_tensor!(@each self, x => x.repeat_interleave_by(r, dim)?.into()));
        }
        if let Some(r) = repeats.downcast_ref::<i32>() {
            return Ok(any_tensor!(@each self, x => x.repeat_interleave_by(r, dim)?.into()));
        }
        // PyTorch checks the sizes before the dtype: the same checks with
        // counts of the same shape (zeros: an empty result).
        let zeros = DynTensor::<i64>::zeros_with(&repeats.shape());
        any_tensor!(@each self, x => {
            x.repeat_interleave_by(&zeros, dim)?;
        });
        Err(Error::NotImplementedFor {
            op: "repeat_interleave_cpu",
            dtype: repeats.dtype(),
        })
    }
}

impl AnyTensor<Cpu> {
    /// [`DynTensor::tril_indices`](crate::DynTensor::tril_indices), int64.
    pub fn tril_indices(row: i64, col: i64, offset: i64) -> Result<AnyTensor, Error> {
        Ok(DynTensor::<i64>::tril_indices(row, col, offset)?.into())
    }

    /// [`DynTensor::triu_indices`](crate::DynTensor::triu_indices), int64.
    pub fn triu_indices(row: i64, col: i64, offset: i64) -> Result<AnyTensor, Error> {
        Ok(DynTensor::<i64>::triu_indices(row, col, offset)?.into())
    }
}

/// The dtype every input shares (`meshgrid`'s rule), or the first's when
/// there are none (the typed form then reports the empty list).
fn same_dtype<D: Rearranging, R: Repr>(inputs: &[&AnyTensor<D, R>]) -> Result<DType, Error> {
    let dtype = inputs.first().map_or(DType::F32, |x| x.dtype());
    if inputs.iter().any(|x| x.dtype() != dtype) {
        return Err(Error::MeshgridDTypes);
    }
    Ok(dtype)
}

/// Each input as `dtype` (borrowed when it is one).
fn converted_to<'a, D: Rearranging, R: Repr>(
    inputs: &[&'a AnyTensor<D, R>],
    dtype: DType,
) -> Result<Vec<Converted<'a, D, R>>, Error> {
    let mut converted = try_vec_with_capacity(inputs.len())?;
    for x in inputs {
        converted.push(x.as_dtype(dtype)?);
    }
    Ok(converted)
}
