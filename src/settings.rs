//! What every configuration section shares, whichever component owns it: the error that
//! names the key it concerns, and `${VAR}` expansion from the environment. A leaf: the
//! sections (in `config`, `auth`, `telemetry`, ...) depend on it, it on nothing.

/// A configuration problem, with the key it concerns.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config {path}: {source}")]
    Read { path: String, source: std::io::Error },
    #[error("config {path}: {message}")]
    Parse { path: String, message: String },
    #[error("config key `{key}`: {message}")]
    Invalid { key: String, message: String },
    /// More than one problem, each on its own line.
    #[error("{} problems in the config:\n{}", .0.len(), .0.iter().map(|e| format!("  {e}")).collect::<Vec<_>>().join("\n"))]
    Several(Vec<ConfigError>),
}

/// A [`ConfigError::Invalid`] for `key`.
pub fn invalid(key: impl Into<String>, message: impl Into<String>) -> ConfigError {
    ConfigError::Invalid { key: key.into(), message: message.into() }
}

/// Expands `${VAR}` from the environment; an unset variable is an error naming it.
pub fn expand_env(value: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let Some(end) = rest[start..].find('}') else { return Err("unclosed ${".into()) };
        let var = &rest[start + 2..start + end];
        out.push_str(&std::env::var(var).map_err(|_| format!("environment variable {var} is not set"))?);
        rest = &rest[start + end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_expansion() {
        assert!(expand_env("x ${PATH} y").unwrap().starts_with("x /"));
        assert!(expand_env("${TDQS_SURELY_UNSET_VAR}").unwrap_err().contains("TDQS_SURELY_UNSET_VAR"));
        assert!(expand_env("${UNCLOSED").is_err());
    }
}
