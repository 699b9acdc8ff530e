//! Memory formats: the orders in which a tensor's elements may be laid out.

/// An order of a tensor's elements in memory (PyTorch's `memory_format`).
///
/// ```
/// use shaped::prelude::*;
/// let img = Tensor::<f32, shape![2, 3, 4, 5]>::zeros();
/// let nhwc = img.contiguous_in(MemoryFormat::ChannelsLast);
/// assert_eq!(nhwc.strides(), [60, 1, 15, 3]);
/// assert!(nhwc.is_contiguous_in(MemoryFormat::ChannelsLast));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MemoryFormat {
    /// Row-major: strides decrease from the first dimension to the last.
    Contiguous,
    /// NHWC for 4-d tensors: `strides[0] > strides[2] > strides[3] > strides[1] == 1`.
    ChannelsLast,
    /// NDHWC for 5-d tensors.
    ChannelsLast3d,
    /// Keep the input's strides when it is dense and non-overlapping
    /// (for `clone`), else row-major.
    Preserve,
}

impl MemoryFormat {
    /// The order of the dimensions from the fastest-varying to the slowest,
    /// for a tensor of rank `rank`; `None` when the format does not apply.
    pub(crate) fn fastest_first(self, rank: usize) -> Option<Vec<usize>> {
        match (self, rank) {
            (MemoryFormat::Contiguous, _) => Some((0..rank).rev().collect()),
            (MemoryFormat::ChannelsLast, 4) => Some(vec![1, 3, 2, 0]),
            (MemoryFormat::ChannelsLast3d, 5) => Some(vec![1, 4, 3, 2, 0]),
            _ => None,
        }
    }
}
