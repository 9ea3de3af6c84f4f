//! What a walk of a command line collects beside its verdict: the programs it runs (for
//! risk labels, the read-only and provenance judgements), whether it writes and the
//! paths it writes that are known before it runs (for the write confinement's check and
//! undo's budget), what it asks of the desktop session, and what one program pipes into
//! the next (for what a program read).

use std::path::PathBuf;

#[derive(Debug, Default)]
pub struct Seen {
    /// Every program it runs, nested ones included (`?` for one computed when it runs).
    pub programs: Vec<String>,
    /// The words the programs get, as the shell will pass them: quotes removed, values
    /// expanded where that is static (the raw text where it is not).
    pub words: Vec<String>,
    pub writes: bool,
    /// The paths it writes that are known before it runs (redirections, `tee`, `cp`'s
    /// destination, `touch`, `rm`…), absolute.
    pub write_targets: Vec<PathBuf>,
    /// Of those, the ones only appended to (`>> FILE`): what they held stays.
    pub append_targets: Vec<PathBuf>,
    /// What the command asks of the desktop session, when it reaches it (`session`):
    /// any act makes the whole command act.
    pub session: Option<SessionUse>,
    /// Each `A | B` of simple commands, in the order written.
    pub pipes: Vec<Pipe>,
    /// Each simple command, in the order walked (a nested one before the one around it).
    pub commands: Vec<Simple>,
    /// Part of the line (or of a script nested in it) could not be parsed: what is
    /// seen is not all it does.
    pub partial: bool,
}

/// One simple command, as the shell will run it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Simple {
    /// Its program's base name, then its words as the shell will pass them (values
    /// expanded where that is static).
    pub words: Vec<String>,
    /// The same words as written (`~/q3.csv`, quotes kept).
    pub written: Vec<String>,
    /// Where it is in the line (bytes), when it is in the line itself and not in a nested
    /// shell's text (`sh -c '…'`).
    pub span: Option<(usize, usize)>,
    /// The folder the line is in there, while it is known.
    pub cwd: Option<PathBuf>,
    /// Its standard input comes from somewhere: a pipe, a here-document or here-string,
    /// a `<` redirection. Otherwise it reads what the caller gives it (for Zeta's shell,
    /// nothing).
    pub fed: bool,
}

/// One simple command's output piped into the next one's input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pipe {
    /// The command whose output goes into the pipe: its program's base name, then its
    /// words as the shell will pass them (values expanded where that is static).
    pub from: Vec<String>,
    /// The same words as written (`~/q3.csv`, not the home folder's path).
    pub written: Vec<String>,
    /// Where that command is in the line (bytes), when it is in the line itself and not
    /// in a nested shell's text (`sh -c '…'`).
    pub span: Option<(usize, usize)>,
    /// The base name of the program that reads the pipe.
    pub into: String,
    /// That program's words after its name, as the shell will pass them.
    pub into_args: Vec<String>,
    /// Where the reading command is in the line (bytes), as `span`.
    pub into_span: Option<(usize, usize)>,
    /// The folder the line is in there, while it is known (after a `cd`, its target).
    pub cwd: Option<PathBuf>,
}

/// What a command asks of the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionUse {
    /// Information only: lists, names, values, states.
    Reads,
    /// Anything else: typing, setting, starting, showing, playing, secrets.
    Acts,
}
