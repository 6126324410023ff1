project = "Navigation"
exclude_patterns = ["_build"]
