"""The reading protocol_gen.py builds on (written by hand, as the Go driver's protocol_decoder.go): each
reader takes a JSON value as json.loads gives it and its path, and returns the value or raises
ProtocolError with the sentence the runner shows ("field load.concurrency must be an integer")."""

from typing import Any, Callable, Dict, List, Optional, TypeVar

T = TypeVar("T")
Reader = Callable[[Any, str], T]


class ProtocolError(ValueError):
    """A cell the driver cannot read: its message names the field."""


def _must_be(path: str, what: str) -> ProtocolError:
    return ProtocolError(f"{'field ' + path if path else 'the JSON value'} must be {what}")


def _object(value: Any, path: str) -> Dict[str, Any]:
    if not isinstance(value, dict):
        raise _must_be(path, "an object")
    return value


def _field(o: Dict[str, Any], path: str, name: str) -> "tuple[Any, str]":
    return o.get(name), f"{path}.{name}" if path else name


def _required(o: Dict[str, Any], path: str, name: str, read: Reader) -> Any:
    v, p = _field(o, path, name)
    if v is None:
        raise ProtocolError(f"missing field {p}")
    return read(v, p)


def _optional(o: Dict[str, Any], path: str, name: str, read: Reader, fallback: Any) -> Any:
    v, p = _field(o, path, name)
    return fallback if v is None else read(v, p)


def _string(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise _must_be(path, "a string")
    return value


def _one_of(*values: str) -> Reader:
    def read(value: Any, path: str) -> str:
        s = _string(value, path)
        if s not in values:
            raise _must_be(path, f"one of {', '.join(values)}, not {s!r}")
        return s

    return read


def _number(value: Any, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _must_be(path, "a number")
    return float(value)


def _integer(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (isinstance(value, float) and not value.is_integer()):
        raise _must_be(path, "an integer")
    return int(value)


def _boolean(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise _must_be(path, "a boolean")
    return value


def _list_of(read: Reader) -> Reader:
    def read_list(value: Any, path: str) -> List[Any]:
        if not isinstance(value, list):
            raise _must_be(path, "an array")
        return [read(v, f"{path}[{i}]") for i, v in enumerate(value)]

    return read_list

