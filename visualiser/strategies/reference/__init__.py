"""Reference strategies: the splitters engineers actually run (LlamaIndex, LangChain,
fixed windows) plus a header-aware table splitter.

LangChain's and LlamaIndex's splitters run themselves when installed (`libraries.py`
maps their chunks back to the markdown). Otherwise each library's algorithm runs from
a `*_split` module, a port that works on plain offsets and is tested chunk for chunk
against the pinned version; the strategy modules wrap either for the product.
"""

# Registration, in the order the strategy menus list them.
from visualiser.strategies.reference import llamaindex, langchain, fixed, tables  # noqa: F401, I001
