extensions = ["myst_parser", "reprodocs"]
myst_enable_extensions = ["colon_fence"]
