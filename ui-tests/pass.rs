//! The cases that must compile and run (`pass/*.rs`, and `cuda/pass/*.rs`
//! with the `cuda` feature), each a module of this one test binary: the
//! file's `main` runs as a test. (trybuild would build and link each case as
//! a program of its own, one after another, in a second build of `shaped`;
//! a case that compiles needs no compiler output compared.)
//!
//! A new file in `pass/` must be listed here: `every_case_is_listed` checks.
//!
//! The cases spell out their result types and divide a tensor by itself on
//! purpose: that is what they document.
#![allow(clippy::type_complexity, clippy::eq_op)]

/// What a case's `main` returns: nothing, or a `Result` that must be `Ok`.
trait Ran {
    fn ran(self);
}

impl Ran for () {
    fn ran(self) {}
}

impl<E: std::fmt::Debug> Ran for Result<(), E> {
    fn ran(self) {
        self.unwrap();
    }
}

/// One module per case: the file's items, and a test that calls its `main`.
macro_rules! cases {
    ($dir:literal, $list:ident, [$($name:ident),* $(,)?]) => {
        $(
            mod $name {
                include!(concat!($dir, "/", stringify!($name), ".rs"));

                #[test]
                fn compiles_and_runs() {
                    crate::Ran::ran(main());
                }
            }
        )*
        /// The cases of this directory.
        const $list: &[&str] = &[$(stringify!($name)),*];
    };
}

cases!(
    "pass",
    PASS,
    [
        arithmetic_operators,
        assign_operators,
        broadcast_exercise,
        comparisons,
        concat_static,
        dtype_cast,
        dtype_in_place,
        dtype_promotion,
        dyn_mixing,
        dynamic_rank,
        expand,
        in_place,
        integer_division,
        large_sizes,
        math_static,
        matmul,
        negation,
        rank_zero,
        rearrange_static,
        reductions_static,
        sampling_static,
        size_zero,
        slices_static,
        spec_table,
        splits_static,
        ternary_types,
        views_static,
    ]
);

#[cfg(feature = "cuda")]
mod cuda {
    cases!(
        "cuda/pass",
        CUDA_PASS,
        [
            device_cat_stack,
            device_matmul,
            device_rank_zero_cpu_operand,
            device_reductions,
            device_same_device_ops,
            device_sets,
            device_sort,
            device_where,
        ]
    );

    #[test]
    fn every_case_is_listed() {
        crate::listed("cuda/pass", CUDA_PASS);
    }
}

/// `dir`'s `.rs` files are exactly `cases`.
fn listed(dir: &str, cases: &[&str]) {
    let path = format!("{}/{dir}", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter_map(|file| file.strip_suffix(".rs").map(str::to_owned))
        .collect();
    files.sort();
    assert_eq!(
        files, cases,
        "the cases of {dir}/ and the list in pass.rs differ"
    );
}

#[test]
fn every_case_is_listed() {
    listed("pass", PASS);
}
