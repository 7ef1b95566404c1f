#!/usr/bin/env python3
"""Tests of the corpus scripts' own logic: `python3 bench/precision/test_precision.py`."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import precision  # noqa: E402
import sample  # noqa: E402


def finding(rule, path, line, severity="M", fingerprint=None):
    return {"rule": rule, "path": path, "line": line, "severity": severity,
            "fingerprint": fingerprint or f"{rule}:{path}:{line}", "suppression": None}


class Tally(unittest.TestCase):
    def test_precision_counts_noise_against_the_rule_and_ignores_unlabelled(self):
        results = [{"findings": [(finding("a", "x", 1), "TP"), (finding("a", "x", 2), "TP"),
                                 (finding("a", "x", 3), "TP"), (finding("a", "x", 4), "NOISE"),
                                 (finding("a", "x", 5), None), (finding("b", "y", 1, "H"), "FP")]}]
        rows = {r["rule"]: r for r in precision.rule_rows(precision.tally(results))}
        self.assertEqual((rows["a"]["TP"], rows["a"]["NOISE"], rows["a"]["unlabelled"]), (3, 1, 1))
        self.assertEqual(rows["a"]["precision"], 0.75)
        self.assertEqual(rows["a"]["status"], "pedantic")
        self.assertEqual(rows["b"]["precision"], 0.0)
        self.assertEqual(rows["b"]["severities"], "H")

    def test_the_two_bars(self):
        self.assertEqual(precision.status(0.80), "default (M/L only)")
        self.assertEqual(precision.status(0.95), "default, may raise H/C")
        self.assertEqual(precision.status(0.79), "pedantic")
        self.assertEqual(precision.status(None), "unjudged")

    def test_totals_add_every_rule(self):
        per_rule = precision.tally([{"findings": [(finding("a", "x", 1), "TP"), (finding("b", "x", 1), "FP")]}])
        total = precision.total_row("all", per_rule)
        self.assertEqual((total["TP"], total["FP"], total["judged"], total["precision"]), (1, 1, 2, 0.5))


class Estimate(unittest.TestCase):
    def test_each_label_stands_for_its_stratum(self):
        # 2 High findings, both labelled (1 TP); 10 Medium, 2 labelled (both FP): the TP stands for
        # 1 finding, the two FPs for 10 → 1 / 12.
        high = [(finding("h", "x", i, "H"), "TP" if i == 0 else "FP") for i in range(2)]
        medium = [(finding("m", "y", i), "FP" if i < 2 else None) for i in range(10)]
        share, unrepresented = precision.estimate([{"findings": high + medium}])
        self.assertAlmostEqual(share, 1 / 12)
        self.assertEqual(unrepresented, 0)

    def test_a_stratum_without_labels_is_counted_apart(self):
        rows = [(finding("m", "y", 1), "TP"), (finding("h", "x", 1, "C"), None)]
        self.assertEqual(precision.estimate([{"findings": rows}]), (1.0, 1))


class Labels(unittest.TestCase):
    def write(self, text):
        d = tempfile.mkdtemp()
        os.makedirs(os.path.join(d, "labels"))
        with open(os.path.join(d, "labels", "r.tsv"), "w", encoding="utf-8") as f:
            f.write(text)
        return d

    def test_labels_are_keyed_by_rule_path_fingerprint(self):
        d = self.write("rule\tpath\tline\tfingerprint\tlabel\treason\nq/x\tsrc/a.rs\t3\tabc\tFP\twhy\n")
        self.assertEqual(precision.load_labels(d, "r")[("q/x", "src/a.rs", "abc")]["label"], "FP")

    def test_an_unknown_label_is_refused(self):
        d = self.write("rule\tpath\tline\tfingerprint\tlabel\treason\nq/x\tsrc/a.rs\t3\tabc\tMAYBE\twhy\n")
        with self.assertRaises(SystemExit) as e:
            precision.load_labels(d, "r")
        self.assertEqual(e.exception.code, 2)

    def test_a_short_row_is_refused(self):
        d = self.write("rule\tpath\tline\tfingerprint\tlabel\treason\nq/x\tsrc/a.rs\t3\tabc\tTP\n")
        with self.assertRaises(SystemExit):
            precision.load_labels(d, "r")


class Sampling(unittest.TestCase):
    def test_all_findings_when_there_are_at_most_n(self):
        fs = [finding("a", "x", i) for i in range(5)]
        self.assertEqual(len(sample.choose(fs, 5)), 5)

    def test_high_first_then_every_kth_of_the_rest(self):
        fs = [finding("h", "x", i, "H") for i in range(3)] + [finding("m", "y", i) for i in range(100)]
        chosen = sample.choose(fs, 10)
        self.assertEqual(len(chosen), 10)
        self.assertEqual(sum(f["severity"] == "H" for f in chosen), 3)
        self.assertEqual([f["line"] for f in chosen if f["rule"] == "m"], [0, 14, 28, 42, 57, 71, 85])

    def test_high_findings_are_capped_at_half(self):
        fs = [finding("h", "x", i, "C") for i in range(30)] + [finding("m", "y", i) for i in range(30)]
        chosen = sample.choose(fs, 10)
        self.assertEqual(sum(f["severity"] == "C" for f in chosen), 5)

    def test_suppressed_findings_are_left_out(self):
        fs = [finding("a", "x", 1), dict(finding("a", "x", 2), suppression="inline")]
        self.assertEqual([f["line"] for f in sample.choose(fs, 40)], [1])


if __name__ == "__main__":
    unittest.main()
