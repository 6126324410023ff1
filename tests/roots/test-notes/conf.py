project = "Notes test"
copyright = "2019, Torch Contributors"
version = release = "1.4.0"
extensions = ["reprodocs"]
