"""The printed comparison table and the JSON record of a run."""
from __future__ import annotations

import json
from dataclasses import asdict

from .results import Result, format_ms

HEADER = ("benchmark", "cuarray", "CuPy", "NumPy", "cuarray/CuPy", "GB/s", "% copy BW", "TFLOP/s", "% peak",
          "target", "result", "note")
ERROR_NOTE_CHARS = 90


def _time_cell(result: Result | None) -> str:
    if result is None:
        return "-"
    return "error" if result.error else format_ms(result.ms)


def _gbps_cell(gbps: float | None) -> str:
    if not gbps:
        return "-"
    return f"{gbps:.0f}" if gbps >= 100 else f"{gbps:.1f}"


def _verdict_cell(result: Result | None, binding: bool) -> str:
    if result is None or result.target is None:
        return "-"
    if result.error:
        return "ERROR"
    if result.passed is None:
        return "n/a"
    word = "PASS" if result.passed else "FAIL"
    return word if binding else f"({word.lower()})"


def _row(name: str, target: str, results: list[Result], binding: bool) -> tuple[str, ...]:
    by_library = {r.library: r for r in results}
    cuarray = by_library.get("cuarray")
    errors = "; ".join(f"{r.library}: {r.error}"[:ERROR_NOTE_CHARS] for r in results if r.error)
    speedup = cuarray.speedup_vs_cupy if cuarray else None
    gbps = cuarray.gbps if cuarray else None
    share = cuarray.copy_share if cuarray else None
    return (name, _time_cell(cuarray), _time_cell(by_library.get("cupy")),
            _time_cell(by_library.get("numpy")),
            f"{speedup:.2f}x" if speedup else "-",
            _gbps_cell(gbps),
            f"{share:.0%}" if share else "-",
            f"{cuarray.tflops:.1f}" if cuarray and cuarray.tflops else "-",
            f"{cuarray.peak_share:.0%}" if cuarray and cuarray.peak_share else "-",
            target or "-", _verdict_cell(cuarray, binding), errors)


def format_table(rows: list[tuple[str, str, list[Result]]], binding: bool) -> str:
    """rows: (benchmark, target description, results). Times are medians; GB/s and the copy
    share are cuarray's."""
    cells = [HEADER] + [_row(name, target, results, binding) for name, target, results in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(HEADER))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()
             for row in cells]
    lines.insert(1, "-" * len(lines[0]))
    return "\n".join(lines)


def write_json(path: str, run_info: dict, results: list[Result]) -> None:
    with open(path, "w") as out:
        json.dump({**run_info, "results": [asdict(r) for r in results]}, out, indent=2)
        out.write("\n")
