//! CPF — the Compact Pipe-Delimited Format for Inspector reports and Auditor verdicts (chapter 01).
