//! Conversions to and from the Rust numerics ecosystem, each behind a
//! feature named after its crate: `ndarray` (zero-copy views
//! both ways) and `nalgebra` (matrices, static sizes to
//! static sizes).

#[cfg(feature = "nalgebra")]
pub mod nalgebra;
#[cfg(feature = "ndarray")]
pub mod ndarray;
