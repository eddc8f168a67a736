"""The characters that send a text from libyaml to ruamel.yaml (io.reading._LIBYAML_UNSURE) are
exactly those outside the ranges both readers agree on."""

import re

from agot_adjudicator.io.reading import _LIBYAML_UNSURE

KEPT = re.compile("[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd"
                  "\U00010000-\U0010ffff]")
"""The class as first written: every character but those both readers read alike."""


def test_unsure_characters_are_the_complement_of_the_kept_ranges() -> None:
    differ = [hex(c) for c in range(0x110000)
              if bool(KEPT.match(chr(c))) != bool(_LIBYAML_UNSURE.match(chr(c)))]
    assert differ == []


def test_unsure_characters_include_each_kind() -> None:
    for ch in "\t\r\x00\x7f\x85\u2028\u2029\ufeff\ufffe":
        assert _LIBYAML_UNSURE.search(f"a{ch}b"), repr(ch)
    for ch in "\n a~\xa0北\u202a\ue000\uff01\U0001f600":
        assert not _LIBYAML_UNSURE.search(ch), repr(ch)
