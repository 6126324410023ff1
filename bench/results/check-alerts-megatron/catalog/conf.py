project = "Megatron-LM's op catalog as labelled entries"
extensions = ["reprodocs"]
reprodocs_registry_file = "registry.toml"
# The catalog's columns beyond "Operation" (each entry's label).
reprodocs_entry_fields = [
    {"option": "where", "title": "Where"},
    {"option": "deterministic-path", "title": "Deterministic Path"},
    {"option": "default-path", "title": "Default Path"},
    {"option": "where-enforced-or-observed", "title": "Where Enforced or Observed"},
    {"option": "status", "title": "Status"},
]
