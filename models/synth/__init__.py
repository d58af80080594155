"""Synthetic training and test data: printed map pages drawn on by hand, photographed by a camera model."""
