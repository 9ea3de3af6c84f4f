//! The commands the undo corpus runs, by family: each changes the fixture (fixture.sh)
//! in its own way, and must be undone byte for byte.

/// One command and whether it may leave the tree as it was (a change made and taken
/// back by the command itself).
pub struct Entry {
    pub family: &'static str,
    pub command: String,
    pub may_be_unchanged: bool,
}

const FILES: &[&str] = &[
    "notes.txt",
    "data/a.csv",
    "docs/readme.md",
    "data/nested/deep/x.txt",
];
const DIRS: &[&str] = &["data", "docs", "data/nested"];

/// Commands on one file, `{f}` its path.
const ON_FILES: &[(&str, &str)] = &[
    ("in place", "sed -i 's/[a-z]/X/g' {f}"),
    ("in place", "sed -i '1d' {f}"),
    ("in place", "perl -pi -e 's/[a-z]/Y/' {f}"),
    ("in place", "echo appended >> {f}"),
    ("in place", "printf 'replaced\\n' > {f}"),
    ("in place", ": > {f}"),
    ("in place", "truncate -s 3 {f}"),
    (
        "in place",
        "dd if=/dev/zero of={f} bs=1 count=2 conv=notrunc status=none",
    ),
    ("in place", "tee -a {f} <<< teed > /dev/null"),
    ("in place", "rev {f} | tac > {f}.r && mv {f}.r {f}"),
    (
        "in place",
        "cat {f} > {f}.tmp && echo saved >> {f}.tmp && mv {f}.tmp {f}",
    ),
    (
        "in place",
        "awk '{print toupper($0)}' {f} > {f}.up && mv {f}.up {f}",
    ),
    ("python", "python3 -c \"open('{f}','a').write('py\\n')\""),
    (
        "python",
        "python3 -c \"p='{f}'; s=open(p).read(); open(p,'w').write(s.upper())\"",
    ),
    (
        "python",
        "python3 -c \"import os; f=os.open('{f}', os.O_RDWR); os.pwrite(f, b'ZZ', 1)\"",
    ),
    (
        "python",
        "python3 -c \"import os; os.rename('{f}', '{f}.renamed')\"",
    ),
    (
        "python",
        "python3 -c \"import os; os.replace('ro.txt', '{f}')\"",
    ),
    ("python", "python3 -c \"import os; os.remove('{f}')\""),
    (
        "python",
        "python3 -c \"import shutil; shutil.copy('script.sh', '{f}')\"",
    ),
    ("delete", "rm {f}"),
    ("delete", "rm -f {f} && echo new > {f}"),
    ("move", "mv {f} {f}.bak"),
    ("move", "mv {f} moved-here"),
    ("copy", "cp {f} {f}.copy"),
    ("copy", "cp script.sh {f}"),
    ("copy", "install -m 640 script.sh {f}"),
    ("links", "ln -sf /etc/hostname {f}"),
    ("permissions", "chmod 600 {f}"),
    ("permissions", "chmod +x {f}"),
    ("archive", "gzip {f}"),
];

/// Commands on one folder, `{d}` its path.
const ON_DIRS: &[(&str, &str)] = &[
    ("delete", "rm -r {d}"),
    ("delete", "find {d} -type f -delete"),
    ("python", "python3 -c \"import shutil; shutil.rmtree('{d}')\""),
    ("python", "python3 -c \"import shutil; shutil.move('{d}', 'empty/')\""),
    ("python", "python3 -c \"import os; [os.rename(os.path.join(r,f), os.path.join(r,'_'+f)) for r,_,fs in os.walk('{d}') for f in fs]\""),
    ("move", "mv {d} {d}-moved"),
    ("move", "for f in {d}/* {d}/*/* {d}/*/*/*; do [ -f \"$f\" ] && mv \"$f\" \"$f.old\"; done; true"),
    ("copy", "cp -r {d} {d}-copy"),
    ("copy", "cp -a {d}/. empty/"),
    ("copy", "cp -al {d} {d}-links"),
    ("create", "mkdir -p {d}/new/sub && echo n > {d}/new/sub/n.txt"),
    ("in place", "find {d} -type f -exec sh -c 'echo x >> \"$1\"' _ {} \\;"),
    ("permissions", "chmod -R go-r {d}"),
    ("permissions", "chmod 555 {d}"),
    ("archive", "tar czf bundle.tgz {d} && rm -r {d}"),
    ("archive", "zip -qr bundle.zip {d} && rm -r {d}"),
];

/// Commands of their own.
const OTHERS: &[(&str, &str)] = &[
    ("archive", "tar xf archive.tar"),
    ("archive", "tar xf archive.tar -C data"),
    ("archive", "unzip -oq archive.zip"),
    ("archive", "unzip -oq archive.zip -d docs"),
    ("archive", "xz -k notes.txt"),
    ("archive", "tar cf all.tar data docs && gzip all.tar"),
    ("vcs", "git -C repo commit -qam two"),
    ("vcs", "git -C repo checkout -q -- tracked.txt"),
    ("vcs", "git -C repo mv other.txt moved.txt"),
    ("vcs", "git -C repo rm -q other.txt"),
    ("vcs", "git -C repo stash -q"),
    ("vcs", "git -C repo reset -q --hard"),
    ("vcs", "git init -q newrepo"),
    ("vcs", "git clone -q repo clone"),
    ("vcs", "git -C repo gc -q"),
    ("vcs", "git -C repo checkout -qb feature && git -C repo commit -qam f"),
    ("vcs", "git -C repo tag v1 && git -C repo branch side"),
    ("build", "make -s"),
    ("build", "make -s && make -s clean 2>/dev/null; true"),
    ("build", "patch -s notes.txt < fix.patch"),
    ("build", "sh script.sh > out.log"),
    ("python", "python3 -c \"import os\nfor i in range(50): open(f'gen{i}.txt','w').write(str(i))\nfor i in range(0,50,2): os.remove(f'gen{i}.txt')\""),
    ("python", "python3 -c \"import tempfile, os; fd,p=tempfile.mkstemp(dir='.'); os.write(fd,b'x'); os.close(fd); os.replace(p,'notes.txt')\""),
    ("python", "python3 -c \"import os; os.makedirs('p/q/r'); open('p/q/r/s.txt','w').write('s')\""),
    ("python", "python3 -c \"import os; os.chmod('notes.txt', 0o600); os.chmod('script.sh', 0o700)\""),
    ("python", "python3 -c \"import os; os.symlink('docs', 'docs-link'); os.link('notes.txt', 'notes-hard')\""),
    ("links", "ln notes.txt hardlink-notes"),
    ("links", "echo more >> data/hard1"),
    ("links", "echo through >> link-to-notes"),
    ("links", "sed -i 's/line/LINE/' link-to-notes"),
    ("links", "ln -sfn docs dirlink"),
    ("links", "rm link-to-notes"),
    ("links", "echo via >> dirlink/a.csv"),
    ("links", "rm -r dirlink/nested"),
    ("create", "mkfifo pipe"),
    ("create", "mkdir -p a/b/c/d && touch a/b/c/d/e"),
    ("create", "cd data && for i in $(seq 1 30); do echo $i > f$i.txt; done"),
    ("create", "split -l 1 notes.txt part-"),
    ("create", "echo x > tmpfile && mv tmpfile final && cp final final2"),
    ("move", "mv notes.txt data/ && mv data data2"),
    ("move", "mv ro.txt rw.txt && chmod 644 rw.txt"),
    ("move", "mv docs empty/"),
    ("move", "mv data/a.csv data/b.csv"),
    ("delete", "rmdir empty"),
    ("delete", "rm -rf data docs notes.txt"),
    ("delete", "find . -name '*.csv' -delete"),
    ("permissions", "chmod 000 notes.txt"),
    ("permissions", "chmod -R a+w ."),
    ("in place", "exec 3> notes.txt; echo fd >&3"),
    ("in place", "for f in data/*.csv; do sed -i 's/,/;/g' \"$f\"; done"),
    ("in place", "find . -name '*.md' | xargs sed -i 's/a/AA/'"),
    ("in place", "ls -la > listing.txt 2>&1 && sed -i 1d listing.txt"),
];

/// Commands that change things and then put them back themselves.
const ROUND_TRIPS: &[(&str, &str)] = &[
    (
        "round trip",
        "echo u > repo/untracked && git -C repo clean -fdq",
    ),
    ("round trip", "echo a > x && mv x y && mv y z && rm z"),
    ("round trip", "mv notes.txt n && mv n notes.txt"),
    (
        "round trip",
        "cp notes.txt /tmp/zeta-undo-corpus-$$ && rm /tmp/zeta-undo-corpus-$$",
    ),
];

/// Each template once per path it takes (`{f}` or `{d}`), then the commands as they are.
pub fn entries() -> Vec<Entry> {
    let each = |templates: &[(&'static str, &str)], slot: &str, paths: &[&str]| {
        templates
            .iter()
            .flat_map(|(family, template)| {
                paths
                    .iter()
                    .map(move |p| (*family, template.replace(slot, p)))
            })
            .collect::<Vec<_>>()
    };
    let as_is = |commands: &[(&'static str, &str)]| {
        commands
            .iter()
            .map(|(family, command)| (*family, command.to_string()))
            .collect::<Vec<_>>()
    };
    let changing = [
        each(ON_FILES, "{f}", FILES),
        each(ON_DIRS, "{d}", DIRS),
        as_is(OTHERS),
    ];
    let entry = |may_be_unchanged| {
        move |(family, command)| Entry {
            family,
            command,
            may_be_unchanged,
        }
    };
    changing
        .into_iter()
        .flatten()
        .map(entry(false))
        .chain(as_is(ROUND_TRIPS).into_iter().map(entry(true)))
        .collect()
}
