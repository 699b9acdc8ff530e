//! [`Generator`]: a seed and a position in its Philox stream, and the
//! default generator of each device.

use crate::device::Device;
use std::sync::{Mutex, MutexGuard};

/// PyTorch's default seed (`torch.initial_seed()` before any
/// `manual_seed`), the initial seed of every default generator here.
pub const DEFAULT_SEED: u64 = 67_280_421_310_721;

/// A reproducible source of random numbers: Philox4x32-10 keyed by a seed,
/// read block by block (four 32-bit words each) from an offset that every
/// fill advances. A fill's numbers depend only on the seed, the offset and
/// each element's index, so one seed gives the same tensor on the CPU and
/// on CUDA, on any number of threads. (The numbers are not PyTorch's: its
/// CPU stream is a Mersenne Twister, which no user can rely on across
/// versions anyway.)
///
/// ```
/// use shaped::prelude::*;
/// use shaped::random::Generator;
/// let mut g = Generator::new(7);
/// let a = DynTensor::<f32>::rand(&[4], &mut g);
/// let b = DynTensor::<f32>::rand(&[4], &mut g); // the stream goes on
/// assert_ne!(a.to_vec(), b.to_vec());
/// g.manual_seed(7); // back to the start
/// assert_eq!(DynTensor::<f32>::rand(&[4], &mut g).to_vec(), a.to_vec());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Generator {
    seed: u64,
    offset: u64,
}

impl Generator {
    /// A generator at the start of `seed`'s stream.
    pub fn new(seed: u64) -> Self {
        Generator { seed, offset: 0 }
    }

    /// Restarts the stream of `seed` (PyTorch's `manual_seed`).
    pub fn manual_seed(&mut self, seed: u64) -> &mut Self {
        *self = Generator::new(seed);
        self
    }

    /// The seed (PyTorch's `initial_seed()`).
    pub fn initial_seed(&self) -> u64 {
        self.seed
    }

    /// The next block of the stream (how many blocks of four words the
    /// fills so far used).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Moves to block `offset` of the stream (with [`offset`](Self::offset),
    /// PyTorch's `get_state`/`set_state`).
    pub fn set_offset(&mut self, offset: u64) -> &mut Self {
        self.offset = offset;
        self
    }

    /// Reserves `blocks` blocks: the first one's index.
    pub(crate) fn take_blocks(&mut self, blocks: u64) -> u64 {
        let first = self.offset;
        self.offset = self.offset.wrapping_add(blocks);
        first
    }

    /// The default generator of `device` (each device has one, seeded with
    /// [`DEFAULT_SEED`] until [`manual_seed`] seeds them all), locked for
    /// as long as the guard lives.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::random::Generator;
    /// let mut g = Generator::default_for(&Device::Cpu);
    /// let x = Tensor::<f32, shape![2, 2]>::randn(&mut g);
    /// assert_eq!(x.shape(), [2, 2]);
    /// ```
    pub fn default_for(device: &Device) -> DefaultGenerator {
        let mut all = defaults();
        let index = match all.generators.iter().position(|(d, _)| d == device) {
            Some(i) => i,
            None => {
                let seed = all.seed;
                all.generators.push((*device, Generator::new(seed)));
                all.generators.len() - 1
            }
        };
        DefaultGenerator { all, index }
    }
}

/// The default generators, made on first use, and the seed of new ones.
#[derive(Debug)]
struct Defaults {
    seed: u64,
    generators: Vec<(Device, Generator)>,
}

static DEFAULTS: Mutex<Defaults> = Mutex::new(Defaults {
    seed: DEFAULT_SEED,
    generators: Vec::new(),
});

/// The defaults, locked (a panic while they were locked left them valid:
/// every change is one assignment).
fn defaults() -> MutexGuard<'static, Defaults> {
    DEFAULTS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Seeds every device's default generator (PyTorch's `torch.manual_seed`).
///
/// ```
/// use shaped::prelude::*;
/// use shaped::random::{Generator, manual_seed};
/// manual_seed(3);
/// assert_eq!(Generator::default_for(&Device::Cpu).initial_seed(), 3);
/// ```
pub fn manual_seed(seed: u64) {
    let mut all = defaults();
    all.seed = seed;
    for (_, g) in all.generators.iter_mut() {
        g.manual_seed(seed);
    }
}

/// A device's default generator, locked (see [`Generator::default_for`]).
#[derive(Debug)]
pub struct DefaultGenerator {
    all: MutexGuard<'static, Defaults>,
    index: usize,
}

impl core::ops::Deref for DefaultGenerator {
    type Target = Generator;
    fn deref(&self) -> &Generator {
        &self.all.generators[self.index].1
    }
}

impl core::ops::DerefMut for DefaultGenerator {
    fn deref_mut(&mut self) -> &mut Generator {
        &mut self.all.generators[self.index].1
    }
}
