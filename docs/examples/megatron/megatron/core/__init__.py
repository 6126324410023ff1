"""Megatron Core."""
