"""Generate the player-visible data of delivery-routing from a fixed seed.

``python cases/drafts/delivery-routing/hidden/generate.py`` rewrites ``data/`` of the base
variant byte for byte; ``--params P --root ROOT`` (``--out`` is an alias) writes ``ROOT/data/``
for a variant's parameters (docs/variants.md).

The data is what the wholesaler's systems export: the customer list from the CRM (its
``opens``/``closes`` are the shop's opening hours, and one customer's address is the one
they left in spring), the fleet list, the route planner's distance matrix (computed from the
CRM addresses) and the rates finance uses. The hidden rules live in ``params.json`` and the
evaluator; nothing here names them.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import random
from pathlib import Path

HIDDEN_DIR = Path(__file__).resolve().parent

#: District centres (km east, km north of the Korenmarkt), spread radius and stop count.
DISTRICTS = [
    ("Binnenstad", 0.0, 0.0, 1.1, 12),
    ("Sint-Pieters", -1.6, -2.1, 0.6, 4),
    ("Ledeberg", 2.1, -1.6, 0.7, 5),
    ("Muide", 1.2, 3.0, 0.6, 5),
    ("Sint-Amandsberg", 3.2, 1.1, 0.6, 4),
    ("Mariakerke", -3.4, 2.2, 0.7, 4),
    ("Zwijnaarde", -0.6, -4.6, 0.5, 2),
]
DEPOT_XY = (-3.2, -4.4)
STREETS = {
    "Binnenstad": ["Korenlei", "Veldstraat", "Kraanlei", "Sint-Jacobsnieuwstraat",
                   "Vrijdagmarkt", "Limburgstraat", "Hoogpoort", "Onderstraat"],
    "Sint-Pieters": ["Sint-Pietersnieuwstraat", "Overpoortstraat", "Citadellaan"],
    "Ledeberg": ["Hundelgemsesteenweg", "Brusselsesteenweg", "Kerkstraat"],
    "Muide": ["Dok Noord", "Voorhavenlaan", "Meulestedekaai"],
    "Sint-Amandsberg": ["Antwerpsesteenweg", "Dendermondsesteenweg", "Visitatiestraat"],
    "Mariakerke": ["Brugsesteenweg", "Driesstraat", "Oude Brugsepoort"],
    "Zwijnaarde": ["Grote Steenweg-Noord", "Technologiepark"],
}
NAMES = {
    "cafe": ["Koffiebar Mokka", "Café Het Gouden Uur", "Bakkerscafé De Walvis", "Lunchbar Pluk",
             "Café Labath", "Koffie & Co", "Tearoom Margriet", "Café De Zwarte Kat",
             "Brunchbar Ochtend", "Café Oranjerie", "Espressobar Toeval", "Café De Verloren Hoek",
             "Lunchroom Zoet", "Café Kade", "Koffiehuis Lieve", "Café Sterre", "Bar Bidon",
             "Broodbar Korrel", "Café Vooruit", "Koffiebranderij Zes"],
    "hotel": ["Hotel Carlton (ontbijt)", "Hotel De Waterzooi", "B&B Het Patershol",
              "Hotel Sint-Pieters", "Hotel Onderbergen"],
    "restaurant": ["Brasserie Pakje", "Restaurant Vier", "Bistro Lieven", "Trattoria Porto",
                   "Restaurant Horseele", "Eethuis De Graslei", "Brasserie Pakhuis",
                   "Bistro Ons Huis", "Restaurant Balls", "Kantine Arteveld",
                   "Bedrijfsrestaurant Volta", "Restaurant Oak"],
}
#: Fleet: the old diesel slot is moved to whichever van the LEZ rule is about.
FLEET = [
    ("V1", "1-VXA-201", "Renault Kangoo E-Tech", "box", 40, "electric", 2023, "own"),
    ("V2", "1-TRK-772", "Mercedes Sprinter frigo", "refrigerated", 45, "diesel", 2019, "own"),
    ("V3", "1-DBK-118", "Iveco Daily 35S", "box", 70, "diesel", 2012, "own"),
    ("V4", "2-FRG-540", "Ford Transit frigo", "refrigerated", 45, "diesel", 2021, "own"),
    ("V5", "2-HUR-093", "Fiat Ducato frigo", "refrigerated", 50, "diesel", 2024, "hired"),
]


def hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def make_stops(rng: random.Random, params: dict) -> list[dict]:
    """36 customers over the districts, with the moved customer and its new neighbour placed
    where params say (a city-centre café and a stop in the docks)."""
    raw = []
    pools = {key: list(names) for key, names in NAMES.items()}
    for pool in pools.values():
        rng.shuffle(pool)
    for district, cx, cy, radius, count in DISTRICTS:
        for _ in range(count):
            angle, r = rng.uniform(0, 2 * math.pi), radius * math.sqrt(rng.random())
            x, y = cx + r * math.cos(angle), cy + r * math.sin(angle)
            roll = rng.random()
            if district == "Zwijnaarde":
                segment = "restaurant"
            elif roll < 0.6:
                segment = "cafe"
            elif roll < 0.72:
                segment = "hotel"
            else:
                segment = "restaurant"
            if not pools[segment]:
                segment = "cafe"
            raw.append({"district": district, "x": x, "y": y, "segment": segment,
                        "customer": pools[segment].pop()})
    rng.shuffle(raw)
    moved = int(params["moved_stop"][1:]) - 1
    anchor = int(params["moved_next_to"][1:]) - 1
    centre_cafe = next(i for i, s in enumerate(raw) if s["district"] == "Binnenstad"
                       and s["segment"] == "cafe" and i != anchor)
    raw[moved], raw[centre_cafe] = raw[centre_cafe], raw[moved]
    docks = next(i for i, s in enumerate(raw) if s["district"] == "Muide" and i != moved)
    raw[anchor], raw[docks] = raw[docks], raw[anchor]
    stops = []
    for index, stop in enumerate(raw):
        segment = stop["segment"]
        if segment == "hotel":
            opens, closes = rng.choice([390, 420]), 630
            ambient, chilled = rng.randint(8, 13), rng.choice([0, 0, 0, 2])
        elif segment == "cafe":
            opens, closes = rng.choice([420, 435, 450, 465, 480, 495, 510]), rng.choice(
                [1020, 1050, 1080, 1110])
            ambient, chilled = rng.randint(3, 9), rng.choice([0, 0, 0, 0, 0, 0, 2])
        else:
            opens, closes = rng.choice([660, 690, 690, 720]), rng.choice([1320, 1350])
            ambient, chilled = rng.randint(2, 6), rng.choice([0, 0, 2, 3, 4])
        street = rng.choice(STREETS[stop["district"]])
        stops.append({
            "stop_id": f"S{index + 1:02d}",
            "customer": stop["customer"],
            "segment": segment,
            "address": f"{street} {rng.randint(1, 140)}, Gent",
            "district": stop["district"],
            "opens": hhmm(opens),
            "closes": hhmm(closes),
            "crates_ambient": ambient,
            "crates_chilled": chilled,
            "x": stop["x"],
            "y": stop["y"],
        })
    return stops


def leg(a: tuple[float, float], b: tuple[float, float], slow: bool) -> tuple[float, int]:
    """Road km and minutes between two points: a detour factor on the straight line, city
    speeds, and two minutes to park at the far end."""
    if a == b:
        return 0.0, 0
    km = round(1.3 * math.dist(a, b) + 0.3, 1)
    speed = 19.0 if slow else 31.0
    return km, math.ceil(km / speed * 60) + 2


def write_csv(path: Path, header: list[str], rows: list[list]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def generate(params: dict, root: Path) -> None:
    rng = random.Random(params["seed"])
    data = root / "data"
    data.mkdir(parents=True, exist_ok=True)
    stops = make_stops(rng, params)
    columns = ["stop_id", "customer", "segment", "address", "district", "opens", "closes",
               "crates_ambient", "crates_chilled"]
    write_csv(data / "stops.csv", columns, [[s[c] for c in columns] for s in stops])
    points = [("DEPOT", DEPOT_XY, False)] + [
        (s["stop_id"], (s["x"], s["y"]), s["district"] == "Binnenstad") for s in stops]
    matrix = []
    for a_id, a_xy, a_slow in points:
        for b_id, b_xy, b_slow in points:
            km, minutes = leg(a_xy, b_xy, a_slow or b_slow)
            matrix.append([a_id, b_id, f"{km:.1f}", minutes])
    write_csv(data / "travel_matrix.csv", ["from_id", "to_id", "km", "minutes"], matrix)
    fleet = [list(v) for v in FLEET]
    old = next(i for i, v in enumerate(fleet) if v[2] == "Iveco Daily 35S")
    target = next(i for i, v in enumerate(fleet) if v[0] == params["lez_van"])
    fleet[old][1:], fleet[target][1:] = fleet[target][1:], fleet[old][1:]
    write_csv(data / "vans.csv", ["van_id", "plate", "model", "body", "capacity_crates", "fuel",
                                  "first_registered", "ownership"], fleet)
    depot = {
        "name": "Verhaeghe Vers - depot",
        "address": "Eddastraat 38, 9042 Gent (Zwijnaarde industrial estate)",
        "delivery_date": params["delivery_date"],
        "vans_ready_from": params["vans_ready"],
        "vans_back_by": params["vans_back_by"],
        "note": "Vans are loaded at the depot before they leave; one round per van per day.",
    }
    (data / "depot.json").write_text(json.dumps(depot, indent=2) + "\n", encoding="utf-8")
    rates = {
        "currency": "EUR",
        "driver_eur_per_hour": params["driver_eur_per_hour"],
        "van_eur_per_km": params["van_eur_per_km"],
        "courier_eur_per_drop": params["courier_eur_per_drop"],
        "source": "finance, rates for 2025",
    }
    (data / "cost_rates.json").write_text(json.dumps(rates, indent=2) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=HIDDEN_DIR / "params.json")
    parser.add_argument("--root", "--out", dest="root", type=Path, default=HIDDEN_DIR.parent)
    args = parser.parse_args()
    generate(json.loads(args.params.read_text(encoding="utf-8")), args.root)


if __name__ == "__main__":
    main()
