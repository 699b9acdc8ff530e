//! NVIDIA's libraries (cuBLAS today, cuSOLVER and others later), found at
//! run time rather than linked: a program built here runs where the CUDA
//! version differs, or where the library is missing (the caller then falls
//! back to its own kernels and says so once).
//!
//! A library is looked up, in order, under the path in its environment
//! variable (`SHAPED_CUBLAS=/opt/cuda/lib64/libcublas.so.12`; only there when
//! set), then under its usual names for each major version (newest first)
//! through the system's loader (`LD_LIBRARY_PATH`, the loader's cache), then
//! under the same names in `$CUDA_PATH/lib64`, `$CUDA_HOME/lib64` and
//! `/usr/local/cuda/lib64`.

use libloading::Library;
use std::path::PathBuf;

/// What to look for: a vendor library's environment variable and the
/// file names of its versions, newest first.
pub(crate) struct VendorLibrary {
    /// The library's name in messages (`"cuBLAS"`).
    pub name: &'static str,
    /// The variable that names its path, which then is the only place
    /// looked at.
    pub variable: &'static str,
    /// Its file names, newest first (`libcublas.so.13`, ..., `libcublas.so`).
    pub files: &'static [&'static str],
}

/// A vendor library, opened.
pub(crate) struct Opened {
    /// The library, kept open as long as its functions are used.
    pub library: Library,
    /// Where it was found (a file name when the system's loader found it).
    pub path: String,
}

impl VendorLibrary {
    /// The places to try, in order: the variable's path alone when it is
    /// set (and not empty), else each file name, then each file in the
    /// toolkit's folders.
    pub fn candidates(&self, variable: Option<&str>, toolkit: &[PathBuf]) -> Vec<String> {
        if let Some(path) = variable.filter(|p| !p.is_empty()) {
            return vec![path.to_string()];
        }
        let mut found: Vec<String> = self.files.iter().map(|f| f.to_string()).collect();
        for dir in toolkit {
            for file in self.files {
                found.push(dir.join(file).to_string_lossy().into_owned());
            }
        }
        found
    }

    /// The toolkit's library folders: `$CUDA_PATH/lib64`, `$CUDA_HOME/lib64`
    /// and `/usr/local/cuda/lib64`.
    pub fn toolkit_dirs() -> Vec<PathBuf> {
        let mut dirs: Vec<PathBuf> = ["CUDA_PATH", "CUDA_HOME"]
            .iter()
            .filter_map(std::env::var_os)
            .filter(|v| !v.is_empty())
            .map(|v| PathBuf::from(v).join("lib64"))
            .collect();
        dirs.push(PathBuf::from("/usr/local/cuda/lib64"));
        dirs.dedup();
        dirs
    }

    /// Opens the first of `candidates` that loads and has every one of
    /// `symbols`; `Err` says what was tried and why each failed.
    pub fn open_first(&self, candidates: &[String], symbols: &[&str]) -> Result<Opened, String> {
        let mut failures = Vec::new();
        for path in candidates {
            match open_with(path, symbols) {
                Ok(library) => {
                    return Ok(Opened {
                        library,
                        path: path.clone(),
                    });
                }
                Err(why) => failures.push(format!("{path}: {why}")),
            }
        }
        let hint = match std::env::var_os(self.variable) {
            Some(_) => format!("(the path in {})", self.variable),
            None => format!("(set {} to the library's path)", self.variable),
        };
        Err(format!(
            "{} not found {hint}; tried {}",
            self.name,
            failures.join("; ")
        ))
    }

    /// Opens the library where the process's environment says: the
    /// variable's path, or the usual names and folders.
    pub fn open(&self, symbols: &[&str]) -> Result<Opened, String> {
        let variable = std::env::var(self.variable).ok();
        let candidates = self.candidates(variable.as_deref(), &Self::toolkit_dirs());
        self.open_first(&candidates, symbols)
    }
}

/// `path` opened, if it has every one of `symbols`.
fn open_with(path: &str, symbols: &[&str]) -> Result<Library, String> {
    // SAFETY: loading a shared library runs its initializers. The paths
    // are NVIDIA's libraries (or the one a user named in the variable),
    // whose initializers only set up their own state.
    let library = unsafe { Library::new(path) }.map_err(|e| short(&e.to_string()))?;
    for symbol in symbols {
        // SAFETY: only the symbol's presence is checked; it is not called
        // or read here (the caller looks it up again with its type).
        unsafe { library.get::<*const ()>(symbol.as_bytes()) }
            .map_err(|_| format!("it has no `{symbol}`"))?;
    }
    Ok(library)
}

/// The loader's message without the path it repeats.
fn short(message: &str) -> String {
    message
        .rsplit_once(": ")
        .map_or(message, |(_, why)| why)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST_LIBRARY: VendorLibrary = VendorLibrary {
        name: "libtest",
        variable: "SHAPED_TEST_LIBRARY_PATH",
        files: &["libshaped_none.so.2", "libshaped_none.so"],
    };

    #[test]
    fn the_variable_alone_is_tried_when_set() {
        let dirs = [PathBuf::from("/opt/cuda/lib64")];
        assert_eq!(
            TEST_LIBRARY.candidates(Some("/x/libcublas.so.12"), &dirs),
            vec!["/x/libcublas.so.12".to_string()]
        );
        assert_eq!(
            TEST_LIBRARY.candidates(Some(""), &dirs),
            vec![
                "libshaped_none.so.2",
                "libshaped_none.so",
                "/opt/cuda/lib64/libshaped_none.so.2",
                "/opt/cuda/lib64/libshaped_none.so"
            ]
        );
    }

    #[test]
    fn a_missing_library_says_what_was_tried() {
        let candidates = TEST_LIBRARY.candidates(None, &[PathBuf::from("/nowhere")]);
        let Err(why) = TEST_LIBRARY.open_first(&candidates, &[]) else {
            panic!("a library that does not exist opened");
        };
        assert!(
            why.starts_with("libtest not found (set SHAPED_TEST_LIBRARY_PATH"),
            "{why}"
        );
        assert!(why.contains("/nowhere/libshaped_none.so: "), "{why}");
        assert_eq!(why.matches("; ").count(), 4, "{why}");
    }

    #[test]
    fn a_library_without_the_symbols_is_refused() {
        // The C library is always there, and has no cuBLAS in it.
        let candidates = vec!["libc.so.6".to_string()];
        let opened = TEST_LIBRARY.open_first(&candidates, &["malloc"]);
        assert_eq!(opened.map(|o| o.path), Ok("libc.so.6".to_string()));
        let Err(why) = TEST_LIBRARY.open_first(&candidates, &["malloc", "cublasCreate_v2"]) else {
            panic!("libc has no cublasCreate_v2");
        };
        assert!(
            why.ends_with("tried libc.so.6: it has no `cublasCreate_v2`"),
            "{why}"
        );
    }
}
