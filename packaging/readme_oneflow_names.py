#!/usr/bin/env python3
"""Prints the README block listing the OneFlow names generated code may use (from core/codegen/oneflow_api.cpp).

usage: readme_oneflow_names.py > block.md   (test_codegen_names checks the README's block against the code)
"""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
names = re.findall(r'"(oneflow[^"]+)"', open(os.path.join(HERE, "..", "core", "codegen", "oneflow_api.cpp")).read())
groups = {}
for n in sorted(names):
    for prefix in ("oneflow.nn.functional", "oneflow.Tensor", "oneflow.nn", "oneflow"):
        if n.startswith(prefix + ".") and "." not in n[len(prefix) + 1:]:
            groups.setdefault(prefix, []).append(n[len(prefix) + 1:])
            break
print("<!-- oneflow-api-names -->")
for prefix in ("oneflow", "oneflow.nn", "oneflow.nn.functional", "oneflow.Tensor"):
    if prefix in groups:
        print(f"- `{prefix}` ({len(groups[prefix])}): " + ", ".join(groups[prefix]))
print("<!-- /oneflow-api-names -->")
