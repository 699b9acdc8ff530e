//! Nothing: the package holds the trybuild cases of `shaped` (`ui.rs`),
//! apart from its dev-dependencies. The library target lets trybuild pass
//! this package's features (`cuda`) on to the cases.
