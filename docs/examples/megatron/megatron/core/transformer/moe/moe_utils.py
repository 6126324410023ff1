"""MoE utilities."""


def unpermute(permuted_tokens, sorted_indices, restore_shape, probs=None):
    """Restore the original order of tokens after permutation.

    ```{nondeterministic-entry}
    :label: MoE token unpermute (combine)
    :where: ``megatron/core/transformer/moe/moe_utils.py``
    :deterministic-path: ``index_add_``, deterministic and CUDA-graph safe
    :default-path: ``scatter_add_`` (atomic accumulation)
    ```

    Args:
        permuted_tokens (torch.Tensor): The permuted token tensor.
        sorted_indices (torch.Tensor): The indices used to sort the tokens.
        restore_shape (torch.Size): The shape of the unpermuted tensor.
        probs (torch.Tensor, optional): The unpermuted probs tensor.

    Returns:
        torch.Tensor: The tokens restored to their original order.
    """
