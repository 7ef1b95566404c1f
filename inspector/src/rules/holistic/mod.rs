//! The holistic Inspector's rules: operations, concurrency, lifecycles, coupling, security and
//! performance across the code. Rules that need a folder of their own are grouped by the
//! concern the Inspectors spec lists them under.

mod async_scope;
mod concurrency;
mod coupling;
mod fixed_literals;
mod hardcoded_credential;
mod lifecycle;
mod lock_across_await;
mod operations;
mod panic_in_library;
mod performance;
mod prefilter;
mod security;
mod static_mut;
pub(crate) mod syntax;
mod todo_macro;
mod unsafe_without_safety;

use crate::engine::Rule;

/// Every holistic rule.
pub(crate) fn rules() -> Vec<Box<dyn Rule>> {
    vec![
        Box::new(todo_macro::TodoMacro),
        Box::new(panic_in_library::PanicInLibrary),
        Box::new(lock_across_await::LockAcrossAwait),
        Box::new(hardcoded_credential::HardcodedCredential),
        Box::new(unsafe_without_safety::UnsafeWithoutSafety),
        Box::new(static_mut::StaticMut),
        Box::new(concurrency::check_then_act::CheckThenAct),
        Box::new(lifecycle::detached_spawn::DetachedSpawn),
        Box::new(lifecycle::unbounded_channel::UnboundedChannel),
        Box::new(lifecycle::unbounded_growth::UnboundedGrowth),
        Box::new(coupling::env_everywhere::EnvReadEverywhere),
        Box::new(coupling::mutable_global::MutableGlobal),
        Box::new(coupling::hardcoded_path::HardcodedPath),
        Box::new(operations::hardcoded_endpoint::HardcodedEndpoint),
        Box::new(operations::retry_without_backoff::RetryWithoutBackoff),
        Box::new(operations::client_without_timeout::ClientWithoutTimeout),
        Box::new(operations::exit_in_library::ExitInLibrary),
        Box::new(security::shell_injection::ShellInjection),
        Box::new(security::sql_injection::SqlInjection),
        Box::new(security::tls_disabled::TlsDisabled),
        Box::new(security::weak_password_hash::WeakPasswordHash),
        Box::new(performance::blocking_in_async::BlockingInAsync),
        Box::new(performance::clone_in_hot_loop::CloneInHotLoop),
        Box::new(performance::query_in_loop::QueryInLoop),
    ]
}
