"""Reading-order rules, one small generated PDF each: headings beside a running
column, and the like (the column rules shared with other layout rules are in
test_layout_rules.py)."""

from __future__ import annotations

import pymupdf

from visualiser.layout.items import Item, RawLine
from visualiser.layout.order import reading_order
from visualiser.pipeline import process_pdf


def _pdf(draw) -> bytes:  # type: ignore[no-untyped-def]
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    draw(page)
    data = doc.tobytes()
    doc.close()
    return data


def _words(marker: str, n: int) -> str:
    return " ".join(f"{marker}{i}" for i in range(n))


def _positions(text: str, marker: str) -> list[int]:
    return [i for i, word in enumerate(text.split()) if word.startswith(marker)]


def _columns(page: pymupdf.Page, boxes: list[tuple[pymupdf.Rect, str]], *,
             fontsize: float = 10, align: int = pymupdf.TEXT_ALIGN_LEFT) -> None:
    """Each text in its box, in the order given (the order typeset: the content
    stream's); each must fit, as insert_textbox writes nothing of a text that does
    not."""
    for rect, text in boxes:
        assert page.insert_textbox(rect, text, fontsize=fontsize, align=align) >= 0, rect


def test_a_heading_atop_one_column_beside_the_other_s_text_starts_the_columns():
    """A paper's first page: title and authors across the page, then "Abstract"
    centred over the left column, level with the first line of the right column
    (which carries on the text of the left one below the abstract). The heading must
    not be read as one more row of the title block, pulling the right column's first
    lines before the abstract."""
    def draw(page):
        page.insert_text((150, 80), "Preemptive Extraction of Relations", fontsize=16)
        page.insert_text((200, 110), "someone@example.org", fontsize=10, fontname="cour")
        page.insert_text((150, 160), "Abstract", fontsize=12, fontname="hebo")
        # written as typeset: the left column, then the right one
        _columns(page, [(pymupdf.Rect(60, 175, 296, 700), _words("left", 160)),
                        (pymupdf.Rect(316, 150, 560, 700), _words("right", 180))])
    text = process_pdf(_pdf(draw), "abstract.pdf").source.text
    left, right = _positions(text, "left"), _positions(text, "right")
    assert len(left) == 160 and len(right) == 180
    assert text.index("Abstract") < text.index("left0") < text.index("right0")
    assert max(left) < min(right)


def _picture(page: pymupdf.Page, rect: pymupdf.Rect) -> None:
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 40), False)
    pix.clear_with(180)
    page.insert_image(rect, pixmap=pix)


def test_a_column_wider_than_the_picture_atop_it_is_still_one_column():
    """A picture narrower than its column, the column's text below it running out to
    the column's edge: the gutter seen beside the picture narrows at the text, yet
    the left column is read whole before the right one."""
    def draw(page):
        _picture(page, pymupdf.Rect(90, 60, 240, 200))
        # justified, as papers are: the text runs out to the column's edge; the right
        # column's paragraph break is level with the left column's first line
        _columns(page, [(pymupdf.Rect(60, 206, 300, 700), _words("left", 180)),
                        (pymupdf.Rect(312, 60, 560, 204), _words("right", 50)),
                        (pymupdf.Rect(312, 224, 560, 700),
                         _words("right", 240)[len(_words("right", 50)):])],
                 align=pymupdf.TEXT_ALIGN_JUSTIFY)
    text = process_pdf(_pdf(draw), "narrow.pdf").source.text
    left, right = _positions(text, "left"), _positions(text, "right")
    assert len(left) == 180 and len(right) == 240
    assert max(left) < min(right)


def test_an_ordinal_suffix_raised_after_a_number_stays_in_its_word():
    """"10ᵗʰ" reads "10th"; a footnote mark raised the same way ("risk¹²") is a word
    of its own (test_layout_rules.py)."""
    def draw(page):
        writer = pymupdf.TextWriter(page.rect)
        font = pymupdf.Font("helv")
        writer.append((72, 100), "Updated on the 10", font=font, fontsize=11)
        writer.append((writer.last_point.x, 96), "th", font=font, fontsize=6)
        writer.append((writer.last_point.x, 100), " and 2", font=font, fontsize=11)
        writer.append((writer.last_point.x, 96), "nd", font=font, fontsize=6)
        writer.append((writer.last_point.x, 100), " of each month.", font=font, fontsize=11)
        writer.write_text(page)
    doc = process_pdf(_pdf(draw), "ordinal.pdf")
    assert "on the 10th and 2nd of each month" in doc.source.text


def test_an_exponent_raised_in_a_formula_stays_in_its_word():
    """"H ∈ Rⁿˣᵈ" and "x²" are written as the text layer has them; only a footnote
    mark (a number, a reference symbol, one letter) after a word is split off."""
    def draw(page):
        writer = pymupdf.TextWriter(page.rect)
        font = pymupdf.Font("helv")
        writer.append((72, 100), "the input H in R", font=font, fontsize=11)
        writer.append((writer.last_point.x, 96), "nxd", font=font, fontsize=6)
        writer.append((writer.last_point.x, 100), " and x", font=font, fontsize=11)
        writer.append((writer.last_point.x, 96), "2", font=font, fontsize=6)
        writer.append((writer.last_point.x, 100), " are given, as in practice", font=font,
                      fontsize=11)
        writer.append((writer.last_point.x, 96), "3", font=font, fontsize=6)
        writer.append((writer.last_point.x, 100), ".", font=font, fontsize=11)
        writer.write_text(page)
    words = [w.text for w in process_pdf(_pdf(draw), "exponent.pdf").layout.words]
    assert "Rnxd" in words and "x2" in words, words
    assert "practice" in words and "3" in words, words


def test_a_footnote_mark_raised_after_a_one_syllable_word_is_its_own_word():
    """A single Hangul syllable is a word ("각 목⁴⁾에 규정된"), not a formula's
    variable: the raised "4)" after it is a footnote mark, split off as after "x" it
    would not be."""
    def draw(page):
        writer = pymupdf.TextWriter(page.rect)
        font = pymupdf.Font("korea")
        writer.append((72, 100), "감염병으로서 제2호 각 목", font=font, fontsize=11)
        writer.append((writer.last_point.x, 96), "4)", font=font, fontsize=6)
        writer.append((writer.last_point.x, 100), "에 규정된 감염병을 말한다.", font=font,
                      fontsize=11)
        writer.write_text(page)
    words = [w.text for w in process_pdf(_pdf(draw), "mark.pdf").layout.words]
    assert words[3:6] == ["목", "4)", "에"], words


def test_a_right_column_starting_beside_a_heading_bar_is_read_after_the_left_one():
    """A report's page: a full-width summary, then two columns that start staggered —
    a numbered heading on a tinted bar atop the left column, the right column's first
    lines (the end of the left column's text) level with it and just above. Each of
    those rows holds one column only: they must not be read with the summary above,
    before the left column, but at the top of the right column."""
    def draw(page):
        _columns(page, [(pymupdf.Rect(60, 60, 552, 170), _words("summary", 40))], fontsize=11)
        page.draw_rect(pymupdf.Rect(60, 204, 296, 227), color=None, fill=(0.85, 0.9, 1))
        page.insert_text((66, 220), "1", fontsize=14, fontname="hebo")
        page.insert_text((84, 220), "Introduction", fontsize=14, fontname="hebo")
        # the right column begins higher than the heading, its rows staggered against
        # the heading's so that no row crosses the gutter
        for n, y in enumerate((188, 206, 234)):
            page.insert_text((318, y), _words(f"r{n}x", 5), fontsize=11)
        _columns(page, [(pymupdf.Rect(60, 240, 296, 760), _words("left", 120)),
                        (pymupdf.Rect(318, 240, 552, 760), _words("rest", 120))], fontsize=11)
    text = process_pdf(_pdf(draw), "staggered.pdf").source.text
    words = text.split()
    firsts = [words.index(f"r{n}x0") for n in range(3)]
    assert max(_positions(text, "summary")) < words.index("Introduction")
    assert max(_positions(text, "left")) < min(firsts), text[:600]
    assert max(firsts) < min(_positions(text, "rest"))


def test_letters_stacked_down_a_form_s_margin_are_one_vertical_note():
    """A form's margin label spelled letter under letter ("PRINT CLEARLY" beside the
    name fields): each letter is a line of the text layer; read as lines, they land
    on the rows beside them. They are one vertical note, its words parted where the
    gap between letters opens, and the rows keep their own text."""
    rows = ["Your first name and initial", "If a joint return spouse name",
            "Home address number and street", "City town or post office"]

    def draw(page):
        y = 100.0
        for word in ("PRINT", "CLEARLY"):
            for letter in word:
                page.insert_text((95, y), letter, fontsize=9)
                y += 8.0  # letters set solid: no leading between them
            y += 8.0  # one letter's height: the space between the words
        for n, row in enumerate(rows):
            page.insert_text((112, 100 + 40 * n), row, fontsize=9)
        # item labels one under the other, a row apart: not a stacked word
        for n, label in enumerate("abc"):
            page.insert_text((300, 300 + 14 * n), label, fontsize=9)
            page.insert_text((312, 300 + 14 * n), f"Item {label} of the list", fontsize=9)
    text = process_pdf(_pdf(draw), "form.pdf").source.text
    assert "PRINT CLEARLY" in text
    for row in rows:
        assert row in text
    for label in "abc":
        assert f"{label} Item {label} of the list" in text


def test_a_form_s_margin_label_on_two_lines_reads_whole():
    """A form read row by row: a bold label in the margin set on two lines ("Tax and"
    over "Credits", "Sign" over "Here") stands on two rows, and the first row's fields
    came between its halves, two headings. A first line that cannot end a label (it
    ends in "and" or a comma) takes the line under it, and so does one set larger
    than the form's text (a section's label); field labels stacked at the form's own
    size ("Name" over "Address"), each with its value beside it, stay two."""
    def draw(page):
        for top, (first, second), size in ((100, ("Tax and", "Credits"), 8),
                                           (200, ("Sign", "Here"), 10),
                                           (300, ("Name", "Address"), 8)):
            page.insert_text((36, top), first, fontsize=size, fontname="hebo")
            page.insert_text((36, top + size + 2), second, fontsize=size, fontname="hebo")
            for n in range(4):  # the rows beside it: a number, its field, its amount
                y = top + 12 * n
                page.insert_text((120, y), f"{38 + n}", fontsize=8)
                page.insert_text((140, y), f"Amount from line {37 + n}", fontsize=8)
                page.insert_text((500, y), f"{100 * n}", fontsize=8)
    text = process_pdf(_pdf(draw), "form.pdf").source.text
    assert "Tax and Credits" in text, text
    assert "Sign Here" in text, text
    assert "Name Address" not in text, text


# a diagram's row of steps, each label on two lines
STEPS = [("Building the", "Egyptian person"), ("Building a", "competitive economy"),
         ("Protecting", "national security"), ("Achieving political", "stability")]


def _assert_steps_read_whole(steps) -> None:  # type: ignore[no-untyped-def]
    """The STEPS, as `steps` draws them between a paragraph above and one below, are
    read each whole, in order, between the two paragraphs."""
    def draw(page):  # type: ignore[no-untyped-def]
        _columns(page, [(pymupdf.Rect(72, 80, 540, 190), _words("above", 20))], fontsize=12)
        steps(page)
        _columns(page, [(pymupdf.Rect(72, 290, 540, 400), _words("below", 20))], fontsize=12)
    text = " ".join(process_pdf(_pdf(draw), "steps.pdf").source.text.split())
    wholes = [text.find(f"{first} {second}") for first, second in STEPS]
    assert all(at >= 0 for at in wholes), text
    assert wholes == sorted(wholes), text
    assert text.index("above19") < wholes[0] and wholes[-1] < text.index("below0")


def test_labels_side_by_side_each_on_two_lines_read_label_by_label():
    """A diagram's row of steps, each label on two lines over its shape ("Building
    the" over "Egyptian person", "Building a" over "competitive economy"): read row by
    row, as a form's labels and values are, the labels interleaved ("Building the
    Building a … Egyptian person competitive economy"). Each is read whole, left to
    right, between the paragraphs above and below."""

    def steps(page):
        for n, (first, second) in enumerate(STEPS):  # each label written whole
            x = 72 + 115 * n
            page.draw_polyline([(x, 200), (x + 100, 230), (x, 260), (x, 200)],
                               color=(0, 0, 1), fill=(0.7, 0.7, 1))
            page.insert_text((x + 5, 225), first, fontsize=11)
            page.insert_text((x + 5, 239), second, fontsize=11)
    _assert_steps_read_whole(steps)


def test_labels_side_by_side_read_whole_when_two_are_written_as_one_line():
    """The same row of labels, the first lines of the first two written as one line
    with spaces between them (a drawing program's text run; MuPDF reads one line): the
    row of three lines over the row of four is cut where the four's gutter crosses it,
    and each label is read whole."""

    def steps(page):
        space = pymupdf.get_text_length(" ", fontsize=11)
        pad = round((115 - pymupdf.get_text_length(STEPS[0][0], fontsize=11)) / space)
        page.insert_text((77, 225), STEPS[0][0] + " " * pad + STEPS[1][0], fontsize=11)
        for n, (first, second) in enumerate(STEPS):
            x = 72 + 115 * n
            if n >= 2:
                page.insert_text((x + 5, 225), first, fontsize=11)
            page.insert_text((x + 5, 239), second, fontsize=11)
    _assert_steps_read_whole(steps)


def test_a_form_s_labels_beside_their_values_stay_read_row_by_row():
    """Two rows of a form, each label left of its value: stacked like labels side by
    side, but neither stack reads on as one phrase ("Name:" over "Date:"): each label
    is read with the value beside it."""
    def draw(page):
        for n, (label, value) in enumerate((("Name:", "Jane Example"), ("Date:", "given later"))):
            page.insert_text((72, 100 + 13 * n), label, fontsize=11)
            page.insert_text((200, 100 + 13 * n), value, fontsize=11)
    text = " ".join(process_pdf(_pdf(draw), "form.pdf").source.text.split())
    assert "Name: Jane Example" in text and "Date: given later" in text, text


def test_a_form_s_label_and_the_number_of_the_row_beside_it_are_two_lines():
    """"Payments" in 10 pt bold, and an em away on its baseline the number of the
    first row beside it, "61", in 8 pt: MuPDF makes them one line, so the label read
    "Payments 61" and the row lost its number."""
    def draw(page):
        bold = pymupdf.Font("hebo")
        label = pymupdf.TextWriter(page.rect)  # one piece of text: MuPDF's one line
        label.append((36, 360), "Payments ", font=bold, fontsize=10)
        label.append((92, 360), "61 ", font=bold, fontsize=8)
        label.write_text(page)
        for n in range(4):
            y = 360 + 12 * n
            if n:
                page.insert_text((92, y), f"{61 + n}", fontsize=8, fontname="hebo")
            page.insert_text((115, y), f"Federal income tax withheld, part {n}", fontsize=8)
            page.insert_text((500, y), f"{100 * n}", fontsize=8)
    layout = process_pdf(_pdf(draw), "form.pdf")
    text = layout.source.text
    assert "Payments 61" not in text, text
    assert "61 Federal income tax withheld, part 0" in text, text
    assert [b.heading for b in layout.source.blocks if b.kind == "heading"] == ["Payments"]



def _item(box: tuple[float, float, float, float], text: str, size: float = 10.0) -> Item:
    """A line whose words share its width evenly."""
    words = text.split()
    step = (box[2] - box[0]) / len(words)
    boxes = [(box[0] + n * step, box[1], box[0] + (n + 1) * step, box[3])
             for n in range(len(words))]
    return Item("line", box, line=RawLine(box, list(zip(boxes, words, strict=True)), size,
                                          False, False))


def test_a_display_formula_beside_the_other_column_does_not_make_the_columns_rows():
    """A two-column paper's display formula at the foot of the right column (elsarticle's
    5p sample, page 2, its geometry), level with the left column's last lines. Its
    pieces stand a few points apart, and the stacked ones ("dx Fn(x)" over "An + Bn",
    a sum's limits) are as tall as a title. Taken for a title, such a piece made the
    gap beside it column structure; the formula's rows could then join neither column
    and were read across the page with the left column's last lines ("= BnCn dx
    evanescent field. This …"). A tall line in the running text's size is no title."""
    left = [_item((38, y, 289, y + 11), f"left{n} " + "word " * 9)
            for n, y in enumerate(range(84, 724, 12))]
    right = [_item((307, y, 558, y + 11), f"right{n} " + "word " * 9)
             for n, y in enumerate(range(84, 684, 12))]
    formula = [_item(box, text, size) for box, text, size in (  # in the PDF's order
        ((312, 699, 318, 706), "∞", 7.0), ((308, 705, 321, 715), "Σ", 10.0),
        ((310, 722, 320, 730), "i=0", 7.0), ((323, 709, 334, 719), "An", 10.0),
        ((336, 702, 342, 712), "∫", 10.0), ((349, 702, 386, 719), "dx Fn(x)", 10.0),
        ((360, 715, 391, 726), "An + Bn", 10.0), ((395, 707, 425, 719), "= BnC n", 10.0),
        ((427, 702, 433, 712), "∫", 10.0), ((439, 709, 449, 719), "dx", 10.0),
        ((451, 702, 457, 712), "∫", 10.0), ((464, 702, 511, 719), "dy Gn(x,y)", 10.0),
        ((474, 702, 561, 726), "Anx + Bny+ Gn(x, y)", 10.0),
        ((525, 715, 566, 726), "Anx + Bny", 10.0), ((546, 729, 558, 739), "(5)", 10.0))]
    after = [_item((307, y, 558, y + 11), f"after{n} " + "word " * 9)
             for n, y in enumerate(range(741, 770, 12))]
    text = " ".join(i.line.text for i in reading_order(left + right + formula + after, 612))
    order = [int(word[4:]) for word in text.split() if word.startswith("left")]
    assert order == list(range(len(left)))
    assert text.index(f"left{len(left) - 1} ") < text.index("right0 ")
    assert text.index(f"right{len(right) - 1} ") < text.index("dx Fn(x)") < text.index("after0")


def _contents_beside_text(page: pymupdf.Page, top: float) -> None:
    """A paper's contents list in the left column, an entry on every line (its number
    set apart from its title, few titles of four words), beside the running text of
    its introduction in the right one, on one line grid (MNRAS's author guide)."""
    for n in range(24):  # written as typeset: the left column, then the right one
        y = top + 10 + 12 * n
        page.insert_text((60, y), f"{n // 3 + 1}.{n % 3 + 1}", fontsize=10)
        page.insert_text((84, y), f"entry{n}" + (" and its many topics" if n % 6 == 1 else ""),
                         fontsize=10)
    for n in range(24):
        page.insert_text((316, top + 10 + 12 * n),
                         " ".join(f"right{5 * n + k}" for k in range(5)), fontsize=10)


def test_a_contents_list_beside_running_text_is_a_column_not_rows():
    """An entry on every row beside running text pairs up with the text row by row,
    as a form's labels and values do; read as rows, every entry came between two
    lines of the introduction (MNRAS's author guide). Running text carries its
    sentences on from line to line: the two are columns."""
    text = process_pdf(_pdf(lambda page: _contents_beside_text(page, 80)),
                       "contents.pdf").source.text
    right = _positions(text, "right")
    assert len(right) == 120 and right == sorted(right)
    assert text.index("entry23") < text.index("right0")


def test_headings_atop_both_columns_start_their_columns():
    """"CONTENTS" over the left column and "1 INTRODUCTION" over the right one, on one
    row under a full-width abstract, nearer the columns than the abstract: each heads
    its column, not a row of two headings read before both."""
    def draw(page):
        assert page.insert_textbox(pymupdf.Rect(60, 60, 560, 200), _words("abstract", 80),
                                   fontsize=10) >= 0
        page.insert_text((60, 233), "CONTENTS", fontsize=10, fontname="hebo")
        page.insert_text((316, 233), "1 INTRODUCTION", fontsize=10, fontname="hebo")
        _contents_beside_text(page, 245)
    text = process_pdf(_pdf(draw), "headings.pdf").source.text
    assert (text.index("abstract79") < text.index("CONTENTS") < text.index("entry0")
            < text.index("entry23") < text.index("INTRODUCTION") < text.index("right0"))


def test_a_sidebar_beside_ragged_lines_stays_whole_where_one_line_runs_longer():
    """A page of short ragged lines beside a narrow column of notes (ACM's
    data-science template: the abstract's parts on the left, the authors' addresses
    down the right), the gutter between them 40 points wide. One longer line narrows
    it to 12–16 points: still a gutter, wider than a word space. Taken for a line
    reaching over the columns, it cut the page in two bands there, and the notes
    were read in two halves, the body's last lines between them."""
    def draw(page):
        long = "We hope the resulting templates help the reader to write"
        while pymupdf.get_text_length(long + " it", fontsize=9) < 325:
            long += " it"  # to 12 points short of the notes' column
        lines = [f"body{n} is a short line" for n in range(4)] + [long] + [
            f"body{n} is a short line" for n in range(4, 9)]
        for n, text in enumerate(lines):
            page.insert_text((46, 350 + 13 * n), text, fontsize=9)
        # the notes: lines of four words, but a lone address beside the long line
        for k in range(20):
            page.insert_text((380, 298 + 13 * k), f"trovato@corp{k}.com" if k == 8
                             else " ".join(f"s{4 * k + j}" for j in range(4)), fontsize=7)
    text = process_pdf(_pdf(draw), "sidebar.pdf").source.text
    words = text.split()
    side = [n for n, w in enumerate(words)
            if (w[0] == "s" and w[1:].isdigit()) or w.startswith("trovato")]
    assert len(side) == 77 and side == list(range(side[0], side[0] + 77))  # read whole


def test_a_line_overrunning_its_column_into_the_gutter_keeps_the_columns_apart():
    """ACM's sample sets a line of code wider than its column: it runs 15 of the
    gutter's 22 points into it, short of the right column. The band it makes with
    the right column's row narrowed the gutter below what two columns keep, and the
    code's lines were read row by row with the references beside them ("… Col-" /
    `language=french]{acmart}` / "loquium on Automata …")."""
    def draw(page):
        _columns(page, [(pymupdf.Rect(54, 60, 296, 380), _words("left", 150)),
                        (pymupdf.Rect(318, 60, 560, 720), _words("right", 330))],
                 fontsize=9, align=pymupdf.TEXT_ALIGN_JUSTIFY)
        code = "\\documentclass[sigconf,language=english,language=german,"
        width = pymupdf.get_text_length(code, fontname="cour", fontsize=9)
        page.insert_text((54, 400), code, fontsize=9.0 * 257 / width, fontname="cour")
        page.insert_text((110, 411), "language=french]{acmart}", fontsize=8, fontname="cour")
        _columns(page, [(pymupdf.Rect(54, 420, 296, 720), _words("after", 120))],
                 fontsize=9, align=pymupdf.TEXT_ALIGN_JUSTIFY)
    text = process_pdf(_pdf(draw), "overrun.pdf").source.text
    right = _positions(text, "right")
    assert len(right) == 330 and right == list(range(right[0], right[0] + 330)), "whole"
    words = text.split()
    code_at = next(n for n, w in enumerate(words) if w.startswith("\\documentclass"))
    assert max(_positions(text, "left")) < code_at < min(_positions(text, "after"))
    assert max(_positions(text, "after")) < min(right), "the left column, then the right"


def test_terms_hung_in_the_margin_are_read_before_their_descriptions():
    """A package manual's options, each name hung in the margin beside the first line
    of its description and written after that line (\\marginpar, \\llap): one beside
    every line or two, too many for margin notes. Read as the PDF writes them, each
    name came after its description's first line and cut the description in two."""
    entries = [("draft", 2), ("final", 1), ("twoside", 2), ("oneside", 1), ("index", 2),
               ("glossary", 2)]
    text = {name: " ".join(f"{name}{i}" for i in range(7 * lines - 2)) + " ends here."
            for name, lines in entries}

    def draw(page):
        top = 80
        for name, lines in entries:
            box = pymupdf.Rect(150, top, 540, top + 14 * lines + 4)
            assert page.insert_textbox(box, text[name], fontsize=10) >= 0, name
            width = pymupdf.get_text_length(name, fontname="cour", fontsize=10)
            page.insert_text((140 - width, top + 9.5), name, fontname="cour", fontsize=10)
            top += 14 * lines + 10
    source = process_pdf(_pdf(draw), "options.pdf").source.text
    flat = " ".join(source.split())
    for name, _ in entries:
        assert f"{name} {text[name]}" in flat, (name, flat)
    paragraphs = [" ".join(b.split()) for b in source.split("\n\n") if b.strip()]
    for name, _ in entries:
        assert any(text[name] in p for p in paragraphs), name  # each description whole


def test_a_code_listing_beside_running_text_is_read_after_it_not_row_by_row():
    """A manual's example set in the other column, in a typewriter font on its own line
    grid with a blank line after every two: read row by row, as a form's labels and
    values are, each line of the text was followed by a line of code and the paragraph
    cut at every one of them."""
    listing = [f"\\setting{{key{n}}}{{value{n}}}" for n in range(12)]
    prose = ("the package keeps its numbering out of the way of the author and so the "
             "text may be moved from one journal to another with only a simple change "
             "to the class command and nothing else in the document itself needs to be "
             "touched at all when it is sent on to the next editor for the review ") * 3

    def draw(page):
        _columns(page, [(pymupdf.Rect(58, 90, 297, 500), prose.strip() + ".")], fontsize=10)
        for n, line in enumerate(listing):  # in pairs, a blank line after each
            page.insert_text((312, 98 + 14.77 * (n + n // 2)), line, fontname="cour",
                             fontsize=9)
    source = process_pdf(_pdf(draw), "listing.pdf").source.text
    paragraphs = [" ".join(b.split()) for b in source.split("\n\n") if b.strip()]
    assert prose.strip() + "." in paragraphs, paragraphs
    start, end = source.index(listing[0]), source.index(listing[-1])
    assert "package" not in source[start:end], source  # the listing, all of it together



def test_section_heads_in_a_form_s_margin_column_head_the_lines_beside_them():
    """A tax form (the 2010 Form 1040, page 1, its geometry): a narrow column of section
    heads set large ("Income", "Adjusted Gross Income") with the form's notes under
    them ("Attach Form(s) W-2 here …"), left of the numbered lines; notes right of a
    table without text above the lines. Cut off as a column of its own, the left
    column was read first: both heads came before every line, and the income lines fell
    under "Adjusted Gross Income". Each block of that column is read where it stands:
    a head before the line level with it, a note between the lines beside it."""
    side = [_item((36, 286 + 10 * n, 95, 295 + 10 * n), text, 8.0) for n, text in enumerate(
        ("If more than four", "dependents, see", "instructions and", "check here"))]
    side.append(_item((36, 339, 82, 353), "Income", 14.0))
    side += [_item((36, 370 + 9.5 * n, 91, 379 + 9.5 * n), text, 8.0) for n, text in enumerate(
        ("Attach Form(s)", "W-2 here. Also", "attach Forms", "W-2G and", "1099-R if tax",
         "was withheld."))]
    side += [_item((36, 564 + 12 * n, 87, 578 + 12 * n), text, 14.0)
             for n, text in enumerate(("Adjusted", "Gross", "Income"))]
    # beside the dependents' table (ruled boxes, no text): notes right of it
    right = [_item((490, 250 + 9 * n, 545, 258 + 9 * n), text, 7.0) for n, text in enumerate(
        ("No. of children", "on 6c who:", "lived with you", "did not live with",
         "you due to divorce", "or separation", "Dependents on 6c", "not entered above"))]
    rows = [_item((108, 266, 215, 274), "(1) First name Last name", 7.0)]
    for n, y in enumerate(range(326, 710, 12)):
        rows += [_item((114, y, 122, y + 9), f"{n + 6}", 9.0),
                 _item((126, y, 460, y + 9), f"line{n} Taxable refunds, credits, or offsets",
                       9.0),
                 _item((462, y, 471, y + 9), f"{n + 6}", 9.0)]
    text = " ".join(i.line.text for i in reading_order(rows + side + right, 612))
    assert text.index("check here") < text.index("line0 ")  # the note above the lines
    assert text.index("line0 ") < text.index("Income") < text.index("line1 ")
    assert text.index("line3 ") < text.index("Attach Form(s) W-2 here.") < text.index("line4 ")
    assert text.index("line19 ") < text.index("Adjusted Gross Income") < text.index("line20 ")
    order = [int(word[4:]) for word in text.split() if word.startswith("line")]
    assert order == sorted(order)


def test_side_heads_in_the_margin_of_one_text_block_head_their_sections():
    """A résumé's or a report's section heads set bold and larger in the left margin,
    each level with its section's first paragraph. Taken for margin notes, they were
    read after the paragraph beside them (or run into it) and headed nothing."""
    heads = ("Experience", "Education", "Interests")
    def draw(page):
        y = 80
        for head in heads:
            page.insert_text((36, y + 10), head, fontsize=13, fontname="hebo")
            for n in range(2):
                sentence = "Worked with the team on projects that people use every day. "
                assert page.insert_textbox(pymupdf.Rect(150, y, 560, y + 70),
                                           f"{head.lower()}{n} " + sentence * 2,
                                           fontsize=10) >= 0
                y += 80
    doc = process_pdf(_pdf(draw), "resume.pdf")
    text = doc.source.text
    for head in heads:
        assert f"# {head}\n" in text, head
        path = doc.source.heading_path_at(text.index(f"{head.lower()}1 "))
        assert path == (head,), (head, path)
