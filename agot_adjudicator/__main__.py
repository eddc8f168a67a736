"""``python -m agot_adjudicator`` runs the ``agot`` command."""

from agot_adjudicator.cli import main

if __name__ == "__main__":  # pragma: no cover
    main()
