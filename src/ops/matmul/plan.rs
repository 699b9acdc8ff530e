//! The shape side of the matrix products, at run time: PyTorch's checks
//! with its error texts, and the plan that kernels follow (batch sizes,
//! each operand's strides, the product sizes).
//!
//! `torch.matmul` reports a mistake in the words of the function it
//! dispatches to (`dot`, `mv`, `mm`, `bmm`), and which one that is depends
//! on the ranks and, for a batch times a matrix, on whether the batch folds
//! into the rows without a copy. `check_matmul` retraces that dispatch.

use crate::error::{Error, MatmulError};
use crate::ops::broadcast_strides;
use crate::shape::broadcast_sizes_into;
use smallvec::SmallVec;

/// Sizes and strides of a plan, inline up to rank 6.
pub(crate) type Dims = SmallVec<[usize; 6]>;

/// One operand: sizes and strides.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Operand<'a> {
    pub sizes: &'a [usize],
    pub strides: &'a [usize],
}

/// Which PyTorch function a product stands for: its checks (and their
/// texts) run before the product is planned.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ProductKind {
    /// `torch.matmul`.
    Matmul,
    /// `torch.dot`.
    Dot,
    /// `torch.mv`.
    Mv,
    /// `torch.mm`.
    Mm,
    /// `torch.bmm`.
    Bmm,
}

impl ProductKind {
    /// The function's checks of operands `a` and `b`, with PyTorch's texts.
    pub(crate) fn check(self, a: Operand<'_>, b: Operand<'_>) -> Result<(), Error> {
        match self {
            ProductKind::Matmul => check_matmul(a, b),
            ProductKind::Dot => check_dot(a.sizes, b.sizes),
            ProductKind::Mv => check_mv(a.sizes, b.sizes),
            ProductKind::Mm => check_mm(a.sizes, b.sizes),
            ProductKind::Bmm => check_bmm(a.sizes, b.sizes),
        }
    }
}

/// `torch.matmul`'s checks, in the order and words of the function it
/// dispatches to.
pub(crate) fn check_matmul(a: Operand<'_>, b: Operand<'_>) -> Result<(), Error> {
    let (sa, sb) = (a.sizes, b.sizes);
    let (da, db) = (sa.len(), sb.len());
    match (da, db) {
        (0, _) | (_, 0) => Err(MatmulError::RankZero { a: da, b: db }.into()),
        (1, 1) => check_dot(sa, sb),
        (2, 1) => check_mv(sa, sb),
        (1, 2) => check_mm_sizes([1, sa[0]], [sb[0], sb[1]]),
        (2, 2) => check_mm_sizes([sa[0], sa[1]], [sb[0], sb[1]]),
        _ if folds(a, b) => {
            // The larger operand folds into the rows of a matrix (the right
            // one transposed, when it is the larger), and `mm` or `mv`
            // multiplies it by the other one.
            // (Products wrap: leaving out a size 0, they may pass `usize`,
            // and they only go into an error message; PyTorch's `int64`
            // arithmetic wraps the same way.)
            let (rows, inner, other): (usize, usize, &[usize]) = if da >= db {
                (wrapping_product(&sa[..da - 1]), sa[da - 1], sb)
            } else {
                let batch = wrapping_product(&sb[..db - 2]);
                (batch.wrapping_mul(sb[db - 1]), sb[db - 2], sa)
            };
            match *other {
                [v] => check_mv(&[rows, inner], &[v]),
                [r, c] if da >= db => check_mm_sizes([rows, inner], [r, c]),
                [r, c] => check_mm_sizes([rows, inner], [c, r]),
                _ => unreachable!("the folded operand's partner has rank 1 or 2"),
            }
        }
        _ => {
            // A batched product: `bmm` of both operands expanded to the
            // broadcast batch.
            let batch_a = &sa[..da.saturating_sub(2)];
            let batch_b = &sb[..db.saturating_sub(2)];
            let mut batch: Dims = SmallVec::from_elem(0, batch_a.len().max(batch_b.len()));
            broadcast_sizes_into(batch_a, batch_b, &mut batch)?;
            // Only for the message: wrapping, as above (the output's size is
            // checked later).
            let count = wrapping_product(&batch);
            let inner_a = sa[da - 1];
            let inner_b = if db > 1 { sb[db - 2] } else { sb[0] };
            if inner_a != inner_b {
                return Err(MatmulError::BmmShapes {
                    expected: [count, inner_a],
                    got: [count, inner_b],
                }
                .into());
            }
            Ok(())
        }
    }
}

/// The product of `sizes`, wrapping on overflow (as PyTorch's `int64`
/// products do in practice): for error messages of sizes not yet checked.
fn wrapping_product(sizes: &[usize]) -> usize {
    sizes.iter().fold(1usize, |p, &n| p.wrapping_mul(n))
}

/// PyTorch's `should_fold`: a batch (rank >= 3) times a matrix or a vector
/// folds the batch into the rows when that needs no copy.
pub(crate) fn folds(a: Operand<'_>, b: Operand<'_>) -> bool {
    let (da, db) = (a.sizes.len(), b.sizes.len());
    let (larger, smaller_rank) = if da >= db { (a, db) } else { (b, da) };
    let rank = larger.sizes.len();
    if rank < 3 || smaller_rank > 2 {
        return false;
    }
    // Folding the transposed right operand would leave a transposed result
    // to copy.
    if da == 2 {
        return false;
    }
    if larger.sizes.contains(&0) {
        return true;
    }
    // The larger operand as PyTorch sees it: the right one is transposed.
    let mut sizes: Dims = larger.sizes.into();
    let mut strides: Dims = larger.strides.into();
    if da < db {
        sizes.swap(rank - 2, rank - 1);
        strides.swap(rank - 2, rank - 1);
    }
    (0..rank - 2).all(|i| strides[i] == strides[i + 1] * sizes[i + 1])
}

/// `dot`'s checks.
pub(crate) fn check_dot(a: &[usize], b: &[usize]) -> Result<(), Error> {
    match (a, b) {
        (&[la], &[lb]) if la != lb => Err(MatmulError::DotSize { a: la, b: lb }.into()),
        ([_], [_]) => Ok(()),
        _ => Err(MatmulError::DotRank {
            a: a.len(),
            b: b.len(),
        }
        .into()),
    }
}

/// `mv`'s checks.
pub(crate) fn check_mv(a: &[usize], b: &[usize]) -> Result<(), Error> {
    match (a, b) {
        (&[rows, cols], &[vec]) if cols != vec => {
            Err(MatmulError::MvSize { rows, cols, vec }.into())
        }
        ([_, _], [_]) => Ok(()),
        _ => Err(MatmulError::MvRank {
            mat: a.len(),
            vec: b.len(),
        }
        .into()),
    }
}

/// `mm`'s checks.
pub(crate) fn check_mm(a: &[usize], b: &[usize]) -> Result<(), Error> {
    match (a, b) {
        (&[r1, c1], &[r2, c2]) => check_mm_sizes([r1, c1], [r2, c2]),
        ([_, _], _) => Err(MatmulError::MmRank {
            which: "mat2",
            rank: b.len(),
        }
        .into()),
        _ => Err(MatmulError::MmRank {
            which: "self",
            rank: a.len(),
        }
        .into()),
    }
}

fn check_mm_sizes(a: [usize; 2], b: [usize; 2]) -> Result<(), Error> {
    if a[1] != b[0] {
        return Err(MatmulError::MmShapes { a, b }.into());
    }
    Ok(())
}

/// `bmm`'s checks.
pub(crate) fn check_bmm(a: &[usize], b: &[usize]) -> Result<(), Error> {
    match (a, b) {
        (&[batch, _, inner], &[batch2, rows, _]) if [batch2, rows] != [batch, inner] => {
            Err(MatmulError::BmmShapes {
                expected: [batch, inner],
                got: [batch2, rows],
            }
            .into())
        }
        ([_, _, _], [_, _, _]) => Ok(()),
        ([_, _, _], _) => Err(MatmulError::BmmRank { which: "batch2" }.into()),
        _ => Err(MatmulError::BmmRank { which: "batch1" }.into()),
    }
}

/// A matrix inside an operand: its row and column strides.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MatrixStrides {
    /// Elements between rows.
    pub rows: usize,
    /// Elements between columns.
    pub cols: usize,
}

/// How a (checked) product is computed: a batch of `m x k` times `k x n`
/// products into a contiguous output of sizes [`out_sizes`](Self::out_sizes).
///
/// Operands keep their strides: a transposed or sliced operand is read in
/// place, a broadcast batch dimension has stride 0, and a batch that folds
/// into the rows of one large product (a batch times one matrix) is folded.
#[derive(Clone, Debug)]
pub struct MatmulPlan {
    pub(crate) out_sizes: Dims,
    pub(crate) batch: Dims,
    pub(crate) a_batch_strides: Dims,
    pub(crate) b_batch_strides: Dims,
    pub(crate) m: usize,
    pub(crate) k: usize,
    pub(crate) n: usize,
    pub(crate) a: MatrixStrides,
    pub(crate) b: MatrixStrides,
}

impl MatmulPlan {
    /// The plan for operands that passed their checks; `Err` only if the
    /// batch dimensions do not broadcast.
    pub(crate) fn new(a: Operand<'_>, b: Operand<'_>) -> Result<MatmulPlan, Error> {
        let (da, db) = (a.sizes.len(), b.sizes.len());
        debug_assert!(da >= 1 && db >= 1);
        let k = a.sizes[da - 1];
        // A vector is a one-row (left) or one-column (right) matrix.
        let (m, a_mat, batch_a) = if da == 1 {
            let cols = a.strides[0];
            (1, MatrixStrides { rows: 0, cols }, 0)
        } else {
            let (rows, cols) = (a.strides[da - 2], a.strides[da - 1]);
            (a.sizes[da - 2], MatrixStrides { rows, cols }, da - 2)
        };
        let (n, b_mat, batch_b) = if db == 1 {
            let rows = b.strides[0];
            (1, MatrixStrides { rows, cols: 0 }, 0)
        } else {
            let (rows, cols) = (b.strides[db - 2], b.strides[db - 1]);
            (b.sizes[db - 1], MatrixStrides { rows, cols }, db - 2)
        };
        let mut batch: Dims = SmallVec::from_elem(0, batch_a.max(batch_b));
        broadcast_sizes_into(&a.sizes[..batch_a], &b.sizes[..batch_b], &mut batch)?;
        let mut a_batch_strides: Dims = SmallVec::from_elem(0, batch.len());
        let mut b_batch_strides: Dims = SmallVec::from_elem(0, batch.len());
        broadcast_strides(
            &a.sizes[..batch_a],
            &a.strides[..batch_a],
            &batch,
            &mut a_batch_strides,
        );
        broadcast_strides(
            &b.sizes[..batch_b],
            &b.strides[..batch_b],
            &batch,
            &mut b_batch_strides,
        );
        let mut out_sizes = batch.clone();
        if da > 1 {
            out_sizes.push(m);
        }
        if db > 1 {
            out_sizes.push(n);
        }
        let mut plan = MatmulPlan {
            out_sizes,
            batch,
            a_batch_strides,
            b_batch_strides,
            m,
            k,
            n,
            a: a_mat,
            b: b_mat,
        };
        plan.fold_batch_into_rows();
        Ok(plan)
    }

    /// A batch times one matrix (the right operand's batch strides all 0)
    /// is one product with `batch * m` rows when the left operand's batch
    /// dimensions step over whole blocks of rows. The output is contiguous,
    /// so its rows line up the same way.
    fn fold_batch_into_rows(&mut self) {
        // Dimensions of size 1 take no steps.
        let keep: Dims = (0..self.batch.len())
            .filter(|&i| self.batch[i] != 1)
            .collect();
        if keep.is_empty() || keep.iter().any(|&i| self.b_batch_strides[i] != 0) {
            return;
        }
        let mut rows = self.a;
        if self.m == 1 {
            // One row: its stride is free to be the innermost batch stride.
            rows.rows = self.a_batch_strides[keep[keep.len() - 1]];
        }
        // Checked products: an empty operand's strides may be anything, and
        // its other sizes large; a product that overflows does not fold.
        let Some(mut step) = rows.rows.checked_mul(self.m) else {
            return;
        };
        for &i in keep.iter().rev() {
            if self.a_batch_strides[i] != step {
                return;
            }
            let Some(next) = step.checked_mul(self.batch[i]) else {
                return;
            };
            step = next;
        }
        let Some(m) = keep
            .iter()
            .try_fold(self.m, |m, &i| m.checked_mul(self.batch[i]))
        else {
            return;
        };
        self.m = m;
        self.a = rows;
        self.batch.clear();
        self.a_batch_strides.clear();
        self.b_batch_strides.clear();
    }

    /// The sizes of the product.
    pub fn out_sizes(&self) -> &[usize] {
        &self.out_sizes
    }

    /// The number of `m x k` times `k x n` products (0 when a batch size
    /// is; the product of the others may overflow then, and is not formed).
    pub fn batch_count(&self) -> usize {
        crate::layout::numel(&self.batch)
    }

    /// `(m, k, n)` of each product.
    pub fn mkn(&self) -> (usize, usize, usize) {
        (self.m, self.k, self.n)
    }

    /// The storage offsets (relative to each operand's own offset) of the
    /// operands of product `index`, counting the batch in row-major order.
    pub(crate) fn batch_offsets(&self, index: usize) -> (usize, usize) {
        let (mut rest, mut a_off, mut b_off) = (index, 0, 0);
        for i in (0..self.batch.len()).rev() {
            let size = self.batch[i];
            let at = rest % size;
            rest /= size;
            a_off += at * self.a_batch_strides[i];
            b_off += at * self.b_batch_strides[i];
        }
        (a_off, b_off)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op<'a>(sizes: &'a [usize], strides: &'a [usize]) -> Operand<'a> {
        Operand { sizes, strides }
    }

    #[test]
    fn a_batch_times_a_matrix_folds_into_rows() {
        let plan = MatmulPlan::new(op(&[4, 2, 3], &[6, 3, 1]), op(&[3, 5], &[5, 1])).unwrap();
        assert_eq!((plan.mkn(), plan.batch_count()), ((8, 3, 5), 1));
        assert_eq!(plan.out_sizes(), [4, 2, 5]);
        // A transposed batch does not fold: 4 products.
        let plan = MatmulPlan::new(op(&[4, 2, 3], &[1, 12, 4]), op(&[3, 5], &[5, 1])).unwrap();
        assert_eq!((plan.mkn(), plan.batch_count()), ((2, 3, 5), 4));
        assert_eq!(plan.batch_offsets(3), (3, 0));
        // A broadcast batch of the left operand: 3 products reading one matrix.
        let plan =
            MatmulPlan::new(op(&[1, 2, 3], &[6, 3, 1]), op(&[3, 3, 5], &[15, 5, 1])).unwrap();
        assert_eq!((plan.mkn(), plan.batch_count()), ((2, 3, 5), 3));
        assert_eq!(plan.batch_offsets(2), (0, 30));
    }

    #[test]
    fn vectors_are_one_row_or_one_column() {
        let plan = MatmulPlan::new(op(&[3], &[2]), op(&[3], &[1])).unwrap();
        assert_eq!((plan.mkn(), plan.out_sizes().len()), ((1, 3, 1), 0));
        assert_eq!(plan.a, MatrixStrides { rows: 0, cols: 2 });
        assert_eq!(plan.b, MatrixStrides { rows: 1, cols: 0 });
    }
}
