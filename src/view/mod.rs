//! Views: tensors that reinterpret another tensor's storage (SPEC.md
//! section 2). Each is a pure [`Layout`](crate::layout::Layout) transform plus
//! a borrow of the storage; no element moves.
//!
//! - [`t`](crate::Tensor::t): the transpose of a matrix (and the identity on
//!   rank 0 and 1, as PyTorch's `t()`).

mod transpose;
