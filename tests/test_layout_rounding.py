"""`build._upright_all` (word boxes rounded per page in numpy) gives the very floats
`build._upright` (Python's `round(x, 2)`) gives, to the bit: the saved layout and every
chunk report depend on them."""

from __future__ import annotations

import random
import struct

from visualiser.layout.build import _upright, _upright_all


def _bits(box: tuple[float, ...]) -> list[bytes]:
    return [struct.pack("d", v) for v in box]


def test_numpy_rounding_is_pythons_to_the_bit() -> None:
    rng = random.Random(7)
    awkward = [-0.0, 0.0, -0.001, -0.005, 0.005, 0.015, 0.125, 2.675, 1.005, 72.125, 1e-9]
    values = []
    for _ in range(40_000):
        kind = rng.randrange(4)
        if kind == 0:
            values.append(rng.uniform(-5, 900))
        elif kind == 1:
            values.append(rng.randint(0, 7200) / 8)  # eighths of a point: exact ties
        elif kind == 2:  # as MuPDF hands them over: single precision
            values.append(struct.unpack("f", struct.pack("f", rng.uniform(0, 900)))[0])
        else:
            values.append(rng.choice(awkward))
    boxes = [tuple(values[i:i + 4]) for i in range(0, len(values), 4)]
    boxes.append((10.0, 20.0, 5.0, 8.0))  # corners out of order
    got = _upright_all(boxes)
    assert [_bits(b) for b in got] == [_bits(_upright(b)) for b in boxes]
    assert all(type(b) is tuple for b in got)


def test_a_page_with_a_value_that_is_not_finite_is_rounded_by_round() -> None:
    boxes = [(1.234, float("inf"), 3.0, 4.0), (0.125, 1.0, 2.0, 3.0)]
    assert _upright_all(boxes) == [_upright(b) for b in boxes]
    assert _upright_all([]) == []
