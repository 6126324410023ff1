from .conv import Conv1d, ConvTranspose1d
from .loss import CTCLoss
from .pooling import AvgPool3d, MaxUnpool1d

__all__ = ["AvgPool3d", "CTCLoss", "Conv1d", "ConvTranspose1d", "MaxUnpool1d"]
