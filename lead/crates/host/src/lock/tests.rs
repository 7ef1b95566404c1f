use super::*;

fn write_lock(dir: &Path, text: &str) {
    std::fs::write(dir.join("lock"), text).expect("write");
}

#[test]
fn a_live_lock_is_respected_and_a_stale_one_taken_over() {
    let dir = tempfile::tempdir().expect("tempdir");
    assert_eq!(holder(dir.path()), None, "no lock file");
    let held = RepoLock::acquire(dir.path()).expect("first");
    assert_eq!(holder(dir.path()), Some(std::process::id()));
    let text = std::fs::read_to_string(dir.path().join("lock")).expect("read");
    assert_eq!(
        text,
        format!(
            "{} {} {} {}\n",
            std::process::id(),
            start_time(std::process::id()).expect("me"),
            this_host(),
            this_boot()
        )
    );
    let err = RepoLock::acquire(dir.path()).expect_err("second");
    assert!(
        matches!(&err, LockError::Held { pid, .. } if *pid == std::process::id()),
        "{err}"
    );
    drop(held);
    assert!(!dir.path().join("lock").exists(), "released on drop");
    // A dead owner: a reused pid has another start time.
    write_lock(dir.path(), &format!("{} 1\n", std::process::id()));
    assert_eq!(holder(dir.path()), None, "a reused pid holds nothing");
    let taken = RepoLock::acquire(dir.path()).expect("the pid was reused: stale");
    drop(taken);
    write_lock(dir.path(), "4194999 0\n");
    drop(RepoLock::acquire(dir.path()).expect("dead pid: stale"));
    // A torn lock of an older build (created empty, never written): nobody holds its flock.
    write_lock(dir.path(), "");
    drop(RepoLock::acquire(dir.path()).expect("empty and unlocked: stale"));
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .expect("ls")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert!(leftovers.is_empty(), "no temporary files: {leftovers:?}");
}

#[test]
fn a_held_flock_is_respected_whatever_the_file_says() {
    let dir = tempfile::tempdir().expect("tempdir");
    // A dead pid of this host and boot, but someone (a Lead taking it over) holds its flock.
    write_lock(
        dir.path(),
        &format!("4194999 0 {} {}\n", this_host(), this_boot()),
    );
    let file = File::open(dir.path().join("lock")).expect("open");
    assert!(try_flock(&file, libc::LOCK_EX));
    let err = RepoLock::acquire(dir.path()).expect_err("held");
    assert!(
        err.to_string()
            .starts_with(&format!("another retake (pid 4194999 on {})", this_host())),
        "{err}"
    );
    assert_eq!(holder(dir.path()), Some(4194999));
    drop(file);
    // Another test's child forked while `file` was open shares its lock until that child
    // execs (close-on-exec), so the release is awaited rather than assumed instant.
    let released = (0..500).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(10));
        holder(dir.path()).is_none()
    });
    assert!(released, "a released flock and a dead pid hold nothing");
    drop(RepoLock::acquire(dir.path()).expect("flock released, pid dead: stale"));
}

#[test]
fn another_kernels_lock_is_respected_another_containers_unlocked_one_is_not() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Another machine: its flock may not reach this one, so nothing proves its owner gone.
    write_lock(
        dir.path(),
        "1 1 build-host-7 00000000-feed-beef-0000-000000000000\n",
    );
    let err = RepoLock::acquire(dir.path()).expect_err("another kernel");
    assert!(err.to_string().contains("(pid 1 on build-host-7)"), "{err}");
    assert_eq!(holder(dir.path()), Some(1));
    // Another container on this kernel (same boot id): its free flock proves it gone, even if
    // a process with its pid lives in our namespace.
    write_lock(
        dir.path(),
        &format!("{} 0 other-container {}\n", std::process::id(), this_boot()),
    );
    assert_eq!(holder(dir.path()), None);
    drop(RepoLock::acquire(dir.path()).expect("same kernel, flock free: stale"));
    // This host before a reboot: gone.
    write_lock(
        dir.path(),
        &format!(
            "{} 0 {} 00000000-0000-0000-0000-000000000000\n",
            std::process::id(),
            this_host()
        ),
    );
    drop(RepoLock::acquire(dir.path()).expect("an earlier boot: stale"));
}

#[test]
fn a_killed_lead_not_yet_reaped_holds_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = std::process::Command::new("true").spawn().expect("spawn");
    let stat = format!("/proc/{}/stat", child.id());
    // Not waited for: once it exits it stays a zombie of this process.
    let zombie = (0..500).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(10));
        std::fs::read_to_string(&stat).is_ok_and(|s| s.contains(") Z "))
    });
    assert!(zombie, "the child became a zombie");
    write_lock(dir.path(), &format!("{} 0\n", child.id()));
    assert_eq!(holder(dir.path()), None);
    RepoLock::acquire(dir.path()).expect("a zombie's lock is stale");
    child.wait().expect("reap");
}

#[test]
fn threads_racing_for_a_stale_lock_leave_exactly_one_holder() {
    for _ in 0..20 {
        let dir = tempfile::tempdir().expect("tempdir");
        write_lock(dir.path(), "4194999 0\n");
        let barrier = std::sync::Arc::new(std::sync::Barrier::new(8));
        let handles: Vec<_> = (0..8)
            .map(|_| {
                let (dir, barrier) = (dir.path().to_path_buf(), barrier.clone());
                std::thread::spawn(move || {
                    barrier.wait();
                    RepoLock::acquire(&dir).ok()
                })
            })
            .collect();
        let held: Vec<RepoLock> = handles
            .into_iter()
            .filter_map(|h| h.join().expect("join"))
            .collect();
        assert_eq!(held.len(), 1, "one taker-over");
    }
}
