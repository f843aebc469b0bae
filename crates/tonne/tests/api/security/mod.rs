//! The security suite: one test per weakness found by trying Tonne as an
//! attacker would (docs/security.md maps each to its OWASP ASVS requirement).
//! Every test fails when its weakness comes back, runs on both stores where
//! a store is involved, and is bounded in requests and time.

mod backup;
mod console_forms;
mod domain_rules;
mod exposure;
mod fair_share;
mod junk;
mod links;
mod orders;
mod secrets_in_logs;
mod signin;
mod unstorable;
