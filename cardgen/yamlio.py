"""Reading YAML safely while remembering where every value was written.

``load_located`` returns plain Python data and a map from each value's path
(``("cards", 3, "edges", "top")``) to its Location, so that checks made
later, on plain data, can still say "decks/x.yaml:14:5".
"""
from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any

import yaml

from .errors import CardgenError, Location
from .files import read_input

Path_ = tuple  # a path into the data: keys and list indexes

#: deck and template files are small; anything bigger is a mistake
MAX_YAML_BYTES = 2_000_000


class Located:
    """Plain data from a YAML file plus where each piece of it was written."""

    def __init__(self, data: Any, locations: dict[Path_, Location], file: str):
        self.data = data
        self.locations = locations
        self.file = file

    def where(self, path: Path_) -> Location:
        """The location of ``path``, or of its nearest written ancestor."""
        path = tuple(path)
        while path not in self.locations and path:
            path = path[:-1]
        return self.locations.get(path, Location(self.file))

    def key_where(self, path: Path_) -> Location:
        """The location of the key (not the value) at ``path``."""
        return self.locations.get(("key",) + tuple(path)) or self.where(path)

    def error(self, path: Path_, message: str, key: bool = False) -> CardgenError:
        return CardgenError(message, self.key_where(path) if key else self.where(path))


def load_located(path: Path, display: str | None = None, shipped: bool = False) -> Located:
    """Parse ``path`` with the safe loader; every failure is a located CardgenError.

    ``shipped``: a file cardgen ships and its tests check (the built-in layouts), composed by
    libyaml when PyYAML has it: the same nodes and marks in a tenth of the time, paid by every build.
    """
    display = display or str(path)
    if path.is_dir():
        raise CardgenError(f"{display} is a folder, expected a YAML file")
    data = read_input(path, display, MAX_YAML_BYTES, Location(display))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CardgenError(f"{display} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return parse_located(text, display, getattr(yaml, "CSafeLoader", yaml.SafeLoader) if shipped else yaml.SafeLoader)


#: values that aliases may add beyond what the file writes out (a "billion laughs" stops here)
MAX_ALIAS_VALUES = 100_000
#: how deeply mappings and lists may nest
MAX_DEPTH = 64


def parse_located(text: str, display: str, loader: Any = yaml.SafeLoader) -> Located:
    try:
        try:
            node = yaml.compose(text, Loader=loader)
        except yaml.YAMLError:
            if loader is yaml.SafeLoader:
                raise
            node = yaml.compose(text, Loader=yaml.SafeLoader)  # PyYAML's own words for the mistake
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        column = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        raise CardgenError(f"character U+{code:04X} is not allowed in YAML (a control character?)",
                           Location(display, line, column)) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "malformed YAML"
        loc = Location(display, mark.line + 1, mark.column + 1) if mark else Location(display)
        raise CardgenError(f"malformed YAML: {problem}", loc) from None
    except yaml.YAMLError as exc:
        raise CardgenError(f"malformed YAML: {' '.join(str(exc).split())}", Location(display)) from None
    except RecursionError:
        raise CardgenError(f"the YAML nests too deeply; at most {MAX_DEPTH} levels are allowed",
                           Location(display)) from None
    if node is None:
        raise CardgenError("the file is empty", Location(display, 1, 1))
    locations: dict[Path_, Location] = {}
    data = _Converter(display, locations).convert(node, ())
    return Located(data, locations, display)


class _Converter:
    """Plain data from a composed node graph, with every value's location; aliases are followed
    within a budget, and an anchor that contains itself is refused."""

    def __init__(self, file: str, locations: dict):
        self.file = file
        self.locations = locations
        self.seen: set[int] = set()
        self.active: set[int] = set()
        self.aliased = 0

    def convert(self, node: yaml.Node, path: Path_, repeat: bool = False, depth: int = 0) -> Any:
        file = self.file
        if depth > MAX_DEPTH:
            raise CardgenError(f"the YAML nests more than {MAX_DEPTH} levels deep", _at(node, file))
        if id(node) in self.active:
            raise CardgenError("an alias refers to its own anchor (the anchor contains itself)", _at(node, file))
        repeat = repeat or id(node) in self.seen
        self.seen.add(id(node))
        if repeat:
            self.aliased += 1
            if self.aliased > MAX_ALIAS_VALUES:
                raise CardgenError(f"aliases repeat the anchor at line {node.start_mark.line + 1} into more than "
                                   f"{MAX_ALIAS_VALUES:,} values; write the values out or use fewer aliases",
                                   _at(node, file))
        mark = node.start_mark
        self.locations[path] = Location(file, mark.line + 1, mark.column + 1)
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
            self.active.add(id(node))
            try:
                return self._collection(node, path, repeat, depth)
            finally:
                self.active.discard(id(node))
        if node.tag == "tag:yaml.org,2002:merge":
            raise CardgenError("YAML merge keys are not supported", _at(node, file))
        constructor = yaml.SafeLoader.yaml_constructors.get(node.tag)
        if constructor is None:
            raise CardgenError(f"unsupported YAML tag {node.tag}", _at(node, file))
        try:
            return constructor(_SCALAR_LOADER, node)
        except (yaml.YAMLError, ValueError, OverflowError) as exc:
            raise CardgenError(f"bad value {node.value!r}: {exc}", _at(node, file)) from None

    def _collection(self, node: yaml.Node, path: Path_, repeat: bool, depth: int) -> Any:
        file = self.file
        if node.tag not in ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"):
            raise CardgenError(f"unsupported YAML tag {node.tag}", _at(node, file))
        if isinstance(node, yaml.SequenceNode):
            return [self.convert(item, path + (i,), repeat, depth + 1) for i, item in enumerate(node.value)]
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise CardgenError("mapping keys must be plain words", _at(key_node, file))
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise CardgenError("YAML merge keys are not supported", _at(key_node, file))
            key = key_node.value
            if key in out:
                raise CardgenError(f"key '{key}' is given twice", _at(key_node, file))
            self.locations[("key",) + path + (key,)] = _at(key_node, file)
            out[key] = self.convert(value_node, path + (key,), repeat, depth + 1)
        return out


_SCALAR_LOADER = yaml.SafeLoader("")


def _at(node: yaml.Node, file: str) -> Location:
    return Location(file, node.start_mark.line + 1, node.start_mark.column + 1)


# --- checking plain data against a JSON Schema subset --------------------------

_TYPES = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
}


def check_schema(doc: Located, schema: dict, path: Path_ = ()) -> None:
    """Raise a located CardgenError at the first place ``doc`` breaks ``schema``.

    Understands the subset of JSON Schema that cardgen's own schemas use:
    type, properties, required, additionalProperties, items, enum, pattern,
    minimum, maximum, minItems, maxItems, minLength, maxLength, maxProperties, anyOf.
    """
    value = _get(doc.data, path)
    _check(doc, schema, value, path)


def _get(data: Any, path: Path_) -> Any:
    for part in path:
        data = data[part]
    return data


def _describe(path: Path_) -> str:
    words = []
    for part in path:
        if isinstance(part, int):
            words.append(f"[{part}]")
        else:
            words.append(("." if words else "") + part)
    return "".join(words) or "the file"


def _type_ok(value: Any, expected: str) -> bool:
    if expected == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if expected == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if expected == "null":
        return value is None
    return isinstance(value, _TYPES[expected])


def _type_name(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"'{str(value).lower()}' (a boolean)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, (int, float)):
        return f"{value!r} (a number)"
    return f"'{value}'"


def _check(doc: Located, schema: dict, value: Any, path: Path_) -> None:
    name = _describe(path)
    if "anyOf" in schema:
        errors = []
        for option in schema["anyOf"]:
            try:
                _check(doc, option, value, path)
                return
            except CardgenError as exc:
                errors.append(exc)
        # report the alternative whose type matched, else a summary
        for option, error in zip(schema["anyOf"], errors):
            t = option.get("type")
            if t and any(_type_ok(value, one) for one in (t if isinstance(t, list) else [t])):
                raise error
        raise doc.error(path, f"{name} must be {schema.get('description', 'something else')}, got {_type_name(value)}")
    expected = schema.get("type")
    if expected:
        types: list[str] = expected if isinstance(expected, list) else [expected]
        if not any(_type_ok(value, t) for t in types):
            wanted = " or ".join(_TYPE_WORDS.get(t, t) for t in types)
            raise doc.error(path, f"{name} must be {wanted}, got {_type_name(value)}")
    if "enum" in schema and value not in schema["enum"]:
        allowed = ", ".join(f"'{v}'" for v in schema["enum"])
        hint = did_you_mean(str(value), [str(v) for v in schema["enum"]])
        raise doc.error(path, f"{name} must be one of {allowed}, got {_type_name(value)}{hint}")
    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            raise doc.error(path, f"{name} must not be empty")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            raise doc.error(path, f"{name} is {len(value)} characters; at most {schema['maxLength']} allowed")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            wanted = schema.get("description", "of the form " + schema["pattern"])
            raise doc.error(path, f"{name} must be {wanted}, got '{value}'")
    if _type_ok(value, "number"):
        if "minimum" in schema and value < schema["minimum"]:
            raise doc.error(path, f"{name} must be at least {schema['minimum']}, got {value}")
        if "maximum" in schema and value > schema["maximum"]:
            raise doc.error(path, f"{name} must be at most {schema['maximum']}, got {value}")
    if isinstance(value, dict):
        if "maxProperties" in schema and len(value) > schema["maxProperties"]:
            raise doc.error(path, f"{name} has {len(value)} entries; at most {schema['maxProperties']} allowed")
        props = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                raise doc.error(path, f"{name} is missing the required key '{key}'")
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in props:
                _check(doc, props[key], item, path + (key,))
            elif extra is False:
                hint = did_you_mean(key, list(props))
                raise doc.error(path + (key,), f"unknown key '{key}' in {name}{hint}", key=True)
            elif isinstance(extra, dict):
                _check(doc, extra, item, path + (key,))
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            raise doc.error(path, f"{name} needs at least {schema['minItems']} entries, has {len(value)}")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            raise doc.error(path, f"{name} has {len(value)} entries; at most {schema['maxItems']} allowed")
        if "items" in schema:
            for i, item in enumerate(value):
                _check(doc, schema["items"], item, path + (i,))


_TYPE_WORDS = {
    "object": "a mapping",
    "array": "a list",
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "empty",
}


def did_you_mean(word: str, choices: list[str]) -> str:
    """``" (did you mean 'top'?)"`` for a close match, else ``""``."""
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
