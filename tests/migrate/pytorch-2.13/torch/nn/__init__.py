from torch.nn.modules import *  # noqa: F403  (as torch/nn/__init__.py does)
