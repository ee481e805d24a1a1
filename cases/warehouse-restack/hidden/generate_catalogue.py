"""The product catalogue the warehouse-restack generator draws from.

Categories carry what makes the floor realistic: typical net pallet weights (water, oil, flour
and milk sit just around the 800 kg gross heavy limit; crisps and cereals are light), case
counts, shelf lives, delivery sizes and delivery rhythms (chilled lines arrive every few days in
small lots, ambient lines every few weeks in bigger ones).
"""

from __future__ import annotations

Category = tuple[
    str, str, list[str], list[str], float, float, int, int, tuple[int, int], tuple[int, int]
]
# (category, storage class, brands, items, mean net kg per full pallet, sd, cases per pallet,
#  shelf life days, typical lot size range, days between deliveries range)
# fmt: off
CATEGORIES: list[Category] = [
    ("Water", "AMB", ["Highfield Springs", "Glen Orrin", "Clearbrook"],
     ["Still Water 6x1.5L", "Sparkling Water 6x1.5L", "Still Water 24x500ml",
      "Lightly Sparkling 12x1L"], 788, 22, 84, 540, (4, 12), (14, 30)),
    ("Soft drinks", "AMB", ["Fizzco", "Barrow's"],
     ["Cola 24x330ml", "Lemonade 6x2L", "Orange Crush 24x330ml", "Ginger Beer 12x500ml",
      "Diet Cola 24x330ml"], 700, 45, 90, 270, (3, 10), (14, 35)),
    ("Canned food", "AMB", ["Greenvale", "Harvest Table"],
     ["Chopped Tomatoes 12x400g", "Garden Peas 24x300g", "Sweetcorn 12x326g",
      "Baked Beans 24x415g", "Kidney Beans 12x400g"], 778, 26, 120, 720, (3, 10), (20, 45)),
    ("Pasta & rice", "AMB", ["Casa Lucia", "Golden Paddy"],
     ["Penne 12x500g", "Spaghetti 20x500g", "Fusilli 12x1kg", "Basmati Rice 8x2kg",
      "Long Grain Rice 10x1kg"], 560, 70, 96, 540, (3, 9), (20, 45)),
    ("Cereals", "AMB", ["Morning Mill", "Oatridge"],
     ["Corn Flakes 10x500g", "Porridge Oats 10x1kg", "Muesli 8x750g", "Bran Flakes 10x750g"],
     260, 40, 60, 300, (3, 9), (15, 35)),
    ("Snacks", "AMB", ["Crunchley", "Tuck Shop"],
     ["Ready Salted Crisps 24x150g", "Salt & Vinegar Crisps 24x150g",
      "Tortilla Chips 12x200g", "Pretzels 12x175g"], 150, 25, 48, 120, (3, 10), (10, 25)),
    ("Oils & sauces", "AMB", ["Sunfield", "Olivera"],
     ["Sunflower Oil 6x1L", "Rapeseed Oil 6x1L", "Olive Oil 6x750ml", "Tomato Ketchup 8x910g"],
     812, 24, 100, 540, (2, 8), (25, 50)),
    ("Hot drinks", "AMB", ["Brewster", "Kilnworth"],
     ["Tea Bags 6x240", "Instant Coffee 6x200g", "Ground Coffee 8x227g",
      "Hot Chocolate 6x400g"], 380, 50, 80, 540, (2, 7), (25, 50)),
    ("Biscuits & confectionery", "AMB", ["Hollins Bakery", "Treacle & Co"],
     ["Digestives 12x400g", "Chocolate Chip Cookies 12x200g", "Milk Chocolate Bar 24x100g",
      "Shortbread 12x300g"], 330, 45, 72, 240, (2, 8), (15, 35)),
    ("Household paper", "AMB", ["Softleaf"],
     ["Toilet Tissue 6x9", "Kitchen Roll 8x2", "Facial Tissues 24x70"], 200, 30, 40, 1000,
     (4, 12), (15, 30)),
    ("Pet food", "AMB", ["Waggs", "Purrfect"],
     ["Dog Food Chunks 12x400g", "Cat Food Pouches 48x100g", "Dry Dog Food 4x2.5kg"], 770, 35,
     90, 540, (2, 8), (20, 45)),
    ("Baking", "AMB", ["Millbrook"],
     ["Plain Flour 10x1.5kg", "Granulated Sugar 15x1kg", "Self Raising Flour 10x1.5kg"], 805,
     20, 60, 360, (3, 8), (20, 40)),
    ("Milk", "CHL", ["Dale Farm Fresh", "Ridgeway Dairy"],
     ["Semi-Skimmed Milk 6x4pt", "Whole Milk 6x4pt", "Skimmed Milk 12x2pt",
      "Semi-Skimmed Milk 24x1pt"], 788, 24, 60, 12, (2, 5), (2, 4)),
    ("Yoghurt", "CHL", ["Ridgeway Dairy", "Alpenhof"],
     ["Greek Style Yoghurt 6x500g", "Strawberry Yoghurt 6x4x125g", "Natural Yoghurt 6x500g",
      "Fruit Corner 6x4"], 540, 50, 120, 28, (1, 4), (3, 6)),
    ("Cheese", "CHL", ["Cairnmore", "Wensley Vale"],
     ["Mature Cheddar 12x400g", "Mild Cheddar 12x400g", "Mozzarella 20x125g",
      "Red Leicester 12x400g"], 600, 55, 110, 90, (1, 4), (4, 8)),
    ("Butter & spreads", "CHL", ["Golden Churn", "Ridgeway Dairy"],
     ["Salted Butter 40x250g", "Unsalted Butter 40x250g", "Spreadable 12x500g"], 782, 22, 80,
     60, (1, 4), (3, 7)),
    ("Fresh juice", "CHL", ["Sunpress"],
     ["Orange Juice 6x1L", "Apple Juice 6x1L", "Smooth Orange 6x1.75L"], 792, 24, 120, 21,
     (2, 5), (2, 5)),
    ("Desserts", "CHL", ["Petit Chef"],
     ["Chocolate Mousse 12x4", "Rice Pudding 12x4", "Trifle 6x2"], 360, 45, 96, 21, (1, 3),
     (3, 6)),
    ("Ready meals", "CHL", ["Kitchen Table"],
     ["Lasagne 6x400g", "Cottage Pie 6x400g", "Chicken Tikka Masala 6x375g"], 290, 40, 108,
     14, (1, 4), (2, 4)),
    ("Cooked meats", "CHL", ["Bramley Farm"],
     ["Sliced Ham 12x200g", "Roast Chicken Slices 12x180g", "Salami 12x100g"], 400, 45, 150,
     21, (1, 3), (3, 6)),
    ("Cream", "CHL", ["Ridgeway Dairy"],
     ["Double Cream 12x300ml", "Single Cream 12x300ml", "Creme Fraiche 12x200ml"], 650, 40,
     100, 14, (1, 3), (3, 6)),
]
# fmt: on
