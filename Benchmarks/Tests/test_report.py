"""Tests of report.py's table over one or several processes' JMH exports.

Run: python3 -m unittest discover -s Benchmarks/Tests   (no dependencies; CI runs it)
"""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import report  # noqa: E402

OURS = "14 feed reader, caches disturbed: mark an article read + read the timeline and counts"
BASE = "14 full feed reader, caches disturbed: mark an article read + sort and count an array"


def export(times_us):
    """A JMH export as package-benchmark writes it: benchmark name -> median µs per iteration."""
    return [{
        "benchmark": f"ComputedGenBenchmarks.benchmark.ComputedGenBenchmarks.{name.replace(' ', '_')}",
        "measurementIterations": 10,
        "secondaryMetrics": {"Time (wall clock)": {"scorePercentiles": {"50.0": value}}},
    } for name, value in times_us.items()]


class ReportTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.directory.cleanup()

    def load(self, *processes):
        runs = []
        for index, times in enumerate(processes):
            path = os.path.join(self.directory.name, f"run-{index}.jmh.json")
            with open(path, "w") as file:
                json.dump(export(times), file)
            runs.append(report.load(path))
        return runs

    def row(self, runs):
        _, rows, _, _ = report.build_table(runs)
        lines = [line for key, line in rows if line and "feed reader, 50,000 articles, 300 feeds, 30 folders, caches" in line]
        self.assertEqual(len(lines), 1)
        return [cell.strip() for cell in lines[0].strip().strip("|").split("|")]

    def test_one_process_has_no_range(self):
        cells = self.row(self.load({OURS: 20.0, BASE: 2_400.0}))
        self.assertEqual(cells[2], "20.0 µs")
        self.assertEqual(cells[5], "8.3e-03× (1/120)")
        self.assertEqual(cells[7], "yes")

    def test_several_processes_report_medians_the_range_and_how_many_met(self):
        cells = self.row(self.load({OURS: 20.0, BASE: 2_400.0},    # 1/120
                                   {OURS: 30.0, BASE: 2_400.0},    # 1/80: missed here
                                   {OURS: 22.0, BASE: 2_420.0}))   # 1/110
        self.assertEqual(cells[2], "22.0 µs")
        self.assertEqual(cells[4], "2.40 ms")
        self.assertEqual(cells[5], "9.1e-03× (1/110) [1/80–1/120, 3 processes]")
        self.assertEqual(cells[7], "yes (2 of 3 processes)")

    def test_ratios_pair_benchmarks_of_the_same_process(self):
        # Each process is 1/100; pairing medians across processes would give 1/60 or 1/150.
        cells = self.row(self.load({OURS: 10.0, BASE: 1_000.0}, {OURS: 25.0, BASE: 2_500.0}, {OURS: 40.0, BASE: 4_000.0}))
        self.assertEqual(cells[5], "1.0e-02× (1/100) [1/100–1/100, 3 processes]")
        self.assertEqual(cells[7], "yes")

    def test_a_process_without_the_row_is_left_out(self):
        cells = self.row(self.load({OURS: 20.0, BASE: 2_400.0}, {"something else": 1.0}))
        self.assertEqual(cells[5], "8.3e-03× (1/120)")


if __name__ == "__main__":
    unittest.main()
