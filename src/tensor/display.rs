//! `Display` like PyTorch: `tensor([[0, 1, 2], ...])`; `Debug` adds the layout.

use super::Tensor;
use crate::dtype::Element;
use crate::shape::Shape;
use crate::storage::{Cpu, Repr};
use core::fmt;

impl<T: Element + fmt::Display, S: Shape, R: Repr> fmt::Display for Tensor<T, S, Cpu, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tensor({:?})", self.to_vec())
    }
}

impl<T: Element + fmt::Display, S: Shape, R: Repr> fmt::Debug for Tensor<T, S, Cpu, R> {
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
