//! The configuration file (`--config FILE`, or `TONNE_CONFIG`): a TOML file that
//! may hold any setting a flag or an environment variable holds.
//!
//! The layering is clap's own: each value the file gives becomes that
//! argument's default before the command line is parsed, so a flag wins over
//! the environment, the environment over the file, and the file over the
//! built-in default — with no second parser of flags or variables.
//!
//! A setting's key is its environment variable's name without `TONNE_`,
//! lower-cased. Settings that share a prefix sit in that prefix's section (`TONNE_WEBHOOK_TIMEOUT_SECONDS` is `timeout_seconds`
//! in `[webhook]`, `TONNE_REDIS_URL` is `url` in `[redis]`); the other global
//! ones (`DATABASE_URL`, `TONNE_SECRETS_KEY`, `TONNE_LOG_FORMAT`) at the top,
//! the server's others in `[server]`. Every value is checked by the argument's own parser
//! when the file is read, so a bad one is reported with the file and line.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clap::{Arg, Command};
use toml::de::{DeTable, DeValue};

/// Variable-name prefixes (after `TONNE_`) that are sections of the file,
/// longest first where one prefix starts another.
const SECTIONS: &[(&str, &str)] = &[
    ("page_rate_limit_", "page_rate_limit"),
    ("rate_limit_", "rate_limit"),
    ("db_pool_", "db_pool"),
    ("redis_", "redis"),
    ("webhooks_", "webhook"),
    ("webhook_", "webhook"),
    ("offset_link_", "offset_link"),
    ("dispatch_", "dispatch"),
    ("otlp_", "otlp"),
    ("quota_", "quota"),
    ("stripe_", "stripe"),
    ("invoice_", "invoice"),
];

/// The section of the server's settings that share no prefix.
const SERVER: &str = "server";

/// The variable naming the file itself: not a key of the file.
pub const CONFIG_ENV: &str = "TONNE_CONFIG";

/// One setting the command line reads: its variable, where it sits in the
/// file, the argument that parses it, and the first command that reads it.
#[derive(Debug, Clone)]
pub struct Setting {
    pub env: String,
    pub section: Option<&'static str>,
    pub key: String,
    pub arg: Arg,
    /// `""` for the global settings, else e.g. `"serve"`.
    pub command: String,
    /// Every command that reads it (`["serve", "dispatch"]`), empty for the global ones.
    pub commands: Vec<String>,
}

impl Setting {
    /// A secret's value is never printed.
    pub fn is_secret(&self) -> bool {
        self.arg.is_hide_env_values_set()
    }
}

/// Where a variable lives in the file: its section (`None`: the top) and key.
pub fn file_key(env: &str, global: bool) -> (Option<&'static str>, String) {
    let name = env
        .strip_prefix("TONNE_")
        .unwrap_or(env)
        .to_ascii_lowercase();
    for (prefix, section) in SECTIONS {
        if let Some(rest) = name.strip_prefix(prefix) {
            return (Some(section), rest.to_owned());
        }
    }
    if global {
        return (None, name);
    }
    (Some(SERVER), name)
}

/// Every setting of `cmd` and its subcommands that has an environment
/// variable, once each, in definition order (the first command that reads a
/// variable names it).
pub fn settings(cmd: &Command) -> Vec<Setting> {
    let mut out = Vec::new();
    walk(cmd, "", &mut out);
    out
}

fn walk(cmd: &Command, path: &str, out: &mut Vec<Setting>) {
    for arg in cmd.get_arguments() {
        let Some(env) = arg.get_env().and_then(|e| e.to_str()) else {
            continue;
        };
        if let Some(seen) = out.iter_mut().find(|s| s.env == env) {
            if !seen.command.is_empty() && !seen.commands.iter().any(|c| c == path) {
                seen.commands.push(path.to_owned());
            }
            continue;
        }
        let (section, key) = file_key(env, arg.is_global_set());
        out.push(Setting {
            env: env.to_owned(),
            section,
            key,
            arg: arg.clone(),
            command: path.to_owned(),
            commands: if path.is_empty() {
                Vec::new()
            } else {
                vec![path.to_owned()]
            },
        });
    }
    for sub in cmd.get_subcommands() {
        let name = if path.is_empty() {
            sub.get_name().to_owned()
        } else {
            format!("{path} {}", sub.get_name())
        };
        walk(sub, &name, out);
    }
}

/// One value the file gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileValue {
    /// As the argument's parser reads it (arrays joined with commas).
    pub text: String,
    /// The key as written, `section.key`.
    pub key: String,
    /// 1-based line of the value.
    pub line: usize,
}

/// A configuration file, read and checked.
#[derive(Debug, Clone)]
pub struct SettingsFile {
    pub path: PathBuf,
    /// By environment variable name.
    values: BTreeMap<String, FileValue>,
}

impl SettingsFile {
    /// Reads and checks `path` against the settings of `cmd`.
    pub fn load(path: &Path, cmd: &Command) -> anyhow::Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            anyhow::anyhow!("cannot read the configuration file {}: {e}", path.display())
        })?;
        Self::parse(path, &text, cmd)
    }

    /// Checks `text` (the file at `path`) against the settings of `cmd`: an
    /// unknown section or key, a value of the wrong kind, or one the
    /// argument's parser refuses is an error naming the key, file and line.
    pub fn parse(path: &Path, text: &str, cmd: &Command) -> anyhow::Result<Self> {
        let shown = path.display();
        let doc =
            DeTable::parse(text).map_err(|e| anyhow::anyhow!("configuration file {shown}: {e}"))?;
        let mut known = settings(cmd);
        known.retain(|s| s.env != CONFIG_ENV);
        let line_of = |offset: usize| text[..offset.min(text.len())].matches('\n').count() + 1;
        let mut values = BTreeMap::new();
        let mut take = |section: Option<&str>,
                        key: &str,
                        value: &DeValue<'_>,
                        offset: usize|
         -> anyhow::Result<()> {
            let line = line_of(offset);
            let dotted = match section {
                Some(s) => format!("{s}.{key}"),
                None => key.to_owned(),
            };
            let Some(setting) = known.iter().find(|s| s.section == section && s.key == key) else {
                let siblings: Vec<&str> = known
                    .iter()
                    .filter(|s| s.section == section)
                    .map(|s| s.key.as_str())
                    .collect();
                let place = section.map_or("at the top".to_owned(), |s| format!("in [{s}]"));
                anyhow::bail!(
                    "{shown}:{line}: unknown key `{dotted}`; the keys {place} are: {}",
                    siblings.join(", ")
                );
            };
            let text = scalar(value).ok_or_else(|| {
                anyhow::anyhow!(
                    "{shown}:{line}: `{dotted}` must be a string, a number, a boolean or an array of them, not {}",
                    value.type_str()
                )
            })?;
            check(&setting.arg, &text)
                .map_err(|e| anyhow::anyhow!("{shown}:{line}: `{dotted}` = {text:?}: {e}"))?;
            values.insert(
                setting.env.clone(),
                FileValue {
                    text,
                    key: dotted,
                    line,
                },
            );
            Ok(())
        };
        for (name, value) in doc.get_ref() {
            let offset = name.span().start;
            match value.get_ref() {
                DeValue::Table(table) => {
                    let Some(section) = known
                        .iter()
                        .filter_map(|s| s.section)
                        .find(|s| *s == name.get_ref().as_ref())
                    else {
                        let mut sections: Vec<&str> =
                            known.iter().filter_map(|s| s.section).collect();
                        sections.dedup();
                        sections.sort_unstable();
                        sections.dedup();
                        anyhow::bail!(
                            "{shown}:{}: unknown section [{}]; the sections are: {}",
                            line_of(offset),
                            name.get_ref(),
                            sections.join(", ")
                        );
                    };
                    for (key, value) in table {
                        take(
                            Some(section),
                            key.get_ref(),
                            value.get_ref(),
                            key.span().start,
                        )?;
                    }
                }
                other => take(None, name.get_ref(), other, offset)?,
            }
        }
        Ok(Self {
            path: path.to_owned(),
            values,
        })
    }

    /// The value the file gives the setting read from `env`, if any.
    pub fn get(&self, env: &str) -> Option<&FileValue> {
        self.values.get(env)
    }

    /// `cmd` with the file's values as its arguments' defaults (and its
    /// subcommands', recursively).
    pub fn apply(&self, mut cmd: Command) -> Command {
        let ids: Vec<(String, String)> = cmd
            .get_arguments()
            .filter_map(|arg| {
                let env = arg.get_env()?.to_str()?;
                let value = self.values.get(env)?;
                Some((arg.get_id().to_string(), value.text.clone()))
            })
            .collect();
        for (id, text) in ids {
            cmd = cmd.mut_arg(id, |arg| arg.default_value(text));
        }
        let subcommands: Vec<String> = cmd
            .get_subcommands()
            .map(|s| s.get_name().to_owned())
            .collect();
        for name in subcommands {
            cmd = cmd.mut_subcommand(name, |sub| self.apply(sub));
        }
        cmd
    }
}

/// A TOML value as the text an argument parses: arrays joined with commas.
fn scalar(value: &DeValue<'_>) -> Option<String> {
    Some(match value {
        DeValue::String(s) => s.to_string(),
        DeValue::Integer(i) => i128::from_str_radix(i.as_str(), i.radix())
            .ok()?
            .to_string(),
        DeValue::Float(f) => f.as_str().to_owned(),
        DeValue::Boolean(b) => b.to_string(),
        DeValue::Array(items) => {
            let parts: Option<Vec<String>> = items
                .iter()
                .map(|item| match item.get_ref() {
                    DeValue::Array(_) | DeValue::Table(_) => None,
                    other => scalar(other),
                })
                .collect();
            parts?.join(",")
        }
        DeValue::Datetime(_) | DeValue::Table(_) => return None,
    })
}

/// Runs the argument's own parser on `text`, as if it were given as a flag.
fn check(arg: &Arg, text: &str) -> Result<(), String> {
    if !arg.get_action().takes_values() {
        return match text {
            "true" | "false" => Ok(()),
            _ => Err("must be true or false".to_owned()),
        };
    }
    let Some(long) = arg.get_long() else {
        return Ok(());
    };
    let probe = arg
        .clone()
        .env(None::<&str>)
        .global(false)
        .required(false)
        .default_value(None::<&str>);
    let flag = format!("--{long}={text}");
    Command::new("tonne")
        .no_binary_name(true)
        .arg(probe)
        .try_get_matches_from([flag])
        .map(drop)
        .map_err(|e| {
            let rendered = e.render().to_string();
            let first = rendered.lines().next().unwrap_or_default();
            first
                .strip_prefix("error: ")
                .unwrap_or(first)
                .replace(&format!("for '--{long} <"), "for '<")
        })
}

#[cfg(test)]
mod tests;
