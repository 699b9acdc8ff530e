//! Poisson samples, one rate per element: element `i` draws from its own
//! stream (Philox counter `offset + i`, the third word counting its
//! blocks, two uniforms of 53 bits each), so the number of draws an element
//! needs does not move the others'. The algorithms are PyTorch's CPU ones:
//! Hörmann's transformed rejection (PTRS) for rates of 10 and more, the
//! product of uniforms below; every step an IEEE operation or the
//! functions of [`super::math`], so `kernels/random.cuh` gives the same
//! bits.
//!
//! ```
//! use shaped::random::poisson::sample;
//! assert_eq!(sample(0.0, 1, 0), 0.0);
//! let k = sample(4.5, 1, 0);
//! assert!(k >= 0.0 && k.fract() == 0.0);
//! ```

use super::math::{exp_f64, ln_f64};
use super::philox::draw_block;

/// `ln(k!)` for `k < 10`.
const LN_FACTORIAL: [f64; 10] = [
    0.0,
    0.0,
    core::f64::consts::LN_2,
    1.791_759_469_228_055,
    3.178_053_830_347_945_6,
    4.787_491_742_782_046,
    6.579_251_212_010_101,
    8.525_161_361_065_415,
    10.604_602_902_745_25,
    12.801_827_480_081_469,
];

/// `ln(k!)`: the table below 10, else Stirling's series to `x^-7`
/// (`x = k + 1`; below `1e-12` of the value).
#[inline(always)]
pub fn ln_factorial(k: f64) -> f64 {
    if k < 10.0 {
        return LN_FACTORIAL[k as usize];
    }
    let x = k + 1.0;
    let r = 1.0 / x;
    let r2 = r * r;
    let series = r * (1.0 / 12.0 - r2 * (1.0 / 360.0 - r2 * (1.0 / 1260.0 - r2 * (1.0 / 1680.0))));
    (x - 0.5) * ln_f64(x) - x + 0.918_938_533_204_672_8 + series
}

/// The uniforms of one element's stream, in `(0, 1]`.
struct Draws {
    seed: u64,
    counter: u64,
    block: u32,
    words: [u32; 4],
    next: usize,
}

impl Draws {
    #[inline(always)]
    fn uniform(&mut self) -> f64 {
        if self.next == 2 {
            self.words = draw_block(self.seed, self.counter, self.block);
            self.block = self.block.wrapping_add(1);
            self.next = 0;
        }
        let (hi, lo) = (self.words[2 * self.next], self.words[2 * self.next + 1]);
        self.next += 1;
        let bits = (u64::from(hi) << 32 | u64::from(lo)) >> 11;
        (bits + 1) as f64 * (1.0 / 9_007_199_254_740_992.0)
    }
}

/// A Poisson sample of `rate` (non-negative: 0 gives 0, an infinity gives
/// infinity) from the stream of `counter` under `seed`, as a float.
pub fn sample(rate: f64, seed: u64, counter: u64) -> f64 {
    if rate.partial_cmp(&0.0) != Some(core::cmp::Ordering::Greater) || rate == f64::INFINITY {
        return rate.max(0.0);
    }
    let mut draws = Draws {
        seed,
        counter,
        block: 0,
        words: [0; 4],
        next: 2,
    };
    if rate >= 10.0 {
        let slam = rate.sqrt();
        let loglam = ln_f64(rate);
        let b = 2.53f64.mul_add(slam, 0.931);
        let a = 0.02483f64.mul_add(b, -0.059);
        let invalpha = 1.1239 + 1.1328 / (b - 3.4);
        let vr = 0.9277 - 3.6224 / (b - 2.0);
        loop {
            let u = draws.uniform() - 0.5;
            let v = draws.uniform();
            let us = 0.5 - u.abs();
            let k = ((2.0 * a / us + b) * u + rate + 0.43).floor();
            if us >= 0.07 && v <= vr {
                return k;
            }
            if k < 0.0 || (us < 0.013 && v > us) {
                continue;
            }
            let lhs = ln_f64(v) + ln_f64(invalpha) - ln_f64(a / (us * us) + b);
            if lhs <= k.mul_add(loglam, -rate) - ln_factorial(k) {
                return k;
            }
        }
    }
    let enlam = exp_f64(-rate);
    let mut k = 0.0;
    let mut product = 1.0;
    loop {
        product *= draws.uniform();
        if product > enlam {
            k += 1.0;
        } else {
            return k;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_factorial_is_close() {
        let mut exact = 0.0f64;
        for k in 1..200 {
            exact += f64::from(k).ln();
            let got = ln_factorial(f64::from(k));
            assert!(
                (got - exact).abs() <= 1e-12 * exact.max(1.0),
                "{k}: {got} vs {exact}"
            );
        }
        assert_eq!(ln_factorial(0.0), 0.0);
    }
}
