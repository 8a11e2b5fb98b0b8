"""The model test_oneflow_dump hands to packaging/oneflow_dump.py: the small_net fixture's network, same seed."""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_fixtures import SmallNet, randomize_batchnorm  # noqa: E402


def build():
    torch.manual_seed(0)
    return randomize_batchnorm(SmallNet())
