class CTCLoss:
    r"""The Connectionist Temporal Classification loss."""
