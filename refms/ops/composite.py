"""Composite operations of ``refms.ops`` built on the autodiff layer (``GradOperation``)."""
from ..autograd.grad import GradOperation

__all__ = ["GradOperation"]
