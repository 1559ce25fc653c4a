"""Sentence starts as NLTK's Punkt tokenizer finds them when it has no trained model.

LlamaIndex's SentenceSplitter uses `PunktSentenceTokenizer()` with no parameters:
no abbreviation list, no collocations, no frequent sentence starters. Untrained,
Punkt's rules collapse to a few: a word ending in a period (or a lone `.`, `?`, `!`)
ends a sentence — so "Dr." and "Jan." do — except that an initial ("J.") or a number
("5.") does not end one when the next word starts in lower case or is punctuation,
and an initial does not when the next word is capitalised either. Ellipses never do.

We reproduce that without depending on NLTK at run time. The decisions are made the
way Punkt makes them: each candidate end (`.?!` followed by punctuation or by
whitespace and a word) is judged on a short context — the word before it, the mark,
and what follows — tokenized with Punkt's word rules; then closing quotes and
brackets that follow a break are moved back onto the sentence they close.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

# NLTK runs these patterns on the `regex` engine, whose \s leaves out the separators
# U+001C..U+001F that Python's `re` counts as space; spell its classes out.
_SPACE = r"[^\S\x1c-\x1f]"
_NON_SPACE = r"[\S\x1c-\x1f]"
# Characters that cannot be inside a word: a `.` right before one still ends the word.
_NON_WORD = "[)\";}\\]*:@'({\\[\u2018\u2019\u201c\u201d\xab\xbb?!]"
# Runs of hyphens or dots, and spaced dots ". . .", are tokens of their own.
_MULTI = rf"(?:-{{2,}}|\.{{2,}}|(?:\.{_SPACE}){{2,}}\.)"
# A word cannot start with these.
_WORD_START = r"[^(\"`{\[:;&#*@)}\]\-,]"
_WORD_END = rf"(?={_SPACE}|$|{_NON_WORD}|{_MULTI}|,(?=$|{_SPACE}|{_NON_WORD}|{_MULTI}))"
_WORD_TOKEN = re.compile(rf"{_MULTI}|(?={_WORD_START}){_NON_SPACE}+?{_WORD_END}|{_NON_SPACE}")
# A possible end: the mark, then punctuation, or whitespace and the next word.
_CANDIDATE = re.compile(
    rf"[.?!](?=(?P<after>{_NON_WORD}|{_SPACE}+(?P<next>{_NON_SPACE}+)))")
# Closing quotes/brackets at the start of the next sentence belong to this one.
_CLOSERS = re.compile(
    rf"[\"')\]}}\u2018\u2019\u201c\u201d\xab\xbb]+?(?:{_SPACE}+|(?=--)|$)", re.M)
_NUMERIC = re.compile(r"^-?[.,]?\d[\d,.-]*\.?$")
_ELLIPSIS = re.compile(r"\.\.+$")
# `regex`'s word characters that are not digits: letters, letter numbers, marks,
# connectors, joiners, and the circled/squared letters Unicode calls alphabetic.
_LETTER_CATEGORIES = frozenset(("Lu", "Ll", "Lt", "Lm", "Lo", "Nl", "Mn", "Mc", "Me", "Pc"))
_ALPHABETIC_SYMBOLS = ((0x24B6, 0x24E9), (0x1F130, 0x1F149), (0x1F150, 0x1F169),
                       (0x1F170, 0x1F189))
_PUNCTUATION = frozenset(";:,.!?")
_ASCII_SPACE = " \t\n\r\x0b\x0c"  # Punkt's "previous word" search knows only these


def sentence_starts(text: str) -> list[int]:
    """Offsets where Punkt's sentences start; empty if `text` is blank."""
    slices = list(_raw_slices(text))
    return [start for start, _ in _realign(text, slices)]


def _raw_slices(text: str) -> Iterator[tuple[int, int]]:
    last_break = 0
    for match, context in _candidates(text):
        if _has_break(context):
            yield last_break, match.end()
            last_break = match.start("next") if match.group("next") else match.end()
    yield last_break, len(text.rstrip())


def _candidates(text: str) -> Iterator[tuple[re.Match[str], str]]:
    """Each candidate end with its context. The word before a candidate runs back to
    the last ASCII whitespace; where two candidates' words overlap (no space between
    them, as in "acting!!!" or "e.g.)"), only the later one is judged."""
    word_start, word_end = 0, 0
    pending: tuple[re.Match[str], int, int] | None = None
    for match in _CANDIDATE.finditer(text):
        space = max(text.rfind(c, word_end, match.start()) for c in _ASCII_SPACE)
        # Punkt treats a space at the very start of the gap like no space at all.
        start = space + 1 if space > word_end else word_start
        if pending and word_end <= start:
            yield _with_context(text, *pending)
        pending = (match, start, match.start())
        word_start, word_end = start, match.start()
    if pending:
        yield _with_context(text, *pending)


def _with_context(text: str, match: re.Match[str], start: int, end: int
                  ) -> tuple[re.Match[str], str]:
    return match, text[start:end] + match.group() + match.group("after")


def _has_break(context: str) -> bool:
    """Does a token of the context end a sentence with another token after it?"""
    tokens = [tok for line in context.split("\n") if line.strip()
              for tok in _WORD_TOKEN.findall(line)]
    return any(_ends_sentence(tok, after) for tok, after in zip(tokens, tokens[1:],
                                                                strict=False))


def _ends_sentence(token: str, after: str) -> bool:
    if token in ("?", "!", "."):
        return True
    if not token.endswith(".") or token.endswith("..") or _ELLIPSIS.match(token):
        return False
    # Untrained, every period-final word is a break; only initials and numbers are
    # reconsidered, by what the next token looks like.
    kind = _NUMERIC.sub("##number##", token.lower())
    if len(kind) > 1 and kind.endswith("."):
        kind = kind[:-1]
    initial = len(token) == 2 and _is_letter(token[0])
    if initial or kind == "##number##":
        if after in _PUNCTUATION or after[0].islower():
            return False
        if initial and after[0].isupper():
            return False
    return True


def _realign(text: str, slices: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """Move closing quotes/brackets after a break onto the sentence they close; drop
    empty sentences."""
    shift = 0
    for n, (start, stop) in enumerate(slices):
        start += shift
        if n + 1 == len(slices):
            if start < stop:
                yield start, stop
            return
        next_start, next_stop = slices[n + 1]
        closers = _CLOSERS.match(text, next_start, max(next_start, next_stop))
        if closers:
            yield start, next_start + len(closers.group().rstrip())
            shift = closers.end() - next_start
        else:
            shift = 0
            if start < stop:
                yield start, stop


def _is_letter(char: str) -> bool:
    if unicodedata.category(char) in _LETTER_CATEGORIES or char in "\u200c\u200d":
        return True
    code = ord(char)
    return any(low <= code <= high for low, high in _ALPHABETIC_SYMBOLS)
