"""Workers in Docker containers, for users who have a Docker engine.

Each invocation gets a fresh container (network off, read-only root, no
capabilities, no new privileges, memory and CPU limits, optionally the gVisor
``runsc`` runtime). The container connects back to the host over a Unix socket
in a bind-mounted directory and then speaks the same frames as any worker.
The image must have the host's Python version (msgpack's compiled module and
this package are bind-mounted read-only into it); the default is the official
``python:X.Y-slim``.

Needs the Docker SDK (``pip install 'hackwright[docker]'``) and a running engine.
"""

from __future__ import annotations

import os
import socket
import sys
import tempfile
from pathlib import Path
from typing import Optional

from . import errors

CONTAINER_DIR = "/hackwright"


def default_image() -> str:
    return f"python:{sys.version_info.major}.{sys.version_info.minor}-slim"


def docker_available() -> tuple[bool, str]:
    """(True, "") when the SDK is installed and an engine answers; else (False, why)."""
    try:
        import docker  # noqa: F401
    except ImportError:
        return False, "the Docker SDK is not installed (pip install 'hackwright[docker]')"
    try:
        import docker

        docker.from_env().ping()
    except Exception as e:
        return False, f"no Docker engine answers ({type(e).__name__}: {e})"
    return True, ""


class DockerPool:
    """The Docker counterpart of the zygote: request / collect / kill / exit_status."""

    def __init__(self, image: Optional[str] = None, runtime: Optional[str] = None):
        ok, why = docker_available()
        if not ok:
            raise errors.SandboxUnavailableError(f"Docker backend unavailable: {why}")
        import docker

        self.client = docker.from_env()
        self.image = image or default_image()
        self.runtime = runtime  # e.g. "runsc" for gVisor
        self.dir = tempfile.mkdtemp(prefix="hackwright-docker-")
        os.chmod(self.dir, 0o755)
        self._containers: dict[int, object] = {}
        self._ready: dict[int, tuple[int, socket.socket]] = {}
        self._next = 0
        self.exits: dict[int, int] = {}

    @property
    def alive(self) -> bool:
        return True

    def healthy(self) -> bool:
        return True  # each worker is its own container; there is no parent to lose

    def _mounts(self) -> dict:
        import msgpack

        package_root = str(Path(__file__).resolve().parents[2])
        site = str(Path(msgpack.__file__).resolve().parents[1])
        return {
            self.dir: {"bind": CONTAINER_DIR, "mode": "rw"},
            package_root: {"bind": "/opt/hackwright-src", "mode": "ro"},
            site: {"bind": "/opt/hackwright-site", "mode": "ro"},
        }

    def request(self, memory: int, cpu: int) -> int:
        self._next += 1
        wid = self._next
        path = os.path.join(self.dir, f"w{wid}.sock")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(path)
        os.chmod(path, 0o777)
        listener.listen(1)
        code = (
            "import socket,sys;sys.path[:0]=['/opt/hackwright-src','/opt/hackwright-site'];"
            "from hackwright.sandbox.protocol import Channel;from hackwright.sandbox.worker import serve;"
            f"s=socket.socket(socket.AF_UNIX);s.connect('{CONTAINER_DIR}/w{wid}.sock');serve(Channel(s))"
        )
        container = self.client.containers.run(
            self.image, ["python", "-I", "-c", code], detach=True, network_disabled=True, read_only=True,
            mem_limit=memory + (64 << 20), nano_cpus=1_000_000_000, pids_limit=16, cap_drop=["ALL"],
            security_opt=["no-new-privileges"], user="65534:65534", volumes=self._mounts(),
            runtime=self.runtime, environment={}, auto_remove=False,
        )
        self._containers[wid] = container
        listener.settimeout(30)
        try:
            conn, _ = listener.accept()
        except socket.timeout:
            container.remove(force=True)
            raise TimeoutError("the Docker worker did not connect")
        finally:
            listener.close()
            os.unlink(path)
        self._ready[wid] = (wid, conn)
        return wid

    def collect(self, req_id: int, timeout: float = 30.0) -> tuple[int, socket.socket]:
        return self._ready.pop(req_id)

    def kill(self, wid: int) -> None:
        c = self._containers.get(wid)
        if c is not None:
            try:
                c.kill()
            except Exception:
                pass

    def exit_status(self, wid: int, timeout: float = 5.0) -> Optional[int]:
        c = self._containers.pop(wid, None)
        if c is None:
            return None
        try:
            code = int(c.wait(timeout=timeout).get("StatusCode", 1))
            c.reload()
            oom = c.attrs.get("State", {}).get("OOMKilled")
            c.remove(force=True)
        except Exception:
            return None
        # Report as a wait status: 128+N from the container means signal N.
        if oom:
            return 9
        return code - 128 if code > 128 else code << 8

    def close(self) -> None:
        for wid in list(self._containers):
            self.kill(wid)
            self.exit_status(wid)
        try:
            os.rmdir(self.dir)
        except OSError:
            pass
