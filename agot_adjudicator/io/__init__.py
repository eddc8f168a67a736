"""Reading and writing files: safe YAML with positions, JSON Schema checks, deterministic
YAML output and atomic writes, game directories, rulesets on disk, submissions and
rule checks of state files.

Libraries do the work: PyYAML's C loader (libyaml, with YAML 1.2 resolvers) reads plain files
and ruamel.yaml reads the rest and locates every YAML error (reading.py); fastjsonschema checks
documents and jsonschema explains the invalid ones (schemas.py); PyYAML's dumper writes YAML
(writing.py). The dumper is PyYAML's pure-Python one, not its C one: libyaml's emitter always
writes a list of mappings at its key's column (``submissions:`` / ``- file: …``), while every
state recorded so far indents it (``  - file: …``), and states are hash-chained, so their bytes
must not change. The Python emitter costs about 7 ms for a 4 KB state (bench/README.md).
"""
