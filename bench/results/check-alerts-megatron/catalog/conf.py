# Megatron-LM's docs/developer/determinism/op-catalog.md at d98e8a64d,
# migrated: `python -m reprodocs migrate --write docs megatron` in a copy
# of its tree wrote op-catalog.md as it is here, and printed the fields
# below, to declare. (NOTICE.md: Megatron-LM's licence.)
project = "Megatron-LM's op catalog, migrated"
extensions = ["myst_parser", "reprodocs"]
root_doc = "op-catalog"
# Its link to the glossary, a page not copied here.
suppress_warnings = ["myst.xref_missing"]
reprodocs_entry_fields = [
    {"option": "where", "title": "Where", "kind": "line"},
    {"option": "deterministic-path", "title": "Deterministic Path", "kind": "line"},
    {"option": "default-path", "title": "Default Path", "kind": "line"},
    {"option": "where-enforced-or-observed", "title": "Where Enforced or Observed", "kind": "line"},
    {"option": "status", "title": "Status", "kind": "line"},
]
