"""Making NetHack games: NLE's challenge environment or any MiniHack level, seeded.

Seeding convention (the same one the NetHack Challenge bot AutoAscend used, so
results compare seed for seed with any agent that follows it):

    seed S  ==  NLE.seed(core=S, disp=S, reseed=False)  before the first reset,
                with fix_moon_phase=True

``NetHackChallenge-v0`` refuses seeding on purpose (its ``seed()`` raises and it
replaces the seeding functions of its game with raising stubs); we delete those
stubs from the instance and call the base class's ``NLE.seed``. ``reseed=False``
turns off NetHack's anti-automation re-seeding, and fixing the moon phase takes
the wall-clock date (which changes Luck on full and new moons) out of the game.
The same S then gives the same character, inventory and dungeon on every machine.

One more clock is pinned after each reset: NetHack's ``ubirthday`` (the game's start
time), from which ``nameshk`` picks shopkeepers' names, drawing from the game's RNG
only for some start times. Left alone, a game whose hero reached a shop level went
another way from one run to the next, with the same seed and the same keys (seen on
Archeologists digging through shops). It is set to ``BIRTHDAY_BASE + S`` days; the
first level, made during reset, never holds a shop (NetHack makes none above Dlvl 2).
(``fix_moon_phase`` already derives night and midnight from the seed.)
"""

from __future__ import annotations

import _ctypes  # dlclose, which ctypes does not export
import ctypes
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

import gymnasium as gym
import numpy as np
from nle import nethack
from nle.env.base import NLE

from .task import TaskOutcome, TaskTracker

CHALLENGE_ENV = "NetHackChallenge-v0"

# Spec §3.2, plus NLE's prompt flags ('misc').
OBSERVATION_KEYS = (
    "glyphs",
    "chars",
    "colors",
    "specials",
    "blstats",
    "message",
    "inv_glyphs",
    "inv_strs",
    "inv_letters",
    "inv_oclasses",
    "tty_chars",
    "tty_colors",
    "tty_cursor",
    "screen_descriptions",
    "misc",
)

ROLES = {
    "archeologist": "arc",
    "barbarian": "bar",
    "caveman": "cav",
    "cavewoman": "cav",
    "healer": "hea",
    "knight": "kni",
    "monk": "mon",
    "priest": "pri",
    "priestess": "pri",
    "rogue": "rog",
    "ranger": "ran",
    "samurai": "sam",
    "tourist": "tou",
    "valkyrie": "val",
    "wizard": "wiz",
}
RACES = {"human": "hum", "elf": "elf", "dwarf": "dwa", "gnome": "gno", "orc": "orc"}
GENDERS = {"male": "mal", "female": "fem"}
ALIGNMENTS = {"lawful": "law", "neutral": "neu", "chaotic": "cha"}


class EnvConfigError(ValueError):
    """A game option that cannot work (unknown role, unknown environment …)."""


def _pick(kind: str, value: Optional[str], table: dict[str, str]) -> str:
    if value is None or value in ("", "random", "@", "*"):
        return "@"
    v = value.strip().lower()
    if v in table:
        return table[v]
    if v in table.values():
        return v
    matches = sorted({full for full, short in table.items() if full.startswith(v)})
    if len(matches) == 1:
        return table[matches[0]]
    raise EnvConfigError(f"unknown {kind} {value!r}; choose one of: {', '.join(sorted(table))} (or random)")


@dataclass
class GameConfig:
    """Everything that decides which game is played."""

    env_id: str = CHALLENGE_ENV
    seed: Optional[int] = None
    role: Optional[str] = None
    race: Optional[str] = None
    gender: Optional[str] = None
    alignment: Optional[str] = None
    ttyrec_dir: Optional[str] = None  # record the game as a ttyrec into this directory
    des_file: Optional[str] = None  # MiniHack only: a des-file (path or text) for *-Custom-v0 envs
    max_episode_steps: int = 1_000_000
    extra: dict = field(default_factory=dict)  # passed to gym.make as is
    # MiniHack's task decides the end, reward and success (env/task.py); None: for a MiniHack
    # environment without a des_file (custom levels carry their own checks)
    minihack_task: Optional[bool] = None

    @property
    def is_minihack(self) -> bool:
        return self.env_id.startswith("MiniHack")

    @property
    def tracks_task(self) -> bool:
        """Whether the game ends, and is scored, as the MiniHack task defines."""
        if self.minihack_task is not None:
            return self.minihack_task and self.is_minihack
        return self.is_minihack and self.des_file is None

    def _parts(self) -> list[tuple[str, str]]:
        return [
            ("role", _pick("role", self.role, ROLES)),
            ("race", _pick("race", self.race, RACES)),
            ("gender", _pick("gender", self.gender, GENDERS)),
            ("align", _pick("alignment", self.alignment, ALIGNMENTS)),
        ]

    def character(self) -> str:
        """NLE's character string: '@' (all random) or the chosen parts, e.g. 'val' or
        'wiz-elf-fem-cha'. NetHack reads them as suffixes of the player's name."""
        chosen = [v for _, v in self._parts() if v != "@"]
        return "-".join(chosen) if chosen else "@"

    def nethack_options(self) -> Optional[tuple[str, ...]]:
        """NLE's default options plus 'random' for every part not chosen (else
        NetHack would ask for it); None when everything is random (NLE's own way)."""
        parts = self._parts()
        if all(v == "@" for _, v in parts):
            return None
        return tuple(nethack.NETHACKOPTIONS) + tuple(f"{k}:random" for k, v in parts if v == "@")


def _enable_seeding(env: NLE) -> None:
    """Undo NetHackChallenge's refusal to be seeded (see module docstring)."""
    for name in ("set_initial_seeds", "set_current_seeds", "get_current_seeds"):
        if name in vars(env.nethack):
            delattr(env.nethack, name)


def make_env(config: GameConfig) -> NLE:
    """Build (but do not reset) the gymnasium environment for ``config``.

    Returns the unwrapped NLE environment: gymnasium's checker wrappers would
    only slow every step down.
    """
    kwargs: dict = dict(config.extra)
    kwargs.setdefault("fix_moon_phase", True)
    kwargs.setdefault("max_episode_steps", config.max_episode_steps)
    character = config.character()
    options = config.nethack_options()
    if config.ttyrec_dir:
        Path(config.ttyrec_dir).mkdir(parents=True, exist_ok=True)
        kwargs["savedir"] = str(Path(config.ttyrec_dir).resolve())
        kwargs["save_ttyrec_every"] = 1
    try:
        if config.is_minihack:
            import minihack  # noqa: F401  (registers the MiniHack environments)

            kwargs.setdefault("actions", nethack.ACTIONS)
            kwargs.setdefault("autopickup", False)  # the API picks up on purpose only
            # Keep every question and menu, as on the challenge env: the API answers them.
            kwargs.setdefault("allow_all_yn_questions", True)
            kwargs.setdefault("allow_all_modes", True)
            # MiniHack keeps its own list and does not hand it to NLE; 'misc' is
            # not available there, the prompt flags come from NLE's 'internal'.
            kwargs.setdefault("observation_keys", tuple(k for k in OBSERVATION_KEYS if k != "misc"))
            if character != "@":
                kwargs.setdefault("character", character)
            # MiniHack's own option set, with the chosen character's random parts, and
            # the full game's pick-up limit (NetHack asks before a pick-up that would
            # burden the hero), so scenario games ask what real games ask.
            from minihack.base import MH_NETHACKOPTIONS

            extra_opts = tuple(o for o in options if o.endswith(":random")) if options is not None else ()
            pet = () if kwargs.get("pet") else ("pettype:none",)  # MiniHack's own default: no pet
            kwargs.setdefault("options", tuple(MH_NETHACKOPTIONS) + ("!autopickup", "pickup_burden:unencumbered")
                              + pet + extra_opts)
            if config.des_file is not None:
                kwargs["des_file"] = config.des_file
            env = gym.make(config.env_id, disable_env_checker=True, **kwargs)
        else:
            kwargs.setdefault("observation_keys", OBSERVATION_KEYS)
            kwargs.setdefault("allow_all_yn_questions", True)
            kwargs.setdefault("allow_all_modes", True)
            if options is not None:
                kwargs.setdefault("options", options)
            env = gym.make(config.env_id, character=character, disable_env_checker=True, **kwargs)
    except gym.error.Error as e:
        raise EnvConfigError(f"cannot make environment {config.env_id!r}: {e}") from e
    _add_score_files(env.unwrapped)
    return env.unwrapped


def _add_score_files(env: NLE) -> None:
    """Give a recorded game the score files NetHack writes when it ends.

    When NLE records into a folder it tells NetHack to keep its score files there,
    named ``nle.<pid>.logfile``, ``….record`` and ``….xlogfile``, but creates only the
    xlogfile. NetHack's last act, after the tombstone, is to add the game to the
    other two; without them every recorded game ends on "Cannot open file
    …logfile. Is NetHack installed correctly?". Creating them empty (NLE does the
    same in its own game folder) lets NetHack write them and show its score list
    instead. This happens after the game is over, so play is unchanged.
    """
    pattern = getattr(env, "_ttyrec_pattern", None)
    if not getattr(env, "savedir", None) or not pattern:
        return
    # NLE's own rule: the first ttyrec's name without "0.ttyrec<v>.bz2".
    prefix = (pattern % 0).replace(f"0.ttyrec{nethack.TTYREC_VERSION}.bz2", "")
    if not os.path.isfile(prefix + "xlogfile"):
        return  # not the layout described above: leave NLE's folder alone
    for name in ("logfile", "record"):
        os.close(os.open(prefix + name, os.O_CREAT | os.O_WRONLY, 0o644))


def seed_env(env: NLE, seed: int) -> None:
    """Apply the seeding convention; takes effect at the next reset."""
    _enable_seeding(env)
    NLE.seed(env, core=seed, disp=seed, reseed=False)


# 2020-01-01 00:00 UTC: any fixed time works; a seed's own day varies the shop names.
BIRTHDAY_BASE = 1_577_836_800


def pin_birthday(env: NLE, seed: int) -> bool:
    """Set NetHack's ``ubirthday`` to ``BIRTHDAY_BASE + seed`` days in the running game
    (see the module docstring); call right after reset. False when the library of this
    NLE build has no such symbol (nothing is changed then)."""
    path = getattr(getattr(env, "nethack", None), "dlpath", None)
    if not path:
        return False
    # dlopen of the path NLE loaded returns NLE's own handle (one more reference),
    # so the write lands in the game's globals; the reference is dropped at once so
    # that NLE's next reset reloads the library as it always does.
    lib = ctypes.CDLL(path)
    try:
        ctypes.c_int64.in_dll(lib, "ubirthday").value = BIRTHDAY_BASE + 86_400 * int(seed)
        return True
    except ValueError:
        return False
    finally:
        _ctypes.dlclose(lib._handle)


@dataclass(frozen=True)
class Screen:
    """One 24×80 terminal screen of NetHack, copied out of an observation."""

    chars: np.ndarray  # (24, 80) uint8
    colors: np.ndarray  # (24, 80) int8, NetHack colour numbers
    cursor: np.ndarray  # (2,) row, column

    @classmethod
    def of(cls, obs: dict[str, np.ndarray]) -> "Screen":
        return cls(np.array(obs["tty_chars"]), np.array(obs["tty_colors"]), np.array(obs["tty_cursor"]))

    def lines(self) -> list[str]:
        """The screen as 24 text rows of 80 characters."""
        return [bytes(row).decode("latin-1").replace("\0", " ") for row in self.chars]


def _shows_text(chars: np.ndarray) -> bool:
    """Whether a screen holds anything but blanks and a lone --More--."""
    return bool(chars.tobytes().replace(b"--More--", b"").strip(b" \0"))


class Game:
    """One NetHack game: the environment, its raw key stepping and its recording.

    ``step_key`` sends one keystroke straight to NetHack (any ASCII code, not only
    the environment's action list) and returns the named observation arrays.
    NLE updates those arrays in place on the next step: copy what you keep.

    ``on_frame`` hooks are called as ``hook(game, key)`` after ``reset`` (key
    None) and after every ``step_key``, with ``game.obs`` already updated: the
    one place that sees every screen (see ``hackwright.replay.frames``).

    ``end_screen`` is how the game ended, as NetHack showed it: the last screen
    drawn after the hero's death (or quitting) and before NLE's final observation
    — the tombstone with the "Goodbye NAME the ROLE..." lines after a death.
    NLE's final observation itself shows only NetHack's score list.

    On a MiniHack task (``config.tracks_task``) ``task`` applies the task's own rules
    after every key: once they say the episode is over (solved, failed, out of steps)
    the game is ``done``, and ``task_outcome`` holds the reward and success.
    """

    def __init__(self, config: GameConfig):
        self.config = config
        self.env = make_env(config)
        self.keys = list(self.env._observation_keys)  # includes program_state, internal
        self._index = {k: i for i, k in enumerate(self.keys)}
        self.done = False
        self.steps = 0
        self.obs: dict[str, np.ndarray] = {}
        # the blstats of the last screen with a living hero: NLE zeroes them in the
        # final observation, and a death in the middle of a multi-key command (quaff,
        # then --More--) would otherwise lose what that command changed (+10 score for
        # a potion identified by drinking it)
        self.live_blstats: Optional[np.ndarray] = None
        self.end_screen: Optional[Screen] = None
        self.started_at = 0.0
        self.on_frame: list[Callable[["Game", Optional[int]], None]] = []
        self.task: Optional[TaskTracker] = TaskTracker(self.env, config.env_id) if config.tracks_task else None

    def reset(self) -> dict[str, np.ndarray]:
        if self.config.seed is not None:
            seed_env(self.env, int(self.config.seed))
        self.env.reset()
        if self.config.seed is not None:
            pin_birthday(self.env, int(self.config.seed))
        if self.task is not None:
            self.task.reset()
        self.done = False
        self.steps = 0
        self.live_blstats = None
        self.end_screen = None
        self.started_at = time.time()
        self._set_obs(self.env.last_observation)
        self._frame(None)
        return self.obs

    def _set_obs(self, raw) -> None:
        self.obs = {k: raw[i] for k, i in self._index.items()}
        bl = self.obs.get("blstats")
        if bl is not None and int(bl[nethack.NLE_BL_HPMAX]) > 0:
            if self.live_blstats is None:
                self.live_blstats = bl.copy()
            else:
                np.copyto(self.live_blstats, bl)
        state = self.obs.get("program_state")
        # program_state[0] is NetHack's game-over flag, set from "You die..." on
        if state is not None and state[0] and not self.done and _shows_text(self.obs["tty_chars"]):
            self.end_screen = Screen.of(self.obs)

    def step_key(self, key: int) -> dict[str, np.ndarray]:
        """Send one key (an ASCII code) to NetHack."""
        if self.done:
            raise GameOverError("the game is over; start a new one")
        if self.task is not None:
            self.task.before_key(self.env.last_observation)
        raw, done = self.env.nethack.step(int(key))
        self.env.last_observation = raw
        self.steps += 1
        self.done = bool(done)
        if self.task is not None and self.task.after_key(int(key), raw, self.done):
            self.done = True  # the task is over: MiniHack ends the episode here
        self._set_obs(raw)
        self._frame(key)
        return self.obs

    def final_screen(self) -> Screen:
        """The screen to show for this game now: once it is over, its ``end_screen``
        (when NetHack drew one), else the current observation's terminal."""
        if self.done and self.end_screen is not None:
            return self.end_screen
        return Screen.of(self.obs)

    def _frame(self, key: Optional[int]) -> None:
        for hook in list(self.on_frame):  # a hook may detach itself
            hook(self, None if key is None else int(key))

    @property
    def task_outcome(self) -> Optional[TaskOutcome]:
        """The MiniHack task's reward, success and end so far (None: no task is tracked)."""
        return self.task.outcome() if self.task is not None else None

    @property
    def ttyrec_path(self) -> Optional[str]:
        """The file this game is recorded into, if recording."""
        path = getattr(self.env.nethack, "_ttyrec", None)
        return os.path.abspath(path) if path else None

    def seeds(self) -> Optional[tuple]:
        try:
            return tuple(self.env.nethack.get_current_seeds())
        except Exception:  # the challenge env's stubs raise until seeding is enabled
            return None

    def close(self) -> None:
        self.env.close()


class GameOverError(RuntimeError):
    """The game has ended; nothing more can be sent to it."""
