"""Google-style docstrings for sphinx-autodoc2, as Megatron-LM's docs read
theirs: Napoleon's conversion, then MyST."""

from myst_parser.parsers.sphinx_ import MystParser
from sphinx.ext.napoleon.docstring import GoogleDocstring


class Parser(MystParser):
    def parse(self, inputstring, document):
        config = document.settings.env.config
        return super().parse(str(GoogleDocstring(inputstring, config)), document)
