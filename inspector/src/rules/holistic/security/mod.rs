//! Security rules (dimension `security`): injection through strings built at run time, TLS
//! verification turned off, weak hashes for passwords.

pub(super) mod shell_injection;
pub(super) mod sql_injection;
pub(super) mod tls_disabled;
mod tls_own;
pub(super) mod weak_password_hash;
