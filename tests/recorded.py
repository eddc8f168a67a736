"""The message of every test that compares a recorded output (the demo game, compiled files,
published copies) with what the code makes now."""

REGENERATE = ("recorded outputs differ: if the change is intended, run "
              "`python scenarios/regenerate.py` and commit the result")
