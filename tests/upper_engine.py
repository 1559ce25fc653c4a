"""A second layout engine for tests: the builtin reader with every word upper-cased,
so that which engine read a page can be seen in its chunks whether or not `[ml]` is
installed. Tests register it with `monkeypatch.setitem(ENGINES, ...)`."""

from visualiser.layout.pages import BuiltinEngine


class UpperCaseEngine(BuiltinEngine):
    name = "test-upper"
    label = "Upper-cased builtin (tests)"

    def read(self, data, options, progress=None):
        pages = super().read(data, options, progress)
        for page in pages:
            for item in page.items:
                if item.line is not None:
                    item.line.words = [(box, text.upper()) for box, text in item.line.words]
                    item.line.text = item.line.text.upper()
        return pages
