//! Devices, as PyTorch names them: a device type plus an index.

use crate::error::Error;
use core::fmt;
use core::str::FromStr;

/// Where a tensor lives: `cpu` or `cuda:N`.
///
/// ```
/// use shaped::prelude::*;
/// assert_eq!("cuda:1".parse::<Device>().unwrap(), Device::Cuda(1));
/// assert_eq!("cpu".parse::<Device>().unwrap(), Device::Cpu);
/// assert_eq!(Device::Cuda(0).to_string(), "cuda:0");
/// assert!("gpu".parse::<Device>().is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Device {
    /// The host.
    Cpu,
    /// A CUDA device by index (`"cuda"` alone means index 0).
    Cuda(usize),
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Device::Cpu => write!(f, "cpu"),
            Device::Cuda(i) => write!(f, "cuda:{i}"),
        }
    }
}

impl FromStr for Device {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        let invalid = || Error::InvalidDevice(s.to_string());
        let (kind, index) = match s.split_once(':') {
            Some((kind, index)) => {
                let index = (!index.is_empty() && index.bytes().all(|b| b.is_ascii_digit()))
                    .then(|| index.parse::<usize>().ok())
                    .flatten()
                    .ok_or_else(invalid)?;
                (kind, Some(index))
            }
            None => (s, None),
        };
        match (kind, index) {
            ("cpu", None | Some(0)) => Ok(Device::Cpu),
            ("cuda", index) => Ok(Device::Cuda(index.unwrap_or(0))),
            _ => Err(invalid()),
        }
    }
}
