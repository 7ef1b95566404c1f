//! `/source/PATH`: a file of the repository a finding points at — only a regular file inside
//! the repository (after following links), outside `.git`, and at most [`MAX_BYTES`]; anything
//! else is 404, so the page serves nothing a finding could not name.

use protocol::http::Answer;
use std::path::{Component, Path};

/// The largest file shown.
const MAX_BYTES: u64 = 2 * 1024 * 1024;

/// The answer for the percent-encoded repository path `encoded`.
pub(super) fn answer_for(repo: &Path, encoded: &str) -> Result<String, &'static str> {
    let path = percent_encoding::percent_decode_str(encoded)
        .decode_utf8()
        .map_err(|_| "not a UTF-8 path")?
        .into_owned();
    let relative = Path::new(&path);
    let plain = relative.components().all(|c| match c {
        Component::Normal(name) => name != ".git",
        _ => false,
    });
    if path.is_empty() || !plain {
        return Err("not a path inside the repository");
    }
    let file = repo
        .join(relative)
        .canonicalize()
        .map_err(|_| "no such file")?;
    if !file.starts_with(repo) {
        return Err("not a path inside the repository");
    }
    let meta = std::fs::metadata(&file).map_err(|_| "no such file")?;
    if !meta.is_file() || meta.len() > MAX_BYTES {
        return Err("not a file the dashboard shows");
    }
    let bytes = std::fs::read(&file).map_err(|_| "cannot read the file")?;
    Ok(dashboard::source::page(
        &path,
        &String::from_utf8_lossy(&bytes),
    ))
}

/// The file's page, or 404 naming why not.
pub(super) fn answer(repo: &Path, encoded: &str) -> Answer {
    match answer_for(repo, encoded) {
        Ok(page) => super::routes::html(page),
        Err(why) => protocol::http::answer(404, "text/plain; charset=utf-8", format!("{why}\n")),
    }
}

#[cfg(test)]
mod tests {
    use super::answer_for;

    #[test]
    fn only_files_inside_the_repository_are_shown() {
        let dir = tempfile::tempdir().expect("dir");
        let root = dir.path().canonicalize().expect("canonical");
        let repo = root.join("repo");
        std::fs::create_dir_all(repo.join("src")).expect("mkdir");
        std::fs::create_dir_all(repo.join(".git")).expect("mkdir");
        std::fs::write(repo.join("src/a b.rs"), "fn a() {}\n").expect("write");
        std::fs::write(repo.join(".git/config"), "[core]\n").expect("write");
        std::fs::write(root.join("secret"), "key\n").expect("write");
        std::os::unix::fs::symlink(root.join("secret"), repo.join("link")).expect("link");
        let page = answer_for(&repo, "src/a%20b.rs").expect("shown");
        assert!(page.contains("<code>fn a() {}</code>"));
        assert_eq!(
            answer_for(&repo, "../secret"),
            Err("not a path inside the repository")
        );
        assert_eq!(
            answer_for(&repo, "%2E%2E/secret"),
            Err("not a path inside the repository")
        );
        assert_eq!(
            answer_for(&repo, "/etc/passwd"),
            Err("not a path inside the repository")
        );
        assert_eq!(
            answer_for(&repo, ".git/config"),
            Err("not a path inside the repository")
        );
        assert_eq!(
            answer_for(&repo, "link"),
            Err("not a path inside the repository")
        );
        assert_eq!(
            answer_for(&repo, "src"),
            Err("not a file the dashboard shows")
        );
        assert_eq!(answer_for(&repo, "nope.rs"), Err("no such file"));
    }
}
