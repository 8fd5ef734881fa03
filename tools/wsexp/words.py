"""words.py - splits a line of a paper folder's files into words as a POSIX shell would (quotes,
backslash escapes, '#' outside quotes starting a comment, as shlex.split(comments=True)), in time linear in the line: shlex
builds each word a character at a time, which is quadratic on a megabyte-long line.
Depends on nothing.
"""

import re

# a run of ordinary characters, a quoted string, an escape, blanks, or a lone special character
_TOKEN = re.compile(r"""[^\s'"\\#]+|'[^']*'|"(?:[^"\\]|\\.)*"|\\.|\s+|#|['"\\]""", re.S)
_DQ_ESCAPE = re.compile(r'\\([\\"])')


class WordsError(ValueError):
    pass


def split(line, comments=True):
    """['claim', 'c1', 'text=a b', ...] of `claim c1 "text=a b" ...`; raises WordsError on an open quote."""
    words, cur, in_word = [], [], False
    pos, n = 0, len(line)
    while pos < n:
        m = _TOKEN.match(line, pos)
        tok = m.group(0)
        pos = m.end()
        c = tok[0]
        if c.isspace():
            if in_word:
                words.append("".join(cur))
                cur, in_word = [], False
        elif c == "#" and comments:
            break
        elif c == "'":
            if len(tok) < 2 or tok[-1] != "'":
                raise WordsError("No closing quotation")
            cur.append(tok[1:-1])
            in_word = True
        elif c == '"':
            if len(tok) < 2:
                raise WordsError("No closing quotation")
            cur.append(_DQ_ESCAPE.sub(r"\1", tok[1:-1]))
            in_word = True
        elif c == "\\":
            if len(tok) < 2:
                raise WordsError("No escaped character")
            cur.append(tok[1])
            in_word = True
        else:
            cur.append(tok)
            in_word = True
    if in_word:
        words.append("".join(cur))
    return words
