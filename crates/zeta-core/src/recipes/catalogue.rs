//! The curated catalogue of command recipes: everyday requests a small model meets, each
//! with the idiom that answers it on Linux (GNU coreutils, findutils, grep, mawk/gawk,
//! procps, iproute2). The words say when a recipe fits; the program and flags are what
//! `tests` checks against this machine's `--help` and man pages.

use super::Recipe;

const fn r(
    task: &'static str,
    command: &'static str,
    strong: &'static [&'static str],
    words: &'static [&'static str],
    program: &'static str,
    flags: &'static [&'static str],
) -> Recipe {
    Recipe {
        task,
        command,
        strong,
        words,
        program,
        flags,
        writes: &[],
        column: false,
    }
}

impl Recipe {
    /// The same recipe, whose N is a column's number (`Recipe::column`).
    const fn by_column(self) -> Recipe {
        Recipe {
            column: true,
            ..self
        }
    }

    /// The same recipe, whose `capitals` name where it writes (`Recipe::writes`).
    const fn writing(self, capitals: &'static [&'static str]) -> Recipe {
        Recipe {
            writes: capitals,
            ..self
        }
    }
}

pub const CATALOGUE: &[Recipe] = &[
    // The computer.
    r(
        "free disk space",
        "df -h /",
        &["disk"],
        &["space", "free", "storage", "left"],
        "df",
        &["-h"],
    ),
    r(
        "free and used memory",
        "free -h",
        &["memory", "ram"],
        &["free", "used", "much"],
        "free",
        &["-h"],
    ),
    r(
        "the number of CPU cores",
        "nproc",
        &["cpu", "core", "processor"],
        &["many", "thread"],
        "nproc",
        &[],
    ),
    r(
        "the user name",
        "whoami",
        &["username", "whoami"],
        &["user", "name", "logged", "account"],
        "whoami",
        &[],
    ),
    r(
        "the Linux kernel version",
        "uname -r",
        &["kernel"],
        &["linux", "version", "running"],
        "uname",
        &["-r"],
    ),
    r(
        "the operating system and its version",
        "cat /etc/os-release",
        &["distribution", "distro"],
        &["os", "operating", "system", "version", "debian", "ubuntu"],
        "cat",
        &[],
    ),
    r(
        "how long the computer has been running",
        "uptime -p",
        &["uptime", "boot"],
        &["running", "long", "since"],
        "uptime",
        &["-p"],
    ),
    r(
        "the processes using the most memory",
        "ps aux --sort=-%mem | head -n 6",
        &["process"],
        &["memory", "most", "running", "program", "using"],
        "ps",
        &["--sort"],
    ),
    r(
        "the processes using the most CPU",
        "ps aux --sort=-%cpu | head -n 6",
        &["process", "cpu"],
        &["most", "busy", "using", "load"],
        "ps",
        &["--sort"],
    ),
    r(
        "ports programs listen on",
        "ss -ltnp",
        &["port", "listen", "listening"],
        &["open", "server", "network"],
        "ss",
        &["-l", "-t", "-n", "-p"],
    ),
    r(
        "this computer's IP addresses",
        "ip -br address",
        &["ip"],
        &["address", "network", "interface"],
        "ip",
        &["-br"],
    ),
    r(
        "the current date and time",
        "date",
        &["time", "today"],
        &["date", "now", "clock"],
        "date",
        &[],
    ),
    // Its own recipe: as a note on the one above, a 1.5B model asked for today's date
    // ran the zone's placeholder (`TZ=Region/City date`) and answered with it.
    r(
        "the time in another place (its zone name, as in /usr/share/zoneinfo)",
        "TZ=Asia/Tokyo date",
        &[
            "timezone", "zone", "tokyo", "london", "york", "berlin", "sydney",
        ],
        &["time", "city", "clock"],
        "date",
        &[],
    ),
    r(
        "an installed package's version",
        "dpkg -s PACKAGE | grep '^Version'",
        &["package", "installed"],
        &["version"],
        "dpkg",
        &["-s"],
    ),
    r(
        "an environment variable",
        "printenv NAME",
        &["environment", "variable"],
        &["path", "env", "set"],
        "printenv",
        &[],
    ),
    // Files and folders.
    r(
        "the largest file under a folder",
        "find DIR -type f -printf '%s %p\\n' | sort -n | tail -n 1",
        &["largest", "biggest"],
        &["file", "size", "big"],
        "find",
        &["-type", "-printf"],
    ),
    r(
        "which folders take the most space",
        "du -h --max-depth=1 DIR | sort -h",
        &["du"],
        &["folder", "directory", "space", "taking", "size", "biggest"],
        "du",
        &["-h", "--max-depth"],
    ),
    r(
        "a folder's total size",
        "du -sh DIR",
        &[],
        &["folder", "directory", "size", "big", "total"],
        "du",
        &["-s", "-h"],
    ),
    r(
        "a file's exact size in bytes",
        "stat -c %s FILE",
        &["byte", "bytes"],
        &["size", "file", "big", "exact"],
        "stat",
        &["-c"],
    ),
    r(
        "how many files a folder holds (NAME: '*.EXT' for one kind, '*' for all)",
        "find DIR -maxdepth 1 -type f -name NAME | wc -l",
        &[],
        &["how many", "count", "number", "file", "files"],
        "find",
        &["-maxdepth", "-type", "-name"],
    ),
    r(
        "files found by name anywhere under a folder",
        "find DIR -iname '*PART*'",
        &["locate", "where"],
        &["find", "file", "named", "called", "name"],
        "find",
        &["-iname"],
    ),
    r(
        "the most recently changed files",
        "ls -lt DIR | head -n 6",
        &["newest", "latest", "recent", "recently"],
        &["modified", "changed", "file"],
        "ls",
        &["-l", "-t"],
    ),
    r(
        "files not changed for N days",
        "find DIR -type f -mtime +N",
        &["older"],
        &["old", "days", "week", "month", "clean"],
        "find",
        &["-mtime"],
    ),
    r(
        "make a folder (and its parents)",
        "mkdir -p DIR",
        &["mkdir"],
        &["create", "make", "folder", "directory", "new"],
        "mkdir",
        &["-p"],
    )
    .writing(&["DIR"]),
    r(
        "move files into a folder (make it first)",
        "mkdir -p DIR && mv SRC/*.EXT DIR/",
        &["move"],
        &["into", "folder", "every", "all"],
        "mv",
        &[],
    )
    .writing(&["DIR"]),
    r(
        "copy a file into a folder",
        "mkdir -p DIR && cp FILE DIR/",
        &["copy", "backup"],
        &["into", "folder", "file"],
        "cp",
        &[],
    )
    .writing(&["DIR"]),
    r(
        "rename a file",
        "mv OLD NEW",
        &["rename"],
        &["file", "call", "name"],
        "mv",
        &[],
    ),
    r(
        "write a line of text into a file, then show it",
        "printf '%s\\n' 'TEXT' > FILE && cat FILE",
        &[],
        &[
            "write", "create", "file", "contain", "contains", "line", "text", "save",
        ],
        "printf",
        &[],
    )
    .writing(&["FILE"]),
    r(
        "save a command's result into a file, then show it",
        "COMMAND > FILE && cat FILE",
        &["into"],
        &["write", "save", "result", "number", "file", "put"],
        "cat",
        &[],
    )
    .writing(&["FILE"]),
    r(
        "pack a folder into an archive",
        "tar czf OUT.tar.gz DIR",
        &["archive", "compress", "zip"],
        &["pack", "folder", "backup"],
        "tar",
        &["-c", "-z", "-f"],
    ),
    r(
        "unpack an archive",
        "tar xf FILE -C DIR",
        &["extract", "unpack", "untar"],
        &["archive", "tar"],
        "tar",
        &["-x", "-f", "-C"],
    )
    .writing(&["DIR"]),
    // Text in files.
    r(
        "how many lines contain a text",
        "grep -c 'TEXT' FILE",
        &["contain", "contains", "containing"],
        &["line", "how many", "count", "number"],
        "grep",
        &["-c"],
    ),
    r(
        "what a file says about a name (its lines that mention it, ignoring case)",
        "grep -i 'NAME' FILE",
        &["according"],
        &["cost", "say", "about", "entry", "listed", "line"],
        "grep",
        &["-i"],
    ),
    r(
        "lines that mention a text, ignoring case, in every file under a folder",
        "grep -rin 'TEXT' DIR",
        &["search", "mention", "mentions"],
        &["text", "word", "find", "line", "folder"],
        "grep",
        &["-r", "-i", "-n"],
    ),
    r(
        "how often a word appears",
        "grep -oi 'WORD' FILE | wc -l",
        &["occurrence", "appear", "appears"],
        &["times", "word", "often", "how many"],
        "grep",
        &["-o", "-i"],
    ),
    r(
        "the last N lines of a file",
        "tail -n N FILE",
        &["last", "end"],
        &["line", "lines", "log", "show"],
        "tail",
        &["-n"],
    ),
    r(
        "the first N lines of a file",
        "head -n N FILE",
        &["first", "top", "beginning"],
        &["line", "lines", "show"],
        "head",
        &["-n"],
    ),
    r(
        "count lines, words or characters",
        "wc -l FILE   (words: wc -w, characters: wc -m)",
        &["word", "words"],
        &["line", "lines", "how many", "count", "character"],
        "wc",
        &["-l", "-w", "-m"],
    ),
    r(
        "replace a text in a file",
        "sed -i 's/OLD/NEW/g' FILE",
        &["replace", "substitute"],
        &["change", "text", "word"],
        "sed",
        &["-i"],
    ),
    r(
        "repeated lines",
        "sort FILE | uniq -d",
        &["duplicate", "duplicates", "repeated"],
        &["line", "lines", "unique"],
        "uniq",
        &["-d"],
    ),
    r(
        "the lowest (or highest: tail) number in a column of a text file",
        "sort -k N -n FILE | head -n 1",
        &[
            "cheapest",
            "lowest",
            "smallest",
            "highest",
            "expensive",
            "minimum",
            "maximum",
        ],
        &["price", "cost", "most", "least", "value"],
        "sort",
        &["-k", "-n"],
    )
    .by_column(),
    // CSV.
    r(
        "a CSV file's columns (read before using one)",
        "head -n 3 FILE",
        &["csv"],
        &["column", "header", "field"],
        "head",
        &["-n"],
    ),
    r(
        "the total of a CSV column (N: its number, counted from 1)",
        "awk -F, 'NR>1 {s += $N} END {print s}' FILE",
        &["total", "sum"],
        &["csv", "column", "amount", "add"],
        "awk",
        &["-F"],
    )
    .by_column(),
    r(
        "the CSV rows whose column N equals a value (count: | wc -l; save: > OUT)",
        // No double quotes: a small model writing the command inside a JSON string
        // ended the string at the first one (seen: `awk -F, 'NR>1 && $3 ==`).
        "awk -F, -v v='VALUE' 'NR>1 && $N == v' FILE",
        &["csv", "row", "rows"],
        &["where", "match", "count", "how many", "only", "write"],
        "awk",
        &["-F", "-v"],
    )
    .by_column(),
    r(
        "how many CSV rows each value of column N has",
        "awk -F, 'NR>1 {print $N}' FILE | sort | uniq -c",
        &["per", "each", "distinct"],
        &["csv", "group", "column", "count"],
        "uniq",
        &["-c"],
    )
    .by_column(),
    // Numbers and dates.
    r(
        "arithmetic on whole numbers",
        "echo $(( X * Y ))   (X, Y: the request's numbers; also + - / %)",
        &[
            // A phrase, not a word: the stem of "times" is "time".
            " times ",
            "plus",
            "minus",
            "multiply",
            "multiplied",
            "calculate",
        ],
        &["what", "number", "sum"],
        "bash",
        &[],
    ),
    r(
        "arithmetic with decimals or percentages",
        "python3 -c 'print(19.99 * 3 * 0.8)'",
        &["divided", "percent", "decimal", "average"],
        &["calculate", "number", "what"],
        "python3",
        &["-c"],
    ),
    r(
        "the day of the week of a date",
        "date -d 'YYYY-MM-DD' +%A",
        &["weekday"],
        &["day", "week", "date"],
        "date",
        &["-d"],
    ),
    r(
        "the days between two dates",
        "echo $(( ($(date -d 'YYYY-MM-DD' +%s) - $(date -d 'YYYY-MM-DD' +%s)) / 86400 ))",
        &["between"],
        &["day", "days", "date", "from", "until"],
        "date",
        &["-d"],
    ),
    // The web.
    r(
        "a web page's text",
        "curl -sL URL",
        &["url", "http", "https", "web", "download"],
        &["page", "fetch", "site"],
        "curl",
        &["-s", "-L"],
    ),
];
