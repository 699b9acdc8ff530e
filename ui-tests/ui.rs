//! The compile-time rules of `shaped`, proved by compiling small programs.
//!
//! - `ui-tests/fail/*.rs` must not compile. Each documents one rule in its
//!   opening comment, and its `.stderr` file is the error a user sees.
//!
//! - `ui-tests/cuda/fail/*.rs`: the device rules, with the `cuda` feature
//!   only.
//!
//! The cases that must compile and run (`pass/`, `cuda/pass/`) are modules
//! of the test binary `pass.rs`: every shape pair that broadcasts, every
//! operator form, the in-place rule where it holds, `expand`, `Dyn`.
//!
//! After a deliberate change of wording, regenerate the `.stderr` files with
//! `TRYBUILD=overwrite cargo test -p shaped-ui-tests` and read them.
//!
//! trybuild checks compile-fail cases in one parallel cargo run only when
//! no pass case shares their `TestCases`; with one it builds every case on
//! its own, one after another.

#[test]
fn ui_fail() {
    let t = trybuild::TestCases::new();
    t.compile_fail("fail/*.rs");
}

#[cfg(feature = "cuda")]
#[test]
fn ui_cuda_fail() {
    let t = trybuild::TestCases::new();
    t.compile_fail("cuda/fail/*.rs");
}
