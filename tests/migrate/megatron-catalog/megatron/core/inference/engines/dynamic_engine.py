"""A stub of the Megatron-LM file the catalog names (tests/test_migrate_markdown_tables.py)."""
