"""Writes COPIES copies of a generated PGN file to standard output, each
copy's players and events renamed (`c3 Garcia, I.`, `c3 Synthetic Blitz
17`), so that a large input made of one generated file has as many
distinct players and events as a generated file of its size would: the
maps a summary keeps grow as they would. For make bench's one-large-table
stage: `remis generate` writes some 10,000 games a second, too slow to
make 20 million games for each run, and the copies are never stored.

Usage: renamed_copies.py FILE COPIES"""
import sys

BLOCK = 8 << 20
TAGS = [b'\n[White "', b'\n[Black "', b'\n[Event "']


def main():
    path, copies = sys.argv[1], int(sys.argv[2])
    out = sys.stdout.buffer
    for copy in range(copies):
        prefix = f"c{copy} ".encode()
        # A leading newline, so that the file's first tag line is renamed
        # too; every block ends at a line end, so no tag is cut in two.
        carry = b"\n"
        with open(path, "rb") as f:
            while True:
                block = f.read(BLOCK)
                if not block:
                    break
                text = carry + block
                cut = text.rfind(b"\n")
                text, carry = text[:cut], text[cut:]
                for tag in TAGS:
                    text = text.replace(tag, tag + prefix)
                out.write(text)
        for tag in TAGS:
            carry = carry.replace(tag, tag + prefix)
        out.write(carry + b"\n")
    out.flush()


if __name__ == "__main__":
    main()
