//! The run journal under `.retake/runs/<run-id>/`: every report is written when it arrives,
//! before it is forwarded, and every write is atomic (temporary file, fsync, rename), so a crash
//! leaves either the old content or the new, never a torn file.

use protocol::InspectorReport;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` atomically, creating parent folders. This is the one way retake
/// rewrites a file (its state and the user's Plans.md, tasks.yaml, verdicts.md, …): the
/// replaced file's permission bits are kept (a temporary file is created 0600, and a rename
/// would hand that to the user's file), and a new file gets the umask's default, as an editor
/// would create it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    std::fs::create_dir_all(dir)?;
    // The mode of the file being replaced; following a symbolic link, as the rename replaces
    // the link's target path's content as seen by the user.
    let kept = std::fs::metadata(path).ok().map(|m| m.permissions());
    // 0666 before the umask: open(2) applies the umask, so a new file gets the usual mode.
    let mut tmp = tempfile::Builder::new()
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)?;
    if let Some(mode) = kept {
        // Exactly the old bits (the umask may have taken some away at creation).
        tmp.as_file().set_permissions(mode)?;
    }
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    if let Ok(d) = std::fs::File::open(dir) {
        // Makes the rename itself durable; a filesystem that cannot sync a folder still has the file.
        let _durable = d.sync_all();
    }
    Ok(())
}

/// One run's journal folder.
#[derive(Debug, Clone)]
pub struct Journal {
    dir: PathBuf,
}

impl Journal {
    /// Creates `.retake/runs/<run_id>/reports/` under `state_dir`.
    pub fn create(state_dir: &Path, run_id: &str) -> std::io::Result<Journal> {
        let dir = state_dir.join("runs").join(run_id);
        std::fs::create_dir_all(dir.join("reports"))?;
        Ok(Journal { dir })
    }

    /// The run's folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Opens an existing run's journal (to resume it).
    pub fn open(state_dir: &Path, run_id: &str) -> std::io::Result<Journal> {
        let dir = state_dir.join("runs").join(run_id);
        if !dir.join("reports").is_dir() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("no journal at {}", dir.display()),
            ));
        }
        Ok(Journal { dir })
    }

    /// Journals an Inspector's report as `reports/<inspector>.cpf` (the interchange form) and
    /// `reports/<inspector>.json` (every field, so a resumed review need not re-run it). The
    /// JSON is written last: its presence means the report is complete.
    pub fn report(&self, inspector: &str, report: &InspectorReport) -> std::io::Result<PathBuf> {
        let base = self.dir.join("reports").join(safe_name(inspector));
        let cpf = protocol::cpf::format_report(&report.to_cpf());
        write_atomic(&base.with_extension("cpf"), cpf.as_bytes())?;
        let json = serde_json::to_vec_pretty(report).map_err(std::io::Error::other)?;
        write_atomic(&base.with_extension("json"), &json)?;
        Ok(base.with_extension("cpf"))
    }

    /// The complete reports journaled so far, by the name they were journaled under.
    pub fn reports(&self) -> std::io::Result<BTreeMap<String, InspectorReport>> {
        let mut out = BTreeMap::new();
        for entry in std::fs::read_dir(self.dir.join("reports"))? {
            let path = entry?.path();
            if path.extension().is_none_or(|x| x != "json") {
                continue;
            }
            let bytes = std::fs::read(&path)?;
            let report: InspectorReport = serde_json::from_slice(&bytes).map_err(|e| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("{}: {e}", path.display()),
                )
            })?;
            out.insert(report.inspector.clone(), report);
        }
        Ok(out)
    }

    /// Journals the questions the Inspectors asked and their answers as `questions.jsonl`.
    pub fn questions(&self, jsonl: &str) -> std::io::Result<PathBuf> {
        let path = self.dir.join("questions.jsonl");
        write_atomic(&path, jsonl.as_bytes())?;
        Ok(path)
    }

    /// Journals the Auditor's verdict as `verdict.cpf`.
    pub fn verdict(&self, cpf: &str) -> std::io::Result<PathBuf> {
        let path = self.dir.join("verdict.cpf");
        write_atomic(&path, cpf.as_bytes())?;
        Ok(path)
    }
}

/// Actor names come from the wire; only `[A-Za-z0-9._-]` reaches a file name, so a hostile
/// name cannot climb out of the journal.
fn safe_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    match cleaned.trim_start_matches('.') {
        "" => "_".to_string(),
        rest => rest.to_string(),
    }
}

/// A new run id: UTC time plus random hex, sortable and unique.
pub fn new_run_id() -> String {
    let now = chrono::Utc::now().format("%Y%m%dT%H%M%SZ");
    format!("{now}-{}", hex::encode(rand::random::<[u8; 3]>()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn journals_reports_and_verdicts_atomically_under_safe_names() {
        let dir = tempfile::tempdir().expect("tempdir");
        let j = Journal::create(dir.path(), "r1").expect("create");
        let report = InspectorReport {
            review: "r1".into(),
            inspector: "inspector-quality".into(),
            kind: Some(protocol::InspectorKind::Quality),
            scope: "repository".into(),
            findings: vec![],
            notes: vec!["quality: 3 files".into()],
            claims: vec![],
            coverage: protocol::Coverage::default(),
            preexisting: Vec::new(),
        };
        let p = j.report("inspector-quality", &report).expect("report");
        assert_eq!(p, dir.path().join("runs/r1/reports/inspector-quality.cpf"));
        assert_eq!(
            std::fs::read_to_string(&p).expect("read"),
            "VERDICT:GO\nSCOPE:repository\nNOTES:\nquality: 3 files\n"
        );
        let back = Journal::open(dir.path(), "r1")
            .expect("open")
            .reports()
            .expect("reports");
        assert_eq!(back.get("inspector-quality"), Some(&report));
        let hostile = j.report("../../etc/x", &report).expect("report");
        assert!(hostile.starts_with(dir.path().join("runs/r1/reports")));
        j.verdict("VERDICT:NO-GO\n").expect("verdict");
        j.verdict("VERDICT:GO\n").expect("overwrite");
        assert_eq!(
            std::fs::read_to_string(j.dir().join("verdict.cpf")).expect("read"),
            "VERDICT:GO\n"
        );
        assert_eq!(
            std::fs::read_dir(j.dir()).expect("ls").count(),
            2,
            "no temporary files left"
        );
        assert!(Journal::open(dir.path(), "missing").is_err());
    }

    #[test]
    fn the_json_journal_keeps_what_was_already_there_and_reads_older_reports() {
        let dir = tempfile::tempdir().expect("tempdir");
        let j = Journal::create(dir.path(), "r1").expect("create");
        let old = protocol::Finding::new(
            "inspector-holistic",
            "holistic/unsafe-without-safety",
            "operational-risk",
            protocol::Severity::High,
            protocol::Location::at("src/lib.rs", 5),
            "unsafe block",
            "u5",
        );
        let report = InspectorReport {
            review: "r1".into(),
            inspector: "inspector-holistic".into(),
            kind: Some(protocol::InspectorKind::Holistic),
            scope: "session:main".into(),
            findings: vec![],
            notes: vec![],
            claims: vec![],
            coverage: protocol::Coverage::default(),
            preexisting: vec![old],
        };
        j.report("inspector-holistic", &report).expect("report");
        let reports = || {
            Journal::open(dir.path(), "r1")
                .expect("open")
                .reports()
                .expect("reports")
        };
        assert_eq!(reports().get("inspector-holistic"), Some(&report));
        // A report journaled before the field existed reads with nothing already there.
        let path = j.dir().join("reports/inspector-holistic.json");
        let mut value: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).expect("read")).expect("json");
        value.as_object_mut().expect("object").remove("preexisting");
        std::fs::write(&path, value.to_string()).expect("write");
        assert_eq!(reports()["inspector-holistic"].preexisting, []);
    }

    #[test]
    fn a_rewrite_keeps_the_replaced_files_mode_and_a_new_file_gets_the_umask_default() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().expect("tempdir");
        let mode = |p: &Path| std::fs::metadata(p).expect("stat").permissions().mode() & 0o7777;
        for bits in [0o644, 0o755, 0o600, 0o640] {
            let plans = dir.path().join("Plans.md");
            std::fs::write(&plans, "- 1 A cc:TODO\n").expect("write");
            std::fs::set_permissions(&plans, std::fs::Permissions::from_mode(bits)).expect("chmod");
            write_atomic(&plans, b"- 1 A cc:done\n").expect("rewrite");
            assert_eq!(mode(&plans), bits, "mode {bits:o} kept");
            assert_eq!(std::fs::read(&plans).expect("read"), b"- 1 A cc:done\n");
        }
        // A new file: 0666 less this process's umask, read back without changing it (0022 and
        // 0002 are the usual ones; whatever it is, the file is not the temporary file's 0600).
        let fresh = dir.path().join("new/verdicts.md");
        write_atomic(&fresh, b"x").expect("create");
        let probe = dir.path().join("probe");
        drop(std::fs::File::create(&probe).expect("create"));
        assert_eq!(mode(&fresh), mode(&probe), "same as a plain create");
    }
}
