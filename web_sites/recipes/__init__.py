"""The recipe site: search, filters, and recipes shown one step at a time."""
