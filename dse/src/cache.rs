//! The results cache: one JSON line per evaluated point, appended (and
//! flushed) as each result arrives, so that an interrupted run loses
//! nothing and the next run evaluates only what is missing. The key is
//! the SHA-256 of the input, the top, the widest port, the point's design (directives,
//! tiles, DMA, target, clock), the level and the tool versions. Only
//! final outcomes are kept: a failed evaluation is tried again.

use crate::eval::{Level, Outcome};
use crate::kernel::Input;
use crate::point::Config;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

#[derive(Serialize, Deserialize)]
struct Line {
    key: String,
    outcome: Outcome,
}

/// The cache file and what it holds.
pub struct Cache {
    path: PathBuf,
    entries: HashMap<String, Outcome>,
    file: Option<std::fs::File>,
}

/// The key of `cfg` at `level`.
pub fn key(input: &Input, cfg: &Config, level: Level, tools: &str) -> String {
    let mut h = Sha256::new();
    for part in [
        "silica-dse cache 2",
        env!("CARGO_PKG_VERSION"),
        tools,
        level.name(),
        &input.top,
        &input.text,
        &serde_json::to_string(&input.ip).unwrap_or_default(),
        &input.max_port_bits.to_string(),
        if input.fit { "fit" } else { "" },
        &serde_json::to_string(cfg).unwrap_or_default(),
    ] {
        h.update(part.as_bytes());
        h.update([0]);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

impl Cache {
    /// Reads the cache at `path` (a missing file is an empty cache; a
    /// line that does not read, e.g. cut by an interruption, is skipped).
    pub fn open(path: &Path) -> Cache {
        let mut entries = HashMap::new();
        if let Ok(f) = std::fs::File::open(path) {
            for line in std::io::BufReader::new(f).lines().map_while(Result::ok) {
                if let Ok(l) = serde_json::from_str::<Line>(&line) {
                    entries.insert(l.key, l.outcome);
                }
            }
        }
        Cache {
            path: path.to_path_buf(),
            entries,
            file: None,
        }
    }

    pub fn get(&self, key: &str) -> Option<&Outcome> {
        self.entries.get(key)
    }

    /// Records a final outcome (failures are not kept).
    pub fn put(&mut self, key: String, outcome: &Outcome) -> std::io::Result<()> {
        if matches!(outcome, Outcome::Failed { .. }) || self.entries.contains_key(&key) {
            return Ok(());
        }
        if self.file.is_none() {
            if let Some(dir) = self.path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            self.file = Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&self.path)?,
            );
        }
        let line = serde_json::to_string(&Line {
            key: key.clone(),
            outcome: outcome.clone(),
        })
        .map_err(std::io::Error::other)?;
        if let Some(f) = &mut self.file {
            writeln!(f, "{line}")?;
            f.flush()?;
        }
        self.entries.insert(key, outcome.clone());
        Ok(())
    }
}
