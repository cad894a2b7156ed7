"""The home page: links to every site."""
