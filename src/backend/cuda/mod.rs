//! The CUDA backend (the `cuda` feature): device memory through the CUDA
//! driver (`cust`), and the elementwise kernels of `kernels/*.cu`, compiled
//! by `nvcc` in `build.rs` and embedded in the library.
//!
//! A [`Cuda`] value names an opened device. Each device gets, once per
//! process, its primary context, one stream on which every operation and
//! copy is queued in order, and the kernels' module. Buffers come from the
//! driver's stream-ordered memory pool (`cuMemAllocAsync`), which keeps freed
//! memory for reuse as PyTorch's caching allocator does.

mod blas;
mod buffer;
mod elementwise;
#[cfg(test)]
mod host_conversion_tests;
#[cfg(test)]
mod host_indexing_tests;
#[cfg(test)]
mod host_masking_tests;
#[cfg(test)]
mod host_math_tests;
#[cfg(test)]
mod host_matmul_tests;
#[cfg(test)]
mod host_normalize_tests;
#[cfg(test)]
mod host_order_tests;
#[cfg(test)]
mod host_random_tests;
#[cfg(test)]
mod host_rearrange_tests;
#[cfg(test)]
mod host_reduce_tests;
#[cfg(test)]
mod host_scan_tests;
#[cfg(test)]
mod host_select_tests;
#[cfg(test)]
mod host_sets_tests;
#[cfg(test)]
mod host_sort_tests;
#[cfg(test)]
mod host_tests;
mod indexing;
pub(crate) mod launch;
mod masking;
mod matmul;
mod mixed;
mod order;
mod random;
mod rearrange;
pub(crate) mod reduce;
mod scan;
mod select;
mod sets;
mod softmax;
mod sort;
mod transfer;
mod vendor;

pub use buffer::{CudaBuffer, CudaPtr};
pub use mixed::CpuOperandOfCudaOp;

use super::{Backend, Device, StorageId, sealed};
use crate::dtype::Element;
use crate::error::Error;
use cust::context::{Context, CurrentContext};
use cust::device::{Device as CudaDevice, DeviceAttribute};
use cust::error::CudaError;
use cust::function::Function;
use cust::module::Module;
use cust::stream::{Stream, StreamFlags};
use std::cell::Cell;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// The kernels for sm_80 and sm_90 (and PTX for later GPUs), built by
/// `build.rs` from one source file each: `kernels/elementwise.cu` (every
/// elementwise family but math), `kernels/math.cu` (the `shaped_math_*`
/// kernels), `kernels/reduce.cu` (`shaped_reduce_*`, `shaped_stats_*`,
/// `shaped_softmax_*`, `shaped_norm_*`) and `kernels/select.cu`
/// (`shaped_where_*`), `kernels/matmul.cu` (`shaped_matmul_*`) and
/// `kernels/indexing.cu` (`shaped_gather_*`), `kernels/scan.cu`
/// (`shaped_scan_*`), `kernels/sort.cu` (`shaped_sort_*`) and
/// `kernels/sets.cu` (`shaped_sets_*`), `kernels/special.cu`
/// (`shaped_special_*`) and `kernels/random.cu` (`shaped_random_*`),
/// compiled apart so that the builds run in parallel.
static FATBINS: [&[u8]; 11] = [
    include_bytes!(concat!(env!("OUT_DIR"), "/elementwise.fatbin")),
    include_bytes!(concat!(env!("OUT_DIR"), "/math.fatbin")),
    include_bytes!(concat!(env!("OUT_DIR"), "/reduce.fatbin")),
    include_bytes!(concat!(env!("OUT_DIR"), "/select.fatbin")),
    include_bytes!(concat!(env!("OUT_DIR"), "/matmul.fatbin")),
    include_bytes!(concat!(env!("OUT_DIR"), "/indexing.fatbin")),
    include_bytes!(concat!(env!("OUT_DIR"), "/scan.fatbin")),
    include_bytes!(concat!(env!("OUT_DIR"), "/sort.fatbin")),
    include_bytes!(concat!(env!("OUT_DIR"), "/sets.fatbin")),
    include_bytes!(concat!(env!("OUT_DIR"), "/special.fatbin")),
    include_bytes!(concat!(env!("OUT_DIR"), "/random.fatbin")),
];

/// The source file of each of [`FATBINS`], in order (for the test that
/// checks [`MODULE_PREFIXES`] against the kernels each file defines).
#[cfg(test)]
const UNIT_NAMES: [&str; 11] = [
    "elementwise",
    "math",
    "reduce",
    "select",
    "matmul",
    "indexing",
    "scan",
    "sort",
    "sets",
    "special",
    "random",
];

/// The kernels' name prefixes and the index in [`FATBINS`] of the module
/// that holds them (the first holds every other kernel).
const MODULE_PREFIXES: [(&str, usize); 20] = [
    ("shaped_math_", 1),
    ("shaped_special_", 9),
    ("shaped_reduce_", 2),
    ("shaped_stats_", 2),
    ("shaped_softmax_", 2),
    ("shaped_norm_", 2),
    ("shaped_where_", 3),
    ("shaped_ternary_", 3),
    ("shaped_rearrange_", 3),
    ("shaped_matmul_", 4),
    ("shaped_gather_", 5),
    ("shaped_scatter_", 5),
    ("shaped_combine_", 5),
    ("shaped_compact_", 5),
    ("shaped_scan_", 6),
    ("shaped_sort_", 7),
    ("shaped_sets_", 8),
    ("shaped_random_", 10),
    ("shaped_draw_", 10),
    ("shaped_poisson_", 10),
];

/// Which of [`FATBINS`] holds `kernel`.
fn module_of(kernel: &str) -> usize {
    MODULE_PREFIXES
        .iter()
        .find(|(prefix, _)| kernel.starts_with(prefix))
        .map_or(0, |&(_, module)| module)
}

/// A CUDA device, opened: tensors `Tensor<T, S, Cuda>` live in its memory.
///
/// ```no_run
/// use shaped::prelude::*;
/// let gpu = Cuda::new(0)?;
/// let x = Tensor::<f32, shape![2, 3]>::ones().to_device(&gpu)?;
/// let y = (&x + &x).to_cpu()?;
/// assert_eq!(y.to_vec(), vec![2.0; 6]);
/// assert_eq!(x.device(), Device::Cuda(0));
/// # Ok::<(), shaped::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cuda {
    index: usize,
}

impl sealed::Sealed for Cuda {}

impl Cuda {
    /// Opens device `index` (once per process; later calls are cheap).
    /// `Err` when there is no such device or no driver.
    pub fn new(index: usize) -> Result<Cuda, Error> {
        state(index)?;
        Ok(Cuda { index })
    }

    /// The device for `device`: `Err` for the CPU.
    ///
    /// ```no_run
    /// use shaped::prelude::*;
    /// let gpu = Cuda::open(&"cuda:0".parse::<Device>()?)?;
    /// assert_eq!(gpu.index(), 0);
    /// # Ok::<(), shaped::Error>(())
    /// ```
    pub fn open(device: &Device) -> Result<Cuda, Error> {
        match device {
            Device::Cuda(index) => Cuda::new(*index),
            Device::Cpu => Err(Error::InvalidDevice("cpu is not a CUDA device".into())),
        }
    }

    /// The device's index.
    pub fn index(&self) -> usize {
        self.index
    }

    /// `Device::Cuda(index)`.
    pub fn device(&self) -> Device {
        Device::Cuda(self.index)
    }

    /// The device's name, as the driver gives it.
    pub fn name(&self) -> Result<String, Error> {
        let state = state(self.index)?;
        state
            .device
            .name()
            .map_err(cuda_error("reading the device name"))
    }

    /// What runs this device's float matrix products: `Ok` with cuBLAS's
    /// version and where it was found, or `Err` with why the built-in tiled
    /// kernel runs them instead (it always runs integer products). cuBLAS is
    /// looked up at run time: under the path in `SHAPED_CUBLAS` when that is
    /// set, else as `libcublas.so.13`, `.12`, `.11` through the system's
    /// loader and in `$CUDA_PATH/lib64`, `$CUDA_HOME/lib64` and
    /// `/usr/local/cuda/lib64`.
    ///
    /// ```no_run
    /// use shaped::prelude::*;
    /// let gpu = Cuda::new(0)?;
    /// match gpu.blas_library() {
    ///     Ok(library) => println!("products by {library}"),
    ///     Err(why) => println!("products by the tiled kernel: {why}"),
    /// }
    /// # Ok::<(), shaped::Error>(())
    /// ```
    pub fn blas_library(&self) -> Result<String, String> {
        let state = state(self.index).map_err(|e| e.to_string())?;
        state.make_current().map_err(|e| e.to_string())?;
        let lib = blas::cublas().map_err(str::to_string)?;
        blas::handle(lib, self.index, state.stream.as_inner().cast())?;
        let [major, minor, patch] = lib.version;
        Ok(format!("cuBLAS {major}.{minor}.{patch} ({})", lib.path))
    }

    /// Waits until every operation queued on the device has finished (on
    /// any stream of its context); `Err` with the first failure of one of
    /// them.
    pub fn synchronize(&self) -> Result<(), Error> {
        state(self.index)?.synchronize_all()
    }

    /// Hands the memory that freed tensors left in the device's pool back to
    /// the driver (PyTorch's `torch.cuda.empty_cache()`), after waiting for
    /// the device. The pool keeps freed memory for the next tensors, so that
    /// making one does not map new memory each time; this is for giving it
    /// to other programs.
    ///
    /// ```no_run
    /// use shaped::prelude::*;
    /// let gpu = Cuda::new(0)?;
    /// drop(DynTensor::<f32, Cuda>::full_on(&gpu, &[1 << 28], 0.0)?);
    /// gpu.empty_cache()?; // the 1 GiB goes back to the driver
    /// # Ok::<(), shaped::Error>(())
    /// ```
    pub fn empty_cache(&self) -> Result<(), Error> {
        let state = state(self.index)?;
        state.synchronize_all()?;
        let pool = memory_pool(&state.device)?;
        // SAFETY: the pool is the device's, and nothing queued uses its free
        // memory (the device was waited for).
        check(
            unsafe { cust::sys::cuMemPoolTrimTo(pool, 0) },
            "emptying the memory pool",
        )
    }
}

/// Everything a process keeps for one opened device.
pub(crate) struct DeviceState {
    index: usize,
    device: CudaDevice,
    context: Context,
    pub(crate) stream: Stream,
    /// The modules of [`FATBINS`], in order: every one is loaded, so each
    /// index [`module_of`] gives is in range.
    modules: Vec<Module>,
    /// Streaming multiprocessors, to size grids.
    multiprocessors: u32,
    /// Bytes of L2 cache, to size the softmax's grid.
    pub(crate) l2_bytes: u64,
    /// Blocks of each kernel that the whole device holds at once.
    resident: Mutex<HashMap<String, u32>>,
}

impl DeviceState {
    /// Makes the device's context current on this thread.
    pub(crate) fn make_current(&self) -> Result<(), Error> {
        thread_local! {
            static CURRENT: Cell<Option<usize>> = const { Cell::new(None) };
        }
        if CURRENT.get() != Some(self.index) {
            CurrentContext::set_current(&self.context)
                .map_err(cuda_error("making the device current"))?;
            CURRENT.set(Some(self.index));
        }
        Ok(())
    }

    /// The kernel named `name`.
    pub(crate) fn function(&self, name: &str) -> Result<Function<'_>, Error> {
        self.modules[module_of(name)]
            .get_function(name)
            .map_err(cuda_error("finding a kernel"))
    }

    /// How many blocks of `block` threads of `kernel` the device runs at
    /// once: the grid of a grid-stride loop, one wave with no tail.
    pub(crate) fn resident_blocks(
        &self,
        kernel: &str,
        function: &Function<'_>,
        block: u32,
    ) -> Result<u32, Error> {
        let mut resident = self.resident.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&blocks) = resident.get(kernel) {
            return Ok(blocks);
        }
        let per_multiprocessor = function
            .max_active_blocks_per_multiprocessor(block.into(), 0)
            .map_err(cuda_error("sizing a grid"))?;
        let blocks = per_multiprocessor
            .max(1)
            .saturating_mul(self.multiprocessors);
        resident.insert(kernel.to_string(), blocks);
        Ok(blocks)
    }

    /// Waits for the device's stream.
    pub(crate) fn synchronize(&self) -> Result<(), Error> {
        self.make_current()?;
        self.stream
            .synchronize()
            .map_err(cuda_error("waiting for the device"))
    }

    /// Waits for everything queued in the device's context, on any stream.
    fn synchronize_all(&self) -> Result<(), Error> {
        self.make_current()?;
        CurrentContext::synchronize().map_err(cuda_error("waiting for the device"))
    }
}

/// Opened devices by index. Each is opened once and kept for the life of
/// the process (as CUDA's primary contexts are), so that tensors can refer
/// to it by index alone.
fn devices() -> &'static Mutex<Vec<Option<&'static DeviceState>>> {
    static DEVICES: OnceLock<Mutex<Vec<Option<&'static DeviceState>>>> = OnceLock::new();
    DEVICES.get_or_init(|| Mutex::new(Vec::new()))
}

/// The state of device `index`, opening it on first use.
pub(crate) fn state(index: usize) -> Result<&'static DeviceState, Error> {
    let mut devices = devices().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(Some(state)) = devices.get(index) {
        return Ok(state);
    }
    let state: &'static DeviceState = Box::leak(Box::new(open(index)?));
    if devices.len() <= index {
        devices.resize(index + 1, None);
    }
    devices[index] = Some(state);
    Ok(state)
}

fn open(index: usize) -> Result<DeviceState, Error> {
    cust::init(cust::CudaFlags::empty()).map_err(cuda_error("initializing the driver"))?;
    let ordinal =
        u32::try_from(index).map_err(|_| Error::InvalidDevice(format!("cuda:{index}")))?;
    let device = CudaDevice::get_device(ordinal).map_err(cuda_error("opening the device"))?;
    let context = Context::new(device).map_err(cuda_error("creating the context"))?;
    CurrentContext::set_current(&context).map_err(cuda_error("making the device current"))?;
    let stream =
        Stream::new(StreamFlags::NON_BLOCKING, None).map_err(cuda_error("creating the stream"))?;
    keep_freed_memory(&device)?;
    let load =
        |fatbin: &[u8]| Module::from_fatbin(fatbin, &[]).map_err(cuda_error("loading the kernels"));
    let modules = FATBINS
        .iter()
        .map(|fatbin| load(fatbin))
        .collect::<Result<Vec<_>, _>>()?;
    let multiprocessors = device
        .get_attribute(DeviceAttribute::MultiprocessorCount)
        .map_err(cuda_error("reading the device's attributes"))?;
    let l2_bytes = device
        .get_attribute(DeviceAttribute::L2CacheSize)
        .map_err(cuda_error("reading the device's attributes"))?;
    Ok(DeviceState {
        index,
        device,
        context,
        stream,
        modules,
        multiprocessors: u32::try_from(multiprocessors).unwrap_or(1).max(1),
        l2_bytes: u64::try_from(l2_bytes).unwrap_or(0),
        resident: Mutex::new(HashMap::new()),
    })
}

/// The device's stream-ordered memory pool (where `cuMemAllocAsync` takes
/// buffers from).
fn memory_pool(device: &CudaDevice) -> Result<cust::sys::CUmemoryPool, Error> {
    let mut pool = core::ptr::null_mut();
    // SAFETY: `pool` is a valid place for the handle, and the device was
    // opened by the driver.
    let result = unsafe { cust::sys::cuDeviceGetDefaultMemPool(&mut pool, device.as_raw()) };
    check(result, "finding the memory pool")?;
    Ok(pool)
}

/// Has the device's memory pool keep freed memory for later buffers, as
/// PyTorch's caching allocator does. With the driver's default (a release
/// threshold of 0) every synchronization hands the pool's free memory back,
/// and the next buffer maps it again: about 4 ms per GiB on an H100, which
/// made an `a + b` of 1 GiB outputs a quarter slower when timed with a
/// synchronization every 20 operations. [`Cuda::empty_cache`] hands it back.
fn keep_freed_memory(device: &CudaDevice) -> Result<(), Error> {
    let pool = memory_pool(device)?;
    let mut threshold = u64::MAX;
    // SAFETY: the release threshold is a u64, passed by address; the pool
    // is the device's.
    let result = unsafe {
        cust::sys::cuMemPoolSetAttribute(
            pool,
            cust::sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
            (&mut threshold as *mut u64).cast(),
        )
    };
    check(result, "configuring the memory pool")
}

/// `Ok` for a driver call that succeeded, else [`Error::Cuda`], saying what
/// was being done.
pub(crate) fn check(result: cust::sys::CUresult, during: &'static str) -> Result<(), Error> {
    if result == cust::sys::CUresult::CUDA_SUCCESS {
        Ok(())
    } else {
        Err(Error::Cuda {
            message: format!("{result:?}"),
            during,
        })
    }
}

/// Turns a driver error into [`Error::Cuda`], saying what was being done.
pub(crate) fn cuda_error(during: &'static str) -> impl Fn(CudaError) -> Error {
    move |e| Error::Cuda {
        message: e.to_string().trim_matches('"').to_string(),
        during,
    }
}

impl Backend for Cuda {
    type Buffer<T: Element> = CudaBuffer<T>;
    type Ptr<T: Element> = CudaPtr<T>;

    fn ptr<T: Element>(buffer: &CudaBuffer<T>) -> CudaPtr<T> {
        buffer.ptr()
    }
    fn ptr_mut<T: Element>(buffer: &mut CudaBuffer<T>) -> CudaPtr<T> {
        buffer.ptr()
    }
    fn cast_ptr<T: Element, U: Element>(ptr: CudaPtr<T>) -> CudaPtr<U> {
        ptr.cast()
    }
    fn len<T: Element>(buffer: &CudaBuffer<T>) -> usize {
        buffer.len()
    }
    fn storage_id<T: Element>(buffer: &CudaBuffer<T>) -> StorageId {
        buffer.storage_id()
    }
    fn device<T: Element>(buffer: &CudaBuffer<T>) -> Device {
        Device::Cuda(buffer.device_index())
    }
    fn item<T: Element>(x: super::StridedRef<'_, T, Cuda>) -> Result<T, Error> {
        if crate::layout::numel(x.sizes) == 0 {
            return Err(Error::ItemOfEmpty);
        }
        let state = state(x.ptr.device)?;
        state.make_current()?;
        let mut value = [T::ZERO];
        // SAFETY: the bytes of the one `T` in `value`, which the copy below
        // overwrites with a `T` this crate wrote on the device (the 12
        // dtypes are plain values; a bool as 0 or 1, as `to_cpu` copies).
        let bytes = unsafe {
            core::slice::from_raw_parts_mut(value.as_mut_ptr().cast::<u8>(), size_of::<T>())
        };
        let src = x.ptr.addr + (x.offset * size_of::<T>()) as u64;
        // SAFETY: a `StridedRef` addresses only elements inside its live
        // buffer; with at least one element, the one at `offset` is there,
        // written by work queued before on the device's stream.
        unsafe { indexing::read_back(state, src, bytes) }?;
        Ok(value[0])
    }
}

#[cfg(test)]
mod module_tests {
    use super::{FATBINS, MODULE_PREFIXES, UNIT_NAMES, module_of};

    #[test]
    fn every_kernel_prefix_names_an_embedded_module() {
        for (prefix, module) in MODULE_PREFIXES {
            assert_eq!(module_of(&format!("{prefix}f32")), module, "{prefix}");
            assert!(module < FATBINS.len(), "{prefix} names module {module}");
        }
        assert_eq!(module_of("shaped_add_f32"), 0);
        // kernels/select.cu holds both of its families.
        assert_eq!(
            module_of("shaped_ternary_f16"),
            module_of("shaped_where_f16")
        );
    }

    /// The source of `kernels/{file}`.
    fn source(file: &str) -> String {
        let path = format!("{}/kernels/{file}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// Every kernel family a unit instantiates is looked up in that unit's
    /// module: the macros a `.cu` file applies (`SHAPED_FOR_EACH_*(M)`), each
    /// macro's family in the headers (`shaped_<family>_##name`).
    #[test]
    fn every_family_is_looked_up_in_its_own_module() {
        let headers: String = std::fs::read_dir(format!("{}/kernels", env!("CARGO_MANIFEST_DIR")))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|f| f.ends_with(".cuh"))
            .map(|f| source(&f))
            .collect();
        for (module, unit) in UNIT_NAMES.iter().enumerate() {
            let cu = source(&format!("{unit}.cu"));
            let mut families = 0;
            for line in cu.lines().filter(|l| l.starts_with("SHAPED_FOR_EACH")) {
                let mac = line.split(['(', ')']).nth(1).unwrap();
                let define = format!("#define {mac}(");
                let at = headers
                    .find(&define)
                    .unwrap_or_else(|| panic!("{mac} is not defined"));
                let body = &headers[at..];
                let start = body.find("shaped_").unwrap() + "shaped_".len();
                let family = &body[start..start + body[start..].find("_##name").unwrap()];
                let kernel = format!("shaped_{family}_f32");
                assert_eq!(module_of(&kernel), module, "{kernel} is in {unit}.cu");
                families += 1;
            }
            assert!(families > 0, "no kernel family found in {unit}.cu");
        }
    }
}
