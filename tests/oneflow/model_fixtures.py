"""Whole-model fixtures: torchvision CNNs, a transformer encoder, old-layout and SavedModel variants."""
import math
import os

import numpy as np
import torch
import torch.nn as nn
import torchvision

from oneflow_job_builder import pb
from torch_to_oneflow import record


def randomize_batchnorm(model):
    """Default BatchNorm statistics (mean 0, var 1, weight 1, bias 0) would hide a wrong input order."""
    g = torch.Generator().manual_seed(1)
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            c = m.num_features
            m.running_mean.copy_(torch.randn(c, generator=g) * 0.1)
            m.running_var.copy_(torch.rand(c, generator=g) + 0.5)
            m.weight.data.copy_(torch.rand(c, generator=g) + 0.5)
            m.bias.data.copy_(torch.randn(c, generator=g) * 0.1)
    return model


def image(size=224):
    return torch.randn(1, 3, size, size, generator=torch.Generator().manual_seed(2))


def torchvision_fixture(ctor, size=224, **kw):
    def build(write):
        model = randomize_batchnorm(ctor(weights=None, **kw))
        jb, _ = record(model, (image(size),), "FixtureGraph")
        write(jb)
    return build


class EncoderLayer(nn.Module):
    """A pre-norm transformer encoder layer written with explicit ops, as OneFlow users write them."""

    def __init__(self, d=64, heads=4, ff=128):
        super().__init__()
        self.heads, self.d = heads, d
        self.norm1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.norm2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, ff)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(ff, d)
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, x):
        b, n, d = 1, 16, self.d
        h = self.norm1(x)
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        q = q.reshape(b, n, self.heads, d // self.heads).transpose(1, 2)
        k = k.reshape(b, n, self.heads, d // self.heads).permute(0, 2, 3, 1)
        v = v.reshape(b, n, self.heads, d // self.heads).transpose(1, 2)
        att = self.softmax(torch.matmul(q, k) * (1.0 / math.sqrt(d // self.heads)))
        y = torch.matmul(att, v).transpose(1, 2).reshape(b, n, d)
        x = x + self.proj(y)
        return x + self.fc2(self.act(self.fc1(self.norm2(x))))


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer0 = EncoderLayer()
        self.layer1 = EncoderLayer()
        self.norm = nn.LayerNorm(64)

    def forward(self, x):
        return self.norm(self.layer1(self.layer0(x)))


def transformer(write):
    model = Encoder()
    x = torch.randn(1, 16, 64, generator=torch.Generator().manual_seed(3))
    jb, _ = record(model, (x,), "FixtureGraph")
    write(jb)


class SmallNet(nn.Module):
    """Conv, BatchNorm, pooling with ceil_mode, Linear: small enough to keep in text form and old layouts."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(3, 2, ceil_mode=True)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        return self.fc(torch.flatten(self.gap(self.pool(self.relu(self.bn(self.conv(x))))), 1))


def small_net_fixture(layout="v0.8", fmt="binary", weights_key="state"):
    def build(write):
        model = randomize_batchnorm(SmallNet())
        jb, _ = record(model, (image(20),), "SmallGraph", blob_layout=layout)
        write(jb, fmt=fmt, weights_key=weights_key)
    return build


def saved_model(write):
    """Lazy-era ModelBuilder.Save layout: <dir>/saved_model/1/saved_model.pb + variables/ (keyed by op name)."""
    model = randomize_batchnorm(SmallNet())
    jb, _ = record(model, (image(20),), "SmallGraph")
    d = write(jb, fmt="none", weights_key="op")
    version_dir = os.path.join(d, "saved_model", "1")
    os.makedirs(version_dir)
    os.rename(os.path.join(d, "weights"), os.path.join(version_dir, "variables"))
    sm = pb.SavedModel(name="small_net", version=1, checkpoint_dir="variables", default_graph_name="SmallGraph")
    g = sm.graphs["SmallGraph"]
    g.op_list.extend(jb.ops)  # only the ops: a SavedModel has no blob descriptions
    g.default_signature_name = "serving"
    sig = g.signatures["serving"]
    lbn, arr = jb.inputs[0]
    inp = sig.inputs["image"]
    inp.lbi.op_name, inp.lbi.blob_name = lbn.split("/")
    inp.blob_conf.shape.dim.extend(arr.shape)
    inp.blob_conf.data_type = pb.kFloat
    out_lbn, _ = jb.outputs[0]
    o = sig.outputs["logits"]
    o.lbi.op_name, o.lbi.blob_name = out_lbn.split("/")
    # Strip the shapes OneFlow does not save in a SavedModel's input ops either way.
    with open(os.path.join(version_dir, "saved_model.pb"), "wb") as f:
        f.write(sm.SerializeToString())
    with open(os.path.join(version_dir, "saved_model.prototxt"), "w") as f:
        f.write(str(sm))


FIXTURES = [
    ("resnet18", torchvision_fixture(torchvision.models.resnet18)),
    ("alexnet", torchvision_fixture(torchvision.models.alexnet)),
    ("mobilenet_v2", torchvision_fixture(torchvision.models.mobilenet_v2)),
    ("mobilenet_v3_small", torchvision_fixture(torchvision.models.mobilenet_v3_small)),
    ("squeezenet1_0", torchvision_fixture(torchvision.models.squeezenet1_0)),
    ("shufflenet_v2_x1_0", torchvision_fixture(torchvision.models.shufflenet_v2_x1_0)),
    ("inception_v3", torchvision_fixture(torchvision.models.inception_v3, size=299, aux_logits=False,
                                         init_weights=True)),
    ("densenet121", torchvision_fixture(torchvision.models.densenet121)),
    ("efficientnet_b0", torchvision_fixture(torchvision.models.efficientnet_b0)),
    ("transformer_encoder", transformer),
    ("small_net", small_net_fixture()),
    ("small_net_text", small_net_fixture(fmt="text")),
    ("small_net_jobset", small_net_fixture(fmt="jobset")),
    ("small_net_blob_v05", small_net_fixture(layout="v0.5")),
    ("small_net_blob_v03", small_net_fixture(layout="v0.3", weights_key="op")),
    ("small_net_saved_model", saved_model),
]
