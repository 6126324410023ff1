project = "Entries test"
extensions = ["reprodocs"]
reprodocs_registry_file = "registry.toml"
# Every cross-reference the lists make must resolve.
nitpicky = True
# The notes link here (there is no notes/randomness page).
reprodocs_reproducibility_doc = "index"
