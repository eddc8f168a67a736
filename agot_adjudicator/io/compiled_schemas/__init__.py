"""JSON Schemas compiled into Python by fastjsonschema (generated: see io/schemas.py)."""
