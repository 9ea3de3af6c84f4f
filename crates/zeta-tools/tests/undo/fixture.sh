# The folder every corpus command runs in: text, a table, a binary, links (soft and
# hard), a read-only file, an empty folder, a git repository with an uncommitted change,
# archives that overwrite files when extracted, a Makefile and a patch.
set -e
mkdir -p data/nested/deep empty docs
printf 'line one\nline two\nerror: bad\nline four\n' > notes.txt
printf 'name,qty\napple,3\npear,5\n' > data/a.csv
printf 'name,qty\nfig,1\n' > data/b.csv
head -c 65536 /dev/urandom > data/big.bin
echo deep > data/nested/deep/x.txt
printf 'a\nb\nc\n' > docs/readme.md
printf '#!/bin/sh\necho hi\n' > script.sh
chmod 755 script.sh
echo readonly > ro.txt
chmod 444 ro.txt
ln -s notes.txt link-to-notes
ln -s data dirlink
echo shared > data/hard1
ln data/hard1 data/hard2
mkdir repo
(cd repo && git init -q && git config user.email t@example.org && git config user.name t &&
  echo v1 > tracked.txt && echo keep > other.txt && git add . && git commit -qm init &&
  echo v2 > tracked.txt)
mkdir stage stage/data
printf 'from the archive\n' > stage/notes.txt
printf 'x,y\n' > stage/data/a.csv
printf 'new\n' > stage/unpacked.txt
tar cf archive.tar -C stage .
(cd stage && zip -qr ../archive.zip .)
rm -r stage
printf 'out.txt: notes.txt\n\tgrep line notes.txt > out.txt\n\tsed -i s/one/ONE/ notes.txt\n' > Makefile
cp notes.txt notes.new && sed -i 's/two/TWO/' notes.new
diff -u notes.txt notes.new > fix.patch || true
rm notes.new
