//! retake's shared language: the domain types, the CPF text format, the typed messages and the
//! authenticated wire codec. This is the only crate that knows how anything is represented;
//! its wire code runs on streams handed to it. The one place that opens sockets is
//! `session::process`, the shell every actor process shares; the one place that starts
//! external commands (test commands, git, linters, executors, agents) is `exec`, shared by the
//! Inspectors, the Implementers and the Lead.

#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]

pub mod chaos;
pub mod cpf;
pub mod domain;
pub mod exec;
pub mod http;
pub mod live;
pub mod message;
pub mod project;
pub mod prompt;
pub mod session;
pub mod wire;

pub use domain::*;
pub use message::{Body, Envelope};
