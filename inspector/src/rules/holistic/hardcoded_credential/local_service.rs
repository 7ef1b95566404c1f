//! Passwords of databases the repository runs itself, for its tests or its development: nothing
//! they protect outlives the job or leaves the machine.
//!
//! - In a file that starts a database container (a compose file's or a CI workflow's
//!   `image: postgres:17`), the environment that sets up that database or lets the job reach it
//!   (`POSTGRES_PASSWORD`, `MYSQL_ROOT_PASSWORD`, `PGPASSWORD`) is the container's own
//!   throwaway password. A key of another service (a Sauce Labs key, a Coveralls token) in
//!   the same file is not.
//! - In code, a password given beside a loopback host (`host: 'localhost'`, `127.0.0.1`) is the
//!   password of a server on the developer's own machine.
//!
//! Both are what the file says of itself, so both are excuses ([`crate::engine::Hit::excuse`]):
//! a change cannot silence a real password it writes by adding a dummy service or host beside
//! it — on a line the change wrote, the finding gates.

use crate::lexical::names::split_words;

/// Database families: the words their images and their environment variables are named with.
const FAMILIES: [(&[&str], &[&str]); 10] = [
    (
        &["postgres", "postgis", "postgresql"],
        &["postgres", "pg", "pgpassword"],
    ),
    (&["mysql", "mariadb", "percona"], &["mysql", "mariadb"]),
    (&["mongo"], &["mongo"]),
    (&["redis", "valkey"], &["redis"]),
    (&["rabbitmq"], &["rabbitmq"]),
    (&["mssql", "sqlserver"], &["mssql", "sa"]),
    (&["elasticsearch", "opensearch"], &["elastic", "opensearch"]),
    (&["minio"], &["minio"]),
    (&["clickhouse"], &["clickhouse"]),
    (&["gaussdb", "opengauss"], &["gs", "gauss", "gaussdb"]),
];

/// Whether `key` in configuration `text` sets the password of a database container the same file
/// starts (or the job's client of it): the key names the database family of an `image:` there.
pub(super) fn is_own_database(key: &str, text: &str) -> bool {
    // The images the file starts, and the names of its services (`services: mysql:` of a CI
    // job whose image is a matrix variable, `image: ${{ matrix.dbversion }}`).
    let mut images: Vec<String> = text
        .lines()
        .filter_map(|l| l.trim().trim_start_matches("- ").strip_prefix("image:"))
        .map(|image| image.trim().trim_matches(['"', '\'']).to_ascii_lowercase())
        .collect();
    if !images.is_empty() {
        images.extend(service_names(text));
    }
    if images.is_empty() {
        return false;
    }
    let words = split_words(key);
    // The service the key is named after is an image here (`KAFKA_INTER_BROKER_PASSWORD`
    // beside `image: bitnami/kafka`), or both belong to one database family.
    let named_service = words
        .first()
        .filter(|w| w.len() >= 4)
        .is_some_and(|w| images.iter().any(|image| image.contains(w.as_str())));
    named_service
        || FAMILIES.iter().any(|(image_words, key_words)| {
            images
                .iter()
                .any(|image| image_words.iter().any(|w| image.contains(w)))
                && words.iter().any(|w| key_words.contains(&w.as_str()))
        })
}

/// The names of the entries of each `services:` block (the keys one level below it).
fn service_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut block: Option<(usize, Option<usize>)> = None;
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if let Some((at, mut child)) = block {
            if indent <= at {
                block = None;
            } else {
                let child = *child.get_or_insert(indent);
                block = Some((at, Some(child)));
                if indent == child {
                    if let Some(name) = trimmed.strip_suffix(':') {
                        out.push(name.to_ascii_lowercase());
                    }
                }
                continue;
            }
        }
        if trimmed == "services:" {
            block = Some((indent, None));
        }
    }
    out
}

/// How many lines either side of a credential a loopback host may stand and still be the host
/// of the same connection settings (`{ host: 'localhost', user: 'root', password: '…' }`).
const NEIGHBOURHOOD: usize = 4;

/// Whether the code around line `number` (1-based) of `lines` names a loopback host.
pub(super) fn beside_loopback(lines: &[&str], number: u32) -> bool {
    let at = number as usize - 1;
    let from = at.saturating_sub(NEIGHBOURHOOD);
    let to = (at + NEIGHBOURHOOD + 1).min(lines.len());
    lines[from..to].iter().any(|l| {
        let named = l.match_indices("localhost").any(|(i, _)| {
            let before = l[..i].chars().next_back();
            let after = l[i + "localhost".len()..].chars().next();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '.')
                && !after.is_some_and(|c| c.is_alphanumeric() || c == '.' || c == '-')
        });
        named
            || ["127.0.0.1", "'::1'", "\"::1\"", "[::1]"]
                .iter()
                .any(|h| l.contains(h))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_the_file_starts_owns_its_password() {
        let compose = "services:\n  db:\n    image: ghcr.io/knex/postgres:17-alpine\n    environment:\n      - POSTGRES_PASSWORD=knextest\n";
        assert!(is_own_database("POSTGRES_PASSWORD", compose));
        assert!(is_own_database("SCRAM_TEST_PGPASSWORD", compose));
        assert!(
            !is_own_database("SAUCE_ACCESS_KEY", compose),
            "another service's key"
        );
        assert!(
            !is_own_database("MYSQL_PASSWORD", compose),
            "no MySQL image here"
        );
        let kafka = "services:\n  kafka:\n    image: bitnami/kafka:4.0\n    environment:\n      KAFKA_INTER_BROKER_PASSWORD: admin-secret-512\n";
        assert!(is_own_database("KAFKA_INTER_BROKER_PASSWORD", kafka));
        let matrix = "jobs:\n  mysql:\n    services:\n      mysql:\n        image: ${{ matrix.dbversion }}\n        env:\n          MYSQL_PASSWORD: gorm\n      gaussdb:\n        image: ${{ matrix.gauss }}\n        env:\n          GS_PASSWORD: Gaussdb@123\n";
        assert!(
            is_own_database("MYSQL_PASSWORD", matrix),
            "named by its service"
        );
        assert!(is_own_database("GS_PASSWORD", matrix));
        assert_eq!(service_names(matrix), ["mysql", "gaussdb"]);
        let no_image = "env:\n  PGPASSWORD: hunter2\n  PGHOST: db.example.com\n";
        assert!(
            !is_own_database("PGPASSWORD", no_image),
            "a database elsewhere"
        );
    }

    #[test]
    fn a_loopback_host_nearby_is_the_same_connection() {
        let lines = [
            "const con = mysql.createConnection({",
            "  host: 'localhost',",
            "  user: 'root',",
            "  password: 'mysqlrootpassword',",
            "});",
        ];
        assert!(beside_loopback(&lines, 4));
        let far = ["host: 'localhost'", "", "", "", "", "", "password: 'x'"];
        assert!(!beside_loopback(&far, 7));
        let env = ["DB_HOST=localhost", "DB_PASSWORD=hunter2"];
        assert!(beside_loopback(&env, 2));
        let remote = ["host: 'localhost.example.com'", "password: 'x'"];
        assert!(
            !beside_loopback(&remote, 2),
            "a name that starts with localhost"
        );
    }
}
