//! Property tests of the rearrangements: on random shapes (0 to 4
//! dimensions, sizes 0 to 5), random strided layouts (a transposed or
//! stepped view of a larger buffer) and random arguments, `flip`, `roll`,
//! `pad` (every mode, negative amounts), `tril`/`triu`, `repeat` and
//! `repeat_interleave` of `DynTensor` give a plain reference's sizes and
//! values (written here, element by element, knowing nothing of the
//! library), or an `Err` exactly where the reference refuses; a static
//! shape's forms give the dynamic forms' tensors.

use proptest::prelude::*;
use shaped::prelude::*;

/// Row-major coordinates of element `i` of `sizes`.
fn coords(mut i: usize, sizes: &[usize]) -> Vec<usize> {
    let mut at = vec![0; sizes.len()];
    for d in (0..sizes.len()).rev() {
        at[d] = i % sizes[d];
        i /= sizes[d];
    }
    at
}

/// The element of `x` (row-major values of `sizes`) at `at`.
fn element(x: &[i32], sizes: &[usize], at: &[usize]) -> i32 {
    let mut flat = 0;
    for (d, &k) in at.iter().enumerate() {
        flat = flat * sizes[d] + k;
    }
    x[flat]
}

/// A tensor of `sizes` holding `0, 1, ..` laid out as a view: transposed
/// (dimensions reversed in memory) when `transposed`.
fn input(sizes: &[usize], transposed: bool) -> (DynTensor<i32>, Vec<i32>) {
    let n: usize = sizes.iter().product();
    let values: Vec<i32> = (0..n as i32).collect();
    if !transposed || sizes.len() < 2 {
        return (
            DynTensor::<i32>::from_vec(values.clone(), sizes).unwrap(),
            values,
        );
    }
    // Stored with the dimensions reversed, then permuted back: the same
    // logical values, strides increasing.
    let reversed: Vec<usize> = sizes.iter().rev().copied().collect();
    let mut stored = vec![0; n];
    for (i, slot) in stored.iter_mut().enumerate() {
        let at: Vec<usize> = coords(i, &reversed).into_iter().rev().collect();
        *slot = element(&values, sizes, &at);
    }
    let base = DynTensor::<i32>::from_vec(stored, &reversed).unwrap();
    let order: Vec<isize> = (0..sizes.len() as isize).rev().collect();
    (base.permute(&order).unwrap().clone(), values)
}

/// The `sizes` of `shape` with a reference's value function.
fn reference(out: &[usize], value: impl Fn(&[usize]) -> i32) -> (Vec<usize>, Vec<i32>) {
    let n: usize = out.iter().product();
    (
        out.to_vec(),
        (0..n).map(|i| value(&coords(i, out))).collect(),
    )
}

fn shapes() -> impl Strategy<Value = Vec<usize>> {
    proptest::collection::vec(0usize..5, 0..5)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 400,
        max_shrink_iters: 400,
        ..ProptestConfig::default()
    }
}

/// A `(sizes, values)` result of the library.
fn got(t: Result<DynTensor<i32>, Error>) -> Option<(Vec<usize>, Vec<i32>)> {
    t.ok().map(|t| (t.shape().to_vec(), t.to_vec()))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn flips_and_rolls(sizes in shapes(), transposed in any::<bool>(), mask in any::<[bool; 4]>(), shifts in any::<[i8; 4]>()) {
        let (x, v) = input(&sizes, transposed);
        let rank = sizes.len();
        let dims: Vec<isize> = (0..rank).filter(|&d| mask[d]).map(|d| d as isize).collect();
        let want = reference(&sizes, |at| {
            let src: Vec<usize> = at.iter().enumerate().map(|(d, &k)| if mask[d] { sizes[d] - 1 - k } else { k }).collect();
            element(&v, &sizes, &src)
        });
        prop_assert_eq!(got(x.flip(&dims)), Some(want));
        let shifts: Vec<isize> = dims.iter().map(|&d| shifts[d as usize] as isize).collect();
        if !dims.is_empty() {
            let want = reference(&sizes, |at| {
                let src: Vec<usize> = at.iter().enumerate().map(|(d, &k)| {
                    match dims.iter().position(|&e| e as usize == d) {
                        Some(p) => (k as isize - shifts[p]).rem_euclid(sizes[d] as isize) as usize,
                        None => k,
                    }
                }).collect();
                element(&v, &sizes, &src)
            });
            prop_assert_eq!(got(x.roll(&shifts, &dims)), Some(want));
        }
    }

    #[test]
    fn pads(sizes in shapes(), transposed in any::<bool>(), amounts in proptest::collection::vec(-3isize..4, 0..5), mode in 0..4usize, value in -9i32..9) {
        let (x, v) = input(&sizes, transposed);
        let rank = sizes.len();
        let mode = [PadMode::Constant, PadMode::Reflect, PadMode::Replicate, PadMode::Circular][mode];
        let pairs = amounts.len() / 2;
        let pad = &amounts[..2 * pairs];
        let result = x.pad(pad, mode, (mode == PadMode::Constant).then_some(value));
        if pairs > rank {
            prop_assert!(result.is_err());
            return Ok(());
        }
        // The reference: what each output position reads, per dimension.
        let mut out = sizes.clone();
        let mut before = vec![0isize; rank];
        for k in 0..pairs {
            let d = rank - 1 - k;
            before[d] = pad[2 * k];
            out[d] = (sizes[d] as isize + pad[2 * k] + pad[2 * k + 1]).max(0) as usize;
        }
        let read = |d: usize, k: usize| -> Option<usize> {
            let n = sizes[d] as isize;
            let j = k as isize - before[d];
            let j = match mode {
                PadMode::Constant => j,
                PadMode::Reflect => if j < 0 { -j } else if j >= n { 2 * (n - 1) - j } else { j },
                PadMode::Replicate => j.clamp(0, n - 1),
                PadMode::Circular => {
                    // Cropped first, then wrapped within what is left.
                    let lo = (-before[d]).max(0);
                    let after = out[d] as isize - n - before[d];
                    let m = n - lo - (-after).max(0);
                    lo + (k as isize - before[d].max(0)).rem_euclid(m.max(1))
                }
            };
            (0..n).contains(&j).then_some(j as usize)
        };
        match result {
            Ok(t) => {
                let want = reference(&out, |at| {
                    let src: Option<Vec<usize>> = at.iter().enumerate().map(|(d, &k)| read(d, k)).collect();
                    src.map_or(if mode == PadMode::Constant { value } else { i32::MIN }, |s| element(&v, &sizes, &s))
                });
                prop_assert_eq!((t.shape().to_vec(), t.to_vec()), want);
            }
            // Refusals: a crop past the size, or what the non-constant
            // modes do not take (ranks, empty inputs, long reflections).
            Err(_) => {
                let crops_past = pad.chunks(2).enumerate().any(|(k, p)| {
                    let n = sizes[rank - 1 - k] as isize;
                    n + p[0].min(0) + p[1].min(0) < 0
                });
                prop_assert!(mode != PadMode::Constant || crops_past);
            }
        }
    }

    #[test]
    fn triangles_and_repeats(sizes in shapes(), transposed in any::<bool>(), diagonal in -4i64..5, reps in proptest::collection::vec(0isize..3, 0..6), count in 0i64..3) {
        let (x, v) = input(&sizes, transposed);
        let rank = sizes.len();
        if rank >= 2 {
            let (r, c) = (rank - 2, rank - 1);
            let want = reference(&sizes, |at| {
                let kept = at[c] as i64 - at[r] as i64 <= diagonal;
                if kept { element(&v, &sizes, at) } else { 0 }
            });
            prop_assert_eq!(got(x.tril(diagonal)), Some(want));
            let want = reference(&sizes, |at| {
                let kept = at[c] as i64 - at[r] as i64 >= diagonal;
                if kept { element(&v, &sizes, at) } else { 0 }
            });
            prop_assert_eq!(got(x.triu(diagonal)), Some(want));
        } else {
            prop_assert!(x.tril(diagonal).is_err());
        }
        if reps.len() >= rank {
            let lead = reps.len() - rank;
            let out: Vec<usize> = reps.iter().enumerate().map(|(k, &r)| r as usize * if k < lead { 1 } else { sizes[k - lead] }).collect();
            let want = reference(&out, |at| {
                let src: Vec<usize> = (0..rank).map(|d| at[d + lead] % sizes[d]).collect();
                element(&v, &sizes, &src)
            });
            prop_assert_eq!(got(x.repeat(&reps)), Some(want));
        } else {
            prop_assert!(x.repeat(&reps).is_err());
        }
        if rank > 0 {
            let d = rank - 1;
            let mut out = sizes.clone();
            out[d] *= count as usize;
            let want = reference(&out, |at| {
                let mut src = at.to_vec();
                src[d] /= count as usize;
                element(&v, &sizes, &src)
            });
            prop_assert_eq!(got(x.repeat_interleave(count, Some(-1))), Some(want));
        }
    }
}

/// The static forms give the dynamic forms' tensors on a transposed view.
#[test]
fn static_forms_of_a_view_agree() {
    let base = Tensor::<i32, shape![4, 3]>::from_vec((0..12).collect()).unwrap();
    let t = base.t();
    let d = t.to_owned().into_dyn();
    assert_eq!(
        t.flip::<axes![0]>().to_vec(),
        d.flip(&[0]).unwrap().to_vec()
    );
    assert_eq!(t.flip::<axes![0]>().strides(), [1, 3]);
    assert_eq!(
        t.roll::<1>(5).to_vec(),
        d.roll(&[5], &[1]).unwrap().to_vec()
    );
    assert_eq!(
        t.rot90::<-1, 0, 1>().to_vec(),
        d.rot90(-1, &[0, 1]).unwrap().to_vec()
    );
    assert_eq!(t.tril(1).to_vec(), d.tril(1).unwrap().to_vec());
    assert_eq!(
        t.pad::<shape![2, 0, 0, 1]>(7).to_vec(),
        d.pad(&[2, 0, 0, 1], PadMode::Constant, Some(7))
            .unwrap()
            .to_vec()
    );
}
