"""Generate the shop's stores and products: ``data/shop/stores.json`` and ``data/shop/products.json``.

Run ``python -m embodiedweb.data_gen.shop``. The output is deterministic (a fixed seed, sorted keys).

Stores are the project's own invented shops at real Manhattan street addresses with their real
coordinates. Products are written here from templates: name, brand, category, description, options
(size / colour / pack, each choice with a ``price_delta`` in dollars, pack choices with ``units``), the
``object_type`` of kitchen ingredients and tools that can be delivered into a kitchen, and one base
price per store that sells the product. Every price ends in 9 cents and the prices of one product at
different stores are at least 10 cents apart, so "the cheapest (or dearest) store" is never a tie.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from embodiedweb.paths import data_dir

SEED = "embodiedweb-shop-v1"
MIN_GAP = 0.10  # smallest difference between two stores' prices of one product

_WEEK = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def _hours(weekday: str, sat: str, sun: str) -> dict[str, str]:
    return {d: (weekday if i < 5 else sat if i == 5 else sun) for i, d in enumerate(_WEEK)}


STORES: list[dict[str, Any]] = [
    {"store_id": "union-square", "name": "Union Square Larder", "neighborhood": "Union Square",
     "address": "4 Union Square South, New York, NY 10003", "lat": 40.7349, "lng": -73.9911,
     "phone": "212-555-0141", "hours": _hours("07:00-22:00", "08:00-22:00", "08:00-21:00")},
    {"store_id": "chelsea", "name": "Chelsea Corner Grocer", "neighborhood": "Chelsea",
     "address": "210 8th Avenue, New York, NY 10011", "lat": 40.7444, "lng": -73.9991,
     "phone": "212-555-0162", "hours": _hours("08:00-21:00", "09:00-21:00", "10:00-19:00")},
    {"store_id": "midtown-east", "name": "Madison Provisions", "neighborhood": "Midtown East",
     "address": "342 Madison Avenue, New York, NY 10173", "lat": 40.7539, "lng": -73.9785,
     "phone": "212-555-0177", "hours": _hours("06:30-20:00", "09:00-18:00", "closed")},
    {"store_id": "hells-kitchen", "name": "Ninth Avenue Market", "neighborhood": "Hell's Kitchen",
     "address": "640 9th Avenue, New York, NY 10036", "lat": 40.7601, "lng": -73.9915,
     "phone": "212-555-0193", "hours": _hours("07:00-23:00", "07:00-23:00", "08:00-22:00")},
]

# general price level of each store (a product's own noise is larger, so every store is cheapest for some)
STORE_LEVEL = {"union-square": 1.02, "chelsea": 1.00, "midtown-east": 1.04, "hells-kitchen": 0.97}

CATEGORIES: list[tuple[str, str]] = [
    ("produce", "Produce"), ("bakery", "Bakery"), ("dairy-eggs", "Dairy & Eggs"), ("pantry", "Pantry"),
    ("beverages", "Beverages"), ("snacks", "Snacks"), ("kitchenware", "Kitchenware"),
    ("household", "Household"), ("personal-care", "Personal Care"),
]

INGREDIENT_TYPES = ("Apple", "Bread", "Egg", "Lettuce", "Potato", "Tomato")
TOOL_TYPES = ("Knife", "ButterKnife", "Pan", "Pot", "Plate", "Bowl", "Mug", "Cup", "Spatula")


# option helpers ---------------------------------------------------------------------------------
def size(*choices: tuple[str, float]) -> dict[str, Any]:
    return _group("size", "Size", choices)


def colour(*names: str, deltas: tuple[float, ...] = ()) -> dict[str, Any]:
    return _group("colour", "Colour", [(n, deltas[i] if i < len(deltas) else 0.0) for i, n in enumerate(names)])


def pack(*choices: tuple[str, float, int]) -> dict[str, Any]:
    """Pack choices ``(label, price_delta, units)``; ``units`` = objects in one item of that pack."""
    g = _group("pack", "Pack", [(lab, d) for lab, d, _ in choices])
    for ch, (_, _, units) in zip(g["choices"], choices, strict=True):
        ch["units"] = units
    return g


def _slug(label: str) -> str:
    out = "".join(c if c.isalnum() else "-" for c in label.lower())
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")


def _group(name: str, label: str, choices: Any) -> dict[str, Any]:
    return {"name": name, "label": label,
            "choices": [{"value": _slug(lab), "label": lab, "price_delta": round(float(d), 2)} for lab, d in choices]}


# the catalogue ----------------------------------------------------------------------------------
# (name, brand, base price, object_type, [option groups], units per item)
Row = tuple[str, str, float, str | None, list[dict[str, Any]], int]


def P(name: str, brand: str, price: float, otype: str | None = None, opts: list[dict[str, Any]] | None = None,
      units: int = 1) -> Row:
    return (name, brand, price, otype, opts or [], units)


EACH_SIZE = size(("Medium", 0.0), ("Large", 0.30))
EGG_PACK = pack(("6 eggs", 0.0, 6), ("12 eggs", 2.20, 12), ("18 eggs", 4.10, 18))

CATALOG: dict[str, list[Row]] = {
    "produce": [
        P("Honeycrisp Apple", "Hudson Valley Orchards", 1.49, "Apple", [EACH_SIZE]),
        P("Gala Apple", "Hudson Valley Orchards", 0.99, "Apple", [EACH_SIZE]),
        P("Granny Smith Apple", "Sunny Ridge Farms", 1.09, "Apple", [EACH_SIZE]),
        P("Fuji Apple", "Sunny Ridge Farms", 1.19, "Apple"),
        P("Pink Lady Apple", "Green Meadow Organics", 1.39, "Apple"),
        P("Organic Gala Apples, 3 lb bag", "Green Meadow Organics", 5.99, "Apple", units=6),
        P("McIntosh Apples, 2 lb bag", "Hudson Valley Orchards", 3.99, "Apple", units=4),
        P("Romaine Lettuce Hearts, 3 count", "Liberty Farms", 3.99, "Lettuce", units=3),
        P("Iceberg Lettuce", "Liberty Farms", 1.79, "Lettuce"),
        P("Green Leaf Lettuce", "Green Meadow Organics", 1.99, "Lettuce"),
        P("Butterhead Lettuce", "North Fork Growers", 2.49, "Lettuce"),
        P("Organic Romaine Lettuce", "Green Meadow Organics", 2.79, "Lettuce"),
        P("Russet Potato", "North Fork Growers", 0.89, "Potato", [EACH_SIZE]),
        P("Russet Potatoes, 5 lb bag", "North Fork Growers", 4.49, "Potato", units=6),
        P("Yukon Gold Potato", "Liberty Farms", 0.99, "Potato"),
        P("Yukon Gold Potatoes, 3 lb bag", "Liberty Farms", 3.99, "Potato", units=5),
        P("Red Potatoes, 2 lb bag", "Sunny Ridge Farms", 3.29, "Potato", units=4),
        P("Organic Russet Potato", "Green Meadow Organics", 1.29, "Potato"),
        P("Roma Tomato", "Sunny Ridge Farms", 0.69, "Tomato"),
        P("Beefsteak Tomato", "Liberty Farms", 1.59, "Tomato", [EACH_SIZE]),
        P("Tomatoes on the Vine, 4 count", "Green Meadow Organics", 3.99, "Tomato", units=4),
        P("Heirloom Tomato", "North Fork Growers", 2.29, "Tomato"),
        P("Organic Roma Tomato", "Green Meadow Organics", 0.99, "Tomato"),
        P("Cherry Tomatoes, 1 pint", "Sunny Ridge Farms", 3.49),
        P("Sweet Potato", "North Fork Growers", 1.29),
        P("Bananas, bunch", "FreshCart", 1.69),
        P("Navel Oranges, 4 count", "Sunny Ridge Farms", 4.49),
        P("Lemons", "FreshCart", 0.79, opts=[pack(("Single", 0.0, 1), ("Bag of 6", 2.90, 6))]),
        P("Limes", "FreshCart", 0.49, opts=[pack(("Single", 0.0, 1), ("Bag of 8", 2.40, 8))]),
        P("Carrots, 2 lb bag", "Liberty Farms", 2.19),
        P("Yellow Onions, 3 lb bag", "North Fork Growers", 3.49),
        P("Red Onion", "North Fork Growers", 1.19),
        P("Garlic, 3 heads", "Green Meadow Organics", 1.99),
        P("English Cucumber", "Liberty Farms", 1.49),
        P("Bell Pepper", "Sunny Ridge Farms", 1.29, opts=[colour("Red", "Yellow", "Orange", "Green",
                                                                   deltas=(0.2, 0.2, 0.2, 0.0))]),
        P("Hass Avocado", "FreshCart", 1.79, opts=[EACH_SIZE]),
        P("Baby Spinach, 5 oz", "Green Meadow Organics", 3.99),
        P("Curly Kale, bunch", "Liberty Farms", 2.49),
        P("Broccoli Crowns", "North Fork Growers", 2.79),
        P("Celery Hearts", "Liberty Farms", 2.99),
        P("White Mushrooms, 8 oz", "North Fork Growers", 2.69),
        P("Strawberries, 1 lb", "Sunny Ridge Farms", 4.49),
        P("Blueberries, 6 oz", "Sunny Ridge Farms", 3.99),
        P("Seedless Grapes, 2 lb", "Sunny Ridge Farms", 5.49, opts=[colour("Red", "Green")]),
        P("Zucchini", "Liberty Farms", 1.39),
        P("Bartlett Pear", "Hudson Valley Orchards", 1.29),
        P("Fresh Basil, 0.75 oz", "Green Meadow Organics", 2.49),
    ],
    "bakery": [
        P("White Sandwich Bread", "Empire Bakehouse", 3.29, "Bread"),
        P("Whole Wheat Bread", "Empire Bakehouse", 3.79, "Bread"),
        P("Sourdough Loaf", "Brooklyn Crust", 5.49, "Bread", [size(("Half loaf", 0.0), ("Whole loaf", 2.50))]),
        P("Seeded Rye Bread", "Brooklyn Crust", 5.29, "Bread"),
        P("Multigrain Bread", "Old Mill Bakery", 4.49, "Bread"),
        P("Brioche Loaf", "Brooklyn Crust", 6.49, "Bread"),
        P("Gluten-Free White Bread", "Old Mill Bakery", 6.99, "Bread"),
        P("French Baguette", "Empire Bakehouse", 2.99, "Bread"),
        P("Ciabatta Loaf", "Brooklyn Crust", 3.99, "Bread"),
        P("Country White Bread", "FreshCart", 2.79, "Bread"),
        P("Plain Bagels, 6 count", "Empire Bakehouse", 4.99),
        P("Everything Bagels, 6 count", "Empire Bakehouse", 5.29),
        P("Butter Croissants, 4 count", "Brooklyn Crust", 6.99),
        P("Blueberry Muffins, 4 count", "Old Mill Bakery", 5.99),
        P("English Muffins, 6 count", "Old Mill Bakery", 3.49),
        P("Dinner Rolls, 12 count", "FreshCart", 3.99),
        P("Whole Wheat Pita, 6 count", "Harbor Pantry", 2.99),
        P("Flour Tortillas, 10 count", "Harbor Pantry", 3.29, opts=[size(("8 inch", 0.0), ("10 inch", 0.60))]),
        P("Banana Bread", "Old Mill Bakery", 7.49),
        P("Apple Turnovers, 2 count", "Brooklyn Crust", 4.99),
        P("Cinnamon Raisin Swirl Bread", "Empire Bakehouse", 4.79),
        P("Chocolate Chip Cookies, 12 count", "Old Mill Bakery", 5.49),
    ],
    "dairy-eggs": [
        P("Large White Eggs", "Sunrise Dairy", 2.49, "Egg", [EGG_PACK]),
        P("Large Brown Eggs", "Catskill Creamery", 2.99, "Egg", [EGG_PACK]),
        P("Organic Free-Range Eggs", "Green Meadow Organics", 3.99, "Egg", [EGG_PACK]),
        P("Pasture-Raised Eggs, 12 count", "Catskill Creamery", 7.49, "Egg", units=12),
        P("Jumbo Brown Eggs, 12 count", "Sunrise Dairy", 5.29, "Egg", units=12),
        P("Cage-Free Large Eggs", "FreshCart", 2.29, "Egg", [EGG_PACK]),
        P("Liquid Egg Whites, 16 oz", "Sunrise Dairy", 3.99),
        P("Egg Salad, 8 oz", "FreshCart", 4.49),
        P("Whole Milk", "Sunrise Dairy", 2.99, opts=[size(("Half gallon", 0.0), ("Gallon", 1.80))]),
        P("2% Reduced Fat Milk", "Sunrise Dairy", 2.89, opts=[size(("Half gallon", 0.0), ("Gallon", 1.80))]),
        P("Oat Milk, 64 oz", "Meadowlark", 4.99),
        P("Unsweetened Almond Milk, 64 oz", "Meadowlark", 3.99),
        P("Salted Butter, 4 sticks", "Catskill Creamery", 4.99),
        P("Unsalted Butter, 4 sticks", "Catskill Creamery", 4.99),
        P("Plain Greek Yogurt", "Catskill Creamery", 1.49, opts=[size(("5.3 oz", 0.0), ("32 oz", 4.50))]),
        P("Sharp Cheddar Cheese, 8 oz", "Catskill Creamery", 4.49),
        P("Fresh Mozzarella, 8 oz", "Bella Cucina", 5.49),
        P("Grated Parmesan, 6 oz", "Bella Cucina", 5.99),
        P("Cream Cheese, 8 oz", "Sunrise Dairy", 2.99),
        P("Sour Cream, 16 oz", "Sunrise Dairy", 2.79),
        P("Heavy Cream, 1 pint", "Catskill Creamery", 4.29),
        P("Cottage Cheese, 16 oz", "Sunrise Dairy", 3.69),
        P("Swiss Cheese Slices, 8 oz", "Catskill Creamery", 4.79),
        P("Feta Crumbles, 6 oz", "Bella Cucina", 4.29),
    ],
    "pantry": [
        P("Spaghetti, 1 lb", "Bella Cucina", 1.79),
        P("Penne Rigate, 1 lb", "Bella Cucina", 1.79),
        P("Egg Noodles, 12 oz", "Harbor Pantry", 2.49),
        P("Long Grain White Rice", "Harbor Pantry", 2.99, opts=[size(("2 lb", 0.0), ("5 lb", 3.50))]),
        P("Brown Basmati Rice, 2 lb", "Harbor Pantry", 4.49),
        P("Extra Virgin Olive Oil", "Bella Cucina", 8.99, opts=[size(("500 ml", 0.0), ("1 liter", 6.00))]),
        P("Vegetable Oil, 48 oz", "Harbor Pantry", 4.99),
        P("All-Purpose Flour, 5 lb", "Old Mill", 3.99),
        P("Granulated Sugar, 4 lb", "Old Mill", 3.49),
        P("Sea Salt, 26 oz", "Harbor Pantry", 2.49),
        P("Ground Black Pepper, 4 oz", "Harbor Pantry", 3.99),
        P("Tomato Paste, 6 oz", "Bella Cucina", 1.19),
        P("Diced Tomatoes, 28 oz can", "Bella Cucina", 2.29),
        P("Tomato Sauce, 15 oz can", "Bella Cucina", 1.49),
        P("Marinara Sauce, 24 oz", "Bella Cucina", 4.99),
        P("Tomato Ketchup, 20 oz", "Harbor Pantry", 2.99),
        P("Mayonnaise, 30 oz", "Harbor Pantry", 4.79),
        P("Dijon Mustard, 8 oz", "Harbor Pantry", 2.99),
        P("Creamy Peanut Butter, 16 oz", "Meadowlark", 3.49),
        P("Strawberry Jam, 18 oz", "Hudson Valley Orchards", 3.99),
        P("Apple Butter, 17 oz", "Hudson Valley Orchards", 4.49),
        P("Unsweetened Applesauce, 24 oz", "Hudson Valley Orchards", 2.99),
        P("Wildflower Honey, 12 oz", "Meadowlark", 6.49),
        P("Pure Maple Syrup, 12 oz", "Catskill Creamery", 9.99),
        P("Old-Fashioned Rolled Oats, 42 oz", "Old Mill", 4.99),
        P("Honey Oat Cereal, 12 oz", "Old Mill", 3.99),
        P("Black Beans, 15 oz can", "Harbor Pantry", 1.09),
        P("Chickpeas, 15 oz can", "Harbor Pantry", 1.09),
        P("Chicken Broth, 32 oz", "Harbor Pantry", 2.79),
        P("Vegetable Broth, 32 oz", "Harbor Pantry", 2.79),
        P("Apple Cider Vinegar, 16 oz", "Hudson Valley Orchards", 2.99),
        P("Balsamic Vinegar, 8.5 oz", "Bella Cucina", 5.49),
        P("Soy Sauce, 15 oz", "Harbor Pantry", 3.29),
        P("Plain Bread Crumbs, 15 oz", "Old Mill", 2.49),
        P("Instant Mashed Potatoes, 8 oz", "Harbor Pantry", 2.29),
        P("Ground Coffee, Medium Roast", "Blue Heron Roasters", 8.99, opts=[size(("12 oz", 0.0), ("24 oz", 6.50))]),
        P("Whole Bean Coffee, Dark Roast, 12 oz", "Blue Heron Roasters", 10.99),
        P("English Breakfast Tea, 20 bags", "Blue Heron Roasters", 4.49),
        P("Green Tea, 20 bags", "Blue Heron Roasters", 4.29),
        P("Baking Soda, 1 lb", "Old Mill", 1.29),
        P("Baking Powder, 8 oz", "Old Mill", 2.79),
        P("Pure Vanilla Extract, 2 oz", "Old Mill", 7.99),
        P("Ground Cinnamon, 2 oz", "Harbor Pantry", 3.49),
        P("Canned Tuna, 5 oz", "Harbor Pantry", 1.99, opts=[pack(("Single can", 0.0, 1), ("4 cans", 5.50, 4))]),
        P("Chunky Vegetable Soup, 18 oz", "Harbor Pantry", 2.99),
    ],
    "beverages": [
        P("Apple Juice, 64 oz", "Hudson Valley Orchards", 3.99),
        P("Orange Juice, No Pulp, 52 oz", "Sunny Ridge Farms", 4.49),
        P("Tomato Juice, 46 oz", "Liberty Farms", 3.29),
        P("Sparkling Water, Lime", "Brightway", 4.99, opts=[pack(("8 cans", 0.0, 8), ("12 cans", 2.00, 12))]),
        P("Spring Water", "Brightway", 1.29, opts=[pack(("Single bottle", 0.0, 1), ("24 bottles", 4.70, 24))]),
        P("Cola, 2 liter", "Brightway", 2.49),
        P("Lemonade, 52 oz", "Sunny Ridge Farms", 3.49),
        P("Unsweetened Iced Tea, 64 oz", "Blue Heron Roasters", 3.29),
        P("Cold Brew Coffee, 32 oz", "Blue Heron Roasters", 5.99),
        P("Coconut Water, 33.8 oz", "Brightway", 4.29),
        P("Ginger Ale", "Brightway", 4.49, opts=[pack(("6 cans", 0.0, 6), ("12 cans", 3.00, 12))]),
        P("Sparkling Apple Cider, 25.4 oz", "Hudson Valley Orchards", 4.99),
        P("Cranberry Juice Cocktail, 64 oz", "Sunny Ridge Farms", 3.79),
        P("Kombucha, Ginger", "Meadowlark", 3.49),
        P("Sports Drink, Lemon-Lime, 28 oz", "Brightway", 1.99),
    ],
    "snacks": [
        P("Sea Salt Potato Chips, 8 oz", "Crisp & Co", 3.99),
        P("Kettle Cooked Potato Chips, 8 oz", "Crisp & Co", 4.29),
        P("Tortilla Chips, 13 oz", "Crisp & Co", 3.79),
        P("Salted Pretzel Twists, 16 oz", "Crisp & Co", 3.49),
        P("Crunchy Apple Chips, 3.5 oz", "Hudson Valley Orchards", 4.49),
        P("Chewy Granola Bars, 8 count", "Meadowlark", 3.99),
        P("Whole Wheat Crackers, 9 oz", "Old Mill", 3.59),
        P("Butter Popcorn, 3 bags", "Crisp & Co", 3.29),
        P("Roasted Trail Mix, 16 oz", "Meadowlark", 7.99),
        P("Dark Chocolate Bar, 72%, 3.5 oz", "Meadowlark", 2.99),
        P("Salted Mixed Nuts, 10 oz", "Meadowlark", 8.49),
        P("Rice Cakes, Lightly Salted", "Old Mill", 2.79),
        P("Hummus, Classic, 10 oz", "FreshCart", 3.99),
        P("Salsa, Medium, 16 oz", "Harbor Pantry", 3.69),
        P("Gummy Bears, 12 oz", "Brightway", 2.99),
        P("Sandwich Cookies, 14 oz", "Old Mill", 3.99),
    ],
    "kitchenware": [
        P("Chef's Knife, 8 inch", "Ironwood Cutlery", 29.99, "Knife"),
        P("Santoku Knife, 7 inch", "Ironwood Cutlery", 26.99, "Knife"),
        P("Paring Knife, 3.5 inch", "Ironwood Cutlery", 9.99, "Knife", [colour("Black", "Red", "Green")]),
        P("Serrated Bread Knife, 9 inch", "Ironwood Cutlery", 19.99, "Knife"),
        P("Utility Knife, 5 inch", "Hearth Home", 12.99, "Knife"),
        P("Stainless Butter Knife", "Hearth Home", 3.49, "ButterKnife",
          [pack(("Single", 0.0, 1), ("Set of 4", 8.50, 4))]),
        P("Wooden-Handle Butter Spreader", "Hearth Home", 5.99, "ButterKnife"),
        P("Nonstick Frying Pan", "Copper & Steel", 24.99, "Pan",
          [size(("8 inch", 0.0), ("10 inch", 6.00), ("12 inch", 12.00)), colour("Black", "Red", "Gray")]),
        P("Cast Iron Skillet, 10 inch", "Ironwood Cookware", 29.99, "Pan"),
        P("Stainless Steel Skillet", "Copper & Steel", 39.99, "Pan", [size(("10 inch", 0.0), ("12 inch", 10.00))]),
        P("Ceramic Nonstick Saute Pan, 11 inch", "Hearth Home", 34.99, "Pan", [colour("White", "Blue", "Green")]),
        P("Stainless Steel Saucepan", "Copper & Steel", 27.99, "Pot", [size(("2 quart", 0.0), ("3 quart", 7.00))]),
        P("Nonstick Saucepan with Lid, 2 quart", "Hearth Home", 22.99, "Pot"),
        P("Stockpot with Lid, 8 quart", "Copper & Steel", 44.99, "Pot"),
        P("Enameled Dutch Oven, 5.5 quart", "Ironwood Cookware", 69.99, "Pot", [colour("Red", "Blue", "White")]),
        P("Stoneware Dinner Plate", "Glenmore Ceramics", 7.99, "Plate",
          [colour("White", "Blue", "Gray"), pack(("Single", 0.0, 1), ("Set of 4", 21.00, 4))]),
        P("Porcelain Salad Plate", "Glenmore Ceramics", 5.99, "Plate", [colour("White", "Sage")]),
        P("Melamine Picnic Plate", "Hearth Home", 3.99, "Plate", [colour("Yellow", "Blue", "Green", "Red")]),
        P("Stoneware Cereal Bowl", "Glenmore Ceramics", 6.49, "Bowl", [colour("White", "Blue", "Gray")]),
        P("Glass Mixing Bowl", "Hearth Home", 9.99, "Bowl",
          [size(("1.5 quart", 0.0), ("2.5 quart", 3.00), ("4 quart", 6.00))]),
        P("Porcelain Soup Bowl", "Glenmore Ceramics", 5.49, "Bowl"),
        P("Ceramic Coffee Mug, 12 oz", "Glenmore Ceramics", 8.99, "Mug", [colour("White", "Black", "Blue", "Red")]),
        P("Stoneware Latte Mug, 16 oz", "Glenmore Ceramics", 11.99, "Mug", [colour("Cream", "Sage")]),
        P("Glass Tumbler Cup, 12 oz", "Hearth Home", 3.99, "Cup",
          [pack(("Single", 0.0, 1), ("Set of 6", 15.00, 6))]),
        P("Reusable Plastic Cup, 16 oz", "Hearth Home", 2.49, "Cup", [colour("Clear", "Blue", "Pink")]),
        P("Silicone Spatula", "Copper & Steel", 7.99, "Spatula", [colour("Red", "Black", "Teal")]),
        P("Slotted Turner Spatula", "Copper & Steel", 9.49, "Spatula"),
        P("Fish Spatula", "Ironwood Cutlery", 12.99, "Spatula"),
        P("Bamboo Cutting Board", "Hearth Home", 14.99, opts=[size(("Small", 0.0), ("Large", 8.00))]),
        P("Balloon Whisk, 11 inch", "Copper & Steel", 8.49),
        P("Wooden Spoon Set, 3 pieces", "Hearth Home", 9.99),
        P("Stainless Ladle", "Copper & Steel", 8.99),
        P("Measuring Cups, 4 pieces", "Hearth Home", 7.99),
        P("Measuring Spoons, 5 pieces", "Hearth Home", 5.99),
        P("Stainless Colander, 5 quart", "Copper & Steel", 16.99),
        P("Manual Can Opener", "Copper & Steel", 11.99),
        P("Swivel Vegetable Peeler", "Ironwood Cutlery", 6.99),
        P("Box Grater", "Copper & Steel", 13.49),
        P("Knife Sharpener", "Ironwood Cutlery", 15.99),
        P("Quilted Pot Holders, 2 count", "Hearth Home", 8.99, opts=[colour("Red", "Navy", "Gray")]),
        P("Silicone Oven Mitt", "Hearth Home", 10.99, opts=[colour("Black", "Red")]),
        P("Baking Sheet, 13 x 18 inch", "Copper & Steel", 14.99),
        P("Muffin Pan, 12 cup", "Copper & Steel", 15.99),
        P("Loaf Pan, 9 x 5 inch", "Copper & Steel", 11.49),
        P("Potato Masher", "Copper & Steel", 10.99),
        P("Apple Corer and Slicer", "Ironwood Cutlery", 9.99),
        P("Egg Separator", "Hearth Home", 4.99),
        P("Digital Kitchen Timer", "Hearth Home", 12.99, opts=[colour("White", "Black")]),
        P("Salad Spinner", "Hearth Home", 24.99),
        P("Glass Food Storage Containers, 5 pack", "Hearth Home", 29.99),
        P("Kitchen Tongs, 12 inch", "Copper & Steel", 8.99),
        P("Cooling Rack", "Copper & Steel", 11.99),
        P("Stainless Steel Teakettle, 2 quart", "Copper & Steel", 32.99, opts=[colour("Silver", "Red", "Black")]),
        P("French Press, 34 oz", "Blue Heron Roasters", 27.99),
    ],
    "household": [
        P("Paper Towels", "Tidy House", 3.99,
          opts=[pack(("2 rolls", 0.0, 2), ("6 rolls", 7.00, 6), ("12 rolls", 15.00, 12))]),
        P("Bath Tissue", "Tidy House", 4.99, opts=[pack(("4 rolls", 0.0, 4), ("12 rolls", 9.00, 12))]),
        P("Dish Soap, Lemon", "Tidy House", 2.99, opts=[size(("16 oz", 0.0), ("32 oz", 2.50))]),
        P("Dishwasher Detergent Pods, 42 count", "Tidy House", 12.99),
        P("Scrub Sponges", "Tidy House", 2.99, opts=[pack(("3 pack", 0.0, 3), ("6 pack", 2.50, 6))]),
        P("Tall Kitchen Trash Bags, 13 gallon", "Tidy House", 9.99,
          opts=[pack(("40 count", 0.0, 40), ("80 count", 8.00, 80))]),
        P("Aluminum Foil, 75 sq ft", "Tidy House", 4.49),
        P("Plastic Wrap, 200 sq ft", "Tidy House", 3.49),
        P("Parchment Paper, 45 sq ft", "Tidy House", 4.29),
        P("Resealable Sandwich Bags, 50 count", "Tidy House", 3.79),
        P("Liquid Laundry Detergent", "Brightway", 11.99, opts=[size(("50 oz", 0.0), ("100 oz", 7.00))]),
        P("All-Purpose Cleaner, 32 oz", "Brightway", 3.99),
        P("Glass Cleaner, 26 oz", "Brightway", 3.79),
        P("Paper Napkins, 200 count", "Tidy House", 3.49, opts=[colour("White", "Kraft")]),
        P("Paper Plates, 9 inch, 50 count", "Tidy House", 5.99),
        P("Paper Cups, 12 oz, 50 count", "Tidy House", 5.49),
        P("LED Light Bulbs, 60W equivalent", "Brightway", 7.99, opts=[pack(("4 pack", 0.0, 4), ("8 pack", 6.50, 8))]),
        P("AA Batteries", "Brightway", 6.99,
          opts=[pack(("4 pack", 0.0, 4), ("8 pack", 4.50, 8), ("16 pack", 11.00, 16))]),
        P("Scented Candle, 8 oz", "Hearth Home", 12.99, opts=[colour("Ivory", "Sage", "Lavender")]),
        P("Hand Soap, 12 oz", "Tidy House", 2.99, opts=[colour("Clear", "Green", "Pink")]),
        P("Microfiber Cloths", "Tidy House", 6.99, opts=[pack(("6 pack", 0.0, 6), ("12 pack", 5.00, 12))]),
        P("Cotton Dish Towels, 2 count", "Hearth Home", 9.99, opts=[colour("White", "Blue Stripe", "Red Check")]),
        P("Rubber Cleaning Gloves", "Tidy House", 3.99, opts=[size(("Medium", 0.0), ("Large", 0.0))]),
        P("Broom and Dustpan Set", "Tidy House", 19.99),
        P("Stainless Steel Scrubbers, 3 pack", "Tidy House", 3.29),
        P("Drain Cleaner Gel, 32 oz", "Brightway", 6.49),
        P("Fabric Softener Sheets, 120 count", "Brightway", 5.99),
        P("Storage Bins, Set of 3", "Hearth Home", 24.99, opts=[colour("Gray", "White", "Natural")]),
        P("Disinfecting Wipes, 75 count", "Brightway", 5.29),
        P("Clothes Hangers, 20 pack", "Hearth Home", 11.99, opts=[colour("Black", "White")]),
    ],
    "personal-care": [
        P("Mint Toothpaste, 4.8 oz", "Brightway", 3.49),
        P("Soft Toothbrush", "Brightway", 2.99, opts=[colour("Blue", "Green", "Purple")]),
        P("Moisturizing Shampoo, 13.5 oz", "Meadowlark", 6.99),
        P("Conditioner, 13.5 oz", "Meadowlark", 6.99),
        P("Bar Soap, Oatmeal, 4 count", "Meadowlark", 5.49),
        P("Body Lotion, 16 oz", "Meadowlark", 7.49),
        P("Cotton Swabs, 500 count", "Brightway", 3.99),
        P("Facial Tissues, 3 boxes", "Tidy House", 5.99),
        P("Sunscreen SPF 30, 6 oz", "Brightway", 9.99),
        P("Lip Balm, 2 count", "Meadowlark", 3.29),
        P("Adhesive Bandages, 30 count", "Brightway", 4.49),
        P("Unscented Deodorant, 2.6 oz", "Meadowlark", 5.99),
        P("Hand Sanitizer, 8 oz", "Brightway", 3.49),
        P("Dental Floss, Mint", "Brightway", 2.79),
    ],
}

_DESC = {
    "produce": ["Picked ripe and delivered fresh.", "Grown by regional farms.", "Rinse before use.",
                "A kitchen staple for salads, sides and snacks."],
    "bakery": ["Baked fresh every morning.", "Made with simple ingredients.", "Best enjoyed within three days.",
               "Great for sandwiches and toast."],
    "dairy-eggs": ["Keep refrigerated.", "From farms in New York State.", "No artificial hormones.",
                   "Fresh from the dairy case."],
    "pantry": ["A pantry essential.", "Store in a cool, dry place.", "Stock up for weeknight cooking.",
               "Quality ingredients for everyday meals."],
    "beverages": ["Serve chilled.", "Refreshing any time of day.", "No artificial colors.",
                  "Great with meals or on the go."],
    "snacks": ["A crunchy snack for any time.", "Perfect for lunch boxes.", "Share with friends.",
               "Made in small batches."],
    "kitchenware": ["Built for everyday cooking.", "Dishwasher safe.", "Designed by professional cooks.",
                    "Durable and easy to clean."],
    "household": ["Keeps your home clean and tidy.", "Everyday household essential.", "Value you can count on.",
                  "Made with recycled materials where possible."],
    "personal-care": ["Gentle for daily use.", "Dermatologist tested.", "Travel friendly.",
                      "Free of parabens."],
}


def _ninety_nine(x: float) -> float:
    """Round a price to the nearest amount ending in 9 cents (at least 0.29)."""
    cents = max(29, int(round(x * 100)))
    return round(max(29, (cents // 10) * 10 + 9 - (10 if cents % 10 < 4 else 0)) / 100, 2)


def _store_prices(base: float, store_ids: list[str], rng: random.Random) -> dict[str, float]:
    raw = {s: _ninety_nine(base * STORE_LEVEL[s] * rng.uniform(0.85, 1.15)) for s in store_ids}
    order = sorted(store_ids, key=lambda s: (raw[s], rng.random()))
    out: dict[str, float] = {}
    prev = None
    for s in order:
        p = raw[s]
        if prev is not None and p < prev + MIN_GAP - 1e-9:
            p = round(prev + MIN_GAP, 2)
        out[s] = p
        prev = p
    return {s: out[s] for s in sorted(out)}


def _sells(otype: str | None, rng: random.Random) -> int:
    r = rng.random()
    k = 4 if r < 0.45 else 3 if r < 0.75 else 2 if r < 0.93 else 1
    return max(k, 2) if otype else k


def _description(name: str, brand: str, cat: str, otype: str | None, units: int, opts: list[dict[str, Any]],
                 rng: random.Random) -> str:
    parts = [f"{name} by {brand}."]
    parts += rng.sample(_DESC[cat], 2)
    if units > 1 and not any(g["name"] == "pack" for g in opts):
        parts.append(f"Contains {units}.")
    for g in opts:
        parts.append(f"Available in {len(g['choices'])} {g['label'].lower()} choices.")
    return " ".join(parts)


def build() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The stores and products (deterministic)."""
    rng = random.Random(SEED)
    store_ids = [s["store_id"] for s in STORES]
    products: list[dict[str, Any]] = []
    n = 0
    for cat, label in CATEGORIES:
        for name, brand, base, otype, opts, units in CATALOG[cat]:
            n += 1
            prng = random.Random(f"{SEED}:{name}:{brand}")
            sellers = sorted(prng.sample(store_ids, _sells(otype, prng)))
            products.append({
                "product_id": f"p{n:04d}", "name": name, "brand": brand, "category": cat,
                "category_name": label,
                "description": _description(name, brand, cat, otype, units, opts, prng),
                "object_type": otype, "units": units, "options": json.loads(json.dumps(opts)),
                "base_price": base, "prices": _store_prices(base, sellers, prng),
            })
    # every store sells at least one product of every kitchen object type
    for otype in INGREDIENT_TYPES + TOOL_TYPES:
        typed = [p for p in products if p["object_type"] == otype]
        for s in store_ids:
            if not any(s in p["prices"] for p in typed):
                p = typed[0]
                prng = random.Random(f"{SEED}:{p['product_id']}:fill")
                p["prices"] = _store_prices(p["base_price"], sorted([*p["prices"], s]), prng)
    del rng
    for p in products:
        del p["base_price"]
    return json.loads(json.dumps(STORES)), products


def check(stores: list[dict[str, Any]], products: list[dict[str, Any]]) -> None:
    """Invariants the tasks rely on (raise ``ValueError`` naming the product)."""
    if len(stores) != 4:
        raise ValueError(f"expected 4 stores, got {len(stores)}")
    if len(products) < 200:
        raise ValueError(f"expected at least 200 products, got {len(products)}")
    sids = {s["store_id"] for s in stores}
    for p in products:
        prices = sorted(p["prices"].values())
        if not prices or set(p["prices"]) - sids:
            raise ValueError(f"{p['product_id']}: bad store prices {p['prices']}")
        if any(b - a < 0.015 for a, b in zip(prices, prices[1:], strict=False)):
            raise ValueError(f"{p['product_id']}: two stores' prices are within a cent: {p['prices']}")
    for otype in INGREDIENT_TYPES + TOOL_TYPES:
        if not any(p["object_type"] == otype for p in products):
            raise ValueError(f"no product has object_type {otype}")


def write(out_dir: Path | None = None) -> Path:
    out = out_dir or data_dir() / "shop"
    out.mkdir(parents=True, exist_ok=True)
    stores, products = build()
    check(stores, products)
    for name, obj in (("stores.json", stores), ("products.json", products)):
        with open(out / name, "w", encoding="utf-8") as f:
            json.dump(obj, f, indent=1, sort_keys=True, ensure_ascii=False)
            f.write("\n")
    return out


def main() -> None:
    out = write()
    stores, products = build()
    typed = sum(1 for p in products if p["object_type"])
    print(f"wrote {len(stores)} stores and {len(products)} products ({typed} kitchen items) to {out}")


if __name__ == "__main__":
    main()
