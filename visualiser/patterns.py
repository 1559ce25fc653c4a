"""Text patterns recognised in more than one place, defined once.

The layout reader uses them to tell what a line is (a caption is not a heading, "3."
starts a list item) and the markdown writer and strategies to tell what a block is
(a caption travels with its table, a numbered item keeps its number). One definition
each, so what the layout calls a caption is what the strategies keep with its table.
"""

from __future__ import annotations

import re

# "Table 3", "Figure 2a", "Fig. 1", "Exhibit B", "TABLE IV", "Table S1": a caption
# line. Its label is a number, a capital letter or a roman numeral, never a word: a
# heading "Table Encoding", "Schedule of Fees" or "Chart Your Progress" is no caption.
CAPTION = re.compile(r"^(?i:table|figure|fig\.|exhibit|chart|schedule)\s+"
                     r"(?:\d|[A-Z](?![A-Za-z])|[IVXLC]+\b)")
# A caption's label, then its title: "TABLE 2: TABLE WITH …", "Table 2 Table with …",
# "Figure 3. Results"; not "Table 4 summarizes …", a sentence about the table
CAPTION_TITLE = re.compile(CAPTION.pattern + r"[\w.]*\s*(?:[:.|—–]|\s[A-Z(\d])")
# Dot leaders, as a contents entry runs from its title to its page number ("Scope
# . . . . 4", "Scope ........ 4"); a form's blanks ("Name ____") are none
DOT_LEADER = re.compile(r"(?:\.\s?){4,}|…{2,}")
# a line that ends a contents entry: its leaders, then the page number ("12", "A-3", "iv")
ENTRY_END = re.compile(rf"(?:{DOT_LEADER.pattern})\s*(?:[A-Z]-?)?"
                       r"(?:\d{1,4}|[ivxlc]{1,6}|[IVXLC]{1,6})$")
# A line of this many words or more reads as running text (a heading, a label or a
# table cell rarely has so many); the layout's reading order and the strategies'
# column checks count with the same number
RUNNING_WORDS = 4
# A label wrapped on more lines than this (a diagram's box, a form's field) is a
# paragraph: the reading order's label stacks and the builder's labels side by side
LABEL_LINES = 3
# What a sentence (or a run-in label, "Note:") ends with, in the scripts we read
SENTENCE_END = (".", "!", "?", ":", "\"", "”", "。", "！", "？", "؟", "۔")
# The marker of a numbered list item, as a word of its own: "3.", "b)", "iv."
NUMBERED_ITEM = re.compile(r"^(\d{1,3}|[a-zA-Z]|[ivxIVX]{1,4})[.)]$")
# Bullet glyphs a list item starts with (a glyph is not a word of the item)
BULLETS = frozenset({"•", "◦", "▪", "■", "–", "-", "*", "·", "●", "○"})
_DIGITS = re.compile(r"\d+")
# e-mail and web addresses ("jdoe@cs.example.edu", "{vladk, barlaso}@fb.com",
# "https://example.org/a") and a wrapped address's rest ("com/tapas/blob/master/");
# what a line of them holds besides: separators and file names ("README.md")
_ADDRESS = re.compile(r"(?:\{[^{}]*\}|\S)*@[\w-]+(?:\.[\w-]+)+|(?:https?://|www\.)\S+|"
                      r"[\w.~#?=&%+-]*/[\w.~#?=&%+/-]*")
_FILE_NAME = re.compile(r"[\w-]+\.[A-Za-z]{1,4}")
_BETWEEN_ADDRESSES = re.compile(r"(?:[\s,;<>()\[\]]|[\w-]+(?:\.[\w-]+)+)*")


def only_addresses(text: str) -> bool:
    """A line of e-mail or web addresses and nothing else: a byline or a footnote's
    link set in typewriter type, not code (code has its words, operators and brackets:
    "@app.route('/')", "cd /tmp")."""
    rest, found = _ADDRESS.subn(" ", text)
    if not found:  # a file name alone, a wrapped link's last part ("TABLEFORMER.md")
        return _FILE_NAME.fullmatch(text.strip()) is not None
    return _BETWEEN_ADDRESSES.fullmatch(rest) is not None


def numbers_aside(text: str) -> str:
    """A line's text as running heads and feet are compared: case and numbers aside
    ("Page 3 of 9" and "page 4 of 9" are the same line)."""
    return _DIGITS.sub("#", text.strip().casefold())
