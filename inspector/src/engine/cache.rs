//! The per-file result cache: what each rule's [`Rule::check_file`] produced for a file (hits,
//! notes, claims, kept facts), stored under the reviewed repository's `.retake/cache/`, one file
//! per Inspector kind, so that a re-review parses and scans only the files that changed.
//!
//! `check_file` sees nothing but the file (its path, text and role), so its results are a
//! function of the rule, the path, the text and the role. An entry is used only when all of these match: the
//! machine's secret cache key (a cache file the reviewed repository carries is foreign), the
//! build of retake that wrote it (version and the executable's size and modification time,
//! since a rebuilt rule may find other things), the Inspector kind and the exact list of rules
//! run (`--dimensions` and disabled rules change it), the path, and the text's length and hash.
//! A missing, truncated, corrupt or foreign cache file is an empty cache — never an error, never
//! a finding from another file. The file stays under [`MAX_CACHE_BYTES`]; writing it is best
//! effort (a read-only checkout just reviews without it).
//!
//! [`Rule::check_file`]: super::Rule::check_file

use super::{Hit, Kept, Sink};
use protocol::project::FileRole;
use protocol::wire::{decode_cached, encode_cached};
use protocol::Claim;
use serde::{Deserialize, Serialize};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

/// The first bytes of a cache file; the digit is the layout version.
const MAGIC: &[u8; 8] = b"RTKCACH1";

/// Magic, identity, checksum.
const HEADER_BYTES: usize = 24;

/// The most one kind's cache file holds: this run's files first, then files reviewed by
/// earlier runs, until the bound.
pub(crate) const MAX_CACHE_BYTES: usize = 64 << 20;

/// What the cache knows of a file: its text's length and a 64-bit hash of its bytes and of the
/// role the project model gives the file (rules read the role, so a file whose role changed
/// is checked again).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Digest {
    len: u64,
    hash: u64,
}

impl Digest {
    /// The digest of a file's text and role.
    pub(crate) fn of(text: &str, role: FileRole) -> Digest {
        let mut h = DefaultHasher::new();
        h.write(text.as_bytes());
        h.write_u8(role as u8);
        Digest {
            len: text.len() as u64,
            hash: h.finish(),
        }
    }
}

/// One cached file: the encoded [`Stored`] results of its rules, decoded only when used.
#[derive(Serialize, Deserialize)]
struct Entry {
    path: String,
    digest: Digest,
    #[serde(with = "bytes")]
    results: Vec<u8>,
}

/// What one rule's `check_file` produced for one file, as written ([`Stored`] as read).
#[derive(Serialize)]
struct StoredRef<'a> {
    rule: &'a str,
    hits: &'a [Hit],
    notes: &'a [String],
    claims: &'a [Claim],
    not_run: &'a [String],
    kept: &'a Kept,
}

/// [`StoredRef`] read back.
#[derive(Deserialize)]
struct Stored {
    rule: String,
    hits: Vec<Hit>,
    notes: Vec<String>,
    claims: Vec<Claim>,
    not_run: Vec<String>,
    kept: Kept,
}

/// One kind's cache as loaded at the start of a file pass.
#[derive(Debug)]
pub(crate) struct ResultCache {
    file: PathBuf,
    identity: u64,
    entries: HashMap<String, (Digest, Vec<u8>)>,
    /// [`MAX_CACHE_BYTES`], lowered by tests.
    max_bytes: usize,
}

impl ResultCache {
    /// The cache of Inspector `kind` under `root` for a pass running `rules` (ids, in order);
    /// empty when there is no usable file. `None` when the running build cannot be identified
    /// (then nothing is cached: a stale entry could hide a changed rule's findings).
    pub(crate) fn open(root: &Path, kind: &str, rules: &[&str]) -> Option<ResultCache> {
        let identity = identity(root, kind, rules)?;
        let file = root
            .join(".retake")
            .join("cache")
            .join(format!("{kind}.bin"));
        let entries = std::fs::read(&file)
            .ok()
            .and_then(|bytes| parse(&bytes, identity))
            .unwrap_or_default();
        Some(ResultCache {
            file,
            identity,
            entries,
            max_bytes: MAX_CACHE_BYTES,
        })
    }

    /// Whether the cache holds an entry for `path` (whatever its text).
    pub(crate) fn holds(&self, path: &str) -> bool {
        self.entries.contains_key(path)
    }

    /// The stored results for `path` when its text still has `digest`: one (rule id, sink)
    /// per rule that produced anything. `None` on a miss, and for an entry that does not decode.
    pub(crate) fn lookup(&self, path: &str, digest: Digest) -> Option<Vec<(String, Sink)>> {
        let (stored_digest, bytes) = self.entries.get(path)?;
        if *stored_digest != digest {
            return None;
        }
        let stored: Vec<Stored> = decode_cached(bytes).ok()?;
        Some(
            stored
                .into_iter()
                .map(|s| {
                    let sink = Sink {
                        hits: s.hits,
                        notes: s.notes,
                        claims: s.claims,
                        not_run: s.not_run,
                        stand_ins: Vec::new(),
                        kept: s.kept,
                        file_pass_done: false,
                    };
                    (s.rule, sink)
                })
                .collect(),
        )
    }

    /// Writes the cache back: `fresh` — (path, digest, [`encode_results`]) of the files this
    /// pass computed — replaces their old entries; the entries of files this pass reused or
    /// did not review stay, while the file is under [`MAX_CACHE_BYTES`] and the file exists.
    /// Nothing is written when nothing was computed. Failures only cost the next run its reuse.
    pub(crate) fn store(mut self, root: &Path, fresh: Vec<(String, Digest, Vec<u8>)>) {
        if fresh.is_empty() {
            return;
        }
        let mut entries = Vec::with_capacity(fresh.len() + self.entries.len());
        let mut size = HEADER_BYTES + VARINT_BYTES;
        for (path, digest, results) in fresh {
            self.entries.remove(&path);
            size += entry_bytes(&path, &results);
            if size > self.max_bytes {
                break;
            }
            entries.push(Entry {
                path,
                digest,
                results,
            });
        }
        let mut older: Vec<(String, (Digest, Vec<u8>))> = self.entries.into_iter().collect();
        older.sort_by(|a, b| a.0.cmp(&b.0));
        for (path, (digest, results)) in older {
            size += entry_bytes(&path, &results);
            if size > self.max_bytes {
                break;
            }
            if root.join(&path).is_file() {
                entries.push(Entry {
                    path,
                    digest,
                    results,
                });
            }
        }
        if let Err(e) = write(&self.file, self.identity, &entries) {
            // A read-only checkout or a full disk: the next review just computes again.
            tracing::debug!(file = %self.file.display(), "result cache not written: {e}");
        }
    }
}

/// The most bytes one length or integer takes in the encoding (a varint).
const VARINT_BYTES: usize = 9;

/// The most bytes an entry takes in the file: its path and results, their lengths, the digest.
fn entry_bytes(path: &str, results: &[u8]) -> usize {
    path.len() + results.len() + 4 * VARINT_BYTES
}

/// Encodes what `check_file` produced for one file, (rule id, sink) per rule, for
/// [`ResultCache::store`]. `None` if it cannot be encoded (the file is then not cached).
pub(crate) fn encode_results(results: &[(&str, &Sink)]) -> Option<Vec<u8>> {
    let stored: Vec<StoredRef<'_>> = results
        .iter()
        .map(|(rule, sink)| StoredRef {
            rule,
            hits: &sink.hits,
            notes: &sink.notes,
            claims: &sink.claims,
            not_run: &sink.not_run,
            kept: &sink.kept,
        })
        .collect();
    encode_cached(&stored).ok()
}

/// The entries of a cache file written by this build for this rule list; `None` otherwise.
fn parse(bytes: &[u8], identity: u64) -> Option<HashMap<String, (Digest, Vec<u8>)>> {
    let (header, payload) = bytes.split_at_checked(HEADER_BYTES)?;
    let (magic, rest) = header.split_at(MAGIC.len());
    let (id, checksum) = rest.split_at(8);
    if magic != MAGIC
        || u64::from_le_bytes(id.try_into().ok()?) != identity
        || u64::from_le_bytes(checksum.try_into().ok()?) != hash_bytes(payload)
    {
        return None;
    }
    let entries: Vec<Entry> = decode_cached(payload).ok()?;
    Some(
        entries
            .into_iter()
            .map(|e| (e.path, (e.digest, e.results)))
            .collect(),
    )
}

/// Writes `entries` to `file` through a temporary file renamed over it, so that a reader
/// (another review of the same repository) sees the old file or the new one, never half.
fn write(file: &Path, identity: u64, entries: &[Entry]) -> std::io::Result<()> {
    let payload = encode_cached(&entries.iter().collect::<Vec<_>>())
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    let mut bytes = Vec::with_capacity(HEADER_BYTES + payload.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&identity.to_le_bytes());
    bytes.extend_from_slice(&hash_bytes(&payload).to_le_bytes());
    bytes.extend_from_slice(&payload);
    let dir = file
        .parent()
        .ok_or_else(|| std::io::Error::other("cache file without a folder"))?;
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        file.file_name().and_then(|n| n.to_str()).unwrap_or("cache"),
        std::process::id()
    ));
    std::fs::write(&tmp, &bytes)?;
    std::fs::rename(&tmp, file).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Which machine, build and rule list wrote a cache: its entries are valid for exactly these.
/// The machine's secret key ([`protocol::exec::sandbox::cache_key`]) makes a cache file the
/// reviewed repository carries itself foreign: it cannot claim results for files never checked.
fn identity(root: &Path, kind: &str, rules: &[&str]) -> Option<u64> {
    let key = protocol::exec::sandbox::cache_key(root)?;
    let exe = std::env::current_exe().ok()?;
    let meta = std::fs::metadata(exe).ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    let mut h = DefaultHasher::new();
    (key, MAGIC, env!("CARGO_PKG_VERSION"), meta.len(), modified).hash(&mut h);
    (kind, rules).hash(&mut h);
    Some(h.finish())
}

fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h = DefaultHasher::new();
    h.write(bytes);
    h.finish()
}

/// Byte vectors as one length-prefixed run of bytes (serde's default is one element at a
/// time, several times slower on the megabytes a cache holds).
pub(crate) mod bytes {
    use serde::de::{Deserializer, Error, SeqAccess, Visitor};
    use serde::Serializer;

    /// Writes `v` as bytes.
    pub(crate) fn serialize<S: Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(v)
    }

    /// Reads bytes written by [`serialize`].
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        d.deserialize_byte_buf(BytesVisitor)
    }

    struct BytesVisitor;

    impl<'de> Visitor<'de> for BytesVisitor {
        type Value = Vec<u8>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("bytes")
        }

        fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
            Ok(v.to_vec())
        }

        fn visit_byte_buf<E: Error>(self, v: Vec<u8>) -> Result<Vec<u8>, E> {
            Ok(v)
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u8>, A::Error> {
            let mut out = Vec::new();
            while let Some(b) = seq.next_element()? {
                out.push(b);
            }
            Ok(out)
        }
    }
}

#[cfg(test)]
mod tests;
