"""Build the sample PDFs that ship with the chunk visualiser.

Run ``python sample_pdfs/generate.py``; the PDFs are written next to this file. The
script uses PyMuPDF only (no network, no font files: the base-14 fonts Helvetica
"helv" and Helvetica-Bold "hebo" are referenced, never embedded; "cour" is the one
to use should a sample ever need code) and is deterministic: fixed metadata, no
random IDs, so two runs give byte-identical files.

The samples and what each one is for:

``05_Apex_Logistics_Services_Agreement_2025.pdf``
    A 3-4 page services agreement: an H1 title directly followed by 17 numbered H2
    sections of short prose, and one ruled 5x6 table in section 10. Its text is
    sized for token-budget tests (cl100k_base, plain text, headings included):
    everything before the caption "Table 1: Service level targets" is about 1,140
    tokens, the table 120-160 tokens, everything after the table 550-700 tokens.
    Tune the lengths in ``APEX_BEFORE_TABLE``, ``APEX_TABLE``,
    ``APEX_AFTER_TABLE`` and ``APEX_LATER_SECTIONS``.
``sleepover_allowance_policy.pdf``
    A one-page policy: title, one paragraph, a captioned 4-column table and a
    closing "Exceptions:" paragraph. The smallest document with a table.
``rate_schedule_2025.pdf``
    A carrier rate schedule: one 6-column table of 150 data rows (about 3,000
    cl100k tokens as markdown) that runs over several pages, with the header row
    repeated at the top of every continuation page.
``quarterly_operations_report.pdf``
    A 6-page report mixing everything the layout extractor handles: H1/H2/H3
    headings, a bulleted and a numbered list, a raster figure with a caption,
    three ruled tables (4, 12 and 41 rows; the last one crosses a page break), a
    page set in two columns under a full-width heading (reading order), and a
    last page with ``/Rotate 90`` (boxes must follow the rotation).
``scanned_memo.pdf``
    One page that is only a 200 dpi grayscale image of a typed memo, with no text
    layer, for the OCR (Tesseract) path.

Layout conventions the extractor relies on: US Letter pages with 72 pt margins;
body text Helvetica 10.5 pt on a 14 pt line, 8 pt between paragraphs; headings in
Helvetica-Bold (H1 18 pt, H2 13 pt, H3 11.5 pt) with about 10 pt above them; tables
ruled as a full grid of vector lines with a bold header row and a bold caption line
directly above; list items start with "• " or "1. " and have a hanging indent; no
running headers or footers.

Content lives in the data structures below. Every paragraph is written as
``_p("sentence.", "sentence.", ...)``, one sentence per argument, so text can be
lengthened or shortened by adding or deleting whole sentences.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pymupdf

OUT_DIR = Path(__file__).resolve().parent

# --------------------------------------------------------------------------- page geometry

PAGE_WIDTH, PAGE_HEIGHT = 612.0, 792.0  # US Letter
MARGIN = 72.0
FRAME = pymupdf.Rect(MARGIN, MARGIN, PAGE_WIDTH - MARGIN, PAGE_HEIGHT - MARGIN)

# Vertical extent of a line of text as PyMuPDF reports it, in multiples of the font
# size (Helvetica and Helvetica-Bold agree to within 0.005).
ASCENT = 1.075
DESCENT = 0.299

PARAGRAPH_GAP = 8.0  # extra space between paragraphs
HEADING_GAP = 10.0  # space above a heading
AFTER_HEADING_GAP = 4.0
LIST_ITEM_GAP = 3.0
LIST_INDENT = 12.0  # from the left edge of the frame to a list marker
CAPTION_GAP = 4.0  # between a caption and its table (or a figure and its caption)
AFTER_TABLE_GAP = 12.0
CELL_PADDING = 3.5
RULE_WIDTH = 0.6
COLUMN_GUTTER = 20.0
BLACK = (0.0, 0.0, 0.0)

# Fixed metadata: together with `no_new_id=True` this keeps the output byte-identical.
FIXED_DATE = "D:20250101000000Z"
CREATOR = "chunk-visualiser sample_pdfs/generate.py"
PRODUCER = "PyMuPDF"


@dataclass(frozen=True, slots=True)
class Style:
    font: str  # a base-14 font name PyMuPDF knows: "helv", "hebo", "cour"
    size: float
    leading: float  # baseline-to-baseline distance


BODY = Style("helv", 10.5, 14.0)
H1 = Style("hebo", 18.0, 22.0)
H2 = Style("hebo", 13.0, 17.0)
H3 = Style("hebo", 11.5, 15.0)
CAPTION = Style("hebo", 10.5, 14.0)
CELL = Style("helv", 9.5, 12.0)
HEADER_CELL = Style("hebo", 9.5, 12.0)
HEADINGS = {1: H1, 2: H2, 3: H3}


# --------------------------------------------------------------------------- content types


def _p(*sentences: str) -> str:
    """A paragraph, written one sentence per argument so it is easy to tune."""
    return " ".join(sentences)


@dataclass(frozen=True, slots=True)
class Section:
    heading: str
    paragraphs: tuple[str, ...]
    level: int = 2


def _section(heading: str, *paragraphs: str, level: int = 2) -> Section:
    return Section(heading, paragraphs, level)


@dataclass(frozen=True, slots=True)
class TableSpec:
    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    weights: tuple[float, ...]  # relative column widths, scaled to the frame width

    def column_widths(self, total: float) -> list[float]:
        scale = total / sum(self.weights)
        return [w * scale for w in self.weights]


# --------------------------------------------------------------------------- text helpers


def pdf_text(text: str) -> str:
    """`text` in the single-byte form PyMuPDF writes for a WinAnsi base-14 font.

    PyMuPDF encodes base-14 text as Latin-1, so the bullet (WinAnsi 0x95) is passed
    as that byte; text extraction maps it back to U+2022.
    """
    encoded = text.replace("\u2022", "\x95")
    bad = sorted({c for c in encoded if ord(c) > 0xFF})
    if bad:
        raise ValueError(f"characters outside WinAnsi/Latin-1 in {text!r}: {bad}")
    return encoded


def text_width(text: str, style: Style) -> float:
    if "\u2022" in text:  # get_text_length has no width for byte 0x95; Font does
        return pymupdf.Font(style.font).text_length(text, fontsize=style.size)
    return pymupdf.get_text_length(text, fontname=style.font, fontsize=style.size)


def wrap(text: str, style: Style, width: float) -> list[str]:
    """Greedy word wrap of `text` into lines no wider than `width`."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if current and text_width(candidate, style) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    for line in lines:
        if text_width(line, style) > width:
            raise ValueError(f"{line!r} does not fit in {width:.1f} pt")
    return lines


def text_block_height(n_lines: int, style: Style) -> float:
    """Height from the top of the first line's box to the bottom of the last one's."""
    if n_lines == 0:
        return 0.0
    return (n_lines - 1) * style.leading + (ASCENT + DESCENT) * style.size


# --------------------------------------------------------------------------- the flow


class Flow:
    """Lays blocks out top to bottom inside the page frame, adding pages as needed.

    `y` is the top of the next line box. Vertical gaps collapse like CSS margins:
    the space between two blocks is the larger of the gap requested after the first
    and before the second, and gaps are dropped at the top of a page.
    """

    def __init__(self, doc: pymupdf.Document, body: Style = BODY) -> None:
        self.doc = doc
        self.body = body
        self.x0, self.x1 = FRAME.x0, FRAME.x1
        self.page: pymupdf.Page | None = None
        self.y = FRAME.y0
        self._gap = 0.0
        self._can_break = True
        self.new_page()

    # -- pages and space

    def new_page(self) -> None:
        if not self._can_break:
            raise RuntimeError("content overflows a column; shorten it")
        self.page = self.doc.new_page(width=PAGE_WIDTH, height=PAGE_HEIGHT)
        self.y = FRAME.y0
        self._gap = 0.0

    @property
    def at_page_top(self) -> bool:
        return self.y == FRAME.y0

    def gap(self, points: float) -> None:
        self._gap = max(self._gap, points)

    def _take_gap(self) -> None:
        if not self.at_page_top:
            self.y += self._gap
        self._gap = 0.0

    def fits(self, height: float) -> bool:
        gap = 0.0 if self.at_page_top else self._gap
        return self.y + gap + height <= FRAME.y1

    def ensure(self, height: float) -> None:
        """Start a new page unless `height` points fit below the cursor."""
        if not self.fits(height):
            self.new_page()

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    # -- primitives

    def _line(self, x: float, text: str, style: Style) -> None:
        """Write one line of text with its box top at `self.y` and advance."""
        assert self.page is not None
        baseline = self.y + ASCENT * style.size
        self.page.insert_text(
            (x, baseline), pdf_text(text), fontname=style.font, fontsize=style.size
        )
        self.y += style.leading

    def _lines(self, lines: Sequence[str], style: Style, x: float, first_x: float) -> None:
        """Write wrapped lines, breaking the page between lines when needed."""
        for i, line in enumerate(lines):
            box = (ASCENT + DESCENT) * style.size
            if i == 0:
                self.ensure(box)
                self._take_gap()
            elif self.y + box > FRAME.y1:
                self.new_page()
            self._line(first_x if i == 0 else x, line, style)

    # -- blocks

    def heading(self, text: str, level: int) -> None:
        style = HEADINGS[level]
        lines = wrap(text, style, self.width)
        # Keep the heading with the first two lines of what follows it.
        needed = (
            text_block_height(len(lines), style)
            + AFTER_HEADING_GAP
            + text_block_height(2, self.body)
        )
        self.gap(HEADING_GAP)
        self.ensure(needed)
        self._lines(lines, style, self.x0, self.x0)
        self.gap(AFTER_HEADING_GAP)

    def paragraph(self, text: str, style: Style | None = None) -> None:
        style = style or self.body
        self._lines(wrap(text, style, self.width), style, self.x0, self.x0)
        self.gap(PARAGRAPH_GAP)

    def section(self, section: Section) -> None:
        self.heading(section.heading, section.level)
        for paragraph in section.paragraphs:
            self.paragraph(paragraph)

    def list_items(self, items: Sequence[str], numbered: bool = False) -> None:
        """Bulleted ("• ") or numbered ("1. ") items with a hanging indent."""
        for number, item in enumerate(items, start=1):
            marker = f"{number}. " if numbered else "\u2022 "
            marker_x = self.x0 + LIST_INDENT
            text_x = marker_x + text_width(marker, self.body)
            lines = wrap(item, self.body, self.x1 - text_x)
            lines[0] = marker + lines[0]
            self._lines(lines, self.body, text_x, marker_x)
            self.gap(LIST_ITEM_GAP)
        self.gap(PARAGRAPH_GAP)

    def caption(self, text: str) -> None:
        self._lines(wrap(text, CAPTION, self.width), CAPTION, self.x0, self.x0)

    def table(self, spec: TableSpec) -> None:
        """A captioned, fully ruled table; the header row repeats on each new page."""
        widths = spec.column_widths(self.width)
        header = _layout_row(spec.header, widths, HEADER_CELL)
        rows = [_layout_row(row, widths, CELL) for row in spec.rows]
        caption_height = text_block_height(1, CAPTION) + CAPTION_GAP
        whole = caption_height + header.height + sum(r.height for r in rows)
        self.gap(PARAGRAPH_GAP)
        if whole <= FRAME.height:  # a table that fits on one page is kept together
            self.ensure(whole)
        else:  # otherwise keep at least the caption, header and first row together
            self.ensure(caption_height + header.height + rows[0].height)
        self.caption(spec.caption)
        # The table starts CAPTION_GAP below the caption's text box, not a full line down.
        self.y += CAPTION_GAP - CAPTION.leading + text_block_height(1, CAPTION)
        remaining = rows
        while remaining:
            count = _rows_that_fit(header, remaining, FRAME.y1 - self.y)
            self._table_segment(widths, [header, *remaining[:count]])
            remaining = remaining[count:]
            if remaining:
                self.new_page()
        self.gap(AFTER_TABLE_GAP)

    def _table_segment(self, widths: Sequence[float], rows: Sequence[_Row]) -> None:
        """Draw `rows` as a grid at the cursor: outer rectangle plus every inner rule."""
        assert self.page is not None
        top = self.y
        bottom = top + sum(r.height for r in rows)
        xs = [self.x0]
        for w in widths:
            xs.append(xs[-1] + w)
        self.page.draw_rect(pymupdf.Rect(xs[0], top, xs[-1], bottom), color=BLACK, width=RULE_WIDTH)
        y = top
        for row in rows[:-1]:
            y += row.height
            self.page.draw_line((xs[0], y), (xs[-1], y), color=BLACK, width=RULE_WIDTH)
        for x in xs[1:-1]:
            self.page.draw_line((x, top), (x, bottom), color=BLACK, width=RULE_WIDTH)
        y = top
        for row in rows:
            for x, lines in zip(xs[:-1], row.cells, strict=True):
                baseline = y + CELL_PADDING + ASCENT * row.style.size
                for line in lines:
                    self.page.insert_text(
                        (x + CELL_PADDING, baseline),
                        pdf_text(line),
                        fontname=row.style.font,
                        fontsize=row.style.size,
                    )
                    baseline += row.style.leading
            y += row.height
        self.y = bottom

    def figure(self, image: pymupdf.Pixmap, width: float, caption: str) -> None:
        """A raster image centred in the frame, with a caption line below it."""
        assert self.page is not None
        height = width * image.height / image.width
        self.gap(PARAGRAPH_GAP)
        self.ensure(height + CAPTION_GAP + text_block_height(1, CAPTION))
        self._take_gap()
        left = self.x0 + (self.width - width) / 2
        self.page.insert_image(
            pymupdf.Rect(left, self.y, left + width, self.y + height), pixmap=image
        )
        self.y += height + CAPTION_GAP
        spare = self.width - text_width(caption, CAPTION)
        if spare >= 0:  # one line, centred under the image
            self._lines([caption], CAPTION, self.x0 + spare / 2, self.x0 + spare / 2)
        else:
            self.caption(caption)
        self.gap(PARAGRAPH_GAP)

    def two_columns(self, heading: str, left: Sequence[str], right: Sequence[str]) -> None:
        """A full-width H2 heading over two columns of paragraphs, on one page.

        Each column is filled top to bottom (left first), so reading order is
        column by column. Columns never break across pages: too much text raises.
        """
        self.heading(heading, 2)
        self._take_gap()
        top = self.y
        column = (self.width - COLUMN_GUTTER) / 2
        bottoms = []
        for x0, paragraphs in ((self.x0, left), (self.x0 + column + COLUMN_GUTTER, right)):
            self.y, self._gap = top, 0.0
            with self._column(x0, x0 + column):
                for paragraph in paragraphs:
                    self.paragraph(paragraph)
            bottoms.append(self.y)
        self.y = max(bottoms)
        self.gap(PARAGRAPH_GAP)

    @contextmanager
    def _column(self, x0: float, x1: float) -> Iterator[None]:
        saved = (self.x0, self.x1, self._can_break)
        self.x0, self.x1, self._can_break = x0, x1, False
        try:
            yield
        finally:
            self.x0, self.x1, self._can_break = saved


@dataclass(frozen=True, slots=True)
class _Row:
    cells: tuple[tuple[str, ...], ...]  # wrapped lines per cell
    style: Style
    height: float


def _layout_row(texts: Sequence[str], widths: Sequence[float], style: Style) -> _Row:
    cells = tuple(
        tuple(wrap(text, style, width - 2 * CELL_PADDING))
        for text, width in zip(texts, widths, strict=True)
    )
    lines = max(len(cell) for cell in cells)
    return _Row(cells, style, text_block_height(lines, style) + 2 * CELL_PADDING)


def _rows_that_fit(header: _Row, rows: Sequence[_Row], available: float) -> int:
    used = header.height
    for count, row in enumerate(rows):
        used += row.height
        if used > available:
            if count == 0:
                raise RuntimeError("a table row does not fit on an empty page")
            return count
    return len(rows)


# --------------------------------------------------------------------------- documents


def new_document(title: str, subject: str) -> pymupdf.Document:
    doc = pymupdf.open()
    doc.set_metadata(
        {
            "title": title,
            "author": "Chunk visualiser samples",
            "subject": subject,
            "keywords": "",
            "creator": CREATOR,
            "producer": PRODUCER,
            "creationDate": FIXED_DATE,
            "modDate": FIXED_DATE,
        }
    )
    return doc


def save(doc: pymupdf.Document, name: str) -> Path:
    for page in doc:
        page.clean_contents()  # one compact content stream per page
    path = OUT_DIR / name
    doc.save(path, garbage=4, deflate=True, no_new_id=True)
    doc.close()
    return path


# =========================================================================== 1. Apex agreement

APEX_TITLE = "Apex Logistics Services Agreement 2025"

# Sections 1-9, the heading of section 10 and its first paragraph: everything before
# the table caption. Budget: about 1,140 cl100k tokens including the title.
APEX_BEFORE_TABLE: tuple[Section, ...] = (
    _section(
        "1. Definitions",
        _p(
            'In this Agreement, "Apex" means Apex Logistics Ltd and "the Customer" means'
            ' Brightwater Home Goods Ltd, together "the Parties".',
            '"Services" means the warehousing, transport and related logistics services'
            " described in Section 3 and in any statement of work signed by both Parties.",
            '"Goods" means the products the Customer delivers to Apex or asks Apex to move,'
            " store or handle.",
            '"Business Day" means a day other than a Saturday, Sunday or public holiday in'
            " England.",
            '"Consignment" means Goods collected from one address for delivery to one'
            " address under a single booking reference.",
            '"Charges" means the amounts the Customer pays for the Services under Section 5.',
        ),
    ),
    _section(
        "2. Term",
        _p(
            "This Agreement starts on 1 January 2025 and continues for an initial term of"
            " three years.",
            "After the initial term it renews automatically for successive periods of"
            " twelve months unless either Party gives at least six months' written notice"
            " before the end of the current term.",
        ),
        _p(
            "The Parties will meet no later than nine months before each renewal date to"
            " review volumes, charges and service levels for the following period.",
            "Any change agreed at that review takes effect only when it is recorded in a"
            " written variation signed by authorised representatives of both Parties.",
        ),
    ),
    _section(
        "3. Scope of Services",
        _p(
            "Apex will receive inbound Goods at its Daventry distribution centre, store"
            " them in racked or bulk locations, pick and pack customer orders, and deliver"
            " Consignments to retail stores and private addresses in Great Britain.",
            "Apex will also process returns, carry out cycle counts and provide the"
            " reporting described in Section 10.",
            "Additional services such as kitting, labelling or international forwarding"
            " may be added by statement of work.",
            "Apex may change the way it performs the Services, including the vehicles,"
            " systems and sites it uses, provided the change does not reduce the quality"
            " of the Services or increase the Customer's costs.",
        ),
    ),
    _section(
        "4. Customer Obligations",
        _p(
            "The Customer will provide forecasts of inbound and outbound volumes at least"
            " four weeks in advance and will update them whenever expected volumes change"
            " by more than fifteen per cent.",
            "Each delivery of Goods to Apex must be booked through the Apex customer portal"
            " and must arrive with an advance shipping notice that matches the physical"
            " stock.",
            "The Customer is responsible for ensuring that Goods are packed for normal"
            " handling and that hazardous items are declared and labelled as the law"
            " requires.",
            "Apex may refuse or quarantine Goods that do not meet these requirements.",
        ),
    ),
    _section(
        "5. Charges and Payment",
        _p(
            "The Customer will pay the charges set out in the rate schedule attached to"
            " this Agreement.",
            "Storage is charged per pallet per week, handling per unit or per order line,"
            " and transport per Consignment according to zone and weight band.",
            "Charges for work not covered by the rate schedule will be agreed in writing"
            " before the work starts.",
        ),
        _p(
            "Charges are fixed for the first twelve months and may then be adjusted once a"
            " year by no more than the change in the Consumer Price Index over the"
            " previous year.",
            "Fuel surcharges are reviewed monthly and published on the Apex portal at least"
            " ten Business Days before they apply.",
        ),
    ),
    _section(
        "6. Invoicing and Disputes",
        _p(
            "Apex will invoice monthly in arrears, and the Customer will pay each"
            " undisputed invoice within thirty days of the invoice date.",
            "If the Customer disputes any part of an invoice, it must notify Apex in"
            " writing within fourteen days, giving reasons and supporting evidence, and"
            " must pay the undisputed balance on time.",
            "The Parties' account managers will try to resolve the dispute within twenty"
            " Business Days, and will refer it to their finance directors if they cannot.",
            "Apex may charge interest on late payments at four per cent a year above the"
            " Bank of England base rate, calculated daily from the due date until payment.",
        ),
    ),
    _section(
        "7. Warehousing and Storage",
        _p(
            "Apex will store the Goods in a secure, clean and dry environment, kept apart"
            " from the goods of other customers and protected by intruder alarms, CCTV and"
            " controlled access.",
            "Stock records will be kept in the Apex warehouse management system and shown"
            " to the Customer through the portal in real time.",
            "Apex will carry out a full stock count once a year and rolling cycle counts"
            " each month.",
            "The Customer may inspect its Goods and the storage areas on two Business"
            " Days' notice.",
            "Stock differences above the tolerance in Section 10 will be investigated, and"
            " the findings shared with the Customer within ten Business Days.",
        ),
    ),
    _section(
        "8. Transport and Delivery",
        _p(
            "Apex will collect and deliver Consignments using its own fleet or approved carriers.",
            "Delivery times quoted on booking are estimates unless the Customer has paid"
            " for a timed service.",
            "Apex will make proof of delivery for every Consignment available on the portal"
            " within one Business Day.",
            "Risk in Goods passes back to the Customer, or to its consignee, when the Goods"
            " are signed for at the delivery address.",
            "Where a consignee refuses delivery or is not available, Apex will make one"
            " further attempt on the next Business Day, then return the Consignment to the"
            " warehouse at the Customer's cost.",
        ),
    ),
    _section(
        "9. Insurance",
        _p(
            "Apex will maintain goods-in-transit, warehouse legal liability and public"
            " liability insurance, each with a limit of not less than five million pounds"
            " per event.",
            "The Customer will insure the Goods for their full replacement value while"
            " they are in Apex's care, and will ask its insurers to waive any right of"
            " subrogation against Apex except to the extent of Apex's liability under"
            " Section 11.",
            "Each Party will provide certificates of insurance on request and will tell the"
            " other promptly of any material change in cover.",
        ),
    ),
    _section(
        "10. Service Levels",
        _p(
            "Apex will measure its performance every month against the targets in Table 1"
            " and report the results to the Customer within five Business Days of the end"
            " of each month.",
        ),
    ),
)

# Budget: 120-160 cl100k tokens for the table text.
APEX_TABLE = TableSpec(
    caption="Table 1: Service level targets",
    header=("Service", "Target", "Measured", "Credit", "Notes"),
    rows=(
        (
            "Order dispatch",
            "99.5% same day",
            "Monthly",
            "2% of handling fee",
            "Orders received by 14:00",
        ),
        (
            "On-time delivery",
            "98%",
            "Monthly",
            "3% of transport fee",
            "Excludes refused deliveries",
        ),
        ("Stock accuracy", "99.8%", "Quarterly", "1% of storage fee", "Cycle and annual counts"),
        (
            "Inbound receipt",
            "Within 24 hours",
            "Monthly",
            "1% of handling fee",
            "From booked arrival slot",
        ),
        ("Damage rate", "Below 0.1%", "Monthly", "Value of damaged Goods", "Per unit dispatched"),
    ),
    weights=(1.0, 1.0, 0.8, 1.2, 1.5),
)

# The rest of section 10 after the table, then sections 11-17.
# Budget for the two together: 550-700 cl100k tokens.
APEX_AFTER_TABLE: tuple[str, ...] = (
    _p(
        "Service credits are the Customer's only financial remedy for a missed service"
        " level, are capped at ten per cent of the monthly charges, and are deducted from"
        " the following invoice.",
        "If Apex misses the same target in three consecutive months, the Parties will agree"
        " a written recovery plan within fifteen Business Days.",
        "Service levels do not apply in a month in which the Customer's volumes exceed its"
        " latest forecast by more than twenty per cent.",
    ),
)
APEX_LATER_SECTIONS: tuple[Section, ...] = (
    _section(
        "11. Liability",
        _p(
            "Apex's liability for loss of or damage to Goods is limited to the lower of"
            " their cost price and twenty pounds per kilogram of the Goods affected.",
            "Neither Party is liable for loss of profit, loss of business or any indirect loss.",
            "Each Party's total liability in any contract year is limited to the charges"
            " paid in that year.",
            "Nothing in this Agreement limits liability for death or personal injury caused"
            " by negligence, or for fraud.",
        ),
    ),
    _section(
        "12. Confidentiality",
        _p(
            "Each Party will keep the other's confidential information secret, use it only"
            " to perform this Agreement and disclose it only to employees, advisers and"
            " subcontractors who need to know it.",
            "This obligation continues for five years after the Agreement ends.",
            "It does not apply to information that is already public or that a Party must"
            " disclose by law.",
        ),
    ),
    _section(
        "13. Data Protection",
        _p(
            "Where Apex processes personal data of the Customer's consignees, it does so as"
            " processor on the Customer's documented instructions.",
            "Apex will keep the data secure, will not transfer it outside the United Kingdom"
            " without consent and will delete it when the Services end.",
            "Apex will tell the Customer within forty-eight hours of becoming aware of a"
            " personal data breach.",
        ),
    ),
    _section(
        "14. Force Majeure",
        _p(
            "Neither Party is liable for a delay caused by events beyond its reasonable"
            " control, such as severe weather, road closures, strikes at third-party sites"
            " or failures of public utilities.",
            "The affected Party will notify the other promptly and take reasonable steps to"
            " resume performance.",
            "If the event continues for more than sixty days, either Party may end this"
            " Agreement on written notice.",
        ),
    ),
    _section(
        "15. Termination",
        _p(
            "Either Party may end this Agreement by written notice if the other commits a"
            " material breach and fails to remedy it within thirty days, or becomes"
            " insolvent.",
            "On termination Apex will release all Goods once the outstanding charges have"
            " been paid.",
        ),
        _p(
            "Either Party may also end this Agreement without cause on twelve months'"
            " written notice, but not so that it ends before the initial term expires.",
            "Sections 11, 12 and 13 survive termination.",
        ),
    ),
    _section(
        "16. Assignment and Subcontracting",
        _p(
            "The Customer may not assign this Agreement without Apex's written consent.",
            "Apex may subcontract transport to approved carriers but remains responsible"
            " for their performance.",
            "Apex will give the Customer at least thirty days' notice before it"
            " subcontracts any warehousing services.",
        ),
    ),
    _section(
        "17. Governing Law",
        _p(
            "This Agreement is governed by the law of England and Wales, and the courts of"
            " England have exclusive jurisdiction over any dispute arising from it.",
            "The Parties will first try to settle a dispute by negotiation between senior"
            " managers, and then by mediation, before starting court proceedings.",
        ),
    ),
)


def build_apex() -> Path:
    doc = new_document(APEX_TITLE, "Synthetic logistics services agreement")
    flow = Flow(doc)
    flow.heading(APEX_TITLE, 1)  # no preamble: section 1 follows the title directly
    for section in APEX_BEFORE_TABLE:
        flow.section(section)
    flow.table(APEX_TABLE)
    for paragraph in APEX_AFTER_TABLE:
        flow.paragraph(paragraph)
    for section in APEX_LATER_SECTIONS:
        flow.section(section)
    return save(doc, "05_Apex_Logistics_Services_Agreement_2025.pdf")


# =========================================================================== 2. Sleepover policy

SLEEPOVER_TITLE = "Sleepover Allowance Policy"

SLEEPOVER_INTRO = _p(  # about 120 tokens
    "This policy applies to support workers who are asked to stay overnight in a client's"
    " home or at one of our supported living services.",
    "A sleepover is a shift during which the worker may sleep but must be available to"
    " help if the client needs support.",
    "Each sleepover is paid as a flat allowance on top of the hours worked before and after"
    " it, at the rates below, from 1 April 2025.",
    "A worker who is woken to give support is also paid the normal hourly rate for the time"
    " spent awake, as recorded on the night log and approved by the service manager.",
)

SLEEPOVER_TABLE = TableSpec(
    caption="Table 1: Sleepover allowance rates",
    header=("Shift type", "Hours", "Allowance", "Conditions"),
    rows=(
        ("Standard sleepover", "22:00-07:00", "£85.00", "Private bedroom provided"),
        ("Weekend sleepover", "22:00-07:00", "£95.00", "Friday and Saturday nights"),
        ("Bank holiday sleepover", "22:00-07:00", "£120.00", "Any public holiday night"),
        ("Extended sleepover", "21:00-08:00", "£105.00", "Agreed with the manager in advance"),
    ),
    weights=(1.4, 1.0, 0.9, 2.0),
)

SLEEPOVER_EXCEPTIONS = _p(  # about 80 tokens
    "Exceptions: if a worker is disturbed for more than three hours in total during one"
    " sleepover, the whole shift is paid as a waking night at the standard hourly rate"
    " instead of the allowance.",
    "Each disturbance must be recorded on the night log with its time and reason, so"
    " that payroll can check the claim.",
    "Any other exception must be approved in writing by the regional operations manager"
    " before the shift starts.",
)


def build_sleepover() -> Path:
    doc = new_document(SLEEPOVER_TITLE, "HR policy with one rate table")
    flow = Flow(doc)
    flow.heading(SLEEPOVER_TITLE, 1)
    flow.paragraph(SLEEPOVER_INTRO)
    flow.table(SLEEPOVER_TABLE)
    flow.paragraph(SLEEPOVER_EXCEPTIONS)
    return save(doc, "sleepover_allowance_policy.pdf")


# =========================================================================== 3. Rate schedule

RATE_TITLE = "Northway Freight Rate Schedule 2025"

RATE_INTRO = _p(
    "This schedule sets out the domestic freight rates for consignments booked from 1"
    " January 2025.",
    "Rates are per consignment and depend on the delivery zone, the service and the"
    " chargeable weight, which is the greater of the actual and the volumetric weight.",
    "The fuel surcharge is a percentage of the base rate and is reviewed every month.",
)

RATE_CLOSING = _p(
    "Rates exclude VAT, which is added at the standard rate.",
    "Consignments over 100 kg, or with any side longer than 2.4 metres, are priced on request.",
    "Surcharges for remote postcodes, tail-lift vehicles and failed delivery attempts are"
    " listed in the general terms of carriage.",
)

# 6 zones x 5 services x 5 weight bands = 150 rows. Units live in the header so the
# cells stay short: the markdown rendering of the table ("| A | Economy | ... |" per
# row) is about 3,000 cl100k tokens. RATE_NOTES is the easiest place to tune it.
RATE_ZONES = (("A", 1.00), ("B", 1.12), ("C", 1.25), ("D", 1.41), ("E", 1.66), ("F", 2.05))
RATE_SERVICES = (  # name, price factor, fuel surcharge in per cent
    ("Economy", 0.85, 4),
    ("Standard", 1.00, 6),
    ("Express", 1.30, 7),
    ("Priority", 1.65, 8),
    ("Same day", 2.40, 9),
)
RATE_BANDS = (("0-5", 6.20), ("5-10", 8.40), ("10-25", 12.90), ("25-50", 19.75), ("50-100", 31.60))
RATE_NOTES = ("Signature", "POD", "-", "-", "Signature", "-", "POD")


def rate_rows() -> tuple[tuple[str, ...], ...]:
    rows = []
    for zone, zone_factor in RATE_ZONES:
        for service, service_factor, fuel in RATE_SERVICES:
            for band, base in RATE_BANDS:
                rate = base * zone_factor * service_factor
                note = RATE_NOTES[len(rows) % len(RATE_NOTES)]
                rows.append((zone, service, band, f"{rate:.2f}", str(fuel), note))
    return tuple(rows)


RATE_TABLE = TableSpec(
    caption="Table 1: Domestic freight rates by zone and weight band",
    header=(
        "Zone",
        "Service",
        "Weight band (kg)",
        "Base rate (£)",
        "Fuel surcharge (%)",
        "Notes",
    ),
    rows=rate_rows(),
    weights=(0.7, 1.1, 1.1, 1.0, 1.1, 1.3),
)


def build_rate_schedule() -> Path:
    doc = new_document(RATE_TITLE, "Carrier rate schedule with a multi-page table")
    flow = Flow(doc)
    flow.heading(RATE_TITLE, 1)
    flow.paragraph(RATE_INTRO)
    flow.table(RATE_TABLE)
    flow.paragraph(RATE_CLOSING)
    return save(doc, "rate_schedule_2025.pdf")


# =========================================================================== 4. Quarterly report

REPORT_TITLE = "Quarterly Operations Report: Q2 2025"

REPORT_SUMMARY = _section(
    "1. Executive Summary",
    _p(
        "The second quarter was the busiest in the network's history.",
        "Outbound orders rose by 11 per cent on the same quarter last year, driven by"
        " two new retail accounts and a strong garden furniture season, while the cost"
        " per order fell for the third quarter in a row.",
        "Service held up well under the extra volume, although on-time delivery dipped in"
        " late May when a heatwave coincided with the bank holiday.",
    ),
    _p(
        "This report covers volumes, service performance, the vehicle fleet and regional"
        " trading, and closes with the priorities for the third quarter.",
        "The key results were:",
    ),
)

REPORT_HIGHLIGHTS = (
    "Outbound orders reached 1.42 million, up 11 per cent year on year.",
    "On-time delivery averaged 97.6 per cent against a target of 98 per cent.",
    "Cost per order fell to £2.31, a saving of 6 pence on the first quarter.",
    "Stock accuracy stayed above 99.8 per cent at every site.",
    "Lost-time injuries fell from four in the first quarter to one.",
)

REPORT_VOLUMES = (
    _section(
        "2. Volumes and Throughput",
        _p(
            "Volumes grew in every month of the quarter, with June the strongest month on"
            " record for both inbound pallets and outbound orders.",
        ),
    ),
    _section(
        "2.1 Inbound",
        _p(
            "Inbound receipts were steady through April and rose sharply in May as"
            " suppliers brought forward summer stock.",
            "Dock scheduling kept average unloading time under 40 minutes despite the"
            " extra arrivals.",
        ),
        level=3,
    ),
    _section(
        "2.2 Outbound",
        _p(
            "Outbound orders peaked in the second week of June.",
            "The share of single-line orders rose to 58 per cent, which suits the new"
            " pick-to-light zone at Daventry.",
        ),
        level=3,
    ),
)

REPORT_MONTHLY_TABLE = TableSpec(
    caption="Table 1: Headline volumes by month",
    header=("Month", "Inbound pallets", "Outbound orders", "Units picked", "Cost per order"),
    rows=(
        ("April", "18,240", "441,900", "1,326,000", "£2.36"),
        ("May", "21,115", "472,300", "1,401,800", "£2.30"),
        ("June", "22,870", "505,600", "1,519,400", "£2.27"),
    ),
    weights=(1.0, 1.0, 1.0, 1.0, 1.0),
)

REPORT_WEEKLY_ORDERS = (  # thousands of orders per week, drawn in Figure 1
    98,
    102,
    101,
    106,
    109,
    111,
    114,
    104,
    117,
    119,
    121,
    126,
    118,
)
FIGURE_CAPTION = "Figure 1: Weekly outbound orders, April to June 2025"

REPORT_SERVICE = _section(
    "3. Service Performance",
    _p(
        "Table 2 shows the service results for each site.",
        "Four of the five sites met the on-time delivery target; Corby fell short after two"
        " trunking vehicles were off the road in May.",
    ),
)

REPORT_SITE_TABLE = TableSpec(
    caption="Table 2: Service level results by site",
    header=("Site", "Measure", "Target", "Q2 result", "Status"),
    rows=(
        ("Daventry", "On-time delivery", "98.0%", "98.4%", "Met"),
        ("Daventry", "Stock accuracy", "99.8%", "99.9%", "Met"),
        ("Corby", "On-time delivery", "98.0%", "96.1%", "Missed"),
        ("Corby", "Stock accuracy", "99.8%", "99.8%", "Met"),
        ("Warrington", "On-time delivery", "98.0%", "98.2%", "Met"),
        ("Warrington", "Stock accuracy", "99.8%", "99.9%", "Met"),
        ("Bristol", "On-time delivery", "98.0%", "98.0%", "Met"),
        ("Bristol", "Stock accuracy", "99.8%", "99.8%", "Met"),
        ("Bellshill", "On-time delivery", "98.0%", "98.6%", "Met"),
        ("Bellshill", "Stock accuracy", "99.8%", "99.9%", "Met"),
        ("Network", "Dispatch same day", "99.5%", "99.6%", "Met"),
    ),
    weights=(1.0, 1.4, 0.8, 0.8, 0.8),
)

REPORT_ACTIONS_INTRO = _p("Four actions were agreed to protect service in the third quarter:")

REPORT_ACTIONS = (
    "Add two spare tractor units to the Corby trunking pool before the August peak.",
    "Move the heatwave working pattern from an ad hoc decision to a standing procedure.",
    "Extend the pick-to-light zone at Daventry to cover the fastest 800 product lines.",
    "Review carrier allocations weekly instead of monthly during the peak.",
)

REPORT_FLEET = _section(
    "4. Fleet and Equipment",
    _p(
        "The fleet register below lists every vehicle in service at the end of June, with"
        " its mileage for the quarter.",
        "Average fleet availability was 96.1 per cent; the two Corby vehicles returned to"
        " service on 12 June.",
    ),
)

FLEET_TYPES = ("Tractor unit", "Rigid 18t", "Rigid 7.5t", "Van 3.5t")
FLEET_DEPOTS = ("Daventry", "Corby", "Warrington", "Bristol", "Bellshill")


def fleet_rows() -> tuple[tuple[str, ...], ...]:
    """40 vehicles; values follow fixed arithmetic patterns, so they never change."""
    rows = []
    for n in range(40):
        kind = FLEET_TYPES[n % len(FLEET_TYPES)]
        depot = FLEET_DEPOTS[(n * 3) % len(FLEET_DEPOTS)]
        age = 1 + (n * 7) % 9
        mileage = 9_000 + (n * 2_731) % 21_000
        status = "Workshop" if n in (6, 23) else "In service"
        rows.append((f"FL-{101 + n}", kind, depot, str(age), f"{mileage:,}", status))
    return tuple(rows)


REPORT_FLEET_TABLE = TableSpec(
    caption="Table 3: Vehicle fleet register at 30 June 2025",
    header=("Fleet no.", "Type", "Depot", "Age (years)", "Q2 mileage", "Status"),
    rows=fleet_rows(),
    weights=(0.8, 1.1, 1.0, 0.8, 0.9, 0.9),
)

REPORT_FLEET_AFTER = _p(
    "Six of the oldest tractor units are due for replacement in the fourth quarter; the"
    " new vehicles will meet the latest emissions standard and carry telematics as"
    " standard.",
)

# One page set in two columns: the left column is read before the right one.
REPORT_REGIONS_HEADING = "5. Regional Commentary"
REPORT_REGIONS_LEFT = (
    _p(
        "North West. Warrington handled its highest volumes since opening, helped by the"
        " new homeware account that went live in April.",
        "Agency hours rose in June but stayed within budget because the site recruited"
        " twelve permanent pickers in May.",
    ),
    _p(
        "Midlands. Daventry remains the largest site in the network and absorbed most of"
        " the growth.",
        "The pick-to-light zone cut walking distance on single-line orders by a third and"
        " lifted picks per hour from 112 to 131.",
        "Corby recovered from its May vehicle problems and ended the quarter back above"
        " target for the final three weeks.",
    ),
    _p(
        "Both Midlands sites will share a transport planning team from July, so that"
        " trunking capacity can be moved between them at short notice.",
    ),
    _p(
        "Customer feedback. The quarterly survey of retail accounts scored the network 8.1"
        " out of 10, up from 7.7.",
        "Accounts praised the new delivery booking screens but asked for earlier warning"
        " of late trunking arrivals, which the planning team will add in August.",
    ),
)
REPORT_REGIONS_RIGHT = (
    _p(
        "South West. Bristol had a quiet April but a strong June as garden furniture"
        " orders arrived earlier than forecast.",
        "Two-person delivery capacity was the main constraint, and the site hired"
        " additional crews from a partner carrier for six weeks.",
    ),
    _p(
        "Scotland. Bellshill met every target in the quarter.",
        "Volumes were flat on last year, but the site won a trial with a regional grocer"
        " that starts in September.",
        "Winter planning has begun early because the site lost two days to snow last January.",
    ),
    _p(
        "People. Across all regions, staff turnover fell to 2.1 per cent a month, the"
        " lowest figure for three years.",
        "Absence was highest in the heatwave week, and the new summer working pattern"
        " starts earlier in the morning to avoid the hottest hours.",
        "All sites completed their annual fire drills and first aid refresher training"
        " before the end of June.",
    ),
)

REPORT_APPENDIX = _section(
    "Appendix A: Definitions of Measures",
    _p(
        "On-time delivery is the share of consignments delivered within the promised"
        " window, counted at the first attempt.",
        "Deliveries refused by the consignee and deliveries to closed premises are excluded.",
    ),
    _p(
        "Cost per order is the total operating cost of the network divided by the number"
        " of outbound orders dispatched.",
        "It includes labour, property, transport and overheads but excludes one-off project costs.",
    ),
)


def bar_chart(values: Sequence[int]) -> pymupdf.Pixmap:
    """A small bar chart, drawn on a scratch page and rasterised (deterministic)."""
    width, height, pad = 360.0, 200.0, 16.0
    scratch = pymupdf.open()
    page = scratch.new_page(width=width, height=height)
    page.draw_rect(page.rect, color=None, fill=(0.97, 0.97, 0.95))
    base, top = height - pad, pad
    page.draw_line((pad, base), (width - pad, base), color=(0.3, 0.3, 0.3), width=1)
    page.draw_line((pad, base), (pad, top), color=(0.3, 0.3, 0.3), width=1)
    for level in (0.25, 0.5, 0.75):
        y = base - level * (base - top)
        page.draw_line((pad, y), (width - pad, y), color=(0.82, 0.82, 0.82), width=0.5)
    slot = (width - 2 * pad) / len(values)
    peak = max(values)
    for i, value in enumerate(values):
        x = pad + i * slot + slot * 0.2
        bar_top = base - (value / peak) * (base - top) * 0.95
        page.draw_rect(
            pymupdf.Rect(x, bar_top, x + slot * 0.6, base), color=None, fill=(0.16, 0.38, 0.62)
        )
    pixmap = page.get_pixmap(dpi=96)
    scratch.close()
    return pixmap


def build_report() -> Path:
    doc = new_document(REPORT_TITLE, "Mixed-layout report for extractor tests")
    flow = Flow(doc)
    flow.heading(REPORT_TITLE, 1)
    flow.section(REPORT_SUMMARY)
    flow.list_items(REPORT_HIGHLIGHTS)
    for section in REPORT_VOLUMES:
        flow.section(section)
    flow.table(REPORT_MONTHLY_TABLE)
    flow.figure(bar_chart(REPORT_WEEKLY_ORDERS), 324.0, FIGURE_CAPTION)
    flow.section(REPORT_SERVICE)
    flow.table(REPORT_SITE_TABLE)
    flow.paragraph(REPORT_ACTIONS_INTRO)
    flow.list_items(REPORT_ACTIONS, numbered=True)
    flow.new_page()
    flow.section(REPORT_FLEET)
    flow.table(REPORT_FLEET_TABLE)
    flow.paragraph(REPORT_FLEET_AFTER)
    flow.new_page()
    flow.two_columns(REPORT_REGIONS_HEADING, REPORT_REGIONS_LEFT, REPORT_REGIONS_RIGHT)
    flow.new_page()
    flow.section(REPORT_APPENDIX)
    assert flow.page is not None
    flow.page.set_rotation(90)  # content written upright; only /Rotate changes
    return save(doc, "quarterly_operations_report.pdf")


# =========================================================================== 5. Scanned memo

MEMO_TITLE = "Memo: Warehouse access"
MEMO_BODY = Style("helv", 12.0, 17.0)
MEMO_PARAGRAPHS = (
    _p(
        "From 3 March, all visitors to the Daventry warehouse must sign in at the"
        " gatehouse and wear a high-visibility vest at all times on site.",
    ),
    _p(
        "Drivers should stay in the marked waiting area while their vehicle is loaded.",
        "Only staff with a valid access card may enter the racking aisles.",
    ),
    _p(
        "Please pass this memo to your teams and contact the site manager with any questions.",
    ),
)
MEMO_DPI = 200


def render_memo() -> pymupdf.Pixmap:
    """The memo typed on a scratch page and rasterised to grayscale."""
    scratch = pymupdf.open()
    flow = Flow(scratch, body=MEMO_BODY)
    flow.heading(MEMO_TITLE, 1)
    flow.gap(12.0)
    for paragraph in MEMO_PARAGRAPHS:
        flow.paragraph(paragraph)
    pixmap = scratch[0].get_pixmap(dpi=MEMO_DPI, colorspace=pymupdf.csGRAY)
    scratch.close()
    return pixmap


def build_scanned_memo() -> Path:
    doc = new_document(MEMO_TITLE, "Image-only page for OCR tests")
    page = doc.new_page(width=PAGE_WIDTH, height=PAGE_HEIGHT)
    page.insert_image(page.rect, pixmap=render_memo())
    return save(doc, "scanned_memo.pdf")


# --------------------------------------------------------------------------- main


def main() -> None:
    for build in (
        build_apex,
        build_sleepover,
        build_rate_schedule,
        build_report,
        build_scanned_memo,
    ):
        path = build()
        print(f"wrote {path.name} ({path.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
