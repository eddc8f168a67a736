"""Reading and writing files: safe YAML with positions, JSON Schema checks, deterministic
YAML output and atomic writes, game directories, rulesets on disk, submissions and
rule checks of state files."""
