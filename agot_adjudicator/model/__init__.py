"""Value types: the ruleset (component facts) and the game state, with the rule index."""
