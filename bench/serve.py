"""The league service under load: ``make bench-serve`` (or ``python bench/serve.py``).

It builds a league like the demo's, only larger (10 teams and two seasons played by
``ledger.generate``, then the demo's accounts: an admin, the commissioner and a coach per
team), serves it with ``ledger serve`` on 127.0.0.1 and a free port, and measures, for each
store and worker count asked (by default SQLite with one worker, PostgreSQL with two):

0. **Writes alone.** One coach pair plays ``--alone`` matches (submit, confirm or approve,
   both closes), one write at a time, with nothing else asked of the service: each write's
   latency without waiting behind others, and the service's CPU per write.
1. **Saturation.** Debian's ``wrk`` (written in C; one thread, 50 connections) drives the
   standings, team and player endpoints of the API (a bearer token) and the same three
   pages (a browser's session cookie), one at a time: requests/s, p50, p99, non-2xx.
   Beside each: the CPU ``wrk`` itself used, and the service's.
2. **Reads at an offered rate while coaches write.** An open-loop reader offers a fixed
   rate (100 reads/s by default, round robin over the six reads): each request leaves at
   its scheduled time whatever the earlier ones are doing and is timed from that time, so
   a stall shows in the figures instead of slowing the load down (coordinated omission).
   Meanwhile five coaches each submit the report of a friendly against another coach's
   team; the opponent confirms half of them, the commissioner approves the other half
   (either records the match), then both coaches close their post-game sequence. Per
   endpoint: p50, p99, errors; then lost writes (a 201 whose request id has no event in
   the league's log, or a recorded match the API cannot find) and ``ledger audit verify``.
   This client is Python (asyncio and a minimal HTTP/1.1 client) in this process, so its
   own CPU is reported beside the figures.

Every loop is bounded in count and time; only 127.0.0.1 is spoken to. PostgreSQL is a
private throwaway cluster started as the tests start one (tests/conftest.py), or the server
``LEDGER_DATABASE_URL`` names, on which a fresh database is made for the run and dropped.
The figures are printed as Markdown, ready for docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from argon2 import PasswordHasher

from ledger.application.accounts import Accounts
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain.state import PlayerRow
from ledger.generate import Spec, generate
from ledger.web.demo import demo_accounts

LEAGUE = "bench"
SPEC = Spec(teams=10, seasons=2, seed=3, division_size=10, slug=LEAGUE)
HOST = "127.0.0.1"
CHEAP = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
"""The benchmark's passwords are hashed cheaply: one sign-in per run, not what is measured."""
TICKS = os.sysconf("SC_CLK_TCK")
KEEP_IDLE = 2.0
"""Seconds a client connection may sit idle before it is closed rather than reused."""
IN_FLIGHT = 256
"""At most this many reads outstanding at once; a read due past it counts as an error."""


# --- the league ---------------------------------------------------------------------------


@dataclass(frozen=True)
class League:
    """What the load needs to know of the league it was given."""

    tokens: dict[str, str]
    """Bearer token per account: ``commissioner`` and each coach's (``coach-1``...)."""
    coach_of: dict[str, str]
    """The account coaching each team."""
    passwords: dict[str, str]
    team: str
    player: str


def build_league(settings: Settings) -> League:
    """The benchmark's league on the store ``settings`` names (which must be empty)."""
    ledger = open_ledger(settings)
    try:
        generate(ledger, SPEC)
        made = demo_accounts(ledger, LEAGUE, hasher=CHEAP, password=lambda a: f"bench-{a}")
        accounts = Accounts(ledger, CHEAP)
        tokens = {a.account: accounts.issue_token(a.account) for a in made if a.role != "admin"}
        players = ledger.view().select(
            PlayerRow, league_id=ledger.league_row(LEAGUE).league_id, team_id="t001"
        )
    finally:
        close_ledger(ledger)
    return League(
        tokens=tokens,
        coach_of={a.team: a.account for a in made if a.team},
        passwords={a.account: a.password for a in made},
        team="t001",
        player=min(players, key=lambda p: p.hired_seq).player_id,
    )


# --- the service --------------------------------------------------------------------------


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@dataclass
class Served:
    pid: int
    base: str
    log: Path

    def cpu(self) -> float:
        """CPU seconds used so far by the service's processes (uvicorn and its workers)."""
        return sum(cpu_seconds(pid) for pid in process_tree(self.pid))


def ledger_command(settings: Settings) -> list[str]:
    """``ledger`` on the store of ``settings``: ``--db`` would win over the PostgreSQL URL
    given in the environment, so it is given only for SQLite."""
    ledger = str(Path(sys.executable).parent / "ledger")
    return [ledger] if settings.database_url else [ledger, "--db", str(settings.sqlite_path)]


@contextlib.contextmanager
def serving(settings: Settings, workers: int, folder: Path) -> Iterator[Served]:
    """``ledger serve`` on a free port of 127.0.0.1 until the block ends."""
    port = free_port()
    log = folder / f"serve-{port}.log"
    env = dict(os.environ, LEDGER_DATABASE_URL=settings.database_url or "")
    command = [
        *ledger_command(settings),
        "serve",
        "--host",
        HOST,
        "--port",
        str(port),
        "--workers",
        str(workers),
    ]
    with log.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    served = Served(process.pid, f"http://{HOST}:{port}", log)
    try:
        wait_healthy(served, process)
        yield served
    finally:
        process.send_signal(signal.SIGINT)  # uvicorn's graceful stop, workers included
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        show_failures(log)


def show_failures(log: Path) -> None:
    """Answers the service failed (5xx, or an error it logged), shown from its own log:
    a non-2xx in the figures is then explained, not only counted."""
    lines = log.read_text(errors="replace").splitlines()
    failed = [
        i
        for i, line in enumerate(lines)
        if '" 5' in line or line.startswith(("ERROR", "Traceback"))
    ]
    for i in failed[:5]:
        progress("service log: " + " | ".join(lines[i : i + 12])[:3000])
    if len(failed) > 5:
        progress(f"service log: {len(failed) - 5} more failures")


def wait_healthy(served: Served, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"ledger serve stopped:\n{served.log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(served.base + "/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"ledger serve did not answer /healthz within 60 s ({served.log})")


def process_tree(root: int) -> list[int]:
    """The process and its descendants (uvicorn's workers), from /proc."""
    parents: dict[int, list[int]] = defaultdict(list)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                parents[int(fields[1])].append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(parents.get(pid, []))
    return found


def cpu_seconds(pid: int) -> float:
    """User and system CPU of one live process (/proc/PID/stat, fields 14 and 15)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def session_cookie(base: str, account: str, password: str) -> str:
    """Sign in through the login form as a browser does; the session cookie's header."""
    with httpx.Client(base_url=base, follow_redirects=False, timeout=30) as browser:
        browser.get("/login").raise_for_status()
        form = {"account": account, "password": password, "csrf": browser.cookies["ledger_csrf"]}
        answer = browser.post("/login", data=form)
        if answer.status_code != 303:
            raise SystemExit(f"signing in as {account} failed: {answer.status_code}")
        return f"ledger_session={answer.cookies['ledger_session']}"


@dataclass(frozen=True)
class Read:
    name: str
    path: str
    header: str


def reads(league: League, cookie: str) -> list[Read]:
    """The six reads measured: three API endpoints (a token), three pages (a cookie)."""
    api = f"Authorization: Bearer {league.tokens[league.coach_of[league.team]]}"
    browser = f"Cookie: {cookie}"
    base = f"/api/leagues/{LEAGUE}"
    return [
        Read("GET /api/.../standings", f"{base}/standings", api),
        Read("GET /api/.../teams/{team}", f"{base}/teams/{league.team}", api),
        Read("GET /api/.../players/{player}", f"{base}/players/{league.player}", api),
        Read("page: league home", f"/leagues/{LEAGUE}", browser),
        Read("page: team", f"/leagues/{LEAGUE}/teams/{league.team}", browser),
        Read("page: player", f"/leagues/{LEAGUE}/players/{league.player}", browser),
    ]


# --- 1. saturation (wrk) -----------------------------------------------------------------------


@dataclass(frozen=True)
class Saturation:
    name: str
    rate: float
    p50: float
    p99: float
    requests: int
    bad: int
    """Non-2xx answers and socket errors."""
    wrk_cpu: float
    """wrk's CPU as a share of one core over the run."""
    service_cpu: float


UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def millis(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)([a-z]+)", text).groups()  # type: ignore[union-attr]
    return float(number) * UNITS[unit]


def saturate(served: Served, read: Read, seconds: int, connections: int) -> Saturation:
    """``wrk`` on one read for ``seconds``; its own CPU from the kernel's accounting."""
    command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "5s"]
    command += ["-H", read.header, served.base + read.path]
    service_before = served.cpu()
    with tempfile.TemporaryFile("w+") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read()
    if process.returncode != 0:
        raise SystemExit(f"wrk failed on {read.path}:\n{text}")
    return parse_wrk(
        read.name,
        text,
        wrk_cpu=(usage.ru_utime + usage.ru_stime) / seconds,
        service_cpu=(served.cpu() - service_before) / seconds,
    )


def parse_wrk(name: str, text: str, *, wrk_cpu: float, service_cpu: float) -> Saturation:
    def found(pattern: str) -> str:
        match = re.search(pattern, text)
        if match is None:
            raise SystemExit(f"wrk's output has no {pattern!r}:\n{text}")
        return match.group(1)

    bad = int(found(r"Non-2xx or 3xx responses: (\d+)") if "Non-2xx" in text else 0)
    if "Socket errors" in text:
        bad += sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", text))
    return Saturation(
        name=name,
        rate=float(found(r"Requests/sec:\s+([\d.]+)")),
        p50=millis(found(r"\s50%\s+(\S+)")),
        p99=millis(found(r"\s99%\s+(\S+)")),
        requests=int(found(r"(\d+) requests in")),
        bad=bad,
        wrk_cpu=wrk_cpu,
        service_cpu=service_cpu,
    )


# --- 2. offered reads and coaches' writes (asyncio) --------------------------------------------


class HttpError(Exception):
    pass


class Http:
    """A minimal HTTP/1.1 client on keep-alive connections to one host: cheap on the CPU
    the service shares (httpx's async client costs several times as much per request)."""

    def __init__(self, base: str) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.host, self.port = host, int(port)
        self.idle: list[tuple[float, asyncio.StreamReader, asyncio.StreamWriter]] = []

    async def request(
        self, method: str, path: str, header: str, body: Any = None
    ) -> tuple[int, dict[str, str], bytes]:
        payload = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n{header}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        head += f"Content-Length: {len(payload)}\r\n\r\n"
        reader, writer = await self.connection()
        try:
            writer.write(head.encode() + payload)
            status, headers, content = await answer(reader)
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError) as error:
            writer.close()
            raise HttpError(f"{method} {path}: {error!r}") from error
        if headers.get("connection") == "close":
            writer.close()
        else:
            self.idle.append((time.monotonic(), reader, writer))
        return status, headers, content

    async def connection(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """An idle connection, or a new one. One idle for longer than ``KEEP_IDLE`` is
        closed instead: uvicorn closes idle connections after 5 s, and a request sent on
        one it is closing would fail for a reason of the client's making."""
        while self.idle:
            since, reader, writer = self.idle.pop()
            if time.monotonic() - since < KEEP_IDLE:
                return reader, writer
            writer.close()
        return await asyncio.open_connection(self.host, self.port)

    def close(self) -> None:
        for _, _, writer in self.idle:
            writer.close()
        self.idle.clear()


async def answer(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    status = int((await reader.readline()).split()[1])
    headers = {}
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, value = line.decode("latin-1").split(":", 1)
        headers[name.strip().lower()] = value.strip()
    if "content-length" in headers:
        return status, headers, await reader.readexactly(int(headers["content-length"]))
    chunks = []
    while size := int((await reader.readline()).strip(), 16):  # chunked
        chunks.append(await reader.readexactly(size))
        await reader.readline()
    await reader.readline()
    return status, headers, b"".join(chunks)


@dataclass
class Timings:
    """Latencies (ms) and errors per endpoint, and the writes the service acknowledged."""

    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    problems: Counter[str] = field(default_factory=Counter)
    """How often each kind of error happened."""
    acknowledged: list[str] = field(default_factory=list)
    """Request ids of the writes answered 201."""
    matches: list[str] = field(default_factory=list)
    """Matches the writes say they recorded."""

    def failed(self, name: str, why: str) -> None:
        self.errors[name] += 1
        self.problems[f"{name}: {why[:300]}"] += 1


async def offered_reads(
    http: Http, targets: list[Read], rate: float, seconds: float, timings: Timings
) -> None:
    """Open loop: read ``i`` leaves at ``start + i / rate`` and is timed from then."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    pending: set[asyncio.Task[None]] = set()
    for i in range(int(rate * seconds)):
        target = targets[i % len(targets)]
        due = start + i / rate
        await asyncio.sleep(max(0.0, due - loop.time()))
        if len(pending) >= IN_FLIGHT:
            timings.failed(target.name, "not sent: too many reads outstanding")
            continue
        task = asyncio.create_task(one_read(http, target, due, timings))
        pending.add(task)
        task.add_done_callback(pending.discard)
    if pending:
        await asyncio.wait(pending, timeout=30)


async def one_read(http: Http, target: Read, due: float, timings: Timings) -> None:
    try:
        status, _, _ = await http.request("GET", target.path, target.header)
    except HttpError as error:
        timings.failed(target.name, str(error))
        return
    elapsed = (asyncio.get_running_loop().time() - due) * 1000
    if status == 200:
        timings.times[target.name].append(elapsed)
    else:
        timings.failed(target.name, f"status {status}")


@dataclass(frozen=True)
class Coaches:
    """One pair of teams: the coach who submits and the opponent who answers."""

    home: str
    away: str
    submitter: str
    opponent: str


class Writers:
    """Five coaches submitting friendlies' reports, their opponents confirming half, the
    commissioner approving the other half; each write timed and its receipt kept."""

    def __init__(
        self,
        http: Http,
        league: League,
        timings: Timings,
        deadline: float,
        pause: float,
        prefix: str = "friendly",
    ) -> None:
        self.http, self.league, self.timings, self.deadline = http, league, timings, deadline
        self.pause = pause
        self.prefix = prefix
        """Of the matches' ids, so that two runs on one league do not collide."""
        self.approvals: asyncio.Queue[tuple[str, asyncio.Future[str | None]]] = asyncio.Queue()

    async def write(
        self, name: str, account: str, path: str, body: Any = None
    ) -> dict[str, Any] | None:
        header = f"Authorization: Bearer {self.league.tokens[account]}"
        started = time.perf_counter()
        try:
            status, headers, content = await self.http.request("POST", path, header, body)
        except HttpError as error:
            self.timings.failed(name, str(error))
            return None
        self.timings.times[name].append((time.perf_counter() - started) * 1000)
        if status != 201:
            self.timings.failed(name, f"status {status}: {content[:300]!r}")
            return None
        self.timings.acknowledged.append(headers["x-request-id"])
        receipt: dict[str, Any] = json.loads(content)
        return receipt

    async def squad(self, account: str, team: str) -> list[dict[str, Any]]:
        header = f"Authorization: Bearer {self.league.tokens[account]}"
        path = f"/api/leagues/{LEAGUE}/teams/{team}"
        started = time.perf_counter()
        status, _, content = await self.http.request("GET", path, header)
        self.timings.times["GET roster (coach, before a report)"].append(
            (time.perf_counter() - started) * 1000
        )
        if status != 200:
            raise HttpError(f"GET {path}: {status}")
        players = json.loads(content)["players"]
        fit = [p for p in players if p["status"] == "active" and not p["miss_next_game"]]
        return [
            {"player": p["player_id"], "td": int(i == 0), "mvp": int(i == 1)}
            for i, p in enumerate(fit[:11])
        ]

    async def pair(self, coaches: Coaches, reports: int) -> None:
        loop = asyncio.get_running_loop()
        for n in range(reports):
            if loop.time() > self.deadline:
                return
            try:
                if not await self.one_match(coaches, n):
                    return
            except HttpError as error:  # a roster read failed: this coach stops
                self.timings.failed("GET roster (coach, before a report)", str(error))
                return
            await asyncio.sleep(self.pause)  # a coach's pause between two matches

    async def one_match(self, coaches: Coaches, n: int) -> bool:
        base = f"/api/leagues/{LEAGUE}"
        match = f"{self.prefix}-{coaches.home}-{n}"
        report = {
            "match": match,
            "kind": "friendly",
            "home": {
                "team": coaches.home,
                "players": await self.squad(coaches.submitter, coaches.home),
            },
            "away": {
                "team": coaches.away,
                "players": await self.squad(coaches.opponent, coaches.away),
            },
        }
        made = await self.write(
            "POST reports (submit)", coaches.submitter, f"{base}/reports?roll_missing=true", report
        )
        if made is None:
            return False
        submission = made["submission"]
        if n % 2 == 0:
            done = await self.write(
                "POST reports/{id}/confirm (records)",
                coaches.opponent,
                f"{base}/reports/{submission}/confirm",
            )
            recorded = done["match"] if done else None
        else:
            decided: asyncio.Future[str | None] = loop_future()
            await self.approvals.put((submission, decided))
            recorded = await decided
        if recorded is None:
            return False
        self.timings.matches.append(recorded)
        for account in (coaches.submitter, coaches.opponent):
            closed = await self.write(
                "POST matches/{id}/close",
                account,
                f"{base}/matches/{match}/close",
                {"roll_missing": True},
            )
            if closed is None:
                return False
        return True

    async def commissioner(self, finished: asyncio.Event) -> None:
        """Approve each report handed over, until every pair has finished."""
        base = f"/api/leagues/{LEAGUE}/reports"
        while not finished.is_set() or not self.approvals.empty():
            try:
                submission, decided = await asyncio.wait_for(self.approvals.get(), 0.5)
            except TimeoutError:
                continue
            done = await self.write(
                "POST reports/{id}/approve (records)",
                "commissioner",
                f"{base}/{submission}/approve",
            )
            decided.set_result(done["match"] if done else None)


def loop_future() -> asyncio.Future[str | None]:
    return asyncio.get_running_loop().create_future()


def pairs(league: League, count: int) -> list[Coaches]:
    teams = sorted(league.coach_of)
    return [
        Coaches(home, away, league.coach_of[home], league.coach_of[away])
        for home, away in zip(teams[:count], teams[count : 2 * count], strict=True)
    ]


@dataclass(frozen=True)
class Mixed:
    timings: Timings
    seconds: float
    client_cpu: float
    """This process's CPU (the reader, the writers, the event loop) as a share of one core."""
    service_cpu: float
    lost: list[str]
    audit: str


async def mixed_load(
    served: Served, league: League, targets: list[Read], options: argparse.Namespace
) -> tuple[Timings, float]:
    rate, seconds = options.rate, options.mixed_seconds
    timings = Timings()
    loop = asyncio.get_running_loop()
    readers, writers_http = Http(served.base), Http(served.base)
    deadline = loop.time() + seconds
    writers = Writers(writers_http, league, timings, deadline, options.pause)
    finished = asyncio.Event()
    started = loop.time()

    async def coaches() -> None:
        await asyncio.gather(*(writers.pair(c, reports=200) for c in pairs(league, 5)))
        finished.set()

    await asyncio.wait_for(
        asyncio.gather(
            offered_reads(readers, targets, rate, seconds, timings),
            coaches(),
            writers.commissioner(finished),
        ),
        timeout=seconds + 120,
    )
    elapsed = loop.time() - started
    readers.close()
    writers_http.close()
    return timings, elapsed


@dataclass(frozen=True)
class Alone:
    """One coach pair's matches played one write at a time, nothing else asked of the
    service: what a write costs without waiting behind others."""

    timings: Timings
    service_cpu_ms: float
    """The service's CPU per acknowledged write."""


async def writes_alone(served: Served, league: League, matches: int) -> Timings:
    timings = Timings()
    http = Http(served.base)
    loop = asyncio.get_running_loop()
    writers = Writers(http, league, timings, loop.time() + 600, pause=0.0, prefix="alone")
    finished = asyncio.Event()

    async def one_pair() -> None:
        await writers.pair(pairs(league, 1)[0], reports=matches)
        finished.set()

    await asyncio.wait_for(asyncio.gather(one_pair(), writers.commissioner(finished)), 600)
    http.close()
    return timings


def run_alone(served: Served, league: League, matches: int) -> Alone:
    before = served.cpu()
    timings = asyncio.run(writes_alone(served, league, matches))
    used = served.cpu() - before
    return Alone(timings, used / max(len(timings.acknowledged), 1) * 1000)


def run_mixed(
    served: Served, league: League, targets: list[Read], options: argparse.Namespace
) -> tuple[Timings, float, float, float]:
    before = resource.getrusage(resource.RUSAGE_SELF)
    service_before = served.cpu()
    timings, elapsed = asyncio.run(mixed_load(served, league, targets, options))
    after = resource.getrusage(resource.RUSAGE_SELF)
    used = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return timings, elapsed, used / elapsed, (served.cpu() - service_before) / elapsed


def lost_writes(served: Served, league: League, timings: Timings) -> list[str]:
    """Acknowledged writes whose events are not in the log, and recorded matches the API
    does not know: both must be none."""
    header = {"Authorization": f"Bearer {league.tokens['commissioner']}"}
    logged: set[str] = set()
    with httpx.Client(base_url=served.base, headers=header, timeout=60) as client:
        after: int | None = 0
        for _ in range(10_000):  # pages of 500: bounded far above any run's log
            page = client.get(
                f"/api/leagues/{LEAGUE}/events", params={"limit": 500, "after": after}
            )
            page.raise_for_status()
            body = page.json()
            logged.update(e["request_id"] for e in body["items"] if e["request_id"])
            after = body.get("next")
            if not after:
                break
        lost = [f"request {r}: no event" for r in timings.acknowledged if r not in logged]
        for match in timings.matches:
            if client.get(f"/api/leagues/{LEAGUE}/matches/{match}").status_code != 200:
                lost.append(f"match {match}: not found")
    return lost


def audit_verify(settings: Settings) -> str:
    env = dict(os.environ, LEDGER_DATABASE_URL=settings.database_url or "")
    done = subprocess.run(
        [*ledger_command(settings), "audit", "verify"],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    said = " / ".join(line.strip() for line in (done.stdout + done.stderr).splitlines() if line)
    return f"exit {done.returncode}: {said[:600]}"


# --- one configuration: a store and a number of workers ----------------------------------------


@dataclass(frozen=True)
class Config:
    store: str  # "sqlite" or "postgres"
    workers: int

    @property
    def label(self) -> str:
        return f"{'SQLite' if self.store == 'sqlite' else 'PostgreSQL'}, {self.workers} worker" + (
            "s" if self.workers > 1 else ""
        )


@dataclass
class Result:
    config: Config
    load_before: float
    saturation: list[Saturation]
    mixed: Mixed | None = None
    alone: Alone | None = None


def measure(config: Config, settings: Settings, options: argparse.Namespace) -> Result:
    progress(f"{config.label}: building the league")
    league = build_league(settings)
    with (
        tempfile.TemporaryDirectory(prefix="bench-serve-") as folder,
        serving(settings, config.workers, Path(folder)) as served,
    ):
        cookie = session_cookie(
            served.base,
            league.coach_of[league.team],
            league.passwords[league.coach_of[league.team]],
        )
        targets = reads(league, cookie)
        result = Result(config, os.getloadavg()[0], [])
        if options.alone > 0:
            progress(f"{config.label}: {options.alone} matches, one write at a time")
            result.alone = run_alone(served, league, options.alone)
        for target in targets:
            progress(f"{config.label}: saturating {target.name}")
            saturate(served, target, 1, options.connections)  # warm-up, not kept
            result.saturation.append(saturate(served, target, options.seconds, options.connections))
        if options.mixed_seconds > 0:
            progress(f"{config.label}: {options.rate:g} reads/s offered while coaches write")
            timings, elapsed, client_cpu, service_cpu = run_mixed(served, league, targets, options)
            lost = lost_writes(served, league, timings)
    if options.mixed_seconds > 0:
        result.mixed = Mixed(
            timings, elapsed, client_cpu, service_cpu, lost, audit_verify(settings)
        )
    return result


@contextlib.contextmanager
def store(config: Config, folder: Path) -> Iterator[Settings]:
    """A fresh, empty store for one configuration."""
    sqlite = folder / f"{config.store}-{config.workers}.db"
    if config.store == "sqlite":
        yield Settings(sqlite_path=sqlite, user="bench")
        return
    with postgres_server() as server:
        name = f"ledger_bench_{os.getpid()}_{config.workers}"
        import psycopg

        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        try:
            yield Settings(
                sqlite_path=sqlite, database_url=server.rsplit("/", 1)[0] + f"/{name}", user="bench"
            )
        finally:
            with psycopg.connect(server, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """The server ``LEDGER_DATABASE_URL`` names, else a private cluster as the tests start."""
    given = os.environ.get("LEDGER_DATABASE_URL")
    if given:
        yield given
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.conftest import private_cluster

    with private_cluster() as url:
        yield url


def calm(limit: float, patience: float) -> float:
    """Wait (at most ``patience`` seconds) for the 1-minute load average to fall under
    ``limit``: the machine is shared, and a busy one measures its other work."""
    deadline = time.monotonic() + patience
    while (load := os.getloadavg()[0]) >= limit and time.monotonic() < deadline:
        progress(f"load average {load:.2f} >= {limit}: waiting")
        time.sleep(15)
    return load


def progress(text: str) -> None:
    print(f"  {text}", file=sys.stderr, flush=True)


# --- the report ----------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def report(results: list[Result], options: argparse.Namespace) -> str:
    lines = [
        f"`python bench/serve.py {' '.join(sys.argv[1:])}`".replace("  ", " "),
        "",
        f"Saturation: wrk -t1 -c{options.connections} -d{options.seconds}s, one read at a time.",
        "",
        "| store | read | requests/s | p50 | p99 | non-2xx/errors | wrk CPU | service CPU |"
        " service CPU per request |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        for s in r.saturation:
            lines.append(
                f"| {r.config.label} | {s.name} | {s.rate:,.0f} | {s.p50:.1f} ms | {s.p99:.1f} ms"
                f" | {s.bad} | {s.wrk_cpu:.0%} | {s.service_cpu:.0%} |"
                f" {s.service_cpu / max(s.rate, 1e-9) * 1000:.1f} ms |"
            )
    lines.append("")
    lines.append(
        "Load average (1 min) when each configuration started: "
        + ", ".join(f"{r.config.label} {r.load_before:.2f}" for r in results)
    )
    for r in results:
        if r.alone:
            lines += ["", *alone_report(r.config, r.alone, options)]
        if r.mixed:
            lines += ["", *mixed_report(r.config, r.mixed, options)]
    return "\n".join(lines)


def alone_report(config: Config, alone: Alone, options: argparse.Namespace) -> list[str]:
    lines = [
        f"{config.label}: {options.alone} matches by one coach pair, one write at a time and"
        f" nothing else asked of the service; its CPU {alone.service_cpu_ms:.1f} ms per write.",
        "",
        "| write | count | p50 | p99 | errors |",
        "|---|---:|---:|---:|---:|",
    ]
    t = alone.timings
    for name in sorted(set(t.times) | set(t.errors)):
        values = t.times.get(name, [])
        lines.append(
            f"| {name} | {len(values)} | {percentile(values, 0.5):.1f} ms |"
            f" {percentile(values, 0.99):.1f} ms | {t.errors.get(name, 0)} |"
        )
    return lines


def mixed_report(config: Config, mixed: Mixed, options: argparse.Namespace) -> list[str]:
    t = mixed.timings
    served = sum(len(v) for k, v in t.times.items() if not k.startswith(("POST", "GET roster")))
    lines = [
        f"{config.label}: {options.rate:g} reads/s offered for {options.mixed_seconds:g} s"
        f" ({served / mixed.seconds:.1f} reads/s answered) while 5 coaches submit reports"
        f" (pausing {options.pause:g} s between matches: {len(t.acknowledged) / mixed.seconds:.1f}"
        " writes/s);"
        f" client CPU {mixed.client_cpu:.0%} of a core, service CPU {mixed.service_cpu:.0%}.",
        "",
        "| endpoint | count | p50 | p99 | max | errors |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name in sorted(
        set(t.times) | set(t.errors), key=lambda n: (n.startswith(("POST", "GET roster")), n)
    ):
        values = t.times.get(name, [])
        lines.append(
            f"| {name} | {len(values)} | {percentile(values, 0.5):.1f} ms |"
            f" {percentile(values, 0.99):.1f} ms | {max(values, default=float('nan')):.1f} ms |"
            f" {t.errors.get(name, 0)} |"
        )
    lines += [
        "",
        f"Writes acknowledged (201): {len(t.acknowledged)}; matches recorded: {len(t.matches)};"
        f" lost writes: {len(mixed.lost)}; `ledger audit verify`: {mixed.audit}.",
    ]
    lines += [f"- error ({n}x): {p}" for p, n in t.problems.most_common(12)]
    lines += [f"- lost: {p}" for p in mixed.lost[:20]]
    return lines


def configs(text: str) -> list[Config]:
    found = []
    for item in text.split(","):
        name, _, workers = item.partition(":")
        if name not in ("sqlite", "postgres") or not workers.isdigit():
            raise SystemExit(f"--configs: {item!r} is not sqlite:N or postgres:N")
        found.append(Config(name, int(workers)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configs", default="sqlite:1,postgres:2", help="store:workers, ...")
    parser.add_argument("--seconds", type=int, default=10, help="wrk's run per read")
    parser.add_argument("--connections", type=int, default=50, help="wrk's connections")
    parser.add_argument("--rate", type=float, default=100.0, help="reads/s offered")
    parser.add_argument("--mixed-seconds", type=float, default=60.0, help="0: no mixed run")
    parser.add_argument("--pause", type=float, default=2.0, help="a coach's pause between matches")
    parser.add_argument("--calm", type=float, default=0.0, help="wait for a load average under")
    parser.add_argument(
        "--alone", type=int, default=20, help="matches timed one write at a time (0: none)"
    )
    options = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("bench/serve.py drives the service with Debian's wrk: apt-get install wrk")
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as folder:
        for config in configs(options.configs):
            if options.calm:
                calm(options.calm, patience=900)
            with store(config, Path(folder)) as settings:
                results.append(measure(config, settings, options))
    print(report(results, options))


if __name__ == "__main__":
    main()
