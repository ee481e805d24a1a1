"""Ask the lead-scoring customer questions and show what each discloses (author's debug)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[5]))
from customer_sim.scripted import ScriptedCustomer

c = ScriptedCustomer.from_hidden_dir(Path(__file__).resolve().parents[1])
for q in sys.argv[1:]:
    w = c.walk(q, [])
    r = w.wording
    print(f"Q: {q}\n  -> {r.text[:200]}\n  disclosed={r.disclosed}")
    if '-v' in sys.argv[0:1] or True:
        d = w.decision
        for cand in d.candidates.asks:
            print('   seg', repr(cand.segment.text), 'facts', [f.key for f in cand.facts], 'touched', [(t.key, t.strength) for t in cand.touched][:4], 'withheld', [f.key for f in cand.withheld])
