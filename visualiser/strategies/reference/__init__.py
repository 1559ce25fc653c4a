"""Reference strategies: the splitters engineers actually run, reproduced chunk for
chunk (LlamaIndex, LangChain, fixed windows) plus a header-aware table splitter.

Each library's algorithm lives in a `*_split` module that works on plain offsets and
is tested against the library itself; the strategy modules wrap it for the product.
"""

# Registration, in the order the strategy menus list them.
from visualiser.strategies.reference import llamaindex, langchain, fixed, tables  # noqa: F401, I001
