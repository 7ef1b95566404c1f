//! `[chaos]`: fault injection from configuration (the supervision spec). Off by default; a fault listed
//! while it is off is refused when a command starts (`crate::chaos::fault_plan`).

use serde::{Deserialize, Serialize};

/// `[chaos]`
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct ChaosSettings {
    /// Allow fault injection (`--chaos` allows it for one command).
    pub enabled: bool,
    /// `[[chaos.faults]]`: faults injected into every command that runs actors.
    pub faults: Vec<FaultEntry>,
}

/// One `[[chaos.faults]]` entry: the table form of `--fault ACTOR[#SPAWN]:FAULT`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct FaultEntry {
    /// The stable actor name (`inspector-quality`, `auditor`, `implementer-1`, `lead`).
    pub actor: String,
    /// Only this spawn (1 is the first); every spawn when absent.
    pub spawn: Option<u32>,
    /// The fault (`hang-at=inspect`, `stall-output`, `delay=500`, …).
    pub fault: String,
}

impl FaultEntry {
    /// The `--fault` text of this entry, for parsing and messages.
    pub fn to_spec_text(&self) -> String {
        match self.spawn {
            Some(spawn) => format!("{}#{spawn}:{}", self.actor, self.fault),
            None => format!("{}:{}", self.actor, self.fault),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_shipped_deploy_file_leaves_chaos_off_and_empty() {
        let dir = tempfile::tempdir().expect("tempdir");
        let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/retake.toml");
        std::fs::copy(shipped, dir.path().join("retake.toml")).expect("copy");
        let s = crate::config::load(dir.path()).expect("deploy/retake.toml is valid");
        assert!(!s.chaos.enabled);
        assert!(s.chaos.faults.is_empty());
    }

    #[test]
    fn fault_tables_load_with_and_without_a_spawn() {
        let dir = tempfile::tempdir().expect("tempdir");
        let toml = "[chaos]\nenabled = true\n\n\
                    [[chaos.faults]]\nactor = \"inspector-quality\"\nfault = \"hang-at=inspect\"\n\n\
                    [[chaos.faults]]\nactor = \"auditor\"\nspawn = 1\nfault = \"stall-output\"\n";
        std::fs::write(dir.path().join("retake.toml"), toml).expect("write");
        let s = crate::config::load(dir.path()).expect("valid");
        assert!(s.chaos.enabled);
        let texts: Vec<String> = s
            .chaos
            .faults
            .iter()
            .map(FaultEntry::to_spec_text)
            .collect();
        assert_eq!(
            texts,
            [
                "inspector-quality:hang-at=inspect",
                "auditor#1:stall-output"
            ]
        );
    }

    #[test]
    fn an_unknown_key_in_a_fault_table_is_named() {
        let dir = tempfile::tempdir().expect("tempdir");
        let toml = "[[chaos.faults]]\nactor = \"auditor\"\nfaults = \"stall-output\"\n";
        std::fs::write(dir.path().join("retake.toml"), toml).expect("write");
        let err = crate::config::load(dir.path())
            .expect_err("unknown key")
            .to_string();
        assert!(err.contains("faults"), "{err}");
    }
}
