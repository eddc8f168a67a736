"""What people read: the report and log, tables, the board picture, order templates,
state diffs and the board views of ``agot show``. Renderers never decide anything."""
