extensions = ["reprodocs"]
templates_path = ["_templates"]
reprodocs_reproducibility_doc = "notes/randomness"
