//! The one catalogue of programs the judge knows, by what they are: shells and
//! interpreters (they run what they are given), awks, downloaders and decoders (what
//! they print may be a program), programs that write what they name, file system
//! makers, readers (they change nothing with ordinary arguments) and the flags that make
//! them write, programs whose output is only facts about the computer (each with its
//! reason) and the flags that make them relay a file, programs that hand work to
//! another process, and the clients of the person's desktop session. The rules and
//! judgements (`rules`, `interp`, `awk`, `read_only`, `provenance`, `session`) read
//! these lists; none keeps one of its own.

// Read by `awk.rs`.
/// The awk implementations, by program name.
pub const AWKS: &[&str] = &["awk", "gawk", "mawk", "nawk", "original-awk", "busybox-awk"];

// Read by `interp.rs`.
pub const INTERPRETERS: &[&str] = &[
    "python",
    "python2",
    "python3",
    "pypy",
    "pypy3",
    "perl",
    "ruby",
    "node",
    "nodejs",
    "deno",
    "bun",
    "php",
    "lua",
    "luajit",
    "Rscript",
    "tclsh",
    "osascript",
];

// Read by `provenance.rs`.
/// Programs whose output is a fact about the computer, and why it cannot carry text
/// someone else wrote. Anything else, a program this list does not name included, marks.
pub const FACTS: &[(&str, &str)] = &[
    (
        "df",
        "sizes of file systems and their mount points, which the system names",
    ),
    ("free", "memory sizes"),
    ("uptime", "times and load numbers"),
    ("nproc", "a number"),
    ("uname", "the kernel's name, version and architecture"),
    ("whoami", "the account's name, set by its administrator"),
    (
        "id",
        "account and group names and numbers, set by the administrator",
    ),
    ("hostname", "the computer's name"),
    ("lscpu", "the processor's description, from the kernel"),
    ("pwd", "the working folder, which the call itself named"),
    ("date", "a time (without -f/-r, which read a file)"),
    ("sleep", "nothing"),
    ("true", "nothing"),
    ("false", "nothing"),
    ("test", "nothing (an exit code)"),
    ("[", "nothing (an exit code)"),
    ("cd", "nothing"),
    (
        "wc",
        "counts, and the names the call itself gave (without --files0-from)",
    ),
    ("du", "sizes, with -s of the folders the call itself named"),
    (
        "which",
        "paths of programs, built from the names the call gave",
    ),
    (
        "echo",
        "the call's own words (with no glob or substitution in them)",
    ),
    (
        "printf",
        "the call's own words (with no glob or substitution in them)",
    ),
    ("mkdir", "nothing, or an error naming the call's own paths"),
    ("touch", "nothing, or an error naming the call's own paths"),
    ("cp", "nothing, or an error naming the call's own paths"),
    ("mv", "nothing, or an error naming the call's own paths"),
    ("rm", "nothing, or an error naming the call's own paths"),
    ("rmdir", "nothing, or an error naming the call's own paths"),
    ("ln", "nothing, or an error naming the call's own paths"),
    ("chmod", "nothing, or an error naming the call's own paths"),
    ("chown", "nothing, or an error naming the call's own paths"),
];

// Read by `provenance.rs`.
/// Flags that make one of the programs above read a file's text or names into its output.
pub const READING_FLAGS: &[(&str, &[&str])] = &[
    ("date", &["-f", "--file", "-r", "--reference"]),
    ("wc", &["--files0-from"]),
    ("du", &["--files0-from", "-X", "--exclude-from"]),
];

// Read by `read_only.rs`.
/// Programs that read or describe and never write with ordinary arguments (`sort` only
/// without `-o`/`--output`). Not here on purpose: `uniq` (its second operand is written), `hostname` (sets the name),
/// `env`/`sudo`/`xargs` (run other programs), `git`, `sed`, `tee`. awk reads only when its
/// program text shows it (`shell::awk`; `programs` reports any other awk as writing).
pub const READERS: &[&str] = &[
    "ls",
    "df",
    "du",
    "free",
    "uptime",
    "whoami",
    "id",
    "date",
    "uname",
    "pwd",
    "nproc",
    "wc",
    "stat",
    "which",
    "type",
    "true",
    "false",
    "test",
    "[",
    "lscpu",
    "lsblk",
    "echo",
    "printf",
    "cat",
    "head",
    "tail",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "find",
    "file",
    "ps",
    "sleep",
    "basename",
    "dirname",
    "realpath",
    "readlink",
    "seq",
    "cut",
    "tr",
    "nl",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "printenv",
    "tree",
    "cd",
    "sort",
];

// Read by `read_only.rs`.
/// Words that make one of the readers write, delete or run something.
pub const WRITING_FLAGS: &[&str] = &[
    "-delete",
    "-exec",
    "-execdir",
    "-ok",
    "-okdir",
    "-fprint",
    "-fprint0",
    "-fprintf",
    "-fls",
    "-s",
    "--set",
    "--compress-program",
];

// Read by `rules.rs`.
pub const MKFS: &[&str] = &[
    "mkfs",
    "mkfs.ext2",
    "mkfs.ext3",
    "mkfs.ext4",
    "mkfs.xfs",
    "mkfs.btrfs",
    "mkfs.vfat",
    "mkfs.fat",
    "mkfs.ntfs",
    "mkfs.exfat",
    "mkfs.f2fs",
    "mke2fs",
    "mkswap",
    "mkntfs",
    "mkdosfs",
    "wipefs",
    "blkdiscard",
];

// Read by `rules.rs`.
/// Programs that can hand a command to a process started outside Zeta's confinement (a
/// terminal multiplexer's server, another window, the service manager, the scheduler,
/// another machine) (`hands_work`); `nohup` and `setsid`, which leave one running after
/// the task, are read as wrappers and ask there.
pub const HANDS_WORK: &[&str] = &[
    "tmux",
    "screen",
    "xdotool",
    "systemd-run",
    "busctl",
    "gdbus",
    "dbus-send",
    "qdbus",
    "at",
    "batch",
    "ssh",
    "crontab",
];

// Read by `rules.rs`.
pub const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "ash", "csh", "tcsh", "yash",
];

// Read by `rules.rs`.
pub const DOWNLOADERS: &[&str] = &[
    "curl",
    "wget",
    "fetch",
    "aria2c",
    "http",
    "https",
    "xh",
    "lwp-request",
    "GET",
];

// Read by `rules.rs`.
pub const DECODERS: &[&str] = &[
    "base64", "base32", "basenc", "xxd", "openssl", "uudecode", "gunzip", "zcat", "rev", "gzip",
    "xz", "bzip2", "zstd",
];

// Read by `rules.rs`.
/// Programs whose operands it writes: all of them, or only the last (the destination).
pub const WRITES_ALL: &[&str] = &[
    "touch", "mkdir", "rm", "rmdir", "unlink", "shred", "truncate", "tee", "chmod", "chown",
    "chgrp", "mkfifo", "mknod",
];

// Read by `rules.rs`.
pub const WRITES_LAST: &[&str] = &["cp", "mv", "install", "ln", "rsync", "dd"];

// Read by `session.rs`.
/// The programs that reach the session. `busctl`, `systemctl`, `systemd-run`, `gdbus`
/// and `dbus-send` reach it only when told to (`--user`, `--session`; dbus-send's
/// default); the system bus stays visible to every command.
pub const SESSION_CLIENTS: &[&str] = &[
    "tmux",
    "screen",
    "xdotool",
    "xclip",
    "xsel",
    "xprop",
    "xwininfo",
    "xdpyinfo",
    "xrandr",
    "xset",
    "xinput",
    "xkill",
    "xmodmap",
    "xrdb",
    "wmctrl",
    "xdg-open",
    "gio",
    "notify-send",
    "gsettings",
    "dconf",
    "wl-copy",
    "wl-paste",
    "swaymsg",
    "hyprctl",
    "busctl",
    "gdbus",
    "dbus-send",
    "qdbus",
    "systemctl",
    "systemd-run",
    "pactl",
    "paplay",
    "pw-play",
    "wpctl",
    "playerctl",
    "zenity",
    "kdialog",
    "gnome-screenshot",
    "scrot",
    "import",
    "xwd",
    "secret-tool",
];

// Read by zeta-core's allowances: an allowance for one of these would allow anything.
/// Programs that run other programs (interpreters are told by `shell::is_interpreter`):
/// an allowance for them would allow anything.
pub const RUNS_OTHERS: &[&str] = &[
    "sh",
    "bash",
    "dash",
    "zsh",
    "fish",
    "ksh",
    "csh",
    "tcsh",
    "busybox",
    "env",
    "sudo",
    "su",
    "doas",
    "pkexec",
    "xargs",
    "exec",
    "eval",
    "source",
    ".",
    "nohup",
    "timeout",
    "nice",
    "ionice",
    "watch",
    "strace",
    "chroot",
    "setsid",
    "script",
    "parallel",
    "find",
    "awk",
    "gawk",
    "mawk",
    "ssh",
    "systemd-run",
    "flatpak-spawn",
    "dbus-send",
];
