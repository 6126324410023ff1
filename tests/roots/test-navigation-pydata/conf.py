project = "Navigation for pydata"
exclude_patterns = ["_build"]
