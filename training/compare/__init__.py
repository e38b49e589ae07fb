"""Algorithms compared at one equal training budget over seeds (``python -m training.compare``)."""
