//! The integration tests, one module per file of `tests/`, in one binary:
//! one link of `shaped` instead of one per file, and the generic code they
//! share instantiated once. Binaries of their own: the GPU tests (`cuda.rs`,
//! the `cuda` feature), the randomized soundness driver
//! (`soundness_driver.rs`, which owns the panic hook), and the products'
//! tests (`matmul_fixtures.rs`, `matmul_properties.rs`), which CI builds
//! again with the `complex-gemm` feature.
//!
//! A new file of tests is listed here; `every_file_is_listed` checks.

#[macro_use]
mod common;

#[path = "activation_fixtures.rs"]
mod activation_fixtures;
#[path = "advanced_indexing_fixtures.rs"]
mod advanced_indexing_fixtures;
#[path = "any_view_operands.rs"]
mod any_view_operands;
#[path = "broadcast_fixtures.rs"]
mod broadcast_fixtures;
#[path = "closures.rs"]
mod closures;
#[path = "complex_views.rs"]
mod complex_views;
#[path = "creation_fixtures.rs"]
mod creation_fixtures;
#[path = "display.rs"]
mod display;
#[path = "division_fixtures.rs"]
mod division_fixtures;
#[path = "dtype_fixtures.rs"]
mod dtype_fixtures;
#[path = "dynamic_fixtures.rs"]
mod dynamic_fixtures;
#[path = "empty_huge_sizes.rs"]
mod empty_huge_sizes;
#[path = "half_numbers.rs"]
mod half_numbers;
#[path = "indexing_fixtures.rs"]
mod indexing_fixtures;
#[path = "indexing_properties.rs"]
mod indexing_properties;
#[cfg(feature = "npy")]
#[path = "io_fuzz.rs"]
mod io_fuzz;
#[path = "iteration.rs"]
mod iteration;
#[path = "logic_fixtures.rs"]
mod logic_fixtures;
#[path = "mask_fixtures.rs"]
mod mask_fixtures;
#[path = "math_fixtures.rs"]
mod math_fixtures;
#[path = "moments_fixtures.rs"]
mod moments_fixtures;
#[path = "normalize_properties.rs"]
mod normalize_properties;
#[path = "norms_fixtures.rs"]
mod norms_fixtures;
#[cfg(feature = "npy")]
#[path = "npy_files.rs"]
mod npy_files;
#[path = "order_fixtures.rs"]
mod order_fixtures;
#[path = "order_properties.rs"]
mod order_properties;
#[path = "pairs_fixtures.rs"]
mod pairs_fixtures;
#[path = "pointwise_fixtures.rs"]
mod pointwise_fixtures;
#[path = "properties.rs"]
mod properties;
#[path = "rearrange_fixtures.rs"]
mod rearrange_fixtures;
#[path = "rearrange_properties.rs"]
mod rearrange_properties;
#[path = "reduction_fixtures.rs"]
mod reduction_fixtures;
#[path = "reduction_properties.rs"]
mod reduction_properties;
#[cfg(feature = "safetensors")]
#[path = "safetensors_files.rs"]
mod safetensors_files;
#[path = "sampling_fixtures.rs"]
mod sampling_fixtures;
#[path = "scan_fixtures.rs"]
mod scan_fixtures;
#[path = "scan_properties.rs"]
mod scan_properties;
#[path = "scatter_fixtures.rs"]
mod scatter_fixtures;
#[path = "sets_fixtures.rs"]
mod sets_fixtures;
#[path = "sets_properties.rs"]
mod sets_properties;
#[path = "softmax_fixtures.rs"]
mod softmax_fixtures;
#[path = "sort_fixtures.rs"]
mod sort_fixtures;
#[path = "sort_properties.rs"]
mod sort_properties;
#[path = "soundness.rs"]
mod soundness;
#[path = "static_broadcast.rs"]
mod static_broadcast;
#[path = "static_slices.rs"]
mod static_slices;
#[path = "static_views.rs"]
mod static_views;
#[path = "views_fixtures.rs"]
mod views_fixtures;

/// The `.rs` files of `tests/`: the modules above, `suite.rs` itself and the
/// binaries of their own.
#[test]
fn every_file_is_listed() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let suite = std::fs::read_to_string(format!("{dir}/tests/suite.rs")).unwrap();
    for entry in std::fs::read_dir(format!("{dir}/tests")).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        if file.ends_with(".rs")
            && ![
                "suite.rs",
                "cuda.rs",
                "soundness_driver.rs",
                "matmul_fixtures.rs",
                "matmul_properties.rs",
            ]
            .contains(&file.as_str())
        {
            assert!(
                suite.contains(&format!("#[path = \"{file}\"]")),
                "tests/{file} is not a module of tests/suite.rs"
            );
        }
    }
}
