project = "Megatron-LM's catalog as today's entries"
extensions = ["reprodocs"]
reprodocs_registry_file = "registry.toml"
