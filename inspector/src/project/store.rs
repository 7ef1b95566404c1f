//! The model on disk: the Lead writes it once per review as `.retake/cache/project-<hash>.bin`
//! (the cache codec's bytes, named by their SHA-256, written through a temporary file and a
//! rename) and names the hash in each Inspector's request; an Inspector reads it back and
//! checks the bytes against the name, so a stale, truncated or foreign file is never used.

use super::build;
use protocol::project::ProjectModel;
use protocol::wire::{decode_cached, encode_cached};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The largest file the builder reads; a larger one keeps its path's role.
const MAX_READ_BYTES: u64 = 2 << 20;

/// The model of the repository at `root`: its files listed as the review's walk lists them
/// (`.gitignore` respected, `.git/` and `.retake/` left out) with the manifests no language
/// names (`go.mod`), the few it needs read from disk.
pub fn build_at(root: &Path) -> ProjectModel {
    let paths: Vec<String> = crate::engine::walk::model_files(root).collect();
    build(paths, &|rel| read(root, rel))
}

/// A file's text, when it is small enough and UTF-8.
fn read(root: &Path, rel: &str) -> Option<String> {
    let path = root.join(rel);
    if std::fs::metadata(&path).ok()?.len() > MAX_READ_BYTES {
        return None;
    }
    String::from_utf8(std::fs::read(path).ok()?).ok()
}

/// Where the model with content hash `hash` lives.
fn file_of(root: &Path, hash: &str) -> PathBuf {
    root.join(".retake")
        .join("cache")
        .join(format!("project-{hash}.bin"))
}

/// The hex SHA-256 of the model's bytes (its name).
fn hash_of(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Writes `model` under `root`'s `.retake/cache/` and returns its content hash, removing the
/// models earlier reviews left there. `Err` with one line when it cannot be written.
pub fn store(root: &Path, model: &ProjectModel) -> Result<String, String> {
    let bytes = encode_cached(model).map_err(|e| format!("project model not encoded: {e}"))?;
    let hash = hash_of(&bytes);
    let file = file_of(root, &hash);
    let dir = file.parent().unwrap_or(root);
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    if !file.is_file() {
        let tmp = dir.join(format!(".project-{hash}.{}.tmp", std::process::id()));
        std::fs::write(&tmp, &bytes).map_err(|e| format!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, &file).map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            format!("{}: {e}", file.display())
        })?;
    }
    let current = format!("project-{hash}.bin");
    for old in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = old.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("project-") && name.ends_with(".bin") && name != current {
            // Best effort: another review's leftover costs only disk.
            let _ = std::fs::remove_file(old.path());
        }
    }
    Ok(hash)
}

/// The model named `hash` under `root`, when the file is there and its bytes are the ones the
/// name says; `None` otherwise (the caller builds the model itself).
pub fn load(root: &Path, hash: &str) -> Option<ProjectModel> {
    if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let bytes = std::fs::read(file_of(root, hash)).ok()?;
    if hash_of(&bytes) != hash {
        return None;
    }
    decode_cached(&bytes).ok()
}
