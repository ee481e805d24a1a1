"""Cross-variant check: materialise every variant to /tmp, run the package checker on each, and
score each variant's reference on every other variant (must be invalid or >= 0.05 below 1.0).

``python hidden/check_variants.py [--nocheck]``
"""
import sys, csv, shutil, subprocess, os, importlib.util, json
from pathlib import Path
import tempfile
REPO = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(REPO))
from evaluators.variants import list_variants, materialise
from evaluators.api import Submission
ROOT = Path(__file__).resolve().parents[1]
OUT = Path(tempfile.gettempdir()) / "grocery-forecast-variants"
shutil.rmtree(OUT, ignore_errors=True)
pk = {}
for v in list_variants(ROOT):
    dest = OUT / v.id / "grocery-forecast"
    dest.parent.mkdir(parents=True)
    materialise(ROOT, v, dest)
    pk[v.id] = dest
env = dict(os.environ, SECRET_KEY="test-secret-key-that-is-long-enough-for-production-checks")
if "--nocheck" not in sys.argv:
    for vid, dest in pk.items():
        r = subprocess.run([sys.executable, "-m", "evaluators.check", str(dest)], cwd=REPO, env=env, capture_output=True, text=True)
        print(f"== {vid}\n{r.stdout}{r.stderr[-2000:]}")
def score(pkg, file):
    spec = importlib.util.spec_from_file_location("ev", pkg / "hidden/evaluator.py")
    ev = importlib.util.module_from_spec(spec); spec.loader.exec_module(ev)
    rows = [dict(r, order_qty=int(r["order_qty"])) for r in csv.DictReader(open(file))]
    a = ev.evaluate(Submission(format="csv", rows=rows), pkg / "data", pkg / "hidden")
    import tomllib
    R = tomllib.load(open(pkg / "case.toml", "rb"))["scoring"]["reference_value"]
    if a.fatal: return "fatal"
    if a.violations: return "invalid:" + ",".join(v.rule for v in a.violations)
    return f"{R / a.value:.3f} (ratio)"
print("cross: reference of row variant scored on column variant")
for a, pa in pk.items():
    for b, pb in pk.items():
        if a != b:
            print(f"  {a:16s} on {b:16s}: {score(pb, pa / 'hidden/reference.csv')}")
