//! `Display` exactly as PyTorch's `str(tensor)` (default print options);
//! `Debug` adds the layout.
//!
//! ```
//! use shaped::prelude::*;
//! let a = Tensor::<i64, shape![3, 3]>::from_vec((0..9).collect()).unwrap();
//! assert_eq!(a.to_string(), "tensor([[0, 1, 2],\n        [3, 4, 5],\n        [6, 7, 8]])");
//! let x = Tensor::<f64, shape![2]>::from_vec(vec![1.0, 2.5]).unwrap();
//! assert_eq!(x.to_string(), "tensor([1.0000, 2.5000], dtype=torch.float64)");
//! ```

use super::Tensor;
use super::format::format_tensor;
use crate::backend::Cpu;
use crate::dtype::Element;
use crate::shape::Shape;
use crate::storage::Repr;
use core::fmt;

impl<T: Element, S: Shape, R: Repr> fmt::Display for Tensor<T, S, Cpu, R> {
    /// PyTorch's `str(tensor)`: common width, fixed or scientific notation,
    /// `...` above 1000 elements, lines wrapped at 80 columns, and the dtype
    /// when it is not a default one.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(tensor![1.0f32, 2.0].to_string(), "tensor([1., 2.])");
    /// assert_eq!(tensor![1i32, -20].to_string(), "tensor([  1, -20], dtype=torch.int32)");
    /// let big = Tensor::<f32, shape![2]>::from_vec(vec![1.0e10, 0.5]).unwrap();
    /// assert_eq!(big.to_string(), "tensor([1.0000e+10, 5.0000e-01])");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Only the printed elements are read (the edges of a large tensor).
        f.write_str(&format_tensor(self.layout().sizes(), |index| {
            *self
                .get(index)
                .expect("a printed index is an index of the sizes")
        }))
    }
}

impl<T: Element, S: Shape, R: Repr> fmt::Debug for Tensor<T, S, Cpu, R> {
    /// The values as `Display` prints them, then the layout:
    /// `tensor([1, 2]) (shape [2], strides [1], offset 0, int64, cpu)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{self} (shape {:?}, strides {:?}, offset {}, {}, {})",
            self.layout.sizes(),
            self.layout.strides(),
            self.layout.offset(),
            T::DTYPE.name(),
            self.device()
        )
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;

    #[test]
    fn huge_expanded_tensors_print_their_edges_only() {
        let x = DynTensor::<f32>::from_vec(vec![1.5], &[1]).unwrap();
        let big = x.expand(&[1 << 20, 1 << 20]).unwrap();
        assert_eq!(
            big.to_string(),
            "tensor([[1.5000, 1.5000, 1.5000,  ..., 1.5000, 1.5000, 1.5000],
        [1.5000, 1.5000, 1.5000,  ..., 1.5000, 1.5000, 1.5000],
        [1.5000, 1.5000, 1.5000,  ..., 1.5000, 1.5000, 1.5000],
        ...,
        [1.5000, 1.5000, 1.5000,  ..., 1.5000, 1.5000, 1.5000],
        [1.5000, 1.5000, 1.5000,  ..., 1.5000, 1.5000, 1.5000],
        [1.5000, 1.5000, 1.5000,  ..., 1.5000, 1.5000, 1.5000]])"
        );
        // Copying them all is PyTorch's out-of-memory error: a panic with
        // its text, not an abort.
        let huge = x.expand(&[1 << 62]).unwrap();
        let copy = std::panic::catch_unwind(|| huge.to_vec()).unwrap_err();
        let text = copy.downcast_ref::<String>().unwrap();
        assert!(
            text.contains("DefaultCPUAllocator: can't allocate memory"),
            "{text}"
        );
    }
}
