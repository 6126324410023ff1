"""Every supported Sphinx line: what differs between them is kept equal."""

from __future__ import annotations

import configparser
import tomllib
from pathlib import Path

THEME = Path(__file__).parents[1] / "templates" / "theme"


def ini_value(value: object) -> str:
    """A theme.toml value as theme.conf spells it: lists have no INI form and
    are empty there (an empty value renders nothing, as [] does)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        assert value == [], "theme.conf cannot hold a non-empty list"
        return ""
    return str(value)


def test_theme_conf_is_theme_toml():
    """Sphinx 7.2 reads theme.conf, later lines theme.toml: the same theme."""
    toml = tomllib.loads((THEME / "theme.toml").read_text(encoding="utf-8"))
    conf = configparser.ConfigParser()
    conf.read(THEME / "theme.conf", encoding="utf-8")
    theme = conf["theme"]
    assert theme["inherit"] == toml["theme"]["inherit"]
    assert [s.strip() for s in theme["stylesheet"].split(",")] == toml["theme"]["stylesheets"]
    assert theme["pygments_style"] == toml["theme"]["pygments_style"]["default"]
    assert set(theme) == {"inherit", "stylesheet", "pygments_style"}
    assert dict(conf["options"]) == {
        name: ini_value(value) for name, value in toml["options"].items()
    }
