use super::*;
use crate::rules::fixture::hits;

#[test]
fn fires_on_formatted_sql_passed_to_queries() {
    let rust = "fn delete(conn: &Connection, id: &str) -> Result<usize> {\n    conn.execute(&format!(\"DELETE FROM users WHERE id = '{id}'\"), [])\n}\nasync fn find(pool: &PgPool, name: &str) {\n    let sql = format!(\"SELECT * FROM users WHERE name = '{}'\", name);\n    sqlx::query(&sql).fetch_all(pool).await;\n}\n";
    let lines: Vec<u32> = hits(&SqlInjection, "src/db.rs", rust)
        .into_iter()
        .map(|h| h.0)
        .collect();
    assert_eq!(lines, vec![2, 6]);
    let py = "def find(cur, name):\n    cur.execute(f\"SELECT * FROM users WHERE name = '{name}'\")\n    cur.execute(\"SELECT * FROM t WHERE a = %s\" % name)\n    q = \"DELETE FROM t WHERE id = \" + ident\n    cur.execute(q)\n";
    let lines: Vec<u32> = hits(&SqlInjection, "app/db.py", py)
        .into_iter()
        .map(|h| h.0)
        .collect();
    assert_eq!(lines, vec![2, 3, 5]);
    let js = "await db.query(`SELECT * FROM users WHERE id = ${id}`);\n";
    assert_eq!(hits(&SqlInjection, "web/db.js", js).len(), 1);
    let go = "package db\n\nfunc F(id string) {\n\tdb.Query(fmt.Sprintf(\"SELECT * FROM t WHERE id = %s\", id))\n}\n";
    assert_eq!(hits(&SqlInjection, "db/db.go", go).len(), 1);
}

#[test]
fn a_query_is_judged_by_its_own_function_and_what_it_splices_in() {
    let go = "package m\n\nfunc (m *M) Version() {\n\tquery := \"SELECT version FROM \" + m.config.MigrationsTable + \" LIMIT 1\"\n\tm.db.QueryRow(query)\n}\n\nfunc (m *M) Tables() {\n\tquery := `SELECT name FROM sqlite_master WHERE type = 'table';`\n\tm.db.Query(query)\n}\n\nfunc (m *M) Lock() {\n\tquery := \"SELECT * FROM \" + pq.QuoteIdentifier(m.table) + \" WHERE lock_id = $1\"\n\tm.db.Query(query, 1)\n}\n\nfunc (m *M) Find(name string) {\n\tquery := \"SELECT * FROM t WHERE name = '\" + name + \"'\"\n\tm.db.Query(query)\n}\n";
    let go = go.replace(
        "func (m *M) Find",
        "func (m *M) Drop() {\n\tquery := \"DELETE FROM \" + m.config.MigrationsTable\n\tm.db.Exec(query)\n\tq := fmt.Sprintf(`INSERT INTO %s (v) VALUES (?)`, m.config.MigrationsTable)\n\tm.db.Exec(q, 1)\n}\n\nfunc (m *M) Find",
    );
    let lines: Vec<u32> = hits(&SqlInjection, "database/m.go", &go)
        .into_iter()
        .map(|h| h.0)
        .collect();
    assert_eq!(lines, vec![27], "only the caller's value spliced in");
    let excused: Vec<u32> = crate::rules::fixture::excused(&SqlInjection, "database/m.go", &go)
        .into_iter()
        .map(|h| h.0)
        .collect();
    assert_eq!(
        excused,
        vec![5, 15, 20, 22],
        "the configured and escaped names are excused: a change that writes them still gates"
    );
}

#[test]
fn quiet_on_bound_parameters_and_non_sql_formatting() {
    let rust = "fn a(conn: &Connection, id: &str) {\n    conn.execute(\"DELETE FROM users WHERE id = ?1\", [id]);\n    sqlx::query(\"SELECT * FROM t WHERE id = $1\").bind(id);\n    tx.execute(&format!(\"job {id} done\"));\n}\n";
    assert!(hits(&SqlInjection, "src/db.rs", rust).is_empty());
    let py = "cur.execute(\"SELECT * FROM users WHERE name = %s\", (name,))\nlog.info(f\"SELECT took {ms} ms\")\n";
    assert!(hits(&SqlInjection, "app/db.py", py).is_empty());
    let go =
        "package db\n\nfunc F(id string) {\n\tdb.Query(\"SELECT * FROM t WHERE id = $1\", id)\n}\n";
    assert!(hits(&SqlInjection, "db/db.go", go).is_empty());
    // A benchmark's own queries: no attacker's input reaches them.
    let bench = "fn bench(conn: &Connection, bind: &str) {\n    conn.execute(&format!(\"SELECT * FROM users WHERE name = {bind}\"), []);\n}\n";
    assert!(hits(&SqlInjection, "diesel_bench/benches/pg.rs", bench).is_empty());
    assert_eq!(hits(&SqlInjection, "src/db.rs", bench).len(), 1);
}

#[test]
fn rust_files_without_a_query_call_in_code_are_not_parsed() {
    use crate::rules::holistic::prefilter::wanted;
    let called = "fn f(c: &Conn, id: &str) {\n    diesel::sql_query(format!(\"DELETE FROM t WHERE id = {id}\"));\n}\n";
    assert!(wanted(&SqlInjection, called));
    let mentioned = "/// Runs `execute` on the SELECT below.\nfn f() -> &'static str {\n    \"SELECT 1; execute\"\n}\n";
    assert!(!wanted(&SqlInjection, mentioned));
}
