"""Broken PDFs, written object by object, one per class of damage seen in the field.

Each is a one- or two-page document that is valid but for one thing, so a test shows
that exactly that thing is caught: a page count MuPDF cannot read, a page tree that
loops back on itself (directly or through an intermediate node), a page of no size or
of an impossible size, a cross-reference table cut short (with and without anything
left to recover), and encryption that is wrong (an unknown security handler, keys that
open nothing).
"""

from __future__ import annotations

CONTENT = b"<</Length 44>>stream\nBT /F1 12 Tf 72 720 Td (Hello world) Tj ET\nendstream"
FONT = b"<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>"
CATALOG = b"<</Type/Catalog/Pages 2 0 R>>"


def raw_pdf(objects: list[bytes], trailer_extra: bytes = b"") -> bytes:
    """A PDF with `objects` numbered from 1 (1 is the catalog) and a correct xref."""
    out = b"%PDF-1.7\n"
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += (f"trailer\n<</Size {len(objects) + 1}/Root 1 0 R".encode() + trailer_extra
            + f">>\nstartxref\n{xref}\n%%EOF\n".encode())
    return out


def _page(extra: bytes = b"") -> bytes:
    return (b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Contents 4 0 R"
            b"/Resources<</Font<</F1 5 0 R>>>>" + extra + b">>")


def one_page(page_extra: bytes = b"", pages: bytes = b"<</Type/Pages/Kids[3 0 R]/Count 1>>",
             more: tuple[bytes, ...] = (), trailer_extra: bytes = b"") -> bytes:
    return raw_pdf([CATALOG, pages, _page(page_extra), CONTENT, FONT, *more], trailer_extra)


def bad_page_count() -> bytes:
    return one_page(pages=b"<</Type/Pages/Kids[3 0 R]/Count -5>>")


def page_tree_cycle() -> bytes:
    """The root's kids are a page and the root itself."""
    return one_page(pages=b"<</Type/Pages/Kids[3 0 R 2 0 R]/Count 2>>")


def page_tree_cycle_through_a_node() -> bytes:
    """Root → node 6 → root again."""
    return one_page(pages=b"<</Type/Pages/Kids[3 0 R 6 0 R]/Count 3>>",
                    more=(b"<</Type/Pages/Kids[2 0 R]/Count 1/Parent 2 0 R>>",))


def page_of_no_size() -> bytes:
    """A UserUnit of 0 makes the page 0 × 0 points: nothing can be drawn."""
    return one_page(b"/UserUnit 0")


def page_far_too_large() -> bytes:
    """A UserUnit of 10^5 makes the page 61,200,000 pt wide (a fuzzed file had one of
    2^32 pt, and laying out its labels took 24 GB)."""
    return one_page(b"/UserUnit 100000")


def truncated_xref() -> bytes:
    """The xref table is cut after a few bytes; the objects before it are intact, so
    MuPDF can rebuild the table (and says so)."""
    data = one_page()
    return data[:data.index(b"xref") + 30]


def truncated_to_nothing() -> bytes:
    """Cut inside the first object: nothing is left to recover."""
    return one_page()[:40]


def unknown_security_handler() -> bytes:
    return one_page(more=(b"<</Filter/Bogus/V 9/R 9/O(x)/U(y)/P -4>>",),
                    trailer_extra=b"/Encrypt 6 0 R/ID[<01><01>]")


def keys_that_open_nothing() -> bytes:
    """The standard handler with O and U strings that no password matches."""
    return one_page(more=(b"<</Filter/Standard/V 2/R 3/Length 128"
                          b"/O(0123456789abcdef0123456789abcdef)"
                          b"/U(0123456789abcdef0123456789abcdef)/P -4>>",),
                    trailer_extra=b"/Encrypt 6 0 R/ID[<0102><0102>]")


# name → (bytes, what the refusal must say)
REFUSED = {
    "bad page count": (bad_page_count(), "Invalid number of pages"),
    "page-tree cycle": (page_tree_cycle(), "cycle in page tree"),
    "page-tree cycle through a node": (page_tree_cycle_through_a_node(), "cycle in page tree"),
    "page of no size": (page_of_no_size(), "page 1 has no size"),
    "page far too large": (page_far_too_large(), "at most 14,400 pt"),
    "truncated to nothing": (truncated_to_nothing(), "cannot be read|no pages|damaged"),
    "unknown security handler": (unknown_security_handler(), "cannot be read"),
    "keys that open nothing": (keys_that_open_nothing(), "encrypted with a password"),
}
