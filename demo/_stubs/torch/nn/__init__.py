# Documentation stub, not PyTorch: see torch/__init__.py.
