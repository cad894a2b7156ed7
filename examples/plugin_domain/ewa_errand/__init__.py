"""An example plug-in domain: walk to a place and report its street address (README: "Adding a domain")."""
