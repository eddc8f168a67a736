"""`agot validate` reports every file's problems at once, even when one file fails its schema."""

from __future__ import annotations

from agot_adjudicator.cli import main


def test_schema_error_in_one_file_does_not_hide_rule_errors_in_another(runner, tmp_path):
    state = tmp_path / "state.yaml"
    assert runner.invoke(main, ["new", "--seed", "1", "-o", str(state)]).exit_code == 0
    broken = tmp_path / "broken.yaml"
    broken.write_text("format: agot-orders/1\nround: 1\nhouse: stark\norders: 7\n")
    illegal = tmp_path / "lannister.yaml"
    illegal.write_text("format: agot-orders/1\nround: 1\nhouse: lannister\n"
                       "orders: {winterfell: raid}\n")
    result = runner.invoke(main, ["validate", str(state), str(broken), str(illegal)])
    assert result.exit_code == 1
    assert "broken.yaml:4:9: $.orders" in result.stderr
    assert "lannister.yaml:4:22: $.orders.winterfell" in result.stderr
