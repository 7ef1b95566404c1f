//! retake's Inspectors: six read-only reviewers, each running its part of the rule catalog over
//! a review scope. The engine and rules are pure functions over files in memory (plus the test
//! runner's subprocess); the actix shell in `actor` only receives requests and sends reports.

#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]

pub mod actor;
pub mod backend;
pub mod chat;
pub mod engine;
pub(crate) mod lexical;
pub mod project;
pub mod rules;
pub mod runtime;
pub mod spec;

pub use engine::{inspect, Context};
