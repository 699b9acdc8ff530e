//! Conversions to and from the Rust numerics ecosystem, each behind a
//! feature named after its crate: `ndarray` (zero-copy views
//! both ways) and `nalgebra` (matrices, static sizes to
//! static sizes).

#[cfg(feature = "nalgebra")]
pub mod nalgebra;
#[cfg(feature = "ndarray")]
pub mod ndarray;

/// The address of element `[0, 0, ..]` of a non-empty tensor: where the
/// tests check that a conversion kept the memory.
#[cfg(all(test, any(feature = "ndarray", feature = "nalgebra")))]
pub(crate) fn first_element<T, S, R>(t: &crate::Tensor<T, S, crate::Cpu, R>) -> *const T
where
    T: crate::dtype::Element,
    S: crate::shape::Shape,
    R: crate::storage::Repr,
{
    use crate::storage::Storage;
    t.data
        .ptr()
        .as_ptr()
        .wrapping_add(t.storage_offset())
        .cast_const()
}
