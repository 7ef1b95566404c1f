//! Workers of the remote runtime started as compose and Kubernetes start them (`retake actor
//! ROLE … --worker --lead ADDR`, the secret in `RETAKE_SECRET`), for a Lead they did not start.

use std::process::{Child, Command, Stdio};

/// The Inspector kinds, one worker each for a full review.
pub const KINDS: [&str; 6] = [
    "rulebase",
    "interface",
    "test",
    "quality",
    "consistency",
    "holistic",
];

/// A free loopback port (bound and released: the Lead binds it a moment later).
pub fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("addr").port()
}

/// Worker processes, killed when dropped.
pub struct Workers(pub Vec<Child>);

impl Drop for Workers {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _kill = child.kill();
            let _reaped = child.wait();
        }
    }
}

/// One worker per Inspector kind in `kinds`, an Auditor with `auditor`, and `implementers`
/// Implementers, all connecting to `lead` with the hex `secret`.
pub fn workers(
    lead: &str,
    secret: &str,
    kinds: &[&str],
    auditor: bool,
    implementers: usize,
) -> Workers {
    let spawn = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_retake"))
            .arg("actor")
            .args(args)
            .args(["--worker", "--lead", lead])
            .env("RETAKE_SECRET", secret)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("worker starts")
    };
    let mut children: Vec<Child> = kinds
        .iter()
        .map(|kind| spawn(&["inspector", "--kind", kind]))
        .collect();
    if auditor {
        children.push(spawn(&["auditor"]));
    }
    children.extend((0..implementers).map(|_| spawn(&["implementer"])));
    Workers(children)
}
