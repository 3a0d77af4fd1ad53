# SPDX-License-Identifier: MIT
# pyopencl.algorithm.RadixSort (Debian python3-pyopencl) on the platform the
# loader shows: sorts random unsigned keys (RadixSort orders raw bits), alone
# and with a payload, and checks them against numpy's stable sort.
# Run by tools/clients/pyopencl.sh PLATFORM radixsort.
import sys

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
from pyopencl.algorithm import RadixSort

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
print("device:", ctx.devices[0].name)
rng = np.random.default_rng(12345)
passed = failed = 0


def report(name, ok):
    global passed, failed
    print(f"RadixSort {name}: {'ok' if ok else 'WRONG'}")
    passed += ok
    failed += not ok


for dtype, ctype, key_bits in ((np.uint32, "unsigned int", 32), (np.uint64, "unsigned long", 64),
                               (np.uint32, "unsigned int", 20)):
    sort = RadixSort(ctx, f"__global {ctype} *ary", key_expr="ary[i]", sort_arg_names=["ary"],
                     key_dtype=dtype)
    for n in (1, 1000, 65537):
        keys = rng.integers(0, 2**key_bits, size=n, dtype=dtype)
        (out,), _ = sort(cla.to_device(queue, keys), key_bits=key_bits)
        report(f"{np.dtype(dtype).name}/{key_bits} bits n={n}", np.array_equal(out.get(), np.sort(keys)))

# Keys with a payload: the payload follows its key, equal keys keep their order.
sort = RadixSort(ctx, "__global unsigned int *keys, __global int *vals", key_expr="keys[i]",
                 sort_arg_names=["keys", "vals"], key_dtype=np.uint32)
n = 100000
keys = rng.integers(0, 1000, size=n, dtype=np.uint32)
vals = np.arange(n, dtype=np.int32)
(okeys, ovals), _ = sort(cla.to_device(queue, keys), cla.to_device(queue, vals), key_bits=10)
order = np.argsort(keys, kind="stable")
report(f"key-value n={n}", np.array_equal(okeys.get(), keys[order]) and
       np.array_equal(ovals.get(), vals[order]))

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
