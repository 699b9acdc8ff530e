//! rayon behind non-generic calls.
//!
//! rayon's `join` and parallel iterators are generic over their closures:
//! every element type and reducer that called them directly compiled its
//! own copy of rayon's machinery (its jobs, latches and splitting), and
//! every program using them compiled it again: about 20,000 lines of LLVM
//! IR for a program with sums and products of one element type. Behind
//! [`for_each_index`] and [`join`], which take trait objects, that machinery
//! is compiled once, in this crate; what stays generic is a few lines per
//! caller.
//!
//! ```text
//! for_each_index(n, &|i| ..)          f(0) .. f(n - 1) on rayon's threads
//! for_each_piece(pieces, |c, p| ..)   f on each piece (e.g. of an output), in place
//! join(|| a, || b)                    both, perhaps in parallel
//! ```

use rayon::prelude::*;
use std::sync::{Mutex, PoisonError};

/// Runs `f(i)` for every `i` in `0..n`, spread over rayon's threads.
pub(crate) fn for_each_index(n: usize, f: &(dyn Fn(usize) + Sync)) {
    (0..n).into_par_iter().for_each(f);
}

/// `f(c, piece)` for every piece of `pieces` (each, say, a disjoint part
/// of an output), `c` its index, spread over rayon's threads: each piece is
/// written in place by one thread. The pieces are few (a handful per
/// thread): the `Vec` that holds them is small.
pub(crate) fn for_each_piece<P: Send>(pieces: Vec<P>, f: impl Fn(usize, &mut P) + Sync) {
    // One uncontended lock per piece hands each thread its piece.
    let pieces: Vec<Mutex<P>> = pieces.into_iter().map(Mutex::new).collect();
    for_each_index(pieces.len(), &|c| {
        let mut piece = pieces[c].lock().unwrap_or_else(PoisonError::into_inner);
        f(c, &mut piece);
    });
}

/// `(a(), b())`, perhaps in parallel (rayon's `join`). A panic in either
/// propagates once both have finished.
pub(crate) fn join<A: Send, B: Send>(
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    let (mut a, mut b) = (Some(a), Some(b));
    let (mut result_a, mut result_b) = (None, None);
    join_erased(&mut || result_a = a.take().map(|a| a()), &mut || {
        result_b = b.take().map(|b| b())
    });
    (
        result_a.expect("join ran its first closure"),
        result_b.expect("join ran its second closure"),
    )
}

/// rayon's `join` of two closures that each run once.
fn join_erased(a: &mut (dyn FnMut() + Send), b: &mut (dyn FnMut() + Send)) {
    rayon::join(a, b);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_index_runs_once() {
        let hits: Vec<AtomicUsize> = (0..1000).map(|_| AtomicUsize::new(0)).collect();
        for_each_index(hits.len(), &|i| {
            hits[i].fetch_add(1, Ordering::Relaxed);
        });
        assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
    }

    #[test]
    fn writes_every_piece_in_place() {
        let mut xs = vec![0usize; 10];
        let pieces: Vec<&mut [usize]> = xs.chunks_mut(3).collect();
        for_each_piece(pieces, |c, piece| {
            for (k, x) in piece.iter_mut().enumerate() {
                *x = c * 3 + k + 1;
            }
        });
        assert_eq!(xs, (1..=10).collect::<Vec<_>>());
    }

    #[test]
    fn joins_both_results() {
        let (a, b) = join(|| vec![1, 2], || "two");
        assert_eq!((a, b), (vec![1, 2], "two"));
        let (x, y) = join(|| join(|| 1, || 2), || 3);
        assert_eq!((x, y), ((1, 2), 3));
    }

    #[test]
    #[should_panic(expected = "left side")]
    fn a_panic_propagates() {
        let left = |fail: bool| if fail { panic!("left side") } else { 0 };
        let _ = join(|| left(true), || 1);
    }
}
