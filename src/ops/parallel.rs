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
//! for_each_index(n, &|i| ..)           f(0) .. f(n - 1) on rayon's threads
//! for_each_chunk_mut(xs, k, |c, xs| ..) f on each k-long piece of xs, in place
//! map_indices(n, |i| ..)               the results of f(0) .. f(n - 1), in order
//! join(|| a, || b)             both, perhaps in parallel
//! ```

use rayon::prelude::*;
use std::sync::{Mutex, OnceLock, PoisonError};

/// Runs `f(i)` for every `i` in `0..n`, spread over rayon's threads.
pub(crate) fn for_each_index(n: usize, f: &(dyn Fn(usize) + Sync)) {
    (0..n).into_par_iter().for_each(f);
}

/// `f(c, piece)` for every `chunk`-long piece of `items` (the last may be
/// shorter), `c` the piece's index, spread over rayon's threads: each piece
/// is written in place by one thread.
pub(crate) fn for_each_chunk_mut<T: Send>(
    items: &mut [T],
    chunk: usize,
    f: impl Fn(usize, &mut [T]) + Sync,
) {
    // One uncontended lock per piece hands each thread its piece.
    let pieces: Vec<Mutex<&mut [T]>> = items.chunks_mut(chunk).map(Mutex::new).collect();
    for_each_index(pieces.len(), &|c| {
        let mut piece = pieces[c].lock().unwrap_or_else(PoisonError::into_inner);
        f(c, &mut piece);
    });
}

/// `[f(0), .., f(n - 1)]`, computed on rayon's threads.
pub(crate) fn map_indices<T: Send + Sync>(n: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let slots: Vec<OnceLock<T>> = (0..n).map(|_| OnceLock::new()).collect();
    for_each_index(n, &|i| {
        // Each index is visited once, so each slot is set once.
        let _ = slots[i].set(f(i));
    });
    slots
        .into_iter()
        .map(|slot| slot.into_inner().expect("every index was visited"))
        .collect()
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
    fn writes_every_chunk_in_place() {
        let mut xs = vec![0usize; 10];
        for_each_chunk_mut(&mut xs, 3, |c, piece| {
            for (k, x) in piece.iter_mut().enumerate() {
                *x = c * 3 + k + 1;
            }
        });
        assert_eq!(xs, (1..=10).collect::<Vec<_>>());
    }

    #[test]
    fn maps_in_order() {
        assert_eq!(map_indices(5, |i| i * i), vec![0, 1, 4, 9, 16]);
        assert_eq!(map_indices(0, |i| i), Vec::<usize>::new());
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
