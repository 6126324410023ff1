"""Mixture of Experts."""
