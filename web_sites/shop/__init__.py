"""The shop site: FreshCart Market (four Manhattan stores, cart, checkout, kitchen delivery)."""
