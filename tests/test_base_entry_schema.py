"""The entry's schema (``reprodocs.base.entry_schema``): each field's names
written once, the JSON Schema shipped in step with it, and a field added by
one row shown everywhere an entry is."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from bs4 import BeautifulSoup
from sphinx.cmd.build import build_main

import reprodocs
from reprodocs.base import entry_schema
from reprodocs.base.entry_schema import NOTE_ONLY, REGISTRY, VALUES, Field
from reprodocs.base.vocabulary import JSON_NAME
from reprodocs.notes.nondeterministic_ops import JSON_SCHEMA

PACKAGE = Path(reprodocs.__file__).parent
SCHEMA_MODULE = Path(entry_schema.__file__)

#: The names of an entry's fields that are spelled in the schema only: as
#: options, and as keys of nondeterministic.json.
FIELD_NAMES = {
    entry_schema.LISTED_AS.option,
    entry_schema.ALGORITHMS.option,
    entry_schema.ALIASES.option,
    entry_schema.CASES.option,
    entry_schema.ALERT.option,
    entry_schema.LISTED_AS.json_key,
    entry_schema.ALGORITHMS.json_key,
    entry_schema.ALERT.json_key,
}

#: Other vocabularies sharing a word with the entry's, by module: not the
#: entry's fields.
OTHER_VOCABULARIES = {
    # The fields of Python's ``match`` statement (ast.Match.cases).
    "migrate/owners.py": {"cases"},
    # The keys of check-alerts' ignore rules.
    "check_alerts/command.py": {"alert"},
    "check_alerts/formats.py": {"alert"},
}


def strings(path: Path) -> set[str]:
    """The string constants of the module at *path*."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


def test_an_entry_s_field_names_are_written_in_the_schema_only():
    assert FIELD_NAMES <= strings(SCHEMA_MODULE)
    spelled = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == SCHEMA_MODULE:
            continue
        module = path.relative_to(PACKAGE).as_posix()
        found = strings(path) & FIELD_NAMES - OTHER_VOCABULARIES.get(module, set())
        if found:
            spelled[module] = found
    assert spelled == {}


def test_the_json_schema_file_is_in_step_with_the_entry_s_schema():
    operation = json.loads(JSON_SCHEMA.read_text(encoding="utf-8"))["$defs"]["operation"]
    keys = [key.json_key if isinstance(key, Field) else key for key in entry_schema.json_keys()]
    assert keys == list(operation["properties"])
    # A key exported only when set (:label:) is not required: exports without it stay valid.
    optional = [field.json_key for field in entry_schema.fields() if field.exported_when_set]
    assert optional == [entry_schema.LABEL.json_key]
    assert operation["required"] == [key for key in keys if key not in optional]
    for field in entry_schema.fields():
        if not field.json_key:
            continue
        described = operation["properties"][field.json_key]
        if field.converter == VALUES:
            assert described["type"] == "array", field
        if field.choices:
            assert [value for value in described["enum"] if value is not None] == list(
                field.choices
            )
        if field.group != NOTE_ONLY:  # the presets fix those: no note need say them
            assert f":{field.option}:" in described["description"], field


#: A field added by a row: the kernels an operation runs.
KERNELS = Field(
    "kernels", "kernels", "kernels", VALUES, several=True, group=REGISTRY, column=lambda: "Kernels"
)

PROJECT = {
    "conf.py": 'project = "Schema"\nextensions = ["reprodocs"]\n'
    'reprodocs_registry_file = "registry.toml"\nreprodocs_reproducibility_doc = "index"\n',
    "index.rst": """\
Index
=====

.. nondeterministic::
   :op: torch.one
   :kernels: one_cuda, one_cudnn

.. nondeterministic-ops::
""",
    "registry.toml": '[[entry]]\nop = "torch.two"\nkernels = ["two_cuda"]\n',
}


def test_a_field_added_by_one_row_is_in_the_directives_the_file_the_table_and_the_json(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(entry_schema, "FIELDS", (*entry_schema.FIELDS, KERNELS))
    source = tmp_path / "src"
    source.mkdir()
    for name, text in PROJECT.items():
        (source / name).write_text(text, encoding="utf-8")
    output = tmp_path / "html"
    arguments = ["-W", "-q", "-b", "html", "-d", str(tmp_path / "doctrees")]
    assert build_main([*arguments, str(source), str(output)]) == 0

    operations = json.loads((output / JSON_NAME).read_text(encoding="utf-8"))["operations"]
    assert {op["name"]: op["kernels"] for op in operations} == {
        "torch.one": ["one_cuda", "one_cudnn"],
        "torch.two": ["two_cuda"],
    }
    assert list(operations[0])[-1] == "kernels"  # after the keys JSON_ORDER places
    table = BeautifulSoup((output / "index.html").read_text(encoding="utf-8"), "lxml")
    headings = [th.get_text(strip=True) for th in table.select("table thead th")]
    assert headings[-1] == "Kernels"
    cells = [
        [" ".join(td.get_text().split()) for td in tr.select("td")]
        for tr in table.select("tbody tr")
    ]
    assert [row[-1] for row in cells] == ["one_cuda, one_cudnn", "two_cuda"]
