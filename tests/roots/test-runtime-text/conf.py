project = "Runtime text test"
extensions = ["reprodocs"]
reprodocs_wording = "pytorch-2"
nitpicky = True
