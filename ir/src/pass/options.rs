//! Pass options: declared per pass with a kind and a default, read from
//! `{name=value ...}` in pipelines or `--pass=name=value` flags, checked
//! against the declaration with errors that list the valid choices.

/// What values an option takes.
#[derive(Clone, Copy, Debug)]
pub enum OptionKind {
    Bool,
    Int,
    UInt,
    String,
    /// One of these words.
    Enum(&'static [&'static str]),
    /// A comma-separated list of strings.
    List,
}

/// One declared option.
#[derive(Debug)]
pub struct PassOptionInfo {
    pub name: &'static str,
    pub description: &'static str,
    pub kind: OptionKind,
    /// The value when not given (as text; empty for none).
    pub default: &'static str,
}

/// The options of one pass instance, checked and with defaults filled in.
#[derive(Clone, Debug, Default)]
pub struct PassOptions {
    values: Vec<(&'static str, String)>,
    /// The options as given, for printing the pipeline back.
    pub given: Vec<(String, String)>,
}

fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "" | "true" | "TRUE" | "True" | "1" => Some(true),
        "false" | "FALSE" | "False" | "0" => Some(false),
        _ => None,
    }
}

/// Splits `a=1 b={x,y} c="q r"` into name/value pairs.
pub fn split_options(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= bytes.len() {
            break;
        }
        let start = i;
        while i < bytes.len() && bytes[i] != b'=' && !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let name = text[start..i].to_string();
        let mut value = String::new();
        if i < bytes.len() && bytes[i] == b'=' {
            i += 1;
            let vstart = i;
            let mut depth = 0i32;
            while i < bytes.len() {
                match bytes[i] {
                    b'{' | b'(' | b'[' => depth += 1,
                    b'}' | b')' | b']' => depth -= 1,
                    b'"' | b'\'' => {
                        let q = bytes[i];
                        i += 1;
                        while i < bytes.len() && bytes[i] != q {
                            i += 1;
                        }
                        if i >= bytes.len() {
                            return Err(format!("unterminated string in option '{name}'"));
                        }
                    }
                    c if c.is_ascii_whitespace() && depth == 0 => break,
                    _ => {}
                }
                i += 1;
            }
            value = unquote(&text[vstart..i]).to_string();
        }
        out.push((name, value));
    }
    Ok(out)
}

fn unquote(v: &str) -> &str {
    let b = v.as_bytes();
    if b.len() >= 2
        && ((b[0] == b'"' && b[b.len() - 1] == b'"')
            || (b[0] == b'\'' && b[b.len() - 1] == b'\'')
            || (b[0] == b'{' && b[b.len() - 1] == b'}'))
    {
        &v[1..v.len() - 1]
    } else {
        v
    }
}

impl PassOptions {
    /// Checks `given` against `infos` for the pass `pass`.
    pub fn parse(
        pass: &str,
        infos: &'static [PassOptionInfo],
        given: Vec<(String, String)>,
    ) -> Result<PassOptions, String> {
        let mut values: Vec<(&'static str, String)> = infos
            .iter()
            .map(|o| (o.name, o.default.to_string()))
            .collect();
        for (name, value) in &given {
            let Some(info) = infos.iter().find(|o| o.name == name) else {
                let valid: Vec<&str> = infos.iter().map(|o| o.name).collect();
                return Err(if valid.is_empty() {
                    format!("no such option '{name}' for pass '{pass}': it takes no options")
                } else {
                    format!(
                        "no such option '{name}' for pass '{pass}'; valid options: {}",
                        valid.join(", ")
                    )
                });
            };
            let bad = |expected: String| {
                format!(
                    "invalid value '{value}' for option '{name}' of pass '{pass}': expected {expected}"
                )
            };
            let value = match info.kind {
                OptionKind::Bool => parse_bool(value)
                    .ok_or_else(|| bad("true or false".into()))?
                    .to_string(),
                OptionKind::Int => {
                    value.parse::<i64>().map_err(|_| bad("an integer".into()))?;
                    value.clone()
                }
                OptionKind::UInt => {
                    value
                        .parse::<u64>()
                        .map_err(|_| bad("a non-negative integer".into()))?;
                    value.clone()
                }
                OptionKind::Enum(words) => {
                    if !words.contains(&value.as_str()) {
                        return Err(bad(format!("one of {}", words.join(", "))));
                    }
                    value.clone()
                }
                OptionKind::String | OptionKind::List => value.clone(),
            };
            let slot = values
                .iter_mut()
                .find(|(n, _)| *n == info.name)
                .expect("declared option");
            slot.1 = value;
        }
        Ok(PassOptions { values, given })
    }

    fn raw(&self, name: &str) -> &str {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map_or("", |(_, v)| v.as_str())
    }

    /// An option's value as MLIR prints it in a pipeline: `None` for an
    /// empty list or string (printed as nothing).
    pub fn shown(&self, name: &str) -> Option<String> {
        let v = self.raw(name);
        if v.is_empty() {
            return None;
        }
        Some(match parse_bool(v) {
            Some(b) if matches!(v, "true" | "false" | "TRUE" | "FALSE" | "True" | "False") => {
                b.to_string()
            }
            _ => v.to_string(),
        })
    }

    /// A boolean option's value.
    pub fn bool(&self, name: &str) -> bool {
        parse_bool(self.raw(name)).unwrap_or(false)
    }

    /// An integer option's value.
    pub fn int(&self, name: &str) -> i64 {
        self.raw(name).parse().unwrap_or(0)
    }

    /// A string or enum option's value.
    pub fn string(&self, name: &str) -> &str {
        self.raw(name)
    }

    /// A list option's items.
    pub fn list(&self, name: &str) -> Vec<String> {
        self.raw(name)
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_checks() {
        let parts = split_options("max-iterations=3  top-down=false x={a,b} s=\"q r\"").unwrap();
        assert_eq!(
            parts,
            vec![
                ("max-iterations".into(), "3".into()),
                ("top-down".into(), "false".into()),
                ("x".into(), "a,b".into()),
                ("s".into(), "q r".into())
            ]
        );
        static INFOS: &[PassOptionInfo] = &[PassOptionInfo {
            name: "n",
            description: "",
            kind: OptionKind::Int,
            default: "10",
        }];
        let o = PassOptions::parse("p", INFOS, vec![]).unwrap();
        assert_eq!(o.int("n"), 10);
        let e = PassOptions::parse("p", INFOS, vec![("n".into(), "x".into())]).unwrap_err();
        assert!(e.contains("expected an integer"), "{e}");
        let e = PassOptions::parse("p", INFOS, vec![("m".into(), "1".into())]).unwrap_err();
        assert!(e.contains("valid options: n"), "{e}");
    }
}
