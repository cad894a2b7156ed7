"""Web drivers: the text driver (no browser), the Playwright browser driver, the local server and the accessibility tree."""
