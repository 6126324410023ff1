# As Megatron-LM's docs/conf.py, reduced to what the catalog needs: MyST.
# tests/test_migrate_markdown_tables.py appends the reprodocs_entry_fields
# that migrate prints.
project = "Megatron-LM (catalog stub)"
extensions = ["myst_parser", "reprodocs"]
exclude_patterns = ["_build"]
