//! Terminal styling: ANSI colours when writing to a terminal, plain text otherwise.

/// Whether to colour terminal output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Plain,
    Ansi,
}

impl Style {
    /// Colour only on a terminal, and never when `NO_COLOR` is set (no-color.org).
    pub fn for_stdout() -> Style {
        use std::io::IsTerminal;
        if std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none() {
            Style::Ansi
        } else {
            Style::Plain
        }
    }

    fn paint(self, code: &str, s: &str) -> String {
        match self {
            Style::Plain => s.to_owned(),
            Style::Ansi => format!("\x1b[{code}m{s}\x1b[0m"),
        }
    }

    pub fn bold(self, s: &str) -> String {
        self.paint("1", s)
    }
    pub fn red(self, s: &str) -> String {
        self.paint("1;31", s)
    }
    pub fn yellow(self, s: &str) -> String {
        self.paint("33", s)
    }
    pub fn blue(self, s: &str) -> String {
        self.paint("36", s)
    }
    pub fn green(self, s: &str) -> String {
        self.paint("32", s)
    }
    pub fn dim(self, s: &str) -> String {
        self.paint("2", s)
    }
    /// What was invisible in the original: bold, reversed, red.
    pub fn hidden(self, s: &str) -> String {
        self.paint("1;7;31", s)
    }
}
