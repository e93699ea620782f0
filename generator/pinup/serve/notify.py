"""Tell a running `pinup serve` that its site was rebuilt from outside (an agent's `pinup build`).

Why: the agent loop is "write the next round, `pinup build`"; the reviewer's open tab must then
move to that round by itself. The build finds the server from `serve.json` in the output folder
and sends the documented `POST /api/reload` for each board whose build changed (a new round, or
new contents in the same round); a page already showing that build ignores it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pinup.boards.built import BuiltBoard, built_boards

if TYPE_CHECKING:  # pragma: no cover
    from pinup.serve import servefile


@dataclass(frozen=True, slots=True)
class RunningServer:
    """A live `pinup serve` for one output folder."""

    out: Path
    info: servefile.ServeInfo

    def boards(self) -> dict[str, BuiltBoard]:
        return built_boards(self.out)

    def notify(self, before: dict[str, BuiltBoard]) -> str:
        """Reload the boards whose build changed since `before`; returns the line to print."""
        import httpx

        changed = {slug: b.round for slug, b in self.boards().items() if before.get(slug) != b}
        if not changed:
            return f"pinup serve ({self.info.base_url}): no board changed; nothing to reload"
        done: list[str] = []
        for slug, round_ in sorted(changed.items()):
            try:
                response = httpx.post(
                    f"{self.info.base_url}/api/reload",
                    json={"board": slug},
                    timeout=5,
                    headers={"Authorization": f"Bearer {self.info.token}"},
                )
            except httpx.HTTPError as exc:
                return f"pinup serve ({self.info.base_url}) did not answer ({exc}); reload the board by hand"
            if response.status_code == 200:
                done.append(f"{slug} (round {round_})")
        return f"pinup serve ({self.info.base_url}): reloaded {', '.join(done) or 'nothing'}"


def running_server(out: Path) -> RunningServer | None:
    """The `pinup serve` serving `out`, when one is running.

    Most builds have no server: without a serve.json, nothing (not even pydantic, which reading
    one needs) is imported.
    """
    path = out / "serve.json"
    if not path.is_file():
        return None
    from pinup.serve import servefile

    info = servefile.read_live(path)
    if info is None:
        return None
    return RunningServer(out=out, info=info)
