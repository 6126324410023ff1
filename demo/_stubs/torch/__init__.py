# Documentation stub, not PyTorch: just enough of a package for autodoc to
# import torch.nn.functional in the demo. It must stay free of imports.
