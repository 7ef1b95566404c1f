//! Test helpers: a stand-in for the Lead's configuration, which this crate does not know.

/// The `SECTION.KEY`s the stand-in knows: the ones the tests' scenarios set.
const KNOWN: [&str; 3] = [
    "supervision.inspect_deadline_secs",
    "supervision.connect_timeout_ms",
    "test.command",
];

/// A [`crate::ConfigCheck`] that knows [`KNOWN`] and refuses any other key as the Lead's
/// configuration words it (`unknown field `KEY``).
pub(crate) fn config_check(table: &toml::Table) -> Result<(), String> {
    for (section, keys) in table {
        for key in keys.as_table().into_iter().flat_map(|t| t.keys()) {
            if !KNOWN.contains(&format!("{section}.{key}").as_str()) {
                return Err(format!("unknown field `{key}`"));
            }
        }
    }
    Ok(())
}
