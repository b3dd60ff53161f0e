"""One module per game form of the rule books; `hub.scoring.registry` lists them."""
