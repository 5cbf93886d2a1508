# Common Carrier's optional C speed-up (_cc_fast.c): the two functions common_carrier.py calls.
from collections.abc import Callable

def count(lines: list[int], occ: int, halo: int, box: tuple[int, int, int, int] | None,
          a: tuple[int, ...], b: tuple[int, ...],
          pairs: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], bytes]: ...
def draw(board: bytes, ma: int, mb: int, pick: int, getrandbits: Callable[[int], int]) -> tuple[int, int]: ...
