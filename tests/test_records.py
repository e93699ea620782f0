"""`pinup.records.Record` against `@dataclass`: the same instances, errors and pickles, no code compiled."""

from __future__ import annotations

import dataclasses
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest

from pinup.records import COMPILE_AFTER, FrozenRecordError, Record, as_dict, field, fields

ROOT = Path(__file__).resolve().parents[1]


class Swatch(Record):
    name: str
    hex: str = "#000000"
    tags: list[str] = field(default_factory=list)
    kind: ClassVar[str] = "colour"


class Named(Swatch):
    role: str = ""
    hex: str = "#ffffff"  # a parent's field given a new default keeps its place


@dataclasses.dataclass
class SwatchClass:
    name: str
    hex: str = "#000000"
    tags: list[str] = dataclasses.field(default_factory=list)


class Point(Record, frozen=True):
    x: int
    y: int = 0


class Checked(Record):
    low: int
    high: int
    seen: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.low > self.high:
            raise ValueError("low above high")
        self.seen.append("post")


def test_fields_defaults_and_factories_as_a_dataclass() -> None:
    assert fields(Swatch) == ("name", "hex", "tags") and fields(Swatch("a")) == fields(Swatch)
    assert fields(Named) == ("name", "hex", "tags", "role")
    one, two = Swatch("a"), Swatch("b")
    assert one.tags == [] and one.tags is not two.tags  # a fresh list each
    assert Swatch.kind == "colour" and "kind" not in vars(one)
    assert Named("n").hex == "#ffffff" and Swatch("s").hex == "#000000"
    for args, kwargs in ((("a",), {}), (("a", "#111111"), {"tags": ["x"]}), ((), {"name": "a", "hex": "#222222"})):
        made, twin = Swatch(*args, **kwargs), SwatchClass(*args, **kwargs)
        assert list(vars(made).items()) == list(vars(twin).items())  # every field, in order
        assert repr(made) == repr(twin).replace("SwatchClass", "Swatch")


def test_equality_and_hash_as_a_dataclass() -> None:
    assert Swatch("a", tags=["x"]) == Swatch("a", tags=["x"])
    assert Swatch("a") != Swatch("b") and Swatch("a") != Named("a", hex="#000000")
    assert Swatch("a") != "a" and Swatch("a").__eq__(("a", "#000000", [])) is NotImplemented
    with pytest.raises(TypeError):
        hash(Swatch("a"))  # mutable, with equality: unhashable, as @dataclass makes it
    assert hash(Point(1, 2)) == hash(Point(1, 2)) and len({Point(1), Point(1, 0), Point(2)}) == 2

    @dataclasses.dataclass
    class MeasureClass:
        value: float

    class Measure(Record):
        value: float

    nan = float("nan")  # equal to itself only as the same object, as in the tuples a dataclass compares
    assert (Measure(nan) == Measure(nan)) is (MeasureClass(nan) == MeasureClass(nan)) is True
    assert (Measure(nan) == Measure(float("nan"))) is (MeasureClass(nan) == MeasureClass(float("nan"))) is False


def _wrong_calls(cls: Any) -> list[tuple[Any, str]]:
    return [
        (lambda: cls(), r"missing .*required.* argument.*'name'"),
        (lambda: cls("a", "#1", [], "extra"), "takes 3 positional arguments but 4 were given|takes from 2 to 4"),
        (lambda: cls("a", name="b"), "multiple values for argument 'name'"),
        (lambda: cls("a", colour="red"), "unexpected keyword argument 'colour'"),
    ]


def test_wrong_arguments_are_the_errors_a_dataclass_gives() -> None:
    for call, message in _wrong_calls(Swatch):
        with pytest.raises(TypeError, match=message):
            call()


def test_a_class_used_often_gets_its_own_compiled_init_that_does_the_same() -> None:
    """After `COMPILE_AFTER` instances a class's `__init__` is compiled for it, as a dataclass's is;
    what it makes, and what it refuses, do not change."""

    class Often(Record):
        name: str
        hex: str = "#000000"
        tags: list[str] = field(default_factory=list)
        seen: list[str] = field(default_factory=list)

        def __post_init__(self) -> None:
            self.seen.append(self.name)

    class Oftener(Often):
        role: str = ""

    class Pinned(Record, frozen=True):
        x: int
        y: int = 0

    shared = Often.__init__
    before = [Often("a"), Often("b", "#111111", tags=["t"]), Often(name="c", hex="#222222")]
    for _ in range(COMPILE_AFTER):
        Often("x")
        Pinned(1)
    assert Often.__init__ is not shared and Oftener.__init__ is shared  # the subclass counts its own
    after = [Often("a"), Often("b", "#111111", tags=["t"]), Often(name="c", hex="#222222")]
    for old, new in zip(before, after, strict=True):
        assert list(vars(old).items()) == list(vars(new).items()) and old == new
    assert after[0].tags is not Often("z").tags and after[0].seen == ["a"]
    assert list(vars(Oftener("o", role="r"))) == ["name", "hex", "tags", "seen", "role"]
    assert Pinned(1, 2) == Pinned(x=1, y=2) and hash(Pinned(1)) == hash(Pinned(1, 0))
    with pytest.raises(FrozenRecordError):
        Pinned(1).x = 2  # type: ignore[misc]

    class Compiled(Swatch):
        pass

    for _ in range(COMPILE_AFTER):
        Compiled("x")
    assert Compiled.__init__ is not Swatch.__init__
    for call, message in _wrong_calls(Compiled):
        with pytest.raises(TypeError, match=message):
            call()


def test_class_mistakes_fail_at_definition() -> None:
    with pytest.raises(ValueError, match="mutable default"):

        class Listed(Record):
            items: list[str] = []  # noqa: RUF012 - the mistake under test

    with pytest.raises(TypeError, match="without a default follows"):

        class Ordered(Record):
            first: int = 0
            second: int

    with pytest.raises(TypeError, match="frozen and mutable"):

        class Thawed(Point, frozen=False):
            z: int = 0


def test_frozen_records_refuse_changes() -> None:
    point = Point(1, 2)
    with pytest.raises(FrozenRecordError):
        point.x = 3  # type: ignore[misc]
    with pytest.raises(FrozenRecordError):
        del point.y  # type: ignore[misc]
    assert isinstance(FrozenRecordError(), AttributeError)
    assert (point.x, point.y) == (1, 2)

    class Deeper(Point):
        z: int = 0

    assert Deeper(1, 2, 3) == Deeper(1, 2, 3) and hash(Deeper(1)) == hash(Deeper(1))
    with pytest.raises(FrozenRecordError):
        Deeper(1).z = 1  # type: ignore[misc]


def test_post_init_runs_after_the_fields() -> None:
    assert Checked(1, 2).seen == ["post"]
    with pytest.raises(ValueError, match="low above high"):
        Checked(3, 2)


def test_pickles_round_trip_and_match_a_dataclass() -> None:
    for record in (Swatch("a", tags=["x"]), Point(1, 2), Named("n", role="r")):
        copy = pickle.loads(pickle.dumps(record, protocol=4))
        assert copy == record and copy is not record
    state: Any = Swatch("a", "#111111", ["x"]).__reduce_ex__(4)[2]
    assert pickle.dumps(state, protocol=4) == pickle.dumps(vars(SwatchClass("a", "#111111", ["x"])), protocol=4)


def test_as_dict_goes_into_records_lists_and_dicts() -> None:
    class Board(Record):
        points: list[Point]
        named: dict[str, Swatch]
        pair: tuple[int, int] = (1, 2)

    board = Board([Point(1)], {"a": Swatch("a")})
    assert as_dict(board) == {
        "points": [{"x": 1, "y": 0}],
        "named": {"a": {"name": "a", "hex": "#000000", "tags": []}},
        "pair": (1, 2),
    }


def test_a_one_token_rebuild_compiles_no_dataclass() -> None:
    """The modules a gallery or workspace build imports declare records, not dataclasses (the
    point of `pinup.records`: no code compiled at import)."""
    code = (
        "import sys, dataclasses\n"
        "made = []\n"
        "real = dataclasses._process_class\n"
        "dataclasses._process_class = lambda cls, *a, **k: made.append(cls.__module__) or real(cls, *a, **k)\n"
        "import pinup.build, pinup.gallery, pinup.docsite.pages, pinup.docsite.render, pinup.boards.build\n"
        "import pinup.boards.context, pinup.workspace, pinup.serve.notify, pinup.theme\n"
        "print(sorted({m for m in made if m.startswith('pinup')}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT, env=None, timeout=120
    )
    assert done.stdout.strip() == "[]", done.stdout
