"""The remaining commands of NetHackAPI: pray, pay, cast, engrave, throw, fire,
the event log and raw keystrokes.
"""

from __future__ import annotations

import re
from typing import Optional

from .. import integrity, knowledge
from ..keyboard import ESC, Exchange, Prompt, PromptKind, Rule
from ..models import ActionResult, GameEvent
from .core import ApiCore, PRAY, _FAILURES, _ENGRAVED, _ANGRY_GOD


def _thrown(ex: Exchange, before: tuple, after: tuple) -> bool:
    """A throw or shot happened: the turn moved, or (a fast hero's free move) the pack changed."""
    return after[0] != before[0] or after[3] != before[3]


class SpecialCommands(ApiCore):
    """Prayer, paying shopkeepers, spells, engraving, missiles, events and raw keys."""

    async def pray(self, force: bool = False) -> ActionResult:
        """Pray to your deity; refused while the prayer clock says it would anger your god.

        A prayer works when the prayer timeout (see get_prayer_timeout) is 0, or
        at most 100 with minor trouble (Hungry, Blind, Stunned, Confused,
        Hallucinating), or at most 200 with major trouble (Stats.hp_critical: HP
        at most 5 or at most 1/5 of max at XL 1-5, 1/6 at XL 6-13, 1/7 from XL
        14; Weak or Fainting, Stoned, Slimed, Strangled, Food poisoned, Ill,
        Lycanthropy); then your god fixes the worst trouble
        (HP restored, hunger reset, the illness cured). Praying sooner angers
        your god: Luck falls, and each further prayer brings worse punishment,
        up to death. So unless ``force`` is True, a prayer the clock says is too
        soon is refused before any key is sent: a failed result whose error
        gives the estimated timeout, what your trouble needs, and that
        force=True prays anyway. Use force=True only when the hero dies
        otherwise (the clock is cautious: the real timeout is often shorter).
        A prayer your god resents is a failed result too.
        """
        if not isinstance(force, bool):
            return self._fail(f"force must be True or False, not {force!r}")
        if self._game.done:
            return self._fail("the game is over; no more actions are possible")
        turn = self._stats_now().turn
        if not force:
            stats = self._stats_now()
            trouble = knowledge.prayer_trouble(stats.hp, stats.max_hp, stats.hunger, stats.xp_level,
                                               await self.get_status_effects())
            why = self._prayer.too_soon(turn, trouble)
            if why is not None:
                return self._fail(f"not praying: {why}; pray(force=True) prays anyway")
        res = self._act(PRAY, [Rule(r"Are you sure you want to pray", "y")], success=lambda ex, b, a: a[0] != b[0])
        text = " ".join(res.messages)
        angry = _ANGRY_GOD.search(text)
        self._prayer.record_prayer(turn, succeeded=res.success and not angry)
        if angry and res.success:
            res.success = False
            res.error = "the prayer was not answered kindly (prayed too soon or with bad luck)"
        return res

    async def pay(self) -> ActionResult:
        """Pay the shopkeeper everything you owe: unpaid items you carry, and what you used
        up or ate in the shop ("You bite that, you pay for it!"). A shopkeeper who is owed
        money stands inside the shop's door and will not let you out. Fails (with the
        reason) when nothing is owed or your gold is not enough."""
        gold = self._stats_now().gold
        rules = [
            Rule(r"Itemized billing", "n"),  # no: pay for it all without a question per item
            Rule(r"Pay whom", chr(ESC), error="several shopkeepers are near: stand next to one"),
            Rule(r"Pay\?", "y"),
        ]
        res = self._act("p", rules, success=lambda ex, b, a: self._stats_now().gold < gold)
        if not res.success and res.error and re.search(r"do not owe|don't owe", res.error):
            res.error = "you owe nothing here"
        return res

    async def cast_spell(self, spell_letter: str, direction: Optional[str] = None) -> ActionResult:
        """Cast the memorized spell with letter ``spell_letter`` ('a' is the first, as
        NetHack's spell menu lists them), paying its Pw.
        direction: for a spell that asks one (force bolt, sleep …) a compass
        direction, 'up', 'down' or 'self'; a spell that does not ask ignores it.
        Without one, a spell that asks is cast into nothing (the Pw is spent: "The
        magical energy is released!") and the result fails with "this spell needs a
        direction; pass direction=". Success means a turn passed or your status
        changed; a miscast ("You fail to cast the spell correctly.") counts too, so
        read the messages. Fails for an unknown letter (the error lists the spells
        you know), with NetHack's words when you know none or lack the energy, and,
        sending nothing, for an invalid direction. get_spells() lists the spells
        known, with the chance each fails."""
        key = None
        if direction is not None:
            key = self._direction_key(direction, allow_vertical=True)
            if key is None:
                return self._fail(self._bad_direction(direction, True))
        known: list[str] = []

        def pick(p: Prompt) -> list[str]:
            known.extend(f"{e.letter} ({e.text.split('  ')[0]})" for e in p.entries)
            return [e.letter for e in p.entries if e.letter == spell_letter][:1]

        rules = [
            Rule(r"Choose which spell", pick, kinds=(PromptKind.MENU,), limit=1),
            Rule(r"In what direction", key if key else None, limit=1,
                 error=None if key else "this spell needs a direction; pass direction="),
        ]
        res = self._act("Z", rules, success=lambda ex, b, a: a[0] != b[0] or a[2] != b[2])
        if not res.success and known and not any(k.startswith(spell_letter + " ") for k in known):
            res.error = f"no spell with letter {spell_letter!r}; you know: {', '.join(known)}"
        return res

    async def engrave(self, text: str = "Elbereth", item_letter: str = "-") -> ActionResult:
        """Engrave ``text`` (1-80 printable ASCII characters) on the floor of your
        square. item_letter: '-' (default) writes in the dust with your fingers; the
        letter of a wand, weapon or other item in your pack engraves with it (a wand
        uses a charge and may burn, dig or do nothing). An engraving already here is
        replaced where NetHack allows (its "add to the current engraving?" is
        answered no). "Elbereth" scares most monsters while you stand on it (not @
        humans, minotaurs or shopkeepers: see Monster.ignores_elbereth; it smudges
        when you fight). Success means NetHack engraved it. Refuses (nothing sent)
        other text and a letter not in your pack (the error lists your items); fails
        with NetHack's words when you cannot engrave (levitating: "You can't reach
        the floor!")."""
        if not isinstance(text, str) or not text or len(text) > 80 or any(ord(c) < 32 or ord(c) > 126 for c in text):
            return self._fail("text must be 1-80 printable ASCII characters")
        if item_letter != "-":
            err = await self._item_letter_error(item_letter)
            if err:
                return self._fail(err)
        return self._act(
            "E",
            [Rule(r"What do you want to (write|engrave|burn|scribble) with", item_letter, limit=1),
             Rule(r"Do you want to add to the current engraving", "n"),
             Rule(r"You will overwrite it|wipe out the message", "y"),
             Rule(r"What do you want to (write|engrave|burn|scribble|melt)", text, kinds=(PromptKind.TEXT,), limit=1)],
            # A fast hero may engrave without the turn counter moving: NetHack's own words tell.
            success=lambda ex, b, a: (a[0] != b[0] or any(_ENGRAVED.search(m) for m in ex.messages))
            and not any(_FAILURES.search(m) for m in ex.messages),
        )

    async def throw(self, item_letter: str, direction: str) -> ActionResult:
        """Throw the item with inventory letter ``item_letter`` (daggers, darts, rocks
        …) in ``direction``, a compass direction. One of a stack flies (sometimes
        several: NetHack's multishot) until it hits a monster or something solid,
        and lands there: pick it up again later. Questions such as throwing your
        wielded weapon are answered yes. Success means a turn passed or your pack
        changed; the messages say what was hit. Fails, sending nothing, for a letter
        not in your pack (the error lists your weapons, gems and rocks) or an
        invalid direction; fails with NetHack's words for an item you cannot throw
        (worn, or welded to you)."""
        err = await self._item_letter_error(item_letter, ("weapon", "gem", "rock"), "throwable")
        if err:
            return self._fail(err)
        key = self._direction_key(direction)
        if key is None:
            return self._fail(self._bad_direction(direction))
        return self._act(
            "t",
            [Rule(r"What do you want to throw", item_letter, limit=1), Rule(r"In what direction", key, limit=1),
             Rule(r"You are wielding|Are you sure", "y")],
            success=_thrown,
        )

    async def fire(self, direction: str) -> ActionResult:
        """Fire what is in your quiver (arrows with a wielded bow, daggers …) in
        ``direction``, a compass direction: as throw() of the quivered item (arrows
        without their launcher fly weakly). Success means a turn passed or your pack
        changed. Fails, sending nothing, when the quiver is empty
        (get_equipment()["quiver"] is None: throw() instead, or fill it with
        send_keys("Q" + letter), which may leave a question open in ``.prompt``) or
        for an invalid direction."""
        key = self._direction_key(direction)
        if key is None:
            return self._fail(self._bad_direction(direction))
        eq = await self.get_equipment()
        if eq["quiver"] is None:
            return self._fail("nothing is in your quiver; use throw(item_letter, direction) or quiver something")
        return self._act(
            "f",
            [Rule(r"In what direction", key, limit=1), Rule(r"What do you want to fire", None)],
            success=_thrown,
        )

    async def get_events(self, clear: bool = True) -> list[GameEvent]:
        """Events noticed after your recent actions (hostile monster appeared,
        HP low, hunger worse, level change, new items, engulfed, watched
        message), oldest first. With ``clear`` they are removed once read."""
        events = list(self.events)
        if clear:
            self.events.clear()
        return events

    async def send_keys(self, keys: str, new_command: bool = False) -> ActionResult:
        """
        Send raw keystrokes to the game.
        Use for complex menu navigation. ``<esc>``, ``<enter>`` and ``<space>``
        may be written as words. --More-- is still dismissed for you; a
        question, menu or text prompt your keys leave open is reported in
        ``ActionResult.prompt``: your next send_keys answers it, any other
        action closes it (Escape), as ``new_command=True`` does first.
        Commands that save, quit or change the game's mode or options are
        refused, however they are typed (``S``, ``O``, ``M-q``, ``#quit``, ``#q``,
        ``#exploremode``, wizard-mode commands): the result is a failure whose
        ``error`` names the command, and the refused key and those after it are
        not sent (when the refusal can be seen before sending, nothing is sent).
        Keys answering an open question, menu or text prompt are never refused.
        """
        if not isinstance(keys, str) or not keys:
            return self._fail("keys must be a non-empty string")
        keys = re.sub(r"<esc>", chr(ESC), keys, flags=re.I)
        keys = re.sub(r"<enter>|<cr>", "\r", keys, flags=re.I)
        keys = re.sub(r"<space>", " ", keys, flags=re.I)
        if any(ord(c) > 255 for c in keys):
            return self._fail("keys must be ASCII (or <esc>, <enter>, <space>)")
        if self._game.done:
            return self._fail("the game is over; no more actions are possible")
        ex = Exchange()
        if new_command:
            self._ensure_ready(ex)  # (before the check: the keys then go to the command prompt)
        entry, typed, _ = self._kb.key_entry()
        seen = integrity.first_refusal(keys, entry, typed)
        if seen is not None:
            if ex.steps:  # a prompt was closed: the game moved on that far
                self._refresh()
                self._note_messages(ex.messages)
            p = self._kb.prompt()
            return ActionResult(False, ex.messages, False, False, seen.error,
                                prompt=(p.text or p.kind.value) if p.kind is not PromptKind.NONE else None)
        before = self._snapshot()
        refused: Optional[integrity.Refusal] = None
        for ch in keys:
            if self._game.done:
                break
            try:
                self._kb.press(ch)
            except integrity.CommandRefused as e:
                refused = e.refusal
                break
            ex.steps += 1
        self._kb.settle(ex, keep_open=True)
        self.actions_taken += 1
        self._refresh()
        self._note_messages(ex.messages)
        self._after_action()
        after = self._snapshot() if not self._game.done else before
        prompt = ex.open_prompt
        return ActionResult(
            refused is None,
            ex.messages + ([prompt.text] if prompt else []),
            after[0] != before[0],
            after != before,
            refused.error if refused else None,
            prompt=(prompt.text or prompt.kind.value) if prompt else None,
            game_over=self._game.done,
        )
